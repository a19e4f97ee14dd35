/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * test_keccak_a64: the aarch64 Keccak-f[1600] assembly (asm/aarch64/
 * keccak_neon.S, keccak_sha3.S) against the portable permutation
 * quill_keccak_f1600_c, which test_sha3 checks against known answers and
 * OpenSSL.  For each backend the CPU has (its _capable() predicate):
 *  1. the single-state quill_keccak_f1600_neon_sha3 and the four-way
 *     quill_keccak_f1600_x4_neon / _x4_neon_sha3 (two two-way calls), and
 *     the two-way routines on states 2 and 3 alone: random states, the
 *     all-zero and the all-ones state, and a chain of 2000 permutations each
 *     fed the previous output (one wrong lane or round constant anywhere
 *     would spread to every later state);
 *     The three-state quill_keccak_f1600_x3_hybrid (keccak_hybrid.S) on
 *     states 0..2 likewise (chains with state 3 by the portable code), and
 *     that it leaves state 3 as it was;
 *  2. the dispatchers quill_keccak_f1600 and quill_keccak_f1600_x4_some
 *     (for every state count n = 1..4) likewise, and quill_keccak_backend_name against the CPU bits and, when
 *     CTest names it (QUILL_TEST_KECCAK_BACKEND, test/sha3_a64.cmake), the
 *     backend that copy must run: "neon-sha3" under qemu's default CPU,
 *     "neon" under QEMU_CPU=cortex-a72 (no SHA-3), "portable" when
 *     QUILL_CPU_MASK clears everything;
 *  3. the ABI: each routine called through quill_abi_a64_call
 *     (test/common/abi_check_aarch64.S) keeps x19-x29, d8-d15 and sp, and
 *     still computes the right permutation.
 * Seeded.  Skipped (77) off an aarch64 ELF build with the assembly. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "abi_check_aarch64.h"
#include "common/backend_names.h"
#include "common/cpu.h"
#include "sha3/keccak.h"
#include "sha3/sha3_x4.h"
#include "test_util.h"

#if QUILL_KECCAK_HAVE_A64 && QUILL_HAVE_ABI_A64

enum fill { FILL_RANDOM, FILL_ZERO, FILL_ONES };

static void fill(uint64_t *s, size_t n, enum fill f) {
    if (f == FILL_RANDOM)
        qt_rng_bytes(s, n * sizeof(*s));
    else
        memset(s, f == FILL_ZERO ? 0 : 0xff, n * sizeof(*s));
}

/* single_mismatches: perm against quill_keccak_f1600_c on count states of
 * the given fill, then on a chain of `chain` permutations from a random
 * state; returns the number of differing outputs. */
static unsigned single_mismatches(void (*perm)(uint64_t s[25]), unsigned count,
                                  unsigned chain) {
    unsigned bad = 0;
    static const enum fill fills[3] = {FILL_ZERO, FILL_ONES, FILL_RANDOM};
    for (unsigned f = 0; f < 3; f++) {
        for (unsigned n = 0; n < (fills[f] == FILL_RANDOM ? count : 1); n++) {
            uint64_t a[25], b[25];
            fill(a, 25, fills[f]);
            memcpy(b, a, sizeof(a));
            quill_keccak_f1600_c(a);
            perm(b);
            bad += memcmp(a, b, sizeof(a)) != 0;
        }
    }
    uint64_t a[25], b[25];
    fill(a, 25, FILL_RANDOM);
    memcpy(b, a, sizeof(a));
    for (unsigned n = 0; n < chain; n++) {
        quill_keccak_f1600_c(a);
        perm(b);
    }
    bad += memcmp(a, b, sizeof(a)) != 0;
    return bad;
}

/* x4_mismatches: perm on four interleaved states (sha3_x4.h) against four
 * quill_keccak_f1600_c calls, on the fills as above, then on a chain; only
 * the first `used` states are compared, and with used == 2 states 2 and 3
 * must come out either untouched or permuted (quill_keccak_f1600_x4_some
 * permutes at least the first n).  Returns the number of differing states. */
