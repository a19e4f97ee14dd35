/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Bodies of the two-way ("x2") Montgomery kernels, included by
 * mont_kernels.c: two independent multiplications (or squarings), lane 0
 * and lane 1, each with its own modulus of the same limb count n, computed
 * in one function body.  Every step of the product-scanning algorithm of
 * mont_body.h is done for lane 0 then lane 1 (the inner `l` loops are fully
 * unrolled), so the two accumulator carry chains are independent and the
 * processor overlaps them: a single kernel is bound by the latency of its
 * one chain, not by multiplier throughput.
 *   QUILL_MB(name)   names this copy;
 *   QUILL_MB_UNROLL  the unrolling pragma (as in mont_body.h);
 *   QUILL_MB_X2_SPLIT 1 to sum each column in a fresh accumulator merged at
 *                    the end (QUILL_MB_SPLIT 1 of mont_body.h), 0 to add
 *                    every product straight into the running one.
 * Not a public header. */

#if QUILL_MB_X2_SPLIT
#define X2_COL_BEGIN(l, init)                                                               \
    do {                                                                                    \
        col[l] = (init);                                                                    \
        coltop[l] = 0;                                                                      \
    } while (0)
#define X2_ADD(l, p) ACC3(col[l], coltop[l], p)
#define X2_COL_END(l)                                                                       \
    do {                                                                                    \
        quill_dlimb s_ = acc[l] + col[l];                                                   \
        top[l] += coltop[l] + (s_ < col[l]);                                                \
        acc[l] = s_;                                                                        \
    } while (0)
#else
#define X2_COL_BEGIN(l, init) ACC3(acc[l], top[l], (quill_dlimb)(init))
#define X2_ADD(l, p) ACC3(acc[l], top[l], p)
#define X2_COL_END(l) ((void)0)
#endif

/* scratch: 4n limbs (u of each lane, then the output words t of each). */
QUILL_INLINE void QUILL_MB(mont_mul_x2_body)(quill_limb *const r[2], const quill_limb *const a[2],
                                             const quill_limb *const b[2],
                                             const quill_limb *const m[2], const quill_limb n0[2],
                                             size_t n, quill_limb *scratch) {
    quill_limb *u[2] = {scratch, scratch + n};
    quill_limb *t[2] = {scratch + 2 * n, scratch + 3 * n};
    quill_dlimb acc[2] = {0, 0};
    quill_limb top[2] = {0, 0};
#if QUILL_MB_X2_SPLIT
    quill_dlimb col[2];
    quill_limb coltop[2];
#endif
    QUILL_MB_UNROLL for (size_t k = 0; k < n; k++) {
        X2_COL_BEGIN(0, 0);
        X2_COL_BEGIN(1, 0);
        QUILL_MB_UNROLL for (size_t i = 0; i <= k; i++)
            QUILL_MB_UNROLL for (int l = 0; l < 2; l++)
                X2_ADD(l, (quill_dlimb)a[l][i] * b[l][k - i]);
        QUILL_MB_UNROLL for (size_t i = 0; i < k; i++)
            QUILL_MB_UNROLL for (int l = 0; l < 2; l++)
                X2_ADD(l, (quill_dlimb)u[l][i] * m[l][k - i]);
        QUILL_MB_UNROLL for (int l = 0; l < 2; l++) {
            X2_COL_END(l);
            quill_limb uk = (quill_limb)acc[l] * n0[l];
            u[l][k] = uk;
            ACC3(acc[l], top[l], (quill_dlimb)uk * m[l][0]);
            SHIFT3(acc[l], top[l]);
        }
    }
    QUILL_MB_UNROLL for (size_t k = n; k < 2 * n - 1; k++) {
        X2_COL_BEGIN(0, 0);
        X2_COL_BEGIN(1, 0);
        QUILL_MB_UNROLL for (size_t i = k - n + 1; i < n; i++)
            QUILL_MB_UNROLL for (int l = 0; l < 2; l++) {
                X2_ADD(l, (quill_dlimb)a[l][i] * b[l][k - i]);
                X2_ADD(l, (quill_dlimb)u[l][i] * m[l][k - i]);
            }
        QUILL_MB_UNROLL for (int l = 0; l < 2; l++) {
            X2_COL_END(l);
            t[l][k - n] = (quill_limb)acc[l];
            SHIFT3(acc[l], top[l]);
        }
    }
    QUILL_MB_UNROLL for (int l = 0; l < 2; l++) {
        t[l][n - 1] = (quill_limb)acc[l];
        final_sub(r[l], t[l], (quill_limb)(acc[l] >> 64), m[l], n);
    }
}

/* Column-wise Montgomery reduction of t[l] (2n limbs each, t[l] < m[l] R)
 * into r[l].  u: 2n limbs of scratch.  t[0] and t[1] are overwritten. */
