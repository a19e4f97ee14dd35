/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Montgomery multiplication and squaring kernels (portable C, 64-bit limbs,
 * unsigned __int128 products).  One inline body with the limb count as a
 * parameter, instantiated for the sizes RSA uses (8, 16, 24, 32 limbs for
 * CRT halves of 1024..4096-bit keys, 48 and 64 for full moduli) so that the
 * compiler can schedule it with constant bounds, plus a generic instance.
 *
 * Both kernels use product scanning (column by column) with the Montgomery
 * reduction interleaved, as in Koc, Acar and Kaliski, "Analyzing and
 * comparing Montgomery multiplication algorithms" (IEEE Micro 1996), FIPS
 * method.  Column k of a b + U m, where U = sum u_i 2^(64 i), is summed in a
 * three-word accumulator; for k < n, u_k = (column low word) * n0 mod 2^64
 * makes that low word zero, and for k >= n the low word is output word
 * k - n.  With a, b < m the result is below 2m: a final branch-free
 * subtraction finishes.  Measured with gcc 12 -O3 on the project machine
 * (AMD EPYC), this is 1.3-1.6x faster than CIOS operand scanning.
 *
 * Squaring sums the cross products a_i a_j (i < j) once by product
 * scanning, doubles them and adds the diagonal in one pass, then runs the
 * same column-wise reduction.
 *
 * Scratch (u and the output words) lives in the caller's frame of the
 * size-specific wrapper and is wiped before return: it depends on secrets. */
#include "bn/internal.h"
#include "bn/mont_adx.h"
#include "bn/mont_arm64.h"

/* acc (two words) + top (third word) += p */
#define ACC3(acc, top, p)                                                                   \
    do {                                                                                    \
        quill_dlimb p_ = (p);                                                               \
        quill_dlimb s_ = (acc) + p_;                                                        \
        (top) += s_ < p_;                                                                   \
        (acc) = s_;                                                                         \
    } while (0)

/* acc >>= 64, pulling in top */
#define SHIFT3(acc, top)                                                                    \
    do {                                                                                    \
        (acc) = ((acc) >> 64) | ((quill_dlimb)(top) << 64);                                 \
        (top) = 0;                                                                          \
    } while (0)

/* r = (hi:t) mod m for (hi:t) < 2m, no branch. */
QUILL_INLINE void final_sub(quill_limb *r, const quill_limb *t, quill_limb hi, const quill_limb *m,
                            size_t n) {
    quill_limb borrow = 0;
    for (size_t j = 0; j < n; j++) {
        quill_dlimb d = (quill_dlimb)t[j] - m[j] - borrow;
        r[j] = (quill_limb)d;
        borrow = (quill_limb)(d >> 64) & 1;
    }
    /* keep t when t - m borrowed past hi (t < m) */
    quill_limb keep_t = quill_value_barrier_w((quill_limb)0 - (borrow & ~hi & 1));
    for (size_t j = 0; j < n; j++)
        r[j] = (t[j] & keep_t) | (r[j] & ~keep_t);
}

QUILL_INLINE void wipe(quill_limb *p, size_t len) {
    for (size_t i = 0; i < len; i++)
        p[i] = 0;
    __asm__ __volatile__("" : : "r"(p) : "memory");
}

/* The unrolling pragmas of the instances below.  QUILL_PLAIN_LOOPS
 * (defined for this file by the sanitizer builds with clang,
 * cmake/fuzz.cmake) drops them: plain loops, unrolled as the compiler
 * sees fit; the same arithmetic, columns and code paths, only not laid out
 * for speed.  Reason: under clang 14 -O2 -g with AddressSanitizer and
 * UBSan every limb load of the unrolled code carries its own check and
 * branch, and this file had not finished compiling after 152 CPU-seconds
 * (the unroll-by-8 instances alone still took over 45); without the
 * pragmas it compiles in about 2 CPU-seconds. */
#if defined(QUILL_PLAIN_LOOPS)
#define QUILL_UNROLL_FULL
#define QUILL_UNROLL_8
#else
#define QUILL_UNROLL_FULL _Pragma("GCC unroll 64")
#define QUILL_UNROLL_8 _Pragma("GCC unroll 8")
#endif

/* Fully unrolled, split columns: 8 and 16 limbs. */
#define QUILL_MB_UNROLL QUILL_UNROLL_FULL
#define QUILL_MB_SPLIT 2
#define QUILL_MB(name) name##_split2
#include "bn/mont_body.h"
#undef QUILL_MB
#undef QUILL_MB_SPLIT