typedef void (*x4_fn)(uint64_t s[100], unsigned n);

static unsigned x4_compare(const uint64_t x4[100], uint64_t one[4][25], const uint64_t orig[4][25],
                           unsigned used) {
    unsigned bad = 0;
    for (unsigned j = 0; j < 4; j++) {
        int same = 1, untouched = 1;
        for (unsigned i = 0; i < 25; i++) {
            same &= one[j][i] == x4[4 * i + j];
            untouched &= orig[j][i] == x4[4 * i + j];
        }
        bad += !(same || (j >= used && untouched));
    }
    return bad;
}

static unsigned x4_mismatches(x4_fn perm, unsigned used, unsigned count, unsigned chain) {
    unsigned bad = 0;
    static const enum fill fills[3] = {FILL_ZERO, FILL_ONES, FILL_RANDOM};
    _Alignas(32) uint64_t x4[100];
    uint64_t one[4][25], orig[4][25];
    for (unsigned f = 0; f < 3; f++) {
        for (unsigned n = 0; n < (fills[f] == FILL_RANDOM ? count : 1); n++) {
            fill(x4, 100, fills[f]);
            for (unsigned j = 0; j < 4; j++)
                for (unsigned i = 0; i < 25; i++)
                    orig[j][i] = one[j][i] = x4[4 * i + j];
            perm(x4, used);
            for (unsigned j = 0; j < 4; j++)
                quill_keccak_f1600_c(one[j]);
            bad += x4_compare(x4, one, orig, used);
        }
    }
    /* The chain: four states permuted `chain` times together. */
    fill(x4, 100, FILL_RANDOM);
    for (unsigned j = 0; j < 4; j++)
        for (unsigned i = 0; i < 25; i++)
            one[j][i] = x4[4 * i + j];
    for (unsigned n = 0; n < chain; n++) {
        perm(x4, 4);
        for (unsigned j = 0; j < 4; j++)
            quill_keccak_f1600_c(one[j]);
    }
    bad += x4_compare(x4, one, one, 4);
    return bad;
}

/* The two-way routines as x4_fn: both pairs, or (n == 2) states 0 and 1
 * only; the _hi_first ones run the pair at s + 2 first, so that a routine
 * reading or writing past its two states would spoil the other pair. */
static void x4_neon(uint64_t s[100], unsigned n) {
    quill_keccak_f1600_x2_neon(s);
    if (n > 2)
        quill_keccak_f1600_x2_neon(s + 2);
}

static void x4_neon_sha3(uint64_t s[100], unsigned n) {
    quill_keccak_f1600_x2_neon_sha3(s);
    if (n > 2)
        quill_keccak_f1600_x2_neon_sha3(s + 2);
}

static void x4_neon_hi_first(uint64_t s[100], unsigned n) {
    (void)n;
    quill_keccak_f1600_x2_neon(s + 2);
    quill_keccak_f1600_x2_neon(s);
}

static void x4_neon_sha3_hi_first(uint64_t s[100], unsigned n) {
    (void)n;
    quill_keccak_f1600_x2_neon_sha3(s + 2);
    quill_keccak_f1600_x2_neon_sha3(s);
}

static void x4_full_neon(uint64_t s[100], unsigned n) {
    (void)n;
    quill_keccak_f1600_x4_neon(s);
}

static void x4_full_neon_sha3(uint64_t s[100], unsigned n) {
    (void)n;
    quill_keccak_f1600_x4_neon_sha3(s);
}

/* The three-state hybrid as x4_fn: states 0..2, and for n == 4 state 3
 * by the portable permutation (deinterleaved), so that chains compare all
 * four. */
static void x4_hybrid(uint64_t s[100], unsigned n) {
    quill_keccak_f1600_x3_hybrid(s);
    if (n > 3) {
        uint64_t t[25];
        for (unsigned i = 0; i < 25; i++)
            t[i] = s[4 * i + 3];
        quill_keccak_f1600_c(t);
        for (unsigned i = 0; i < 25; i++)
            s[4 * i + 3] = t[i];
    }
}

