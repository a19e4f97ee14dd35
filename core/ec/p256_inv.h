/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Constant-time modular inversion by Bernstein and Yang's divsteps ("Fast
 * constant-time gcd computation and modular inversion", TCHES 2019), in the
 * half-delta form ("hddivsteps", which needs at most 590 steps for moduli
 * and inputs below 2^256), for the odd 256-bit moduli of P-256 (p and n).
 * Internal to core/ec; included by p256_fe.c and p256_scalar.c (as inline
 * code, so that the table generator, which builds from p256_fe.c alone,
 * needs no other file).
 *
 * quill_p256_inv_consttime(out, x, m) sets out = x^-1 mod M for a plain
 * (not Montgomery) x < M, and out = 0 for x = 0.  Constant time: the same
 * 620 divsteps (10 batches of 62) and the same limb operations run for
 * every x; nothing branches on or indexes memory by x.  None can fail.
 *
 * Representation: signed integers in five 62-bit limbs (int64_t, limbs 0-3
 * in [0, 2^62), limb 4 signed), enough for the 257-bit signed values f, g,
 * d and e below.
 *
 * Each batch runs 62 divsteps on the low 64 bits of f and g alone (62 steps
 * need at most 62 correct low bits) and records them as a matrix T with
 * 2^62 (f', g') = T (f, g), |T entries| <= 2^62; then applies T to the full
 * f and g (exact division by 2^62) and to d and e modulo M, where
 * f = d x and g = e x (mod M) hold throughout (f = M, g = x, d = 0, e = 1
 * at the start).  At the end g = 0 and f = +-gcd(M, x) = +-1 for x != 0,
 * so x^-1 = +-d.
 *
 * quill_p256_inv_vartime(out, x, m) is the same computation for a public
 * x, in variable time: the divsteps of a batch skip runs of even g at once
 * (one shift instead of a step each) and branch on the swap, and the
 * batches stop once g = 0 (a batch on g = 0 leaves f and d as they are),
 * which for random 256-bit inputs happens after 9 batches.  It
 * computes exactly the matrices of the constant-time steps (so the same
 * result); about a third of the instructions of Kaliski's almost
 * Montgomery inverse that it replaced for verification.
 *
 * Why this is not core/bn/inv.c (the generic inverter for any odd modulus
 * up to 16384 bits), measured with callgrind at QUILL_CPU_MASK=0x30 (ADX
 * assumed), per P-256 signature (core part, OpenSSL's SHA-256 for the
 * nonce excluded: 163,900 instructions, of which two inversions 67,000):
 *   - P-256 on quill_bn_inv_mod_odd_consttime as it is: +30,700 (+18.7%;
 *     the whole signature with its hashing +5.4%, a key generation +12.3%);
 *   - on the best shared body (inv.c's code as an inline header, arrays and
 *     loops at five 62-bit limbs): +4,200 (+2.5%; +0.7% with hashing, key
 *     generation +1.8%).
 * The remaining cost is the step count: a shared body must use the
 * divsteps of inv.c, whose bound (Bernstein-Yang Theorem 11.2) holds for
 * every size, 742 steps for 256 bits (12 batches); the half-delta steps
 * here need 10 batches, but their 590-step bound is a computed one for
 * 256-bit inputs and cannot serve the generic sizes.  So they stay two. */
#ifndef QUILL_EC_P256_INV_H
#define QUILL_EC_P256_INV_H

#include <stddef.h>
#include <stdint.h>

#include "common/ct.h"
#include "common/zeroize.h"
#include "ec/p256_limbs.h"

__extension__ typedef __int128 quill_i128;

#define QUILL_INV_M62 ((UINT64_C(1) << 62) - 1)

/* An odd modulus M < 2^256: its 62-bit limbs and minv = -M^-1 mod 2^64
 * (the Montgomery constant n0 of the modulus; only its low 62 bits are
 * used). */