QUILL_INLINE void QUILL_MB(mont_redc_x2_body)(quill_limb *const r[2], quill_limb *const t[2],
                                              const quill_limb *const m[2],
                                              const quill_limb n0[2], size_t n,
                                              quill_limb *scratch) {
    quill_limb *u[2] = {scratch, scratch + n};
    quill_dlimb acc[2] = {0, 0};
    quill_limb top[2] = {0, 0};
#if QUILL_MB_X2_SPLIT
    quill_dlimb col[2];
    quill_limb coltop[2];
#endif
    QUILL_MB_UNROLL for (size_t k = 0; k < n; k++) {
        X2_COL_BEGIN(0, t[0][k]);
        X2_COL_BEGIN(1, t[1][k]);
        QUILL_MB_UNROLL for (size_t i = 0; i < k; i++)
            QUILL_MB_UNROLL for (int l = 0; l < 2; l++)
                X2_ADD(l, (quill_dlimb)u[l][i] * m[l][k - i]);
        QUILL_MB_UNROLL for (int l = 0; l < 2; l++) {
            X2_COL_END(l);
            quill_limb uk = (quill_limb)acc[l] * n0[l];
            u[l][k] = uk;
            ACC3(acc[l], top[l], (quill_dlimb)uk * m[l][0]);
            SHIFT3(acc[l], top[l]);
        }
    }
    QUILL_MB_UNROLL for (size_t k = n; k < 2 * n; k++) {
        X2_COL_BEGIN(0, t[0][k]);
        X2_COL_BEGIN(1, t[1][k]);
        QUILL_MB_UNROLL for (size_t i = k - n + 1; i < n; i++)
            QUILL_MB_UNROLL for (int l = 0; l < 2; l++)
                X2_ADD(l, (quill_dlimb)u[l][i] * m[l][k - i]);
        QUILL_MB_UNROLL for (int l = 0; l < 2; l++) {
            X2_COL_END(l);
            t[l][k - n] = (quill_limb)acc[l];
            SHIFT3(acc[l], top[l]);
        }
    }
    QUILL_MB_UNROLL for (int l = 0; l < 2; l++)
        final_sub(r[l], t[l], (quill_limb)acc[l], m[l], n);
}

/* scratch: 6n limbs (the 2n-limb square of each lane, then u).  n >= 2. */
QUILL_INLINE void QUILL_MB(mont_sqr_x2_body)(quill_limb *const r[2], const quill_limb *const a[2],
                                             const quill_limb *const m[2], const quill_limb n0[2],
                                             size_t n, quill_limb *scratch) {
    quill_limb *t[2] = {scratch, scratch + 2 * n};
    quill_dlimb acc[2] = {0, 0};
    quill_limb top[2] = {0, 0};
#if QUILL_MB_X2_SPLIT
    quill_dlimb col[2];
    quill_limb coltop[2];
#endif
    /* cross products sum_{i<j} a_i a_j, column by column */
    t[0][0] = 0;
    t[1][0] = 0;
    QUILL_MB_UNROLL for (size_t k = 1; k < 2 * n - 2; k++) {
        size_t lo = k < n ? 0 : k - n + 1;
        X2_COL_BEGIN(0, 0);
        X2_COL_BEGIN(1, 0);
        QUILL_MB_UNROLL for (size_t i = lo; i < k - i; i++)
            QUILL_MB_UNROLL for (int l = 0; l < 2; l++)
                X2_ADD(l, (quill_dlimb)a[l][i] * a[l][k - i]);
        QUILL_MB_UNROLL for (int l = 0; l < 2; l++) {
            X2_COL_END(l);
            t[l][k] = (quill_limb)acc[l];
            SHIFT3(acc[l], top[l]);
        }
    }
    /* double and add the diagonal a_i^2 */
    QUILL_MB_UNROLL for (int l = 0; l < 2; l++) {
        t[l][2 * n - 2] = (quill_limb)acc[l];
        t[l][2 * n - 1] = 0;
    }
    quill_limb shifted[2] = {0, 0}, carry[2] = {0, 0};
    QUILL_MB_UNROLL for (size_t i = 0; i < n; i++)
        QUILL_MB_UNROLL for (int l = 0; l < 2; l++) {
            quill_limb lo_w = t[l][2 * i], hi_w = t[l][2 * i + 1];
            quill_limb d_lo = (lo_w << 1) | shifted[l];
            quill_limb d_hi = (hi_w << 1) | (lo_w >> 63);
            shifted[l] = hi_w >> 63;
            quill_dlimb sq = (quill_dlimb)a[l][i] * a[l][i];
            quill_dlimb s = (quill_dlimb)d_lo + (quill_limb)sq + carry[l];
            t[l][2 * i] = (quill_limb)s;
            s = (quill_dlimb)d_hi + (quill_limb)(sq >> 64) + (quill_limb)(s >> 64);
            t[l][2 * i + 1] = (quill_limb)s;
            carry[l] = (quill_limb)(s >> 64);
        }
    QUILL_MB(mont_redc_x2_body)(r, t, m, n0, n, scratch + 4 * n);
}

#undef X2_COL_BEGIN
#undef X2_COL_END
#undef X2_ADD