/* hybrid_state3_untouched: quill_keccak_f1600_x3_hybrid neither reads nor
 * writes state 3: with states 0..2 fixed and state 3 random or all-ones,
 * states 0..2 come out the same and state 3 as it went in. */
static unsigned hybrid_state3_untouched(unsigned count) {
    unsigned bad = 0;
    _Alignas(32) uint64_t a[100], b[100];
    for (unsigned n = 0; n < count; n++) {
        qt_rng_bytes(a, sizeof(a));
        memcpy(b, a, sizeof(a));
        for (unsigned i = 0; i < 25; i++)
            b[4 * i + 3] = n & 1 ? ~0ull : b[4 * i + 3] ^ 0x9e3779b97f4a7c15ull;
        uint64_t orig3[25];
        for (unsigned i = 0; i < 25; i++)
            orig3[i] = b[4 * i + 3];
        quill_keccak_f1600_x3_hybrid(a);
        quill_keccak_f1600_x3_hybrid(b);
        for (unsigned i = 0; i < 25; i++) {
            bad += a[4 * i] != b[4 * i] || a[4 * i + 1] != b[4 * i + 1] ||
                   a[4 * i + 2] != b[4 * i + 2];
            bad += b[4 * i + 3] != orig3[i];
        }
    }
    return bad;
}

static void x4_dispatch(uint64_t s[100], unsigned n) {
    quill_keccak_f1600_x4_some(s, n);
}

static const void *fnptr(void (*f)(uint64_t *)) {
    const void *p;
    memcpy(&p, &f, sizeof(p));
    return p;
}

/* abi_check: fn called on a random state (single: 25 lanes at s; two-way:
 * the pair at s of an interleaved array) through the ABI checker keeps the
 * callee-saved registers and computes the permutation. */
static void abi_check(const char *name, void (*fn)(uint64_t *), int two_way) {
    _Alignas(32) uint64_t x4[100], orig[100];
    uint64_t want[3][25];
    qt_rng_bytes(x4, sizeof(x4));
    memcpy(orig, x4, sizeof(x4));
    for (unsigned j = 0; j < 3; j++) {
        for (unsigned i = 0; i < 25; i++)
            want[j][i] = two_way ? x4[4 * i + j] : x4[i];
        quill_keccak_f1600_c(want[j]);
    }
    uint64_t args[8] = {0}, ret = 0;
    args[0] = (uint64_t)(uintptr_t)x4;
    uint32_t broken = quill_abi_a64_call(fnptr(fn), args, &ret);
    for (unsigned i = 0; i < 20; i++)
        if (broken & (1u << i))
            fprintf(stderr, "%s does not preserve %s\n", name, quill_abi_a64_reg_name(i));
    QT_CHECK(broken == 0);
    int ok = 1;
    for (unsigned i = 0; i < 25; i++) {
        if (two_way == 3)
            ok &= x4[4 * i] == want[0][i] && x4[4 * i + 1] == want[1][i] &&
                  x4[4 * i + 2] == want[2][i] && x4[4 * i + 3] == orig[4 * i + 3];
        else if (two_way)
            ok &= x4[4 * i] == want[0][i] && x4[4 * i + 1] == want[1][i];
        else
            ok &= x4[i] == want[0][i];
    }
    QT_CHECK(ok);
    printf("keccak_a64: %s keeps the AAPCS64 callee-saved registers\n", name);
}

static void check(const char *what, unsigned bad) {
    if (bad != 0)
        fprintf(stderr, "keccak_a64: %s: %u mismatches\n", what, bad);
    QT_CHECK(bad == 0);
}