typedef struct quill_p256_inv_modulus {
    int64_t m[5];
    uint64_t minv;
} quill_p256_inv_modulus;

/* Four 64-bit limbs (value < 2^256) to five 62-bit limbs. */
QUILL_INLINE void quill_inv_to_s62(int64_t r[5], const uint64_t a[4]) {
    r[0] = (int64_t)(a[0] & QUILL_INV_M62);
    r[1] = (int64_t)(((a[0] >> 62) | (a[1] << 2)) & QUILL_INV_M62);
    r[2] = (int64_t)(((a[1] >> 60) | (a[2] << 4)) & QUILL_INV_M62);
    r[3] = (int64_t)(((a[2] >> 58) | (a[3] << 6)) & QUILL_INV_M62);
    r[4] = (int64_t)(a[3] >> 56);
}

/* Five 62-bit limbs of a value in [0, 2^256) to four 64-bit limbs. */
QUILL_INLINE void quill_inv_from_s62(uint64_t r[4], const int64_t a[5]) {
    const uint64_t a0 = (uint64_t)a[0], a1 = (uint64_t)a[1], a2 = (uint64_t)a[2],
                   a3 = (uint64_t)a[3], a4 = (uint64_t)a[4];
    r[0] = a0 | (a1 << 62);
    r[1] = (a1 >> 2) | (a2 << 60);
    r[2] = (a2 >> 4) | (a3 << 58);
    r[3] = (a3 >> 6) | (a4 << 56);
}

/* 62 divsteps on the low words f, g (f odd) from zeta = -(delta + 1/2);
 * writes T = (u, v, q, r) and returns the new zeta.  Each step, with c the
 * mask "delta > 0 (zeta < 0) and g odd":
 *   if c: (f, g, u, v, q, r) = (g, -f, q, r, -u, -v), zeta = -zeta - 2,
 *   else zeta = zeta - 1;
 *   if g odd: g += f, q += u, r += v;
 *   g /= 2 (exact), u *= 2, v *= 2,
 * which is the divstep (f, g) -> (g, (g - f) / 2), (f, (g + f) / 2) or
 * (f, g / 2) with T tracking 2^i (f_i, g_i) = T (f_0, g_0). */
QUILL_INLINE int64_t quill_inv_divsteps_62(int64_t zeta, uint64_t f, uint64_t g, int64_t t[4]) {
    uint64_t u = 1, v = 0, q = 0, r = 1, x;
    uint64_t z = (uint64_t)zeta;
    for (int i = 0; i < 62; i++) {
        /* g's parity survives the swap (-f is odd like g), so the mask
         * "g odd" is taken once, before it: a shorter dependency chain. */
        const quill_word odd = (quill_word)0 - (g & 1);
        const quill_word c = quill_ct_msb_mask(z) & odd;
        x = (f ^ g) & c;
        f ^= x;
        g ^= x;
        x = (u ^ q) & c;
        u ^= x;
        q ^= x;
        x = (v ^ r) & c;
        v ^= x;
        r ^= x;
        g = (g ^ c) - c;
        q = (q ^ c) - c;
        r = (r ^ c) - c;
        /* -zeta - 2 on a swap (= ~zeta - 1), zeta - 1 otherwise: the
         * half-delta update whose 590-step bound the 620 steps rely on. */
        z = (z ^ c) - 1;
        g += f & odd;
        q += u & odd;
        r += v & odd;
        g >>= 1;
        u <<= 1;
        v <<= 1;
    }
    t[0] = (int64_t)u;
    t[1] = (int64_t)v;
    t[2] = (int64_t)q;
    t[3] = (int64_t)r;
    return (int64_t)z;
}

/* a = a + (M & mask), limbs renormalised (a signed, |a| < 2^258). */
QUILL_INLINE void quill_inv_add_masked(int64_t a[5], const int64_t m[5], quill_word mask) {
    int64_t c = 0;
    for (int i = 0; i < 4; i++) {
        c += a[i] + (int64_t)((uint64_t)m[i] & mask);
        a[i] = (int64_t)((uint64_t)c & QUILL_INV_M62);
        c >>= 62;
    }
    a[4] += c + (int64_t)((uint64_t)m[4] & mask);
}