/* Fully unrolled, split reduction columns: 24 limbs. */
#define QUILL_MB_SPLIT 1
#define QUILL_MB(name) name##_split
#include "bn/mont_body.h"
#undef QUILL_MB
#undef QUILL_MB_SPLIT

#undef QUILL_MB_UNROLL

/* Loops unrolled by 8: 32 limbs and above and every other size.  At 32
 * limbs this is as fast as full unrolling (whose code, ~50 KB per kernel,
 * no longer fits the instruction cache) and at 48 and 64 limbs 1.2x faster
 * than plain loops. */
#define QUILL_MB_UNROLL QUILL_UNROLL_8
#define QUILL_MB_SPLIT 0
#define QUILL_MB(name) name##_loops
#include "bn/mont_body.h"
#undef QUILL_MB
#undef QUILL_MB_SPLIT
#undef QUILL_MB_UNROLL

void quill_mont_redc_c(quill_limb *r, quill_limb *t, const quill_limb *m, quill_limb n0,
                       size_t n) {
    quill_limb u[QUILL_BN_MAX_LIMBS];
    mont_redc_body_loops(r, t, m, n0, n, u);
    wipe(u, n);
}

/* The kernels for N limbs: multiplication from body copy KIND, squaring from
 * SKIND (measured per size with test/bn/bn_speed). */
#define QUILL_MONT_INSTANCE(N, KIND, SKIND)                                                 \
    static void mont_mul_##N(quill_limb *r, const quill_limb *a, const quill_limb *b,       \
                             const quill_limb *m, quill_limb n0, size_t n) {                \
        quill_limb scratch[2 * (N)];                                                        \
        (void)n;                                                                            \
        mont_mul_body_##KIND(r, a, b, m, n0, N, scratch);                                   \
        wipe(scratch, 2 * (N));                                                             \
    }                                                                                       \
    static void mont_sqr_##N(quill_limb *r, const quill_limb *a, const quill_limb *m,       \
                             quill_limb n0, size_t n) {                                     \
        quill_limb scratch[3 * (N)];                                                        \
        (void)n;                                                                            \
        mont_sqr_body_##SKIND(r, a, m, n0, N, scratch);                                     \
        wipe(scratch, 3 * (N));                                                             \
    }

QUILL_MONT_INSTANCE(8, split2, split2)
QUILL_MONT_INSTANCE(16, split2, split2)
QUILL_MONT_INSTANCE(24, split, split)
QUILL_MONT_INSTANCE(32, loops, loops)
QUILL_MONT_INSTANCE(48, loops, loops)
QUILL_MONT_INSTANCE(64, loops, loops)

static void mont_mul_generic(quill_limb *r, const quill_limb *a, const quill_limb *b,
                             const quill_limb *m, quill_limb n0, size_t n) {
    quill_limb scratch[2 * QUILL_BN_MAX_LIMBS];
    mont_mul_body_loops(r, a, b, m, n0, n, scratch);
    wipe(scratch, 2 * n);
}

static void mont_sqr_generic(quill_limb *r, const quill_limb *a, const quill_limb *m,
                             quill_limb n0, size_t n) {
    quill_limb scratch[3 * QUILL_BN_MAX_LIMBS];
    mont_sqr_body_loops(r, a, m, n0, n, scratch);
    wipe(scratch, 3 * n);
}

void quill_mont_kernels_c(size_t n, quill_mont_mul_fn *mul, quill_mont_sqr_fn *sqr) {
    switch (n) {
#define QUILL_MONT_CASE(N)                                                                  \
    case N:                                                                                 \
        *mul = mont_mul_##N;                                                                \
        *sqr = mont_sqr_##N;                                                                \
        return;
        QUILL_MONT_CASE(8)
        QUILL_MONT_CASE(16)
        QUILL_MONT_CASE(24)
        QUILL_MONT_CASE(32)
        QUILL_MONT_CASE(48)
        QUILL_MONT_CASE(64)
#undef QUILL_MONT_CASE
    default:
        *mul = mont_mul_generic;
        *sqr = mont_sqr_generic;
        return;
    }
}

/* Native kernels where the CPU has them (mont_adx.h, mont_arm64.h), else
 * portable. */
void quill_mont_kernels(size_t n, quill_mont_mul_fn *mul, quill_mont_sqr_fn *sqr) {
    if (n >= QUILL_MONT_ADX_MIN_LIMBS && quill_mont_adx_capable()) {
        quill_mont_kernels_adx(n, mul, sqr);
        return;
    }
    if (quill_mont_arm64_capable(n)) {
        quill_mont_kernels_arm64(n, mul, sqr);
        return;
    }
    quill_mont_kernels_c(n, mul, sqr);
}

