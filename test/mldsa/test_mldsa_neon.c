/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * test_mldsa_neon: the NEON backend of ntt.h (asm/aarch64/mldsa_ntt_neon.S)
 * against its portable twins bit for bit, and each kernel through the
 * aarch64 ABI checker (callee-saved x19-x29, d8-d15 and sp kept).  Inputs
 * at random across each kernel's input bounds (ntt.h), all zero, all one,
 * all -1 (every bit set), and every coefficient at either extreme of its
 * bound; the dot product for every n = 1..8; the pointwise product in place
 * too.  Skipped (77) where the NEON backend is not built (off aarch64) or
 * the CPU lacks it (QUILL_CPU_MASK). */
#include <stdio.h>
#include <string.h>

#include "abi_check_aarch64.h"
#include "mldsa/ntt.h"
#include "mldsa/params.h"
#include "test_util.h"

#if QUILL_MLDSA_HAVE_NEON && QUILL_HAVE_ABI_A64

#define N QUILL_MLDSA_N
#define Q QUILL_MLDSA_Q
#define ROUNDS 2000

/* A value in [-(b - 1), b - 1]. */
static int32_t rnd_centred(int32_t b) {
    return (int32_t)(qt_rng_u64() % (uint64_t)(2 * (int64_t)b - 1)) - (b - 1);
}

/* Fill kind k of an input with bound b (|x| < b; lo = 0 for [0, b)):
 *   0 random, 1 zero, 2 all one, 3 all -1 (if allowed), 4 all b - 1,
 *   5 all -(b - 1) (or 0), 6 each at random one of the extremes. */
#define KINDS 7
static void fill(int32_t *p, size_t len, unsigned kind, int32_t b, int nonneg) {
    for (size_t i = 0; i < len; i++) {
        int32_t lo = nonneg ? 0 : -(b - 1), hi = b - 1, v;
        switch (kind) {
        case 0:
            v = nonneg ? (int32_t)(qt_rng_u64() % (uint64_t)b) : rnd_centred(b);
            break;
        case 1:
            v = 0;
            break;
        case 2:
            v = 1;
            break;
        case 3:
            v = nonneg ? 0 : -1;
            break;
        case 4:
            v = hi;
            break;
        case 5:
            v = lo;
            break;
        default:
            v = (qt_rng_u64() & 1) ? hi : lo;
            break;
        }
        p[i] = v;
    }
}

static const void *fnp(void (*f)(void)) {
    const void *p;
    memcpy(&p, &f, sizeof(p));
    return p;
}

static uint64_t ptr(const void *p) {
    return (uint64_t)(uintptr_t)p;
}

/* Call fn through the ABI checker; a broken register fails the test. */
static void abi_call(const char *name, const void *fn, uint64_t a0, uint64_t a1, uint64_t a2,
                     uint64_t a3) {
    uint64_t args[8] = {a0, a1, a2, a3, 0, 0, 0, 0}, ret;
    uint32_t bad = quill_abi_a64_call(fn, args, &ret);
    for (unsigned i = 0; i < 20; i++)
        if (bad & (1u << i))
            printf("mldsa_neon: %s does not preserve %s\n", name, quill_abi_a64_reg_name(i));
    QT_CHECK(bad == 0);
}

typedef void (*inplace_fn)(int32_t a[N]);

/* One transform: NEON (direct and through the ABI checker) vs portable. */
static void check_inplace(const char *name, inplace_fn neon, inplace_fn port, const int32_t in[N],
                          int abi) {
    int32_t r1[N], r2[N];
    memcpy(r1, in, sizeof(r1));
    memcpy(r2, in, sizeof(r2));
    port(r1);
    if (abi)
        abi_call(name, fnp((void (*)(void))neon), ptr(r2), 0, 0, 0);
    else
        neon(r2);
    if (memcmp(r1, r2, sizeof(r1)) != 0) {
        printf("mldsa_neon: %s differs from the portable twin\n", name);
        QT_CHECK(0);
    }
}