/* Brings a in (-2M, M) into [0, M): + M if negative, twice. */
QUILL_INLINE void quill_inv_normalize(int64_t a[5], const int64_t m[5]) {
    quill_inv_add_masked(a, m, quill_ct_msb_mask((uint64_t)a[4]));
    quill_inv_add_masked(a, m, quill_ct_msb_mask((uint64_t)a[4]));
}

/* (a, b) = (T (a, b) + (ma, mb) M) / 2^62, exactly: the one body of both
 * updates below.  Without a modulus (mod == NULL: f and g) ma = mb = 0, the
 * low 62 bits of both sums being zero by construction of T.  With one (d and
 * e), ma and mb are chosen to make them zero, and also to keep d and e in
 * (-2M, M) (the range of libsecp256k1's modinv64, whose argument this is):
 * with sd, se the sign masks of a and b,
 *   ma = (u & sd) + (v & se) - k, k = (M^-1 (u a0 + v b0 + ((u & sd) +
 *   (v & se)) M0)) mod 2^62 in [0, 2^62),
 * so that T (a, b) + ma M = u (a + M [a < 0]) + v (b + M [b < 0]) - k M,
 * where both corrected values lie in (-M, M); with |u| + |v| <= 2^62 the
 * quotient lies in (-M, M) - [0, M) = (-2M, M).  No per-batch
 * normalisation: quill_inv_normalize runs once at the end.  (minv is
 * -M^-1 mod 2^64, so k = -(minv (...)) mod 2^62.)  Always inlined with a
 * constant mod, so the f, g update carries no multiple of M. */
QUILL_INLINE void quill_inv_apply(int64_t a[5], int64_t b[5], const int64_t t[4],
                                  const quill_p256_inv_modulus *mod) {
    const int64_t u = t[0], v = t[1], q = t[2], r = t[3];
    quill_i128 ca = (quill_i128)u * a[0] + (quill_i128)v * b[0];
    quill_i128 cb = (quill_i128)q * a[0] + (quill_i128)r * b[0];
    int64_t ma = 0, mb = 0;
    if (mod != NULL) {
        const uint64_t sa = quill_ct_msb_mask((uint64_t)a[4]);
        const uint64_t sb = quill_ct_msb_mask((uint64_t)b[4]);
        uint64_t xa = ((uint64_t)u & sa) + ((uint64_t)v & sb);
        uint64_t xb = ((uint64_t)q & sa) + ((uint64_t)r & sb);
        const uint64_t m0 = (uint64_t)mod->m[0];
        xa -= ((uint64_t)0 - mod->minv * ((uint64_t)ca + xa * m0)) & QUILL_INV_M62;
        xb -= ((uint64_t)0 - mod->minv * ((uint64_t)cb + xb * m0)) & QUILL_INV_M62;
        ma = (int64_t)xa;
        mb = (int64_t)xb;
        ca += (quill_i128)ma * mod->m[0];
        cb += (quill_i128)mb * mod->m[0];
    }
    ca >>= 62;
    cb >>= 62;
    /* Without a modulus ma = mb = 0 and m need only be a valid address (a):
     * the zero products fold away, leaving the plain f, g update. */
    const int64_t *m = mod != NULL ? mod->m : a;
    for (int i = 1; i < 5; i++) {
        ca += (quill_i128)u * a[i] + (quill_i128)v * b[i] + (quill_i128)ma * m[i];
        cb += (quill_i128)q * a[i] + (quill_i128)r * b[i] + (quill_i128)mb * m[i];
        a[i - 1] = (int64_t)((uint64_t)ca & QUILL_INV_M62);
        b[i - 1] = (int64_t)((uint64_t)cb & QUILL_INV_M62);
        ca >>= 62;
        cb >>= 62;
    }
    a[4] = (int64_t)ca;
    b[4] = (int64_t)cb;
}

