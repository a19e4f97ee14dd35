/* Copyright quill authors.
 *
 * Bodies of the Montgomery kernels, included twice by mont_kernels.c: once
 * with QUILL_MB_UNROLL asking for full unrolling (the fixed RSA sizes up to
 * 32 limbs, where unrolling removes the mispredicted loop exits of every
 * column), once without (other sizes).  QUILL_MB(name) names the copy.
 * Not a public header; see mont_kernels.c for the algorithms. */

/* scratch: 2n limbs (u, then the output words t). */
QUILL_INLINE void QUILL_MB(mont_mul_body)(quill_limb *r, const quill_limb *a, const quill_limb *b,
                                const quill_limb *m, quill_limb n0, size_t n,
                                quill_limb *scratch) {
    quill_limb *u = scratch, *t = scratch + n;
    quill_dlimb acc = 0;
    quill_limb top = 0;
    QUILL_MB_UNROLL for (size_t k = 0; k < n; k++) {
        QUILL_MB_UNROLL for (size_t i = 0; i < k; i++) {
            ACC3(acc, top, (quill_dlimb)a[i] * b[k - i]);
            ACC3(acc, top, (quill_dlimb)u[i] * m[k - i]);
        }
        ACC3(acc, top, (quill_dlimb)a[k] * b[0]);
        quill_limb uk = (quill_limb)acc * n0;
        u[k] = uk;
        ACC3(acc, top, (quill_dlimb)uk * m[0]);
        SHIFT3(acc, top);
    }
    QUILL_MB_UNROLL for (size_t k = n; k < 2 * n - 1; k++) {
        QUILL_MB_UNROLL for (size_t i = k - n + 1; i < n; i++) {
            ACC3(acc, top, (quill_dlimb)a[i] * b[k - i]);
            ACC3(acc, top, (quill_dlimb)u[i] * m[k - i]);
        }
        t[k - n] = (quill_limb)acc;
        SHIFT3(acc, top);
    }
    t[n - 1] = (quill_limb)acc;
    final_sub(r, t, (quill_limb)(acc >> 64), m, n);
}

/* Column-wise Montgomery reduction of t (2n limbs, t < m R) into r.
 * scratch: n limbs for u.  t is overwritten. */
QUILL_INLINE void QUILL_MB(mont_redc_body)(quill_limb *r, quill_limb *t, const quill_limb *m, quill_limb n0,
                                 size_t n, quill_limb *u) {
    quill_dlimb acc = 0;
    quill_limb top = 0;
    QUILL_MB_UNROLL for (size_t k = 0; k < n; k++) {
        ACC3(acc, top, (quill_dlimb)t[k]);
        QUILL_MB_UNROLL for (size_t i = 0; i < k; i++)
            ACC3(acc, top, (quill_dlimb)u[i] * m[k - i]);
        quill_limb uk = (quill_limb)acc * n0;
        u[k] = uk;
        ACC3(acc, top, (quill_dlimb)uk * m[0]);
        SHIFT3(acc, top);
    }
    QUILL_MB_UNROLL for (size_t k = n; k < 2 * n; k++) {
        ACC3(acc, top, (quill_dlimb)t[k]);
        QUILL_MB_UNROLL for (size_t i = k - n + 1; i < n; i++)
            ACC3(acc, top, (quill_dlimb)u[i] * m[k - i]);
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
        QUILL_MB_UNROLL for (size_t i = lo; i < k - i; i++)
            ACC3(acc, top, (quill_dlimb)a[i] * a[k - i]);
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

