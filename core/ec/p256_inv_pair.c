/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * quill_p256_inv_pair_consttime (p256_scalar.h): the field inversion of
 * quill_p256_fe_inv and the scalar inversion of
 * quill_p256_scalar_inv_consttime run as one interleaved divsteps loop
 * (p256_inv.h, quill_p256_inv2_consttime), with the AVX2 divsteps kernel
 * when the CPU has AVX2 (p256_inv_avx2.h), the portable two-lane kernel
 * otherwise. */
#include "ec/p256_fe.h"
#include "ec/p256_fe_inline.h"
#include "ec/p256_inv.h"
#include "ec/p256_inv_avx2.h"
#include "ec/p256_limbs.h"
#include "ec/p256_scalar.h"

void quill_p256_inv_pair_consttime(quill_p256_fe *zinv, const quill_p256_fe *z,
                                   quill_p256_scalar *kinv, const quill_p256_scalar *k) {
    /* The moduli and the R^3 factors of quill_p256_fe_inv (p256_fe.c) and
     * quill_p256_scalar_inv_consttime (p256_scalar.c); see there.  The
     * tests compare this function with those two. */
    static const uint64_t p[4] = {QUILL_P256_P0, QUILL_P256_P1, QUILL_P256_P2, QUILL_P256_P3};
    static const uint64_t n[4] = {UINT64_C(0xf3b9cac2fc632551), UINT64_C(0xbce6faada7179e84),
                                  UINT64_C(0xffffffffffffffff), UINT64_C(0xffffffff00000000)};
    static const quill_p256_fe r3p = {{UINT64_C(0xfffffffd0000000a), UINT64_C(0xffffffedfffffff7),
                                       UINT64_C(0x00000005fffffffc),
                                       UINT64_C(0x0000001800000001)}}; /* R^3 mod p */
    static const quill_p256_scalar r3n = {{UINT64_C(0xac8ebec90b65a624),
                                           UINT64_C(0x111f28ae0c0555c9),
                                           UINT64_C(0x2543b9246ba5e93f),
                                           UINT64_C(0x503a54e76407be65)}}; /* R^3 mod n */
    quill_p256_inv_modulus mp, mn;
    quill_p256_fe tz;
    quill_p256_scalar tk;
    quill_inv_to_s62(mp.m, p);
    mp.minv = 1; /* -p^-1 mod 2^64 */
    quill_inv_to_s62(mn.m, n);
    mn.minv = UINT64_C(0xccd1c8aaee00bc4f); /* -n^-1 mod 2^64 */
#if defined(__x86_64__) && !defined(QUILL_NO_ASM)
    if (quill_p256_inv_avx2_capable())
        quill_p256_inv2_consttime(tz.v, z->v, &mp, tk.v, k->v, &mn,
                                  quill_p256_inv_divsteps_x2_avx2);
    else
#endif
        quill_p256_inv2_consttime(tz.v, z->v, &mp, tk.v, k->v, &mn, quill_inv_divsteps_x2);
    quill_p256_fe_mul(zinv, &tz, &r3p);
    quill_p256_scalar_mul(kinv, &tk, &r3n);
    quill_zeroize(&tz, sizeof(tz));
    quill_zeroize(&tk, sizeof(tk));
}
