/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * The dispatch of ntt.h: each public function runs the AVX-512VL backend
 * when quill_mldsa_avx512vl_capable(), else the AVX2 one when
 * quill_mldsa_avx2_capable() (both ntt_avx2.c, x86-64 unless
 * QUILL_NO_ASM), else the portable one (ntt_c.c), choosing on the CPU bits
 * at each call (quill_cpu_has reads bits probed once).  The backends give
 * bit-identical results (test_mldsa_arith), so the choice shows only in
 * time.  On aarch64 (unless QUILL_NO_ASM) the NEON backend
 * (asm/aarch64/mldsa_ntt_neon.S) runs when quill_mldsa_neon_capable(),
 * else the portable one.  quill_mldsa_backend_name (backend.c) reports the
 * same order.
 * The zeta tables are in ntt_zetas.c. */
#include "ntt.h"

#include <string.h>

#include "common/cpu.h"
#include "reduce.h"
#include "rounding.h"

#if QUILL_MLDSA_HAVE_AVX2
int quill_mldsa_avx2_capable(void) {
    return quill_cpu_has(QUILL_CPU_X86_AVX2);
}

/* NTT_DISPATCH(fn, args...) calls fn_avx512vl, fn_avx2 or fn_c. */
#define NTT_DISPATCH(fn, ...)                  \
    do {                                       \
        if (quill_mldsa_avx512vl_capable())    \
            fn##_avx512vl(__VA_ARGS__);        \
        else if (quill_mldsa_avx2_capable())   \
            fn##_avx2(__VA_ARGS__);            \
        else                                   \
            fn##_c(__VA_ARGS__);               \
    } while (0)
#else
int quill_mldsa_avx2_capable(void) {
    return 0;
}
#endif

#if QUILL_MLDSA_HAVE_NEON
int quill_mldsa_neon_capable(void) {
    return quill_cpu_has(QUILL_CPU_ARM_NEON);
}

/* NTT_DISPATCH(fn, args...) calls fn_neon or fn_c. */
#define NTT_DISPATCH(fn, ...)               \
    do {                                    \
        if (quill_mldsa_neon_capable())     \
            fn##_neon(__VA_ARGS__);         \
        else                                \
            fn##_c(__VA_ARGS__);            \
    } while (0)
#else
int quill_mldsa_neon_capable(void) {
    return 0;
}
#endif

#if !QUILL_MLDSA_HAVE_AVX2 && !QUILL_MLDSA_HAVE_NEON
#define NTT_DISPATCH(fn, ...) fn##_c(__VA_ARGS__)
#endif

void quill_mldsa_ntt(int32_t a[QUILL_MLDSA_N]) {
    NTT_DISPATCH(quill_mldsa_ntt, a);
}

void quill_mldsa_ntt_from(int32_t out[QUILL_MLDSA_N], const int32_t in[QUILL_MLDSA_N]) {
#if QUILL_MLDSA_HAVE_AVX2
    if (quill_mldsa_avx512vl_capable()) {
        quill_mldsa_ntt_from_avx512vl(out, in);
        return;
    }
    if (quill_mldsa_avx2_capable()) {
        quill_mldsa_ntt_from_avx2(out, in);
        return;
    }
#endif
    if (out != in)
        memcpy(out, in, QUILL_MLDSA_N * sizeof(int32_t));
    quill_mldsa_ntt(out);
}

void quill_mldsa_ntt_lazy_from(int32_t out[QUILL_MLDSA_N], const int32_t in[QUILL_MLDSA_N]) {
#if QUILL_MLDSA_HAVE_AVX2
    if (quill_mldsa_avx512vl_capable()) {
        quill_mldsa_ntt_lazy_from_avx512vl(out, in);
        return;
    }
    if (quill_mldsa_avx2_capable()) {
        quill_mldsa_ntt_lazy_from_avx2(out, in);
        return;
    }
#endif
    /* The portable and NEON transforms: the Montgomery form's outputs are
     * within the contract (|out| < B + 8q), and quicker there than
     * quill_mldsa_ntt_lazy_from_c, which is scalar. */
    quill_mldsa_ntt_from(out, in);
}

void quill_mldsa_invntt_tomont(int32_t a[QUILL_MLDSA_N]) {
    NTT_DISPATCH(quill_mldsa_invntt_tomont, a);
}

void quill_mldsa_pointwise_mont(int32_t c[QUILL_MLDSA_N], const int32_t a[QUILL_MLDSA_N],
                                const int32_t b[QUILL_MLDSA_N]) {
    NTT_DISPATCH(quill_mldsa_pointwise_mont, c, a, b);
}

void quill_mldsa_invntt_tomont_freeze(int32_t a[QUILL_MLDSA_N]) {
    NTT_DISPATCH(quill_mldsa_invntt_tomont_freeze, a);
}

