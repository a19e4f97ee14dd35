/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Constant-time modular inversion by Bernstein-Yang divsteps ("Fast
 * constant-time gcd computation and modular inversion", TCHES 2019).
 *
 * divstep(delta, f, g) = (1 - delta, g, (g - f) / 2)       if delta > 0, g odd
 *                      = (1 + delta, f, (g + (g mod 2) f) / 2) otherwise.
 * Starting from (1, m, a) with m odd, after enough steps g = 0 and
 * f = +-gcd(m, a).  Theorem 11.2 of the paper bounds the number of steps for
 * |f|, |g| <= 2^b by floor((49 b + 80) / 17) (b < 46) or
 * floor((49 b + 57) / 17) (b >= 46); we use b = 64 n bits and the larger
 * formula, so the count depends on n only.
 *
 * Steps run in batches of 62 on the low 64 bits of f and g only (the low bit
 * of g after i halvings depends only on the low i + 1 bits), producing a
 * transition matrix [u v; q r] scaled by 2^62 with |u| + |v| <= 2^62 and
 * |q| + |r| <= 2^62, which is then applied to the full values.
 *
 * Alongside, d and e satisfy f = d a and g = e a (mod m); they are updated by
 * the same matrix, the division by 2^62 made exact by adding a multiple of
 * m.  They are kept in (-2m, m): adding m to a negative one gives (-m, m),
 * the matrix gives (-2^62 m, 2^62 m), and the added multiple md m with
 * md in (-2^62, 0] brings the quotient back into (-2m, m).
 *
 * Numbers are held as signed 62-bit limbs: limbs 0..L-2 in [0, 2^62), the top
 * limb signed.
 *
 * P-256 has its own inverter (core/ec/p256_inv.h: half-delta divsteps, 620
 * steps against the 744 this file runs for 256 bits, fixed five-limb
 * arrays).  Running P-256 on this body costs 18.7% of a P-256 signature's
 * core instructions, and even a shared inline body specialised to five
 * limbs 2.5% (callgrind, QUILL_CPU_MASK=0x30); the half-delta step bound
 * (590) is a computed one for 256 bits only, so this file cannot take
 * those steps.  The measurement is written out in p256_inv.h. */
#include "bn/internal.h"

#include <string.h>

#include "common/zeroize.h"

#define M62 (((uint64_t)1 << 62) - 1)
/* Limbs for 64 QUILL_BN_MAX_LIMBS + 2 bits, plus one. */
#define S62_MAX ((64 * QUILL_BN_MAX_LIMBS + 2 + 61) / 62 + 1)

typedef __int128 s128;

/* Runs 62 divsteps on the low words of f and g.  Returns the new delta
 * (which is the same arithmetic as the full computation) and the matrix in
 * t = {u, v, q, r}.  Branch-free; delta is handled as a two's-complement
 * 64-bit word.
 *
 * Invariant after i steps, with F, G the values at entry:
 * 2^i f = u F + v G and 2^i g = q F + r G.  One step with sw = (delta > 0
 * and g odd) and odd = (g odd):
 *   sw:        (f, g) <- (g, (g - f) / 2), (u, v, q, r) <- (2q, 2r, q - u, r - v)
 *   odd only:  g <- (g + f) / 2,          (q, r) += (u, v), (u, v) *= 2
 *   neither:   g <- g / 2,                (u, v) *= 2
 * i.e. g, q, r gain -f, -u, -v on a swap, +f, +u, +v when only odd; f, u, v
 * take g, q, r on a swap; and delta <- 1 - delta on a swap, 1 + delta
 * otherwise.  The chain g -> masks -> g is what bounds the speed. */
static uint64_t divsteps_62(uint64_t delta, uint64_t f, uint64_t g, int64_t t[4]) {
    uint64_t u = 1, v = 0, q = 0, r = 1;
    for (int i = 0; i < 62; i++) {
        uint64_t dpos = (uint64_t)0 - ((0 - delta) >> 63); /* delta > 0 */
        uint64_t odd = (uint64_t)0 - (g & 1);
        uint64_t sw = quill_value_barrier_w(dpos & odd);
        /* conditional negation (x ^ sw) - sw, then kept only when odd */
        uint64_t add_g = ((f ^ sw) - sw) & odd;
        uint64_t add_q = ((u ^ sw) - sw) & odd;
        uint64_t add_r = ((v ^ sw) - sw) & odd;
        f ^= (f ^ g) & sw;
        u ^= (u ^ q) & sw;
        v ^= (v ^ r) & sw;
        g = (g + add_g) >> 1;
        q += add_q;
        r += add_r;
        u <<= 1;
        v <<= 1;
        delta = 1 + ((delta ^ sw) - sw);
    }
    t[0] = (int64_t)u;
    t[1] = (int64_t)v;
    t[2] = (int64_t)q;
    t[3] = (int64_t)r;
    return delta;
}

/* (f, g) <- ((u f + v g) / 2^62, (q f + r g) / 2^62), exact divisions. */
static void update_fg(int64_t *f, int64_t *g, size_t len, const int64_t t[4]) {
    const int64_t u = t[0], v = t[1], q = t[2], r = t[3];
    s128 cf = (s128)u * f[0] + (s128)v * g[0];
    s128 cg = (s128)q * f[0] + (s128)r * g[0];
    cf >>= 62;
    cg >>= 62;
    for (size_t i = 1; i < len; i++) {
        cf += (s128)u * f[i] + (s128)v * g[i];
        cg += (s128)q * f[i] + (s128)r * g[i];
        f[i - 1] = (int64_t)((uint64_t)cf & M62);
        g[i - 1] = (int64_t)((uint64_t)cg & M62);
        cf >>= 62;
        cg >>= 62;
    }
    f[len - 1] = (int64_t)cf;
    g[len - 1] = (int64_t)cg;
}

/* (d, e) <- ((u d + v e) / 2^62, (q d + r e) / 2^62) mod m, see the top. */
static void update_de(int64_t *d, int64_t *e, size_t len, const int64_t t[4], const int64_t *m,
                      uint64_t minv62) {
    const int64_t u = t[0], v = t[1], q = t[2], r = t[3];
    int64_t sd = d[len - 1] >> 63, se = e[len - 1] >> 63;
    int64_t cd_m = (u & sd) + (v & se);
    int64_t ce_m = (q & sd) + (r & se);
    s128 cd = (s128)u * d[0] + (s128)v * e[0] + (s128)cd_m * m[0];
    s128 ce = (s128)q * d[0] + (s128)r * e[0] + (s128)ce_m * m[0];
    /* md = -(cd m^-1 mod 2^62), in (-2^62, 0] */
    int64_t md = -(int64_t)(((uint64_t)cd * minv62) & M62);
    int64_t me = -(int64_t)(((uint64_t)ce * minv62) & M62);
    cd_m += md;
    ce_m += me;
    cd += (s128)md * m[0];
    ce += (s128)me * m[0];
    cd >>= 62;
    ce >>= 62;
    for (size_t i = 1; i < len; i++) {
        cd += (s128)u * d[i] + (s128)v * e[i] + (s128)cd_m * m[i];
        ce += (s128)q * d[i] + (s128)r * e[i] + (s128)ce_m * m[i];
        d[i - 1] = (int64_t)((uint64_t)cd & M62);
        e[i - 1] = (int64_t)((uint64_t)ce & M62);
        cd >>= 62;
        ce >>= 62;
    }
    d[len - 1] = (int64_t)cd;
    e[len - 1] = (int64_t)ce;
}

/* x <- sx x + cy y for small signed coefficients, renormalised. */
static void s62_lincomb(int64_t *x, int64_t sx, const int64_t *y, int64_t cy, size_t len) {
    s128 c = 0;
    for (size_t i = 0; i + 1 < len; i++) {
        c += (s128)sx * x[i] + (s128)cy * y[i];
        x[i] = (int64_t)((uint64_t)c & M62);
        c >>= 62;
    }
    c += (s128)sx * x[len - 1] + (s128)cy * y[len - 1];
    x[len - 1] = (int64_t)c;
}

static void to_s62(int64_t *out, size_t len, const quill_limb *a, size_t n) {
    for (size_t i = 0; i < len; i++)
        out[i] = (int64_t)quill_bn_bits(a, n, 62 * i, 62);
}

/* For 0 <= x < 2^(64 n) in signed-62 form. */
static void from_s62(quill_limb *r, size_t n, const int64_t *x, size_t len) {
    unsigned __int128 acc = 0;
    unsigned bits = 0;
    size_t j = 0, i = 0;
    while (j < n) {
        if (bits < 64) {
            uint64_t limb = i < len ? (uint64_t)x[i] & M62 : 0;
            acc |= (unsigned __int128)limb << bits;
            bits += 62;
            i++;
            continue;
        }
        r[j++] = (quill_limb)acc;
        acc >>= 64;
        bits -= 64;
    }
}

quill_word quill_bn_inv_mod_odd_consttime(quill_limb *r, const quill_limb *a, const quill_limb *m,
                                          size_t n) {
    int64_t f[S62_MAX], g[S62_MAX], d[S62_MAX], e[S62_MAX], m62[S62_MAX];
    size_t len = (64 * n + 2 + 61) / 62;
    to_s62(f, len, m, n);
    to_s62(g, len, a, n);
    memcpy(m62, f, len * sizeof(int64_t));
    memset(d, 0, len * sizeof(int64_t));
    memset(e, 0, len * sizeof(int64_t));
    e[0] = 1;

    uint64_t minv = quill_bn_inv64(m[0]); /* m^-1 mod 2^64 */
    uint64_t minv62 = minv & M62;

    size_t bits = 64 * n;
    size_t steps = (49 * bits + 80) / 17;
    size_t batches = (steps + 61) / 62;
    uint64_t delta = 1;
    int64_t t[4];
    for (size_t b = 0; b < batches; b++) {
        delta = divsteps_62(delta, (uint64_t)f[0] | ((uint64_t)f[1] << 62),
                            (uint64_t)g[0] | ((uint64_t)g[1] << 62), t);
        update_fg(f, g, len, t);
        update_de(d, e, len, t, m62, minv62);
    }

    /* f = +-gcd.  Fold the sign into f and d: d in (-m, 2m) or (-2m, m). */
    int64_t sf = f[len - 1] >> 63;
    int64_t s = 1 + 2 * sf; /* -1 if f < 0 */
    s62_lincomb(f, s, m62, 0, len);
    s62_lincomb(d, s, m62, 0, len);
    /* Two rounds of "add m if negative" give [0, 2m), then subtract m if
     * that stays non-negative. */
    for (int k = 0; k < 2; k++) {
        int64_t neg = d[len - 1] >> 63;
        s62_lincomb(d, 1, m62, neg & 1, len);
    }
    s62_lincomb(d, 1, m62, -1, len);
    int64_t neg = d[len - 1] >> 63;
    s62_lincomb(d, 1, m62, neg & 1, len);

    /* invertible iff |f| == 1 */
    uint64_t acc = (uint64_t)f[0] ^ 1;
    for (size_t i = 1; i < len; i++)
        acc |= (uint64_t)f[i];
    quill_word ok = quill_ct_is_zero_mask(acc);
    from_s62(r, n, d, len);
    for (size_t i = 0; i < n; i++)
        r[i] &= ok;

    quill_zeroize(f, sizeof(f));
    quill_zeroize(g, sizeof(g));
    quill_zeroize(d, sizeof(d));
    quill_zeroize(e, sizeof(e));
    quill_zeroize(m62, sizeof(m62));
    quill_zeroize(t, sizeof(t));
    return ok;
}
