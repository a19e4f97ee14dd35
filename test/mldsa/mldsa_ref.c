/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.  The ML-DSA suites' references (mldsa_ref.h). */
#include "mldsa_ref.h"

#include <string.h>

#include "mldsa/clone.h"
#include "mldsa/pack.h"
#include "mldsa/rounding.h"

#define GAMMA2_88 ((QUILL_MLDSA_Q - 1) / 88)
#define GAMMA2_32 ((QUILL_MLDSA_Q - 1) / 32)

void mdt_compute_t(quill_mldsa_poly *t, const quill_mldsa_poly *a_hat,
                   const quill_mldsa_poly *s1_hat, const quill_mldsa_poly *s2,
                   const quill_mldsa_params *p) {
    for (unsigned i = 0; i < p->k; i++) {
        quill_mldsa_poly_matvec_mont(&t[i], &a_hat[i * p->l], s1_hat, p->l);
        quill_mldsa_poly_invntt_tomont(&t[i]);
        quill_mldsa_poly_add(&t[i], &t[i], &s2[i]);
        quill_mldsa_poly_freeze(&t[i]);
    }
}

/* Baseline and AVX2 builds: 92 -> ~50 TSC ticks per polynomial on Zen 4
 * (mldsa_kernels).  Elementwise, so t0 may alias t. */
QUILL_INLINE void power2round_body(quill_mldsa_poly *t1, quill_mldsa_poly *t0,
                                   const quill_mldsa_poly *t) {
    for (unsigned i = 0; i < QUILL_MLDSA_N; i++)
        t1->c[i] = quill_mldsa_power2round(&t0->c[i], t->c[i]);
}
QUILL_MLDSA_CLONE(void, power2round,
                  (quill_mldsa_poly * t1, quill_mldsa_poly *t0, const quill_mldsa_poly *t),
                  (t1, t0, t))

void mdt_poly_power2round(quill_mldsa_poly *t1, quill_mldsa_poly *t0, const quill_mldsa_poly *t) {
    QUILL_MLDSA_PICK(power2round)(t1, t0, t);
}

int mdt_hint_check(const uint8_t *hint, const quill_mldsa_params *p) {
    unsigned idx = 0;
    for (unsigned i = 0; i < p->k; i++) {
        unsigned end = hint[p->omega + i];
        if (end < idx || end > p->omega)
            return 0;
        for (unsigned first = idx; idx < end; idx++)
            if (idx > first && hint[idx - 1] >= hint[idx])
                return 0;
    }
    for (; idx < p->omega; idx++)
        if (hint[idx] != 0)
            return 0;
    return 1;
}

int mdt_unpack_sig(uint8_t *ctilde, quill_mldsa_poly *z, quill_mldsa_poly *h, const uint8_t *sig,
                   const quill_mldsa_params *p) {
    const size_t z_bytes = 32u * (p->gamma1_bits + 1);
    memcpy(ctilde, sig, p->ctilde_bytes);
    sig += p->ctilde_bytes;
    for (unsigned i = 0; i < p->l; i++, sig += z_bytes)
        quill_mldsa_poly_unpack_z(&z[i], sig, p);
    if (!mdt_hint_check(sig, p))
        return 0;
    unsigned idx = 0;
    for (unsigned i = 0; i < p->k; i++) {
        memset(h[i].c, 0, sizeof(h[i].c));
        for (; idx < sig[p->omega + i]; idx++)
            h[i].c[sig[idx]] = 1;
    }
    return 1;
}

int32_t mdt_use_hint(int32_t r, int h, int32_t gamma2) {
    const int32_t m = (QUILL_MLDSA_Q - 1) / (2 * gamma2);
    int32_t r0, r1 = quill_mldsa_decompose(&r0, r, gamma2);
    if (!h)
        return r1;
    if (r0 > 0)
        return r1 + 1 == m ? 0 : r1 + 1;
    return r1 == 0 ? m - 1 : r1 - 1;
}

/* UseHint without branches: with (r1, r0) = Decompose(r) the step is +1
 * if r0 > 0, else -1, times h in {0, 1}; t = r1 + step lies in [-1, m]
 * and is brought back into [0, m) by adding m where negative and
 * subtracting m where >= m (by a mask where m is a power of two: 16 for
 * gamma2 = (q - 1) / 32). */
QUILL_INLINE int32_t use_hint_one(int32_t r, int32_t h, int32_t gamma2) {
    const int32_t m = (QUILL_MLDSA_Q - 1) / (2 * gamma2);
    int32_t r0, r1 = quill_mldsa_decompose(&r0, r, gamma2);
    int32_t pos = (-r0) >> 31; /* all-ones iff r0 > 0 (|r0| <= gamma2) */
    int32_t t = r1 + (((pos & 2) - 1) & -h);
    if ((m & (m - 1)) == 0) /* m = 16 for (q - 1) / 32: mod m is a mask */
        return t & (m - 1);
    t += (t >> 31) & m;
    t -= ((m - 1 - t) >> 31) & m;
    return t;
}

/* One loop per gamma2, each compiled with its constants. */
QUILL_INLINE void use_hint_body(quill_mldsa_poly *w1, const quill_mldsa_poly *w,
                                const quill_mldsa_poly *h, int32_t gamma2) {
    if (gamma2 == GAMMA2_88) {
        for (unsigned i = 0; i < QUILL_MLDSA_N; i++)
            w1->c[i] = use_hint_one(w->c[i], h->c[i], GAMMA2_88);
    } else {
        for (unsigned i = 0; i < QUILL_MLDSA_N; i++)
            w1->c[i] = use_hint_one(w->c[i], h->c[i], GAMMA2_32);
    }
}
QUILL_MLDSA_CLONE(void, use_hint,
                  (quill_mldsa_poly * w1, const quill_mldsa_poly *w, const quill_mldsa_poly *h,
                   int32_t gamma2),
                  (w1, w, h, gamma2))

void mdt_poly_use_hint(quill_mldsa_poly *w1, const quill_mldsa_poly *w, const quill_mldsa_poly *h,
                       int32_t gamma2) {
    QUILL_MLDSA_PICK(use_hint)(w1, w, h, gamma2);
}

/* Each loop compiled with the set's gamma2. */
void mdt_poly_apply_hint_idx(quill_mldsa_poly *w1, const quill_mldsa_poly *w, const uint8_t *idx,
                             unsigned n, int32_t gamma2) {
    if (gamma2 == GAMMA2_88) {
        for (unsigned j = 0; j < n; j++)
            w1->c[idx[j]] = quill_mldsa_use_hint_from_high(w->c[idx[j]], w1->c[idx[j]], GAMMA2_88);
    } else {
        for (unsigned j = 0; j < n; j++)
            w1->c[idx[j]] = quill_mldsa_use_hint_from_high(w->c[idx[j]], w1->c[idx[j]], GAMMA2_32);
    }
}

void mdt_poly_use_hint_idx(quill_mldsa_poly *w1, const quill_mldsa_poly *w, const uint8_t *idx,
                           unsigned n, int32_t gamma2) {
    quill_mldsa_poly_highbits(w1, w, gamma2);
    mdt_poly_apply_hint_idx(w1, w, idx, n, gamma2);
}