/* (f, g) = T (f, g) / 2^62, exactly.  |f|, |g| <= M stay within the five
 * limbs. */
QUILL_INLINE void quill_inv_update_fg(int64_t f[5], int64_t g[5], const int64_t t[4]) {
    quill_inv_apply(f, g, t, NULL);
}

/* (d, e) = T (d, e) / 2^62 mod M, for d, e in (-2M, M), result in (-2M, M)
 * (quill_inv_apply). */
QUILL_INLINE void quill_inv_update_de(int64_t d[5], int64_t e[5], const int64_t t[4],
                                      const quill_p256_inv_modulus *mod) {
    quill_inv_apply(d, e, t, mod);
}

/* quill_inv_divsteps_62 in variable time: the same 62 divsteps, zeta and
 * T for the same inputs (f odd).  Steps on an even g only halve g, double
 * u and v and decrement zeta, so a run of k of them is one shift by k (at
 * most the steps left; g = 0 takes them all). */
QUILL_INLINE int64_t quill_inv_divsteps_62_vartime(int64_t zeta, uint64_t f, uint64_t g,
                                                   int64_t t[4]) {
    uint64_t u = 1, v = 0, q = 0, r = 1, x;
    int64_t z = zeta;
    int left = 62;
    for (;;) {
        if ((g & 1) == 0) {
            int k = g == 0 ? left : __builtin_ctzll(g);
            if (k > left)
                k = left;
            g >>= k;
            u <<= k;
            v <<= k;
            z -= k;
            left -= k;
            if (left == 0)
                break;
        }
        /* g odd */
        if (z < 0) { /* (f, g, u, v, q, r) = (g, -f, q, r, -u, -v) */
            x = f;
            f = g;
            g = (uint64_t)0 - x;
            x = u;
            u = q;
            q = (uint64_t)0 - x;
            x = v;
            v = r;
            r = (uint64_t)0 - x;
            z = -z - 2;
        } else {
            z = z - 1;
        }
        g += f;
        q += u;
        r += v;
        g >>= 1;
        u <<= 1;
        v <<= 1;
        if (--left == 0)
            break;
    }
    t[0] = (int64_t)u;
    t[1] = (int64_t)v;
    t[2] = (int64_t)q;
    t[3] = (int64_t)r;
    return z;
}

/* quill_inv_start sets f = M and g = x for the inversion of x modulo M
 * (with d = 0 and e = 1, set by the caller, f = d x and g = e x mod M), and
 * returns the starting zeta = -1 (delta = 1/2). */
QUILL_INLINE int64_t quill_inv_start(int64_t f[5], int64_t g[5], const uint64_t x[4],
                                     const quill_p256_inv_modulus *mod) {
    for (int i = 0; i < 5; i++)
        f[i] = mod->m[i];
    quill_inv_to_s62(g, x);
    return -1;
}

/* quill_inv_batch runs one batch: 62 divsteps on the low 64 bits of f and
 * g (in variable time if |vartime|, a constant at every call), leaving
 * their matrix in t, then applies it to (f, g) and (d, e).  Returns the new
 * zeta. */
QUILL_INLINE int64_t quill_inv_batch(int64_t zeta, int64_t f[5], int64_t g[5], int64_t d[5],
                                     int64_t e[5], int64_t t[4],
                                     const quill_p256_inv_modulus *mod, int vartime) {
    const uint64_t fl = (uint64_t)f[0] | ((uint64_t)f[1] << 62);
    const uint64_t gl = (uint64_t)g[0] | ((uint64_t)g[1] << 62);
    if (vartime)
        zeta = quill_inv_divsteps_62_vartime(zeta, fl, gl, t);
    else
        zeta = quill_inv_divsteps_62(zeta, fl, gl, t);
    quill_inv_update_fg(f, g, t);
    quill_inv_update_de(d, e, t, mod);
    return zeta;
}

