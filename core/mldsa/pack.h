/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Encodings of FIPS 204, section 7.2 (Algorithms 16 to 28): the packing of
 * t1, t0, s1/s2, z and w1 and the hint encoding, and the public-key,
 * private-key and signature layouts built from them.  Packing is constant
 * time; the decoders that look at public data end in _public. */
#ifndef QUILL_MLDSA_PACK_H
#define QUILL_MLDSA_PACK_H

#include <stddef.h>
#include <stdint.h>

#include "common/ct.h"
#include "ntt.h"
#include "params.h"
#include "poly.h"

/* Per-polynomial byte counts. */
#define QUILL_MLDSA_T1_BYTES 320 /* 10 bits */
#define QUILL_MLDSA_T0_BYTES 416 /* 13 bits */

/* quill_mldsa_pack_bits writes 256 values of |bits| bits each (little
 * endian, FIPS 204's SimpleBitPack); quill_mldsa_unpack_bits reads them.
 * Constant time.  In: 0 <= v_i < 2^bits, bits <= 24.  The generic form,
 * kept as the reference: the per-polynomial functions below have their own
 * fixed-width loops (4, 6, 10, 13, 18, 20 bits and 3 / 4 for eta), which
 * test_mldsa_arith compares against it. */
void quill_mldsa_pack_bits(uint8_t *out, const uint32_t v[QUILL_MLDSA_N], unsigned bits);
void quill_mldsa_unpack_bits(uint32_t v[QUILL_MLDSA_N], const uint8_t *in, unsigned bits);

/* quill_mldsa_poly_pack_t1 / _unpack_t1: SimpleBitPack(t1, 2^10 - 1). */
void quill_mldsa_poly_pack_t1(uint8_t out[QUILL_MLDSA_T1_BYTES], const quill_mldsa_poly *t1);
void quill_mldsa_poly_unpack_t1(quill_mldsa_poly *t1, const uint8_t in[QUILL_MLDSA_T1_BYTES]);

/* quill_mldsa_poly_pack_t0 / _unpack_t0: BitPack(t0, 2^12 - 1, 2^12). */
void quill_mldsa_poly_pack_t0(uint8_t out[QUILL_MLDSA_T0_BYTES], const quill_mldsa_poly *t0);
void quill_mldsa_poly_unpack_t0(quill_mldsa_poly *t0, const uint8_t in[QUILL_MLDSA_T0_BYTES]);

/* The AVX2 twins of the packers of t1, t0 and s with eta = 2 (pack_avx2.c;
 * same bytes as the portable forms, and no byte written past the
 * encoding), chosen inside quill_mldsa_poly_pack_t1 / _t0 when
 * quill_mldsa_avx2_capable(), and inside quill_mldsa_poly_pack_eta when
 * BMI2 is there too.  In: as the functions above and below; c 4-byte
 * aligned.  Constant time (t0 and s are secret). */
#if QUILL_MLDSA_HAVE_AVX2
void quill_mldsa_poly_pack_t1_avx2(uint8_t out[QUILL_MLDSA_T1_BYTES],
                                   const int32_t c[QUILL_MLDSA_N]);
void quill_mldsa_poly_pack_t0_avx2(uint8_t out[QUILL_MLDSA_T0_BYTES],
                                   const int32_t c[QUILL_MLDSA_N]);
void quill_mldsa_poly_pack_eta2_avx2(uint8_t out[96], const int32_t c[QUILL_MLDSA_N]);
#endif

/* quill_mldsa_poly_pack_eta: BitPack(s, eta, eta) in 32 eta_bits bytes.
 * quill_mldsa_poly_unpack_eta decodes and returns all-ones if some
 * coefficient is outside [-eta, eta] (an invalid private key), else zero;
 * constant time. */
void quill_mldsa_poly_pack_eta(uint8_t *out, const quill_mldsa_poly *s,
                               const quill_mldsa_params *p);
quill_word quill_mldsa_poly_unpack_eta(quill_mldsa_poly *s, const uint8_t *in,
                                       const quill_mldsa_params *p);

/* quill_mldsa_poly_pack_z / _unpack_z: BitPack(z, gamma1 - 1, gamma1) in
 * 32 (gamma1_bits + 1) bytes; unpacking gives values in
 * [-gamma1 + 1, gamma1].  Also ExpandMask's BitUnpack. */
void quill_mldsa_poly_pack_z(uint8_t *out, const quill_mldsa_poly *z, const quill_mldsa_params *p);
void quill_mldsa_poly_unpack_z(quill_mldsa_poly *z, const uint8_t *in,
                               const quill_mldsa_params *p);
/* quill_mldsa_poly_unpack_z_norm_public is quill_mldsa_poly_unpack_z (of
 * a signature's z) followed by quill_mldsa_poly_norm_ge_public(z, bound):
 * returns nonzero if some |z_i| >= bound, 1 <= bound <= gamma1.  The AVX2
 * twin checks as it unpacks, in one pass (variable time: public data). */
int quill_mldsa_poly_unpack_z_norm_public(quill_mldsa_poly *z, const uint8_t *in,
                                          const quill_mldsa_params *p, int32_t bound);
