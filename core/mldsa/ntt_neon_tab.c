/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * The zeta table of the NEON backend (asm/aarch64/mldsa_ntt_neon.S):
 * for every zeta z the residue zp = z mod q in [0, q) and zq = zp q^-1
 * mod 2^32, the two multiplicands of the unsigned Montgomery product by a
 * zeta that ntt_c.c's mont_zeta_v4 computes (UMULL by zp, MUL by zq,
 * UMLSL by q), derived by the compiler from the lists of ntt_zetas.h.
 * The assembly reads it at the byte offsets checked below (public
 * constants, indexed by position only).  Built on aarch64 with the
 * assembly only. */
#include <stddef.h>

#include "ntt.h"

#if QUILL_MLDSA_HAVE_NEON
#include "ntt_zetas.h"
#include "reduce.h"

#define ZP(z) ((z) < 0 ? (z) + QUILL_MLDSA_Q : (z))
#define ZQ(z) ((int32_t)((uint32_t)ZP(z) * (uint32_t)QUILL_MLDSA_QINV))
#define T_ZP(z) ZP(z),
#define T_ZQ(z) ZQ(z),
#define T_NZP(z) ZP(-(z)),
#define T_NZQ(z) ZQ(-(z)),
#define R_ZP(a, b, c, d) ZP(a), ZP(b), ZP(c), ZP(d),
#define R_ZQ(a, b, c, d) ZQ(a), ZQ(b), ZQ(c), ZQ(d),
#define ROWS(R, P)                                                                            \
    {{P##0(R)}, {P##1(R)}, {P##2(R)}, {P##3(R)}, {P##4(R)}, {P##5(R)}, {P##6(R)}}

const quill_mldsa_neon_zeta_table quill_mldsa_neon_zetas = {
    .fwd_zp = {QUILL_MLDSA_ZETAS_TOP(T_ZP)},
    .fwd_zq = {QUILL_MLDSA_ZETAS_TOP(T_ZQ)},
    .fwd_rows_zp = ROWS(R_ZP, QUILL_MLDSA_ZETAS_ROW_),
    .fwd_rows_zq = ROWS(R_ZQ, QUILL_MLDSA_ZETAS_ROW_),
    .inv_zp = {QUILL_MLDSA_ZETAS_TOP(T_NZP)},
    .inv_zq = {QUILL_MLDSA_ZETAS_TOP(T_NZQ)},
    .inv_rows_zp = ROWS(R_ZP, QUILL_MLDSA_ZETAS_INV_ROW_),
    .inv_rows_zq = ROWS(R_ZQ, QUILL_MLDSA_ZETAS_INV_ROW_),
    .scale = {ZP(QUILL_MLDSA_INVNTT_F), ZQ(QUILL_MLDSA_INVNTT_F), ZP(QUILL_MLDSA_INVNTT_F_Z1),
              ZQ(QUILL_MLDSA_INVNTT_F_Z1)},
};

/* The offsets the assembly uses (mldsa_ntt_neon.S, TAB_*). */
_Static_assert(offsetof(quill_mldsa_neon_zeta_table, fwd_zq) == 128, "fwd_zq");
_Static_assert(offsetof(quill_mldsa_neon_zeta_table, fwd_rows_zp) == 256, "fwd_rows_zp");
_Static_assert(offsetof(quill_mldsa_neon_zeta_table, fwd_rows_zq) == 1152, "fwd_rows_zq");
_Static_assert(offsetof(quill_mldsa_neon_zeta_table, inv_zp) == 2048, "inv_zp");
_Static_assert(offsetof(quill_mldsa_neon_zeta_table, inv_zq) == 2176, "inv_zq");
_Static_assert(offsetof(quill_mldsa_neon_zeta_table, inv_rows_zp) == 2304, "inv_rows_zp");
_Static_assert(offsetof(quill_mldsa_neon_zeta_table, inv_rows_zq) == 3200, "inv_rows_zq");
_Static_assert(offsetof(quill_mldsa_neon_zeta_table, scale) == 4096, "scale");
#endif