quill_mont_sqr_fn quill_mont_kernel_sqr_public(size_t n, quill_mont_sqr_fn sqr) {
    quill_mont_sqr_fn pub = NULL;
    if (n >= QUILL_MONT_ADX_MIN_LIMBS && quill_mont_adx_capable())
        pub = quill_mont_sqr_public_adx(n);
    return pub != NULL ? pub : sqr;
}

/* Two-way kernels (mont_x2_body.h), loops unrolled by 8.  Measured with
 * bn_speed (x2 line) on the project machine: at 32 limbs two interleaved
 * operations take 0.85-0.96 of two single ones, but at 8..24 limbs the
 * single kernels are not latency-bound (about 4.4 instructions per cycle
 * already, the carry chains overlap across columns) and the interleaved
 * bodies, fully unrolled or not, split or not, are 1.0-1.3x slower: there
 * the two-way kernels are two calls of the single ones. */
#define QUILL_MB_UNROLL QUILL_UNROLL_8
#define QUILL_MB_X2_SPLIT 0
#define QUILL_MB(name) name##_x2loops
#include "bn/mont_x2_body.h"
#undef QUILL_MB
#undef QUILL_MB_X2_SPLIT
#undef QUILL_MB_UNROLL

/* Two calls of the single kernels for N limbs. */
#define QUILL_MONT_PAIR_INSTANCE(N)                                                         \
    static void mont_mul_pair_##N(quill_limb *const r[2], const quill_limb *const a[2],     \
                                  const quill_limb *const b[2],                             \
                                  const quill_limb *const m[2], const quill_limb n0[2],     \
                                  size_t n) {                                               \
        mont_mul_##N(r[0], a[0], b[0], m[0], n0[0], n);                                     \
        mont_mul_##N(r[1], a[1], b[1], m[1], n0[1], n);                                     \
    }                                                                                       \
    static void mont_sqr_pair_##N(quill_limb *const r[2], const quill_limb *const a[2],     \
                                  const quill_limb *const m[2], const quill_limb n0[2],     \
                                  size_t n) {                                               \
        mont_sqr_##N(r[0], a[0], m[0], n0[0], n);                                           \
        mont_sqr_##N(r[1], a[1], m[1], n0[1], n);                                           \
    }

QUILL_MONT_PAIR_INSTANCE(8)
QUILL_MONT_PAIR_INSTANCE(16)
QUILL_MONT_PAIR_INSTANCE(24)

/* Interleaved: 32 limbs and above, any size. */
static void mont_mul_x2_generic(quill_limb *const r[2], const quill_limb *const a[2],
                                const quill_limb *const b[2], const quill_limb *const m[2],
                                const quill_limb n0[2], size_t n) {
    quill_limb scratch[4 * QUILL_BN_MAX_LIMBS];
    mont_mul_x2_body_x2loops(r, a, b, m, n0, n, scratch);
    wipe(scratch, 4 * n);
}

static void mont_sqr_x2_generic(quill_limb *const r[2], const quill_limb *const a[2],
                                const quill_limb *const m[2], const quill_limb n0[2], size_t n) {
    if (n < 2) { /* the squaring body needs two limbs */
        mont_mul_x2_generic(r, a, a, m, n0, n);
        return;
    }
    quill_limb scratch[6 * QUILL_BN_MAX_LIMBS];
    mont_sqr_x2_body_x2loops(r, a, m, n0, n, scratch);
    wipe(scratch, 6 * n);
}

void quill_mont_kernels_x2(size_t n, quill_mont_mul_x2_fn *mul, quill_mont_sqr_x2_fn *sqr) {
    if (n >= QUILL_MONT_ADX_MIN_LIMBS && quill_mont_adx_capable()) {
        quill_mont_kernels_x2_adx(n, mul, sqr);
        return;
    }
    if (quill_mont_arm64_capable(n)) {
        quill_mont_kernels_x2_arm64(n, mul, sqr);
        return;
    }
    switch (n) {
#define QUILL_MONT_X2_CASE(N)                                                               \
    case N:                                                                                 \
        *mul = mont_mul_pair_##N;                                                           \
        *sqr = mont_sqr_pair_##N;                                                           \
        return;
        QUILL_MONT_X2_CASE(8)
        QUILL_MONT_X2_CASE(16)
        QUILL_MONT_X2_CASE(24)
#undef QUILL_MONT_X2_CASE
    default:
        *mul = mont_mul_x2_generic;
        *sqr = mont_sqr_x2_generic;
        return;
    }
}
