/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Bodies of the Montgomery kernels, included several times by
 * mont_kernels.c with different code-generation choices (see there for the
 * algorithms):
 *   QUILL_MB(name)    names this copy;
 *   QUILL_MB_UNROLL   an unrolling pragma: full unrolling for constant
 *                     sizes up to 24 limbs (it removes the mispredicted loop
 *                     exit of every column), unrolling by 8 otherwise;
 *   QUILL_MB_SPLIT    1 to sum each column's products in a fresh
 *                     accumulator merged into the running one at the end,
 *                     so that the products of column k + 1 need not wait for
 *                     u_k (shorter dependency chains; pays off up to 24
 *                     limbs, costs registers beyond); 2 to do the same for
 *                     the cross products of a squaring (pays off up to 16
 *                     limbs); 0 to add every product straight into the
 *                     running accumulator.
 * Not a public header. */

#if QUILL_MB_SPLIT >= 1
#define COL_BEGIN(init)                                                                     \
    quill_dlimb col_ = (init);                                                              \
    quill_limb coltop_ = 0
#define COL_ADD(p) ACC3(col_, coltop_, p)
#define COL_END()                                                                           \
    do {                                                                                    \
        quill_dlimb s_ = acc + col_;                                                        \
        top += coltop_ + (s_ < col_);                                                       \
        acc = s_;                                                                           \
    } while (0)
#else
#define COL_BEGIN(init) ACC3(acc, top, (quill_dlimb)(init))
#define COL_ADD(p) ACC3(acc, top, p)
#define COL_END() ((void)0)
#endif

/* scratch: 2n limbs (u, then the output words t). */
QUILL_INLINE void QUILL_MB(mont_mul_body)(quill_limb *r, const quill_limb *a, const quill_limb *b,
                                          const quill_limb *m, quill_limb n0, size_t n,
                                          quill_limb *scratch) {
    quill_limb *u = scratch, *t = scratch + n;
    quill_dlimb acc = 0;
    quill_limb top = 0;
    QUILL_MB_UNROLL for (size_t k = 0; k < n; k++) {
        COL_BEGIN(0);
        QUILL_MB_UNROLL for (size_t i = 0; i <= k; i++)
            COL_ADD((quill_dlimb)a[i] * b[k - i]);
        /* u_{k-1} m_1 last: it depends on the previous column */
        QUILL_MB_UNROLL for (size_t i = 0; i < k; i++)
            COL_ADD((quill_dlimb)u[i] * m[k - i]);
        COL_END();
        quill_limb uk = (quill_limb)acc * n0;
        u[k] = uk;
        ACC3(acc, top, (quill_dlimb)uk * m[0]);
        SHIFT3(acc, top);
    }
    QUILL_MB_UNROLL for (size_t k = n; k < 2 * n - 1; k++) {
        COL_BEGIN(0);
        QUILL_MB_UNROLL for (size_t i = k - n + 1; i < n; i++) {
            COL_ADD((quill_dlimb)a[i] * b[k - i]);
            COL_ADD((quill_dlimb)u[i] * m[k - i]);
        }
        COL_END();
        t[k - n] = (quill_limb)acc;
        SHIFT3(acc, top);
    }
    t[n - 1] = (quill_limb)acc;
    final_sub(r, t, (quill_limb)(acc >> 64), m, n);
}

/* Column-wise Montgomery reduction of t (2n limbs, t < m R) into r.
 * u: n limbs of scratch.  t is overwritten. */
QUILL_INLINE void QUILL_MB(mont_redc_body)(quill_limb *r, quill_limb *t, const quill_limb *m,
                                           quill_limb n0, size_t n, quill_limb *u) {
    quill_dlimb acc = 0;
    quill_limb top = 0;
    QUILL_MB_UNROLL for (size_t k = 0; k < n; k++) {
        COL_BEGIN(t[k]);
        QUILL_MB_UNROLL for (size_t i = 0; i < k; i++)
            COL_ADD((quill_dlimb)u[i] * m[k - i]);
        COL_END();
        quill_limb uk = (quill_limb)acc * n0;
        u[k] = uk;
        ACC3(acc, top, (quill_dlimb)uk * m[0]);
        SHIFT3(acc, top);
    }
    QUILL_MB_UNROLL for (size_t k = n; k < 2 * n; k++) {
        COL_BEGIN(t[k]);
        QUILL_MB_UNROLL for (size_t i = k - n + 1; i < n; i++)
            COL_ADD((quill_dlimb)u[i] * m[k - i]);
        COL_END();
        t[k - n] = (quill_limb)acc;
        SHIFT3(acc, top);
    }
    final_sub(r, t, (quill_limb)acc, m, n);
}

/* scratch: 3n limbs (the 2n-limb square, then u). */
QUILL_INLINE void QUILL_MB(mont_sqr_body)(quill_limb *r, const quill_limb *a, const quill_limb *m,
                                          quill_limb n0, size_t n, quill_limb *scratch) {
    quill_limb *t = scratch, *u = scratch + 2 * n;
    if (n == 1) {
        quill_dlimb sq = (quill_dlimb)a[0] * a[0];
        t[0] = (quill_limb)sq;
        t[1] = (quill_limb)(sq >> 64);
        QUILL_MB(mont_redc_body)(r, t, m, n0, n, u);
        return;
    }
    /* cross products sum_{i<j} a_i a_j, column by column */
    quill_dlimb acc = 0;
    quill_limb top = 0;
    t[0] = 0;
    QUILL_MB_UNROLL for (size_t k = 1; k < 2 * n - 2; k++) {
        size_t lo = k < n ? 0 : k - n + 1;
#if QUILL_MB_SPLIT >= 2
        COL_BEGIN(0);
        QUILL_MB_UNROLL for (size_t i = lo; i < k - i; i++)
            COL_ADD((quill_dlimb)a[i] * a[k - i]);
        COL_END();
#else
        QUILL_MB_UNROLL for (size_t i = lo; i < k - i; i++)
            ACC3(acc, top, (quill_dlimb)a[i] * a[k - i]);
#endif
        t[k] = (quill_limb)acc;
        SHIFT3(acc, top);
    }
    t[2 * n - 2] = (quill_limb)acc;
    t[2 * n - 1] = 0;
    /* double and add the diagonal a_i^2 */
    quill_limb shifted = 0, carry = 0;
    QUILL_MB_UNROLL for (size_t i = 0; i < n; i++) {
        quill_limb lo_w = t[2 * i], hi_w = t[2 * i + 1];
        quill_limb d_lo = (lo_w << 1) | shifted;
        quill_limb d_hi = (hi_w << 1) | (lo_w >> 63);
        shifted = hi_w >> 63;
        quill_dlimb sq = (quill_dlimb)a[i] * a[i];
        quill_dlimb s = (quill_dlimb)d_lo + (quill_limb)sq + carry;
        t[2 * i] = (quill_limb)s;
        s = (quill_dlimb)d_hi + (quill_limb)(sq >> 64) + (quill_limb)(s >> 64);
        t[2 * i + 1] = (quill_limb)s;
        carry = (quill_limb)(s >> 64);
    }
    QUILL_MB(mont_redc_body)(r, t, m, n0, n, u);
}

#undef COL_BEGIN
#undef COL_ADD
#undef COL_END