static void test_ntt(void) {
    /* ntt.h: |a_i| < B with B + 8q < 2^31; callers use B <= 2^23 */
    static const int32_t bounds[] = {Q, 1 << 23, (int32_t)(2147483647 - 8 * (int64_t)Q)};
    int32_t a[N];
    for (unsigned bi = 0; bi < 3; bi++)
        for (unsigned t = 0; t < ROUNDS; t++) {
            fill(a, N, t % KINDS, bounds[bi], 0);
            check_inplace("ntt", quill_mldsa_ntt_neon, quill_mldsa_ntt_c, a, t < KINDS);
        }
}

static void test_invntt(void) {
    int32_t a[N];
    for (unsigned t = 0; t < ROUNDS; t++) {
        fill(a, N, t % KINDS, Q, 0);
        check_inplace("invntt_tomont", quill_mldsa_invntt_tomont_neon,
                      quill_mldsa_invntt_tomont_c, a, t < KINDS);
        check_inplace("invntt_tomont_freeze", quill_mldsa_invntt_tomont_freeze_neon,
                      quill_mldsa_invntt_tomont_freeze_c, a, t < KINDS);
    }
}

static void test_pointwise(void) {
    /* |a_i b_i| < 2^31 q: a up to 9q (an NTT output) or up to 2^31 - 1,
     * b in (-q, q) */
    static const int32_t abound[] = {Q, 9 * Q, 2147483647};
    int32_t a[N], b[N], r1[N], r2[N];
    for (unsigned bi = 0; bi < 3; bi++)
        for (unsigned t = 0; t < ROUNDS; t++) {
            fill(a, N, t % KINDS, abound[bi], 0);
            fill(b, N, (t / KINDS) % KINDS, Q, 0);
            quill_mldsa_pointwise_mont_c(r1, a, b);
            if (t < KINDS * KINDS)
                abi_call("pointwise_mont", fnp((void (*)(void))quill_mldsa_pointwise_mont_neon),
                         ptr(r2), ptr(a), ptr(b), 0);
            else
                quill_mldsa_pointwise_mont_neon(r2, a, b);
            QT_CHECK(memcmp(r1, r2, sizeof(r1)) == 0);
            /* in place: c = a, then c = b */
            memcpy(r2, a, sizeof(r2));
            quill_mldsa_pointwise_mont_neon(r2, r2, b);
            QT_CHECK(memcmp(r1, r2, sizeof(r1)) == 0);
            memcpy(r2, b, sizeof(r2));
            quill_mldsa_pointwise_mont_neon(r2, a, r2);
            QT_CHECK(memcmp(r1, r2, sizeof(r1)) == 0);
        }
}

static void test_dot(void) {
    /* 1 <= n <= 8, 0 <= a < q, |b| < 9q */
    static int32_t a[8 * N], b[8 * N];
    int32_t r1[N], r2[N];
    for (unsigned n = 1; n <= 8; n++)
        for (unsigned t = 0; t < ROUNDS / 4; t++) {
            fill(a, n * N, t % KINDS, Q, 1);
            fill(b, n * N, (t / KINDS) % KINDS, 9 * Q, 0);
            quill_mldsa_dot_mont_c(r1, a, b, n);
            if (t < KINDS * KINDS)
                abi_call("dot_mont", fnp((void (*)(void))quill_mldsa_dot_mont_neon), ptr(r2),
                         ptr(a), ptr(b), n);
            else
                quill_mldsa_dot_mont_neon(r2, a, b, n);
            if (memcmp(r1, r2, sizeof(r1)) != 0) {
                printf("mldsa_neon: dot_mont differs for n = %u (kind %u)\n", n, t % KINDS);
                QT_CHECK(0);
            }
        }
}

int main(void) {
    if (!quill_mldsa_neon_capable()) {
        printf("mldsa_neon: no NEON (masked), skipped\n");
        return 77;
    }
    qt_rng_seed(0x6d6c64736e656f6eull);
    test_ntt();
    test_invntt();
    test_pointwise();
    test_dot();
    return qt_finish("mldsa_neon");
}

#else
int main(void) {
    printf("mldsa_neon: the NEON backend is not built here, skipped\n");
    return 77;
}
#endif
