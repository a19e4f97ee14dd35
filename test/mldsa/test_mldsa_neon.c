/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * test_mldsa_neon: the NEON backend of ntt.h (asm/aarch64/mldsa_ntt_neon.S)
 * and of ntt16.h (asm/aarch64/mldsa_ntt16_neon.S: the 16-bit NTT, the
 * challenge preparation and mulc16 at every shift 0..16, also on the
 * outputs of the other two) and poly_unpack_z (asm/aarch64/
 * mldsa_unpack_z_neon.S, both gamma1 sizes, between guard pages) against
 * its portable twins bit for bit, and each kernel through the aarch64 ABI
 * checker (callee-saved x19-x29, d8-d15 and sp kept).  Inputs
 * at random across each kernel's input bounds (ntt.h), all zero, all one,
 * all -1 (every bit set), and every coefficient at either extreme of its
 * bound; the dot product for every n = 1..8; the pointwise product in place
 * too.  Skipped (77) where the NEON backend is not built (off aarch64) or
 * the CPU lacks it (QUILL_CPU_MASK). */
#define _DEFAULT_SOURCE 1 /* MAP_ANONYMOUS */
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "abi_check_aarch64.h"
#include "mldsa/ntt.h"
#include "mldsa/ntt16.h"
#include "mldsa/pack.h"
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

static uint64_t ptr(const void *p) {
    return (uint64_t)(uintptr_t)p;
}

/* Call fn through the ABI checker; a broken register fails the test. */
static void abi_call(const char *name, void (*fn)(void), uint64_t a0, uint64_t a1, uint64_t a2,
                     uint64_t a3) {
    uint64_t args[8] = {a0, a1, a2, a3, 0, 0, 0, 0}, ret;
    QT_CHECK(quill_abi_a64_check(name, fn, args, &ret));
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
        abi_call(name, (void (*)(void))neon, ptr(r2), 0, 0, 0);
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
                abi_call("pointwise_mont", (void (*)(void))quill_mldsa_pointwise_mont_neon,
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
                abi_call("dot_mont", (void (*)(void))quill_mldsa_dot_mont_neon, ptr(r2),
                         ptr(a), ptr(b), n);
            else
                quill_mldsa_dot_mont_neon(r2, a, b, n);
            if (memcmp(r1, r2, sizeof(r1)) != 0) {
                printf("mldsa_neon: dot_mont differs for n = %u (kind %u)\n", n, t % KINDS);
                QT_CHECK(0);
            }
        }
}

/* ---- The 16-bit challenge products (ntt16.h, mldsa_ntt16_neon.S) ---- */

/* int16 values of kind k within [-b, b] (fill()'s kinds). */
static void fill16(int16_t *p, size_t len, unsigned kind, int32_t b) {
    int32_t tmp[2 * N];
    fill(tmp, len, kind, b + 1, 0);
    for (size_t i = 0; i < len; i++)
        p[i] = (int16_t)tmp[i];
}

static void test_ntt16(void) {
    /* ntt16.h: |a_i| <= 2^13 */
    quill_mldsa_pair16 p1, p2;
    for (unsigned t = 0; t < ROUNDS; t++) {
        fill16(p1.c, 2 * N, t % KINDS, 1 << 13);
        p2 = p1;
        quill_mldsa_ntt16_c(&p1);
        if (t < KINDS)
            abi_call("ntt16", (void (*)(void))quill_mldsa_ntt16_neon, ptr(&p2), 0, 0, 0);
        else
            quill_mldsa_ntt16_neon(&p2);
        if (memcmp(&p1, &p2, sizeof(p1)) != 0) {
            printf("mldsa_neon: ntt16 differs (kind %u)\n", t % KINDS);
            QT_CHECK(0);
        }
    }
}

static void test_prepare16(void) {
    /* |c_i| <= 1 in signing; any |c_i| <= 2^13 (ntt16.h); 2^15 and random
     * int32 beyond it */
    static const int32_t bounds[] = {2, 1 << 13, 1 << 15};
    static quill_mldsa_chal16 m1, m2;
    int32_t c[N];
    for (unsigned bi = 0; bi < 3; bi++)
        for (unsigned t = 0; t < ROUNDS / 2; t++) {
            fill(c, N, t % KINDS, bounds[bi], 0);
            if (bi == 2 && t % KINDS == 0) /* beyond the bound: any int32 (both
                                              * take the low halves and wrap alike) */
                for (unsigned i = 0; i < N; i++)
                    c[i] = (int32_t)(uint32_t)qt_rng_u64();
            quill_mldsa_mulc16_prepare_c(&m1, c);
            memset(&m2, 0x5a, sizeof(m2));
            if (t < KINDS)
                abi_call("mulc16_prepare",
                         (void (*)(void))quill_mldsa_mulc16_prepare_neon, ptr(&m2), ptr(c),
                         0, 0);
            else
                quill_mldsa_mulc16_prepare_neon(&m2, c);
            if (memcmp(&m1, &m2, sizeof(m1)) != 0) {
                printf("mldsa_neon: mulc16_prepare differs (bound %u, kind %u)\n", bi, t % KINDS);
                QT_CHECK(0);
            }
        }
}