int main(void) {
    qt_rng_seed(0x6b656363616b6136ull);
    const unsigned count = 2000, chain = 2000;
    int neon = quill_keccak_f1600_x2_neon_capable();
    int sha3 = quill_keccak_f1600_neon_sha3_capable();
    QT_CHECK(sha3 == quill_keccak_f1600_x2_neon_sha3_capable());
    QT_CHECK(!sha3 || neon);

    if (neon) {
        check("x2_neon", x4_mismatches(x4_neon, 4, count, chain));
        check("x2_neon on states 0, 1", x4_mismatches(x4_neon, 2, count / 4, 0));
        check("x2_neon on states 2, 3 first", x4_mismatches(x4_neon_hi_first, 4, count / 4, 0));
        check("x4_neon", x4_mismatches(x4_full_neon, 4, count / 4, 0));
        abi_check("quill_keccak_f1600_x2_neon", quill_keccak_f1600_x2_neon, 1);
        printf("keccak_a64: two-way NEON matched the portable permutation\n");
    } else {
        printf("keccak_a64: NEON not usable on this CPU (or masked)\n");
    }
    QT_CHECK(quill_keccak_f1600_x3_hybrid_capable() == neon);
    if (quill_keccak_f1600_x3_hybrid_capable()) {
        check("x3_hybrid", x4_mismatches(x4_hybrid, 3, count, 0));
        check("x3_hybrid chain (state 3 portable)", x4_mismatches(x4_hybrid, 4, 4, chain));
        check("x3_hybrid leaves state 3", hybrid_state3_untouched(count / 4));
        abi_check("quill_keccak_f1600_x3_hybrid", quill_keccak_f1600_x3_hybrid, 3);
        printf("keccak_a64: three-way NEON+scalar hybrid matched the portable permutation\n");
    }
    if (sha3) {
        check("neon_sha3", single_mismatches(quill_keccak_f1600_neon_sha3, count, chain));
        check("x2_neon_sha3", x4_mismatches(x4_neon_sha3, 4, count, chain));
        check("x2_neon_sha3 on states 0, 1", x4_mismatches(x4_neon_sha3, 2, count / 4, 0));
        check("x2_neon_sha3 on states 2, 3 first",
              x4_mismatches(x4_neon_sha3_hi_first, 4, count / 4, 0));
        check("x4_neon_sha3", x4_mismatches(x4_full_neon_sha3, 4, count / 4, 0));
        abi_check("quill_keccak_f1600_neon_sha3", quill_keccak_f1600_neon_sha3, 0);
        abi_check("quill_keccak_f1600_x2_neon_sha3", quill_keccak_f1600_x2_neon_sha3, 1);
        printf("keccak_a64: SHA-3 instruction backends matched the portable permutation\n");
    } else {
        printf("keccak_a64: SHA-3 instructions not usable on this CPU (or masked)\n");
    }

    /* The dispatchers, whichever backend they pick. */
    check("quill_keccak_f1600", single_mismatches(quill_keccak_f1600, count, chain));
    check("quill_keccak_f1600_x4_some", x4_mismatches(x4_dispatch, 4, count, chain));
    for (unsigned n = 1; n <= 4; n++) {
        char what[64];
        snprintf(what, sizeof(what), "quill_keccak_f1600_x4_some(%u)", n);
        check(what, x4_mismatches(x4_dispatch, n, count / 4, 0));
    }

    const char *name = quill_keccak_backend_name();
    const char *bits_say = sha3 ? "neon-sha3" : neon ? "neon" : "portable";
    printf("keccak_a64: backend %s\n", name);
    QT_CHECK(strcmp(name, bits_say) == 0);
    const char *expect = getenv("QUILL_TEST_KECCAK_BACKEND");
    if (expect != NULL && *expect != '\0') {
        if (strcmp(name, expect) != 0)
            fprintf(stderr, "keccak_a64: backend %s, this copy expects %s\n", name, expect);
        QT_CHECK(strcmp(name, expect) == 0);
    }
    return qt_finish("keccak_a64");
}

#else
int main(void) {
    puts("test_keccak_a64: not an aarch64 ELF build with the assembly: skipped");
    return 77;
}
#endif