QUILL_INLINE void quill_p256_inv_consttime(uint64_t out[4], const uint64_t x[4],
                                           const quill_p256_inv_modulus *mod) {
    int64_t f[5], g[5], d[5] = {0, 0, 0, 0, 0}, e[5] = {1, 0, 0, 0, 0}, t[4];
    int64_t zeta = quill_inv_start(f, g, x, mod);
    for (int j = 0; j < 10; j++)
        zeta = quill_inv_batch(zeta, f, g, d, e, t, mod, 0);
    /* f = +-1 (or M for x = 0, with d = 0): x^-1 = d, or M - d when f < 0,
     * d brought from (-2M, M) into [0, M) first. */
    uint64_t dv[4], mv[4], nd[4];
    const quill_word neg = quill_ct_msb_mask((uint64_t)f[4]);
    quill_inv_normalize(d, mod->m);
    quill_inv_from_s62(dv, d);
    quill_inv_from_s62(mv, mod->m);
    (void)quill_sub4(nd, mv, dv);
    for (int i = 0; i < 4; i++)
        out[i] = quill_ct_select_w(neg, nd[i], dv[i]);
    quill_zeroize(f, sizeof(f));
    quill_zeroize(g, sizeof(g));
    quill_zeroize(d, sizeof(d));
    quill_zeroize(e, sizeof(e));
    quill_zeroize(t, sizeof(t));
    quill_zeroize(dv, sizeof(dv));
    quill_zeroize(nd, sizeof(nd));
}

QUILL_INLINE void quill_p256_inv_vartime(uint64_t out[4], const uint64_t x[4],
                                         const quill_p256_inv_modulus *mod) {
    int64_t f[5], g[5], d[5] = {0, 0, 0, 0, 0}, e[5] = {1, 0, 0, 0, 0}, t[4];
    int64_t zeta = quill_inv_start(f, g, x, mod);
    /* At most 10 batches, as in the constant-time version (590 hddivsteps
     * suffice); stopping at convergence ends random inputs after about
     * 9. */
    for (int j = 0; j < 10 && (g[0] | g[1] | g[2] | g[3] | g[4]) != 0; j++)
        zeta = quill_inv_batch(zeta, f, g, d, e, t, mod, 1);
    uint64_t dv[4], mv[4];
    quill_inv_normalize(d, mod->m);
    quill_inv_from_s62(dv, d);
    if (f[4] < 0) {
        quill_inv_from_s62(mv, mod->m);
        (void)quill_sub4(out, mv, dv);
    } else {
        for (int i = 0; i < 4; i++)
            out[i] = dv[i];
    }
}

/* ---- Two inversions at once ----
 *
 * One divstep is a chain of dependent single-cycle operations on g and
 * zeta, so the constant-time inversion is latency-bound and leaves most of
 * the core's units idle.  Two independent inversions (an ECDSA signature
 * needs Z^-1 mod p and k^-1 mod n) run step by step in the two lanes of
 * vectors, one instruction doing the operation of both.  The divsteps
 * kernel is a parameter (quill_inv_divsteps_x2_fn): the portable
 * quill_inv_divsteps_x2 below, or the AVX2 one of p256_inv_avx2.h.
 * Zen 4, gcc 12, TSC ticks per pair (quill-limits p256.inv_pair, with the
 * two products by R^3): 7,560 with the earlier kernel (scalar f, g, zeta
 * beside two-lane matrix vectors, 5,300 of it divsteps and d, e normalised
 * every batch); now 5,880-5,920 with the portable kernel and 4,600-4,630
 * with the AVX2 one (~2,700 of it divsteps, ~1,400 matrix updates).  The
 * same steps and results as two calls of quill_p256_inv_consttime,
 * constant time in both inputs. */