static void test_mulc16(void) {
    /* ntt16_body.h: |s_hat| <= 26884 (the forward output), |m| <= 4625
     * with mq = m p^-1 mod 2^16; every shift 0..16 */
    static quill_mldsa_chal16 m;
    static quill_mldsa_pair16 s;
    int32_t r1[N], r2[N];
    for (unsigned t = 0; t < ROUNDS; t++) {
        unsigned shift = t % 17;
        fill16(s.c, 2 * N, t % KINDS, 26884);
        fill16(m.m, 2 * N, (t / KINDS) % KINDS, 4625);
        for (unsigned i = 0; i < 2 * N; i++)
            m.mq[i] = (int16_t)(uint16_t)((uint32_t)(uint16_t)m.m[i] * 57857u);
        memset(r1, 0x33, sizeof(r1));
        memset(r2, 0x77, sizeof(r2));
        quill_mldsa_mulc16_c(r1, &m, &s, shift);
        if (t < 3 * KINDS * KINDS)
            abi_call("mulc16", (void (*)(void))quill_mldsa_mulc16_neon, ptr(r2), ptr(&m),
                     ptr(&s), shift);
        else
            quill_mldsa_mulc16_neon(r2, &m, &s, shift);
        if (memcmp(r1, r2, sizeof(r1)) != 0) {
            printf("mldsa_neon: mulc16 differs (shift %u, kinds %u %u)\n", shift, t % KINDS,
                   (t / KINDS) % KINDS);
            QT_CHECK(0);
        }
    }
    /* signing's path: prepare and transform, then the product */
    int32_t c[N], a[N], b[N];
    static quill_mldsa_chal16 m1, m2;
    static quill_mldsa_pair16 h1, h2;
    for (unsigned t = 0; t < ROUNDS / 4; t++) {
        fill(c, N, t % KINDS, 2, 0);
        fill(a, N, (t / KINDS) % KINDS, 5, 0);
        fill(b, N, (t / 3) % KINDS, 65, 0);
        quill_mldsa_mulc16_prepare_c(&m1, c);
        quill_mldsa_mulc16_prepare_neon(&m2, c);
        quill_mldsa_pair16_set(&h1, a, b);
        h2 = h1;
        quill_mldsa_ntt16_c(&h1);
        quill_mldsa_ntt16_neon(&h2);
        quill_mldsa_mulc16_c(r1, &m1, &h1, 6);
        quill_mldsa_mulc16_neon(r2, &m2, &h2, 6);
        QT_CHECK(memcmp(r1, r2, sizeof(r1)) == 0);
    }
}

/* ---- BitUnpack of z / ExpandMask (pack.h, mldsa_unpack_z_neon.S) ---- */

/* Both gamma1 sizes, with the encoding placed right before an
 * inaccessible page (a read past its end faults) and right after one (a
 * read before it faults): random bytes, all zero, all 0xff, and fields at
 * 0 / 2^bits - 1 alternately (bytes 0x00 and 0xff give those only for
 * whole groups, so patterns 0x55 / 0xaa too). */
static void test_unpack_z(void) {
    static const quill_mldsa_params *sets[2];
    sets[0] = quill_mldsa_params_get(QUILL_MLDSA_44);
    sets[1] = quill_mldsa_params_get(QUILL_MLDSA_65);
    long pg = sysconf(_SC_PAGESIZE);
    uint8_t *map = mmap(NULL, (size_t)(4 * pg), PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    QT_CHECK(map != MAP_FAILED);
    if (map == MAP_FAILED)
        return;
    QT_CHECK(mprotect(map, (size_t)pg, PROT_NONE) == 0);
    QT_CHECK(mprotect(map + 2 * pg, (size_t)pg, PROT_NONE) == 0);
    for (unsigned si = 0; si < 2; si++) {
        const quill_mldsa_params *p = sets[si];
        QT_CHECK(p != NULL);
        if (p == NULL)
            continue;
        size_t len = 32 * (p->gamma1_bits + 1);
        uint8_t *at_end = map + 2 * pg - len, *at_start = map + pg;
        for (unsigned t = 0; t < ROUNDS; t++) {
            uint8_t *in = (t & 1) ? at_start : at_end;
            unsigned kind = (t / 2) % 5;
            if (kind == 0)
                for (size_t i = 0; i < len; i++)
                    in[i] = (uint8_t)qt_rng_u64();
            else
                memset(in, kind == 1 ? 0 : kind == 2 ? 0xff : kind == 3 ? 0x55 : 0xaa, len);
            quill_mldsa_poly z1;
            int32_t z2[N];
            memset(z2, 0x3c, sizeof(z2));
            quill_mldsa_poly_unpack_z_c(&z1, in, p);
            if (t < 10)
                abi_call("poly_unpack_z", (void (*)(void))quill_mldsa_poly_unpack_z_neon,
                         ptr(z2), ptr(in), p->gamma1_bits, (uint64_t)(uint32_t)p->gamma1);
            else
                quill_mldsa_poly_unpack_z_neon(z2, in, p->gamma1_bits, p->gamma1);
            if (memcmp(z1.c, z2, sizeof(z2)) != 0) {
                printf("mldsa_neon: poly_unpack_z differs (gamma1 2^%u, kind %u)\n",
                       p->gamma1_bits, kind);
                QT_CHECK(0);
            }
        }
    }
    munmap(map, (size_t)(4 * pg));
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
    test_ntt16();
    test_prepare16();
    test_mulc16();
    test_unpack_z();
    return qt_finish("mldsa_neon");
}

#else
int main(void) {
    printf("mldsa_neon: the NEON backend is not built here, skipped\n");
    return 77;
}
#endif