void quill_mldsa_invntt_freeze_highbits(int32_t a[QUILL_MLDSA_N], int32_t w1[QUILL_MLDSA_N],
                                        int32_t gamma2) {
#if QUILL_MLDSA_HAVE_AVX2
    if (quill_mldsa_avx512vl_capable()) {
        quill_mldsa_invntt_freeze_highbits_avx512vl(a, w1, gamma2);
        return;
    }
    if (quill_mldsa_avx2_capable()) {
        quill_mldsa_invntt_freeze_highbits_avx2(a, w1, gamma2);
        return;
    }
#endif
    quill_mldsa_invntt_tomont_freeze(a);
    quill_mldsa_poly_highbits((quill_mldsa_poly *)(void *)w1, (const quill_mldsa_poly *)(void *)a,
                              gamma2);
}

/* What follows the inverse transform in quill_mldsa_invntt_power2round's
 * forms without a fused one: t = freeze(a + s2), then Power2Round. */
static void add_power2round(int32_t t1[QUILL_MLDSA_N], int32_t a[QUILL_MLDSA_N],
                            const int32_t s2[QUILL_MLDSA_N]) {
    for (unsigned i = 0; i < QUILL_MLDSA_N; i++)
        t1[i] = quill_mldsa_power2round(&a[i], quill_mldsa_freeze(a[i] + s2[i]));
}

void quill_mldsa_invntt_power2round_c(int32_t t1[QUILL_MLDSA_N], int32_t a[QUILL_MLDSA_N],
                                      const int32_t s2[QUILL_MLDSA_N]) {
    quill_mldsa_invntt_tomont_c(a);
    add_power2round(t1, a, s2);
}

void quill_mldsa_invntt_power2round(int32_t t1[QUILL_MLDSA_N], int32_t a[QUILL_MLDSA_N],
                                    const int32_t s2[QUILL_MLDSA_N]) {
#if QUILL_MLDSA_HAVE_AVX2
    if (quill_mldsa_avx512vl_capable()) {
        quill_mldsa_invntt_power2round_avx512vl(t1, a, s2);
        return;
    }
    if (quill_mldsa_avx2_capable()) {
        quill_mldsa_invntt_power2round_avx2(t1, a, s2);
        return;
    }
#endif
    quill_mldsa_invntt_tomont(a);
    add_power2round(t1, a, s2);
}

void quill_mldsa_dot_mont(int32_t r[QUILL_MLDSA_N], const int32_t *a, const int32_t *b,
                          unsigned n) {
    NTT_DISPATCH(quill_mldsa_dot_mont, r, a, b, n);
}

void quill_mldsa_dot_mont_x2(int32_t r0[QUILL_MLDSA_N], int32_t r1[QUILL_MLDSA_N],
                             const int32_t *a0, const int32_t *a1, const int32_t *b, unsigned n) {
#if QUILL_MLDSA_HAVE_AVX2
    if (quill_mldsa_avx512vl_capable()) {
        quill_mldsa_dot_mont_x2_avx512vl(r0, r1, a0, a1, b, n);
        return;
    }
    if (quill_mldsa_avx2_capable()) {
        quill_mldsa_dot_mont_x2_avx2(r0, r1, a0, a1, b, n);
        return;
    }
#endif
    quill_mldsa_dot_mont(r0, a0, b, n);
    quill_mldsa_dot_mont(r1, a1, b, n);
}

void quill_mldsa_dot_mont_x2_tail(int32_t r0[QUILL_MLDSA_N], int32_t r1[QUILL_MLDSA_N],
                                  const int32_t *a0, const int32_t *a1, const int32_t *e0,
                                  const int32_t *e1, const int32_t *b, unsigned n) {
#if QUILL_MLDSA_HAVE_AVX2
    if (quill_mldsa_avx512vl_capable()) {
        quill_mldsa_dot_mont_x2_tail_avx512vl(r0, r1, a0, a1, e0, e1, b, n);
        return;
    }
    if (quill_mldsa_avx2_capable()) {
        quill_mldsa_dot_mont_x2_tail_avx2(r0, r1, a0, a1, e0, e1, b, n);
        return;
    }
#elif QUILL_MLDSA_HAVE_NEON
    /* The NEON dot product on a copy of each row with its tail behind it
     * (n + 1 <= 8 polynomials, 8 KiB on the stack): the same sums, reduced
     * once.  The portable body is no option here: gcc's build of its 64-bit
     * lane products runs ~11k modelled cycles for 5 pairs against ~1.1k for
     * quill_mldsa_dot_mont_neon (tools/mca_mldsa_a64.sh, neoverse-n1). */
    if (quill_mldsa_neon_capable()) {
        _Alignas(16) int32_t row[(QUILL_MLDSA_L_MAX + 1) * QUILL_MLDSA_N];
        const size_t len = (size_t)n * QUILL_MLDSA_N * sizeof(int32_t);
        memcpy(row, a0, len);
        memcpy(row + n * QUILL_MLDSA_N, e0, QUILL_MLDSA_N * sizeof(int32_t));
        quill_mldsa_dot_mont_neon(r0, row, b, n + 1);
        memcpy(row, a1, len);
        memcpy(row + n * QUILL_MLDSA_N, e1, QUILL_MLDSA_N * sizeof(int32_t));
        quill_mldsa_dot_mont_neon(r1, row, b, n + 1);
        return;
    }
#endif
    quill_mldsa_dot_mont_x2_tail_c(r0, r1, a0, a1, e0, e1, b, n);
}