/* Two 64-bit lanes (SSE2 on x86-64, NEON on aarch64, generic code
 * elsewhere): lane 0 for the first inversion, lane 1 for the second. */
typedef uint64_t quill_inv_v2 __attribute__((vector_size(16)));

/* The divsteps state of two inversions: the low words of f and g, zeta and
 * the matrix (t[k] = u, v, q, r of inversion k; the identity at the start
 * of a batch).  A kernel runs the 62 steps of a batch from it and writes it
 * back.  (Two calls of 31 steps with the previous batch's (d, e) update
 * between them, to overlap that scalar work with the vector steps,
 * measured 7% slower per inversion pair than one call.) */
typedef struct quill_inv_x2 {
    uint64_t f[2], g[2];
    int64_t zeta[2];
    int64_t t[2][4];
} quill_inv_x2;

/* The signature of a two-state divsteps kernel. */
typedef void quill_inv_divsteps_x2_fn(quill_inv_x2 *st);

/* quill_inv_divsteps_x2 runs the 62 steps of quill_inv_divsteps_62 on both
 * states of st, each variable a vector of two lanes (a, b).
 * A step in the form of Wuille's libsecp256k1 (conditional negation, then
 * two masked additions) rather than the swap of quill_inv_divsteps_62: the
 * same T and zeta, 27 vector operations per step for both states.  With
 * c1 the mask "zeta < 0" and c2 the mask "g odd":
 *   g += (c1 ? -f : f) & c2; (q, r) += (c1 ? -(u, v) : (u, v)) & c2;
 *   c = c1 & c2; zeta = c ? -zeta - 2 : zeta - 1;
 *   f += g & c (f = old g); (u, v) += (q, r) & c (old (q, r));
 *   g >>= 1; (u, v) <<= 1.
 * (Keeping the masks in scalar registers and only the matrix in vectors
 * measured slower: four GPR-to-vector moves per step.)  Constant time: the
 * masks select by arithmetic, never by a branch or an address. */
QUILL_INLINE void quill_inv_divsteps_x2(quill_inv_x2 *st) {
    typedef int32_t quill_inv_v4s __attribute__((vector_size(16)));
    quill_inv_v2 f = {st->f[0], st->f[1]}, g = {st->g[0], st->g[1]};
    quill_inv_v2 z = {(uint64_t)st->zeta[0], (uint64_t)st->zeta[1]};
    quill_inv_v2 u = {(uint64_t)st->t[0][0], (uint64_t)st->t[1][0]};
    quill_inv_v2 v = {(uint64_t)st->t[0][1], (uint64_t)st->t[1][1]};
    quill_inv_v2 q = {(uint64_t)st->t[0][2], (uint64_t)st->t[1][2]};
    quill_inv_v2 r = {(uint64_t)st->t[0][3], (uint64_t)st->t[1][3]};
    const quill_inv_v2 one = {1, 1}, zero = {0, 0};
    for (int i = 0; i < 62; i++) {
        /* |zeta| < 2^31 (at most 620 steps from -1), so the arithmetic
         * shift of each 32-bit half by 31 spreads zeta's sign over its
         * 64-bit lane (SSE2 has no 64-bit arithmetic shift). */
        quill_inv_v2 c1 = (quill_inv_v2)((quill_inv_v4s)z >> 31);
        const quill_inv_v2 c2 = zero - (g & one);
        g += ((f ^ c1) - c1) & c2;
        q += ((u ^ c1) - c1) & c2;
        r += ((v ^ c1) - c1) & c2;
        c1 &= c2;
        z = (z ^ c1) - one;
        f += g & c1;
        u += q & c1;
        v += r & c1;
        g >>= 1;
        u += u;
        v += v;
    }
    for (int k = 0; k < 2; k++) {
        st->f[k] = f[k];
        st->g[k] = g[k];
        st->zeta[k] = (int64_t)z[k];
        st->t[k][0] = (int64_t)u[k];
        st->t[k][1] = (int64_t)v[k];
        st->t[k][2] = (int64_t)q[k];
        st->t[k][3] = (int64_t)r[k];
    }
}

