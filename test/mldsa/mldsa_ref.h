/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * References for the ML-DSA suites (test/mldsa/mldsa_ref.c): whole forms
 * of steps that the core computes fused or in place, built from the
 * core's public pieces, so that the tests compare the fast paths with
 * them.  Test code only: quill.so does not carry them.  All run on public
 * test data and may take variable time. */
#ifndef QUILL_TEST_MLDSA_REF_H
#define QUILL_TEST_MLDSA_REF_H

#include <stdint.h>

#include "mldsa/params.h"
#include "mldsa/poly.h"

/* mdt_compute_t sets t = NTT^-1(A-hat o s1_hat) + s2 in [0, q) (FIPS 204,
 * Algorithm 6, line 5), row by row with the core's matvec_mont,
 * invntt_tomont, add and freeze, with s1_hat = NTT(s1) given, any
 * representative with |s1_hat_i| < 9q (an unreduced NTT output of s1).
 * The sequential reference of key generation's t (keygen.c computes it
 * fused with Power2Round, keygen_lanes.c in the lanes):
 * test_mldsa_keygen_lanes. */
void mdt_compute_t(quill_mldsa_poly *t, const quill_mldsa_poly *a_hat,
                   const quill_mldsa_poly *s1_hat, const quill_mldsa_poly *s2,
                   const quill_mldsa_params *p);

/* mdt_poly_power2round sets t1, t0 = Power2Round(t) coefficient by
 * coefficient (FIPS 204, Algorithm 35, rounding.h's scalar form; baseline
 * and AVX2 builds, core/mldsa/clone.h).  t0 may alias t.  In: t_i in
 * [0, q).  Constant time.  The unfused reference of key generation's
 * quill_mldsa_invntt_power2round: test_mldsa_sign_arith,
 * test_mldsa_keygen_lanes; test_mldsa_arith checks it against the scalar
 * form; mldsa_kernels times it. */
void mdt_poly_power2round(quill_mldsa_poly *t1, quill_mldsa_poly *t0, const quill_mldsa_poly *t);

/* mdt_hint_check returns 1 if the omega + k bytes at |hint| (the end of a
 * signature) are a well-formed HintBitPack encoding, else 0
 * (HintBitUnpack's checks, FIPS 204, Algorithm 21, lines 4-5, 7, 13: a
 * count above omega or below the previous one, indices not strictly
 * increasing within a polynomial, or nonzero padding).  Then polynomial
 * i's hints are the indices hint[j] for hint[omega + i - 1] <= j <
 * hint[omega + i] (from 0 for i = 0), strictly increasing.  Checks on
 * their own, before any hint is read: test_mldsa_arith holds
 * verification's quill_mldsa_use_hints_public, which makes them while it
 * applies the hints, to accepting exactly these encodings. */
int mdt_hint_check(const uint8_t *hint, const quill_mldsa_params *p);

/* mdt_unpack_sig reads sigDecode (FIPS 204, Algorithm 27, with
 * HintBitUnpack, Algorithm 21) and returns 1, or 0 if the hint encoding is
 * malformed (mdt_hint_check).  ctilde gets p->ctilde_bytes bytes, z
 * the l polynomials (quill_mldsa_poly_unpack_z), h the k hint polynomials
 * (0 or 1).  The inverse that test_mldsa_arith checks quill_mldsa_pack_sig
 * and the hint checks against (verification unpacks z itself and reads
 * the hints in place). */
int mdt_unpack_sig(uint8_t *ctilde, quill_mldsa_poly *z, quill_mldsa_poly *h, const uint8_t *sig,
                   const quill_mldsa_params *p);

/* mdt_use_hint returns UseHint(h, r) (FIPS 204, Algorithm 40) as the
 * specification writes it: HighBits(r), moved one step (mod
 * (q - 1) / (2 gamma2)) toward the sign of LowBits(r) when h = 1.
 * Branches on its inputs.  In: 0 <= r < q, h in {0, 1}, gamma2
 * (q - 1) / 88 or (q - 1) / 32. */
int32_t mdt_use_hint(int32_t r, int h, int32_t gamma2);

/* mdt_poly_use_hint sets w1 = UseHint(h, w) coefficient by coefficient, in
 * a loop without branches on the values (so that it vectorises; baseline
 * and AVX2 builds, core/mldsa/clone.h, chosen as the core chooses its
 * own).  In: w_i in [0, q), h_i in {0, 1}; w1 may alias w.  A reference
 * over a whole polynomial: test_mldsa_arith checks it against mdt_use_hint
 * for every r and checks verification's index-list form against it;
 * mldsa_kernels times it. */
void mdt_poly_use_hint(quill_mldsa_poly *w1, const quill_mldsa_poly *w, const quill_mldsa_poly *h,
                       int32_t gamma2);

/* mdt_poly_apply_hint_idx finishes UseHint (FIPS 204, Algorithm 40) with
 * the hint given as the list of its n ones' indices idx[0..n-1] (as
 * HintBitPack stores them; any order, each < 256, no index twice, as
 * mdt_hint_check ensures): w1 already holds HighBits(w), and UseHint(1,
 * w_i) (quill_mldsa_use_hint_from_high, the core's) replaces it at those
 * indices.  The per-polynomial form that test_mldsa_arith compares
 * verification's quill_mldsa_use_hints_public with.  In: w_i in [0, q);
 * w1 must not alias w. */
void mdt_poly_apply_hint_idx(quill_mldsa_poly *w1, const quill_mldsa_poly *w, const uint8_t *idx,
                             unsigned n, int32_t gamma2);

/* mdt_poly_use_hint_idx is mdt_poly_use_hint with the hint given as the
 * list of its n ones' indices idx[0..n-1] (as for mdt_poly_apply_hint_idx)
 * in verification's way: quill_mldsa_poly_highbits, then
 * mdt_poly_apply_hint_idx (verify.c makes the high bits in the inverse NTT
 * instead).  test_mldsa_arith checks it against mdt_poly_use_hint for
 * every r, and so quill_mldsa_use_hint_from_high.  In: w_i in [0, q); w1
 * must not alias w. */
void mdt_poly_use_hint_idx(quill_mldsa_poly *w1, const quill_mldsa_poly *w, const uint8_t *idx,
                           unsigned n, int32_t gamma2);

#endif