/* The portable forms and their AVX2 twins (usable when
 * quill_mldsa_avx2_capable()), chosen by quill_mldsa_poly_pack_z and
 * _unpack_z; all read or write exactly the 32 (gamma1_bits + 1) bytes of
 * the encoding. */
void quill_mldsa_poly_pack_z_c(uint8_t *out, const quill_mldsa_poly *z,
                               const quill_mldsa_params *p);
void quill_mldsa_poly_unpack_z_c(quill_mldsa_poly *z, const uint8_t *in,
                                 const quill_mldsa_params *p);
#if QUILL_MLDSA_HAVE_AVX2
void quill_mldsa_poly_pack_z_avx2(uint8_t *out, const quill_mldsa_poly *z,
                                  const quill_mldsa_params *p);
void quill_mldsa_poly_unpack_z_avx2(quill_mldsa_poly *z, const uint8_t *in,
                                    const quill_mldsa_params *p);
int quill_mldsa_poly_unpack_z_norm_avx2(quill_mldsa_poly *z, const uint8_t *in,
                                        const quill_mldsa_params *p, int32_t bound);
#endif
#if QUILL_MLDSA_HAVE_NEON
/* The NEON twin (asm/aarch64/mldsa_unpack_z_neon.S), usable when
 * quill_mldsa_neon_capable(): z->c from gamma1_bits (17 or 19) and gamma1
 * of the set; reads exactly the 32 (gamma1_bits + 1) bytes too. */
void quill_mldsa_poly_unpack_z_neon(int32_t z[QUILL_MLDSA_N], const uint8_t *in,
                                    unsigned gamma1_bits, int32_t gamma1);
#endif

/* quill_mldsa_pack_w1 writes w1Encode(w1) (FIPS 204, Algorithm 28): k
 * polynomials of w1_bits bits per coefficient, 32 k w1_bits bytes.
 * Returns the length written. */
size_t quill_mldsa_pack_w1(uint8_t *out, const quill_mldsa_poly *w1, const quill_mldsa_params *p);

/* quill_mldsa_pack_pk writes pkEncode(rho, t1) (Algorithm 22);
 * quill_mldsa_unpack_pk reads it (every input of the right length is
 * valid). */
void quill_mldsa_pack_pk(uint8_t *pk, const uint8_t rho[32], const quill_mldsa_poly *t1,
                         const quill_mldsa_params *p);
void quill_mldsa_unpack_pk(uint8_t rho[32], quill_mldsa_poly *t1, const uint8_t *pk,
                           const quill_mldsa_params *p);

/* quill_mldsa_pack_sk writes skEncode(rho, K, tr, s1, s2, t0) (Algorithm
 * 24); quill_mldsa_unpack_sk (Algorithm 25) returns all-ones if some s1 or s2
 * coefficient is outside [-eta, eta].  Constant time; all secret.
 * quill_mldsa_pack_sk_s and _sk_t0 write only the s1 / s2 part and the t0
 * part (at offsets 128 and QUILL_MLDSA_SK_T0_OFFSET(p)), so that key
 * generation can encode s1 and s2 before transforming them in place.
 * Decoding and re-encoding s1 and s2 gives back the same bytes for every
 * input (in range or not), so a check of an expanded key by re-encoding
 * needs only the range mask for them. */
#define QUILL_MLDSA_SK_T0_OFFSET(p) (128u + 32u * (p)->eta_bits * ((p)->l + (p)->k))
void quill_mldsa_pack_sk_s(uint8_t *sk, const quill_mldsa_poly *s1, const quill_mldsa_poly *s2,
                           const quill_mldsa_params *p);
void quill_mldsa_pack_sk_t0(uint8_t *sk, const quill_mldsa_poly *t0, const quill_mldsa_params *p);
/* quill_mldsa_unpack_sk_s decodes only s1 and s2 (the range mask as for
 * quill_mldsa_unpack_sk). */
quill_word quill_mldsa_unpack_sk_s(quill_mldsa_poly *s1, quill_mldsa_poly *s2, const uint8_t *sk,
                                   const quill_mldsa_params *p);
void quill_mldsa_pack_sk(uint8_t *sk, const uint8_t rho[32], const uint8_t key[32],
                         const uint8_t tr[64], const quill_mldsa_poly *s1,
                         const quill_mldsa_poly *s2, const quill_mldsa_poly *t0,
                         const quill_mldsa_params *p);
quill_word quill_mldsa_unpack_sk(uint8_t rho[32], uint8_t key[32], uint8_t tr[64],
                                 quill_mldsa_poly *s1, quill_mldsa_poly *s2, quill_mldsa_poly *t0,
                                 const uint8_t *sk, const quill_mldsa_params *p);

/* quill_mldsa_pack_sig writes sigEncode(c~, z, h) (Algorithm 26, with
 * HintBitPack, Algorithm 20).  In: z_i in [-gamma1 + 1, gamma1], h_i in
 * {0, 1} with at most omega ones.  Variable time in h: call it only on the
 * accepted (public) signature. */
void quill_mldsa_pack_sig(uint8_t *sig, const uint8_t *ctilde, const quill_mldsa_poly *z,
                          const quill_mldsa_poly *h, const quill_mldsa_params *p);

#endif