/* The state of one inversion in quill_p256_inv2_consttime. */
typedef struct quill_inv_state {
    int64_t f[5], g[5], d[5], e[5], t[4];
} quill_inv_state;

/* The end of quill_p256_inv_consttime: out = +-d by the sign of f, d
 * normalised. */
QUILL_INLINE void quill_inv_finish(uint64_t out[4], quill_inv_state *st,
                                   const quill_p256_inv_modulus *mod) {
    uint64_t dv[4], mv[4], nd[4];
    const quill_word neg = quill_ct_msb_mask((uint64_t)st->f[4]);
    quill_inv_normalize(st->d, mod->m);
    quill_inv_from_s62(dv, st->d);
    quill_inv_from_s62(mv, mod->m);
    (void)quill_sub4(nd, mv, dv);
    for (int i = 0; i < 4; i++)
        out[i] = quill_ct_select_w(neg, nd[i], dv[i]);
    quill_zeroize(dv, sizeof(dv));
    quill_zeroize(nd, sizeof(nd));
}

/* quill_p256_inv2_consttime sets outa = xa^-1 mod Ma and outb = xb^-1 mod
 * Mb, exactly as quill_p256_inv_consttime does each (0 for 0); constant
 * time in xa and xb. */
QUILL_INLINE void quill_p256_inv2_consttime(uint64_t outa[4], const uint64_t xa[4],
                                            const quill_p256_inv_modulus *moda,
                                            uint64_t outb[4], const uint64_t xb[4],
                                            const quill_p256_inv_modulus *modb,
                                            quill_inv_divsteps_x2_fn *divsteps) {
    quill_inv_state a, b;
    quill_inv_x2 st;
    st.zeta[0] = quill_inv_start(a.f, a.g, xa, moda);
    st.zeta[1] = quill_inv_start(b.f, b.g, xb, modb);
    for (int i = 0; i < 5; i++)
        a.d[i] = b.d[i] = a.e[i] = b.e[i] = 0;
    a.e[0] = b.e[0] = 1;
    for (int j = 0; j < 10; j++) {
        st.f[0] = (uint64_t)a.f[0] | ((uint64_t)a.f[1] << 62);
        st.g[0] = (uint64_t)a.g[0] | ((uint64_t)a.g[1] << 62);
        st.f[1] = (uint64_t)b.f[0] | ((uint64_t)b.f[1] << 62);
        st.g[1] = (uint64_t)b.g[0] | ((uint64_t)b.g[1] << 62);
        for (int k = 0; k < 2; k++) {
            st.t[k][0] = st.t[k][3] = 1;
            st.t[k][1] = st.t[k][2] = 0;
        }
        /* The previous batch's (d, e) update before these divsteps, which do
         * not depend on it: 2-4% faster per pair than after the (f, g)
         * update (the order of quill_p256_inv_consttime). */
        if (j > 0) {
            quill_inv_update_de(a.d, a.e, a.t, moda);
            quill_inv_update_de(b.d, b.e, b.t, modb);
        }
        divsteps(&st);
        for (int i = 0; i < 4; i++) {
            a.t[i] = st.t[0][i];
            b.t[i] = st.t[1][i];
        }
        quill_inv_update_fg(a.f, a.g, a.t);
        quill_inv_update_fg(b.f, b.g, b.t);
    }
    quill_inv_update_de(a.d, a.e, a.t, moda);
    quill_inv_update_de(b.d, b.e, b.t, modb);
    quill_inv_finish(outa, &a, moda);
    quill_inv_finish(outb, &b, modb);
    quill_zeroize(&a, sizeof(a));
    quill_zeroize(&b, sizeof(b));
    quill_zeroize(&st, sizeof(st));
}

#undef QUILL_INV_M62

#endif
