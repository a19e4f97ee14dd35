/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * test_keccak_a64: the aarch64 Keccak-f[1600] assembly (asm/aarch64/
 * keccak_neon.S, keccak_sha3.S) against the portable permutation
 * quill_keccak_f1600_c, which test_sha3 checks against known answers and
 * OpenSSL, through kt_single_mismatches / kt_x4_mismatches
 * (keccak_test_common.h, shared with test_sha3 and test_sha3_x4).  For
 * each backend the CPU has (its _capable() predicate):
 *  1. the single-state quill_keccak_f1600_neon_sha3, the two-way
 *     quill_keccak_f1600_x2_neon / _x2_neon_sha3 on all four states (two
 *     calls), on states 0 and 1 alone and on states 2 and 3 first: random states, the
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
#include "keccak_test_common.h"
#include "sha3/keccak.h"
#include "sha3/sha3_x4.h"
#include "test_util.h"

#if QUILL_KECCAK_HAVE_A64 && QUILL_HAVE_ABI_A64

/* The two-way routines as kt_x4_fn: both pairs, or (n == 2) states 0 and 1
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

/* The three-state hybrid as kt_x4_fn: states 0..2, and for n == 4 state 3
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
    QT_CHECK(quill_abi_a64_check(name, (void (*)(void))fn, args, &ret));
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
        check("x2_neon", kt_x4_mismatches(x4_neon, 4, count, chain));
        check("x2_neon on states 0, 1", kt_x4_mismatches(x4_neon, 2, count / 4, 0));
        check("x2_neon on states 2, 3 first", kt_x4_mismatches(x4_neon_hi_first, 4, count / 4, 0));
        abi_check("quill_keccak_f1600_x2_neon", quill_keccak_f1600_x2_neon, 1);
        printf("keccak_a64: two-way NEON matched the portable permutation\n");
    } else {
        printf("keccak_a64: NEON not usable on this CPU (or masked)\n");
    }
    QT_CHECK(quill_keccak_f1600_x3_hybrid_capable() == neon);
    if (quill_keccak_f1600_x3_hybrid_capable()) {
        check("x3_hybrid", kt_x4_mismatches(x4_hybrid, 3, count, 0));
        check("x3_hybrid chain (state 3 portable)", kt_x4_mismatches(x4_hybrid, 4, 4, chain));
        check("x3_hybrid leaves state 3", hybrid_state3_untouched(count / 4));
        abi_check("quill_keccak_f1600_x3_hybrid", quill_keccak_f1600_x3_hybrid, 3);
        printf("keccak_a64: three-way NEON+scalar hybrid matched the portable permutation\n");
    }
    if (sha3) {
        check("neon_sha3", kt_single_mismatches(quill_keccak_f1600_neon_sha3, count, chain));
        check("x2_neon_sha3", kt_x4_mismatches(x4_neon_sha3, 4, count, chain));
        check("x2_neon_sha3 on states 0, 1", kt_x4_mismatches(x4_neon_sha3, 2, count / 4, 0));
        check("x2_neon_sha3 on states 2, 3 first",
              kt_x4_mismatches(x4_neon_sha3_hi_first, 4, count / 4, 0));
        abi_check("quill_keccak_f1600_neon_sha3", quill_keccak_f1600_neon_sha3, 0);
        abi_check("quill_keccak_f1600_x2_neon_sha3", quill_keccak_f1600_x2_neon_sha3, 1);
        printf("keccak_a64: SHA-3 instruction backends matched the portable permutation\n");
    } else {
        printf("keccak_a64: SHA-3 instructions not usable on this CPU (or masked)\n");
    }

    /* The dispatchers, whichever backend they pick. */
    check("quill_keccak_f1600", kt_single_mismatches(quill_keccak_f1600, count, chain));
    check("quill_keccak_f1600_x4_some", kt_x4_mismatches(x4_dispatch, 4, count, chain));
    for (unsigned n = 1; n <= 4; n++) {
        char what[64];
        snprintf(what, sizeof(what), "quill_keccak_f1600_x4_some(%u)", n);
        check(what, kt_x4_mismatches(x4_dispatch, n, count / 4, 0));
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
