/* Copyright quill authors.
 *
 * Arithmetic modulo the P-256 group order (see p256_scalar.h). */
#include "ec/p256_scalar.h"

#include "ec/p256_limbs.h"

static const uint64_t sc_n[4] = {UINT64_C(0xf3b9cac2fc632551), UINT64_C(0xbce6faada7179e84),
                                 UINT64_C(0xffffffffffffffff), UINT64_C(0xffffffff00000000)};

/* n0 = -n^-1 mod 2^64. */
#define SC_N0 UINT64_C(0xccd1c8aaee00bc4f)

/* R^2 mod n, R = 2^256. */
static const quill_p256_scalar sc_r2 = {{UINT64_C(0x83244c95be79eea2), UINT64_C(0x4699799c49bd6fa6),
                                         UINT64_C(0x2845b2392b6bec59), UINT64_C(0x66e12d94f3d95620)}};

/* R mod n = 2^256 - n: the Montgomery form of 1. */
static const quill_p256_scalar sc_one = {{UINT64_C(0x0c46353d039cdaaf), UINT64_C(0x4319055258e8617b),
                                          0, UINT64_C(0x00000000ffffffff)}};

/* out = t - n if t = (t0..t3, t4) >= n, else t.  In: t < 2n. */
QUILL_INLINE void sc_final_sub(uint64_t out[4], const uint64_t t[4], uint64_t t4) {
    uint64_t d[4], d4, b;
    b = quill_sbb(&d[0], 0, t[0], sc_n[0]);
    b = quill_sbb(&d[1], b, t[1], sc_n[1]);
    b = quill_sbb(&d[2], b, t[2], sc_n[2]);
    b = quill_sbb(&d[3], b, t[3], sc_n[3]);
    b = quill_sbb(&d4, b, t4, 0);
    (void)d4;
    quill_word keep = (quill_word)0 - b; /* t < n */
    for (int i = 0; i < 4; i++)
        out[i] = quill_ct_select_w(keep, t[i], d[i]);
}

/* (t0..t4, *t5) += x * y for four-word x and one word y. */
#define SC_MULADD_ROW(t0, t1, t2, t3, t4, t5, x, y)                                              \
    do {                                                                                         \
        uint64_t l0_, h0_, l1_, h1_, l2_, h2_, l3_, h3_, c_;                                     \
        quill_mulx(&l0_, &h0_, (x)[0], (y));                                                     \
        quill_mulx(&l1_, &h1_, (x)[1], (y));                                                     \
        quill_mulx(&l2_, &h2_, (x)[2], (y));                                                     \
        quill_mulx(&l3_, &h3_, (x)[3], (y));                                                     \
        c_ = quill_adc(&l1_, 0, l1_, h0_);                                                       \
        c_ = quill_adc(&l2_, c_, l2_, h1_);                                                      \
        c_ = quill_adc(&l3_, c_, l3_, h2_);                                                      \
        h3_ += c_;                                                                               \
        c_ = quill_adc(&(t0), 0, (t0), l0_);                                                     \
        c_ = quill_adc(&(t1), c_, (t1), l1_);                                                    \
        c_ = quill_adc(&(t2), c_, (t2), l2_);                                                    \
        c_ = quill_adc(&(t3), c_, (t3), l3_);                                                    \
        c_ = quill_adc(&(t4), c_, (t4), h3_);                                                    \
        (t5) += c_;                                                                              \
    } while (0)

void quill_p256_scalar_mul(quill_p256_scalar *out, const quill_p256_scalar *a,
                           const quill_p256_scalar *b) {
    /* Word-by-word Montgomery (CIOS): t += a b_i; t += m n with
     * m = t0 n0 mod 2^64, which clears word 0; shift down one word.
     * t < 2n after each round. */
    uint64_t t[6] = {0, 0, 0, 0, 0, 0};
    for (int i = 0; i < 4; i++) {
        uint64_t m;
        SC_MULADD_ROW(t[0], t[1], t[2], t[3], t[4], t[5], a->v, b->v[i]);
        m = t[0] * SC_N0;
        SC_MULADD_ROW(t[0], t[1], t[2], t[3], t[4], t[5], sc_n, m);
        t[0] = t[1];
        t[1] = t[2];
        t[2] = t[3];
        t[3] = t[4];
        t[4] = t[5];
        t[5] = 0;
    }
    sc_final_sub(out->v, t, t[4]);
}

void quill_p256_scalar_sqr(quill_p256_scalar *out, const quill_p256_scalar *a) {
    quill_p256_scalar_mul(out, a, a);
}

void quill_p256_scalar_add(quill_p256_scalar *out, const quill_p256_scalar *a,
                           const quill_p256_scalar *b) {
    uint64_t s[4];
    uint64_t carry = quill_add4(s, a->v, b->v);
    sc_final_sub(out->v, s, carry);
}

void quill_p256_scalar_sub(quill_p256_scalar *out, const quill_p256_scalar *a,
                           const quill_p256_scalar *b) {
    uint64_t d[4], m[4];
    quill_word borrow = (quill_word)0 - quill_sub4(d, a->v, b->v);
    for (int i = 0; i < 4; i++)
        m[i] = sc_n[i] & borrow;
    (void)quill_add4(out->v, d, m);
}

void quill_p256_scalar_opp(quill_p256_scalar *out, const quill_p256_scalar *a) {
    static const quill_p256_scalar zero = {{0, 0, 0, 0}};
    quill_p256_scalar_sub(out, &zero, a);
}

void quill_p256_scalar_selectznz(quill_p256_scalar *out, quill_word mask,
                                 const quill_p256_scalar *z, const quill_p256_scalar *nz) {
    for (int i = 0; i < 4; i++)
        out->v[i] = quill_ct_select_w(mask, nz->v[i], z->v[i]);
}

quill_word quill_p256_scalar_nonzero(const quill_p256_scalar *a) {
    return ~quill_ct_is_zero_mask(a->v[0] | a->v[1] | a->v[2] | a->v[3]);
}

quill_word quill_p256_scalar_plain_nonzero(const quill_p256_scalar_plain *a) {
    return ~quill_ct_is_zero_mask(a->v[0] | a->v[1] | a->v[2] | a->v[3]);
}

void quill_p256_scalar_to_mont(quill_p256_scalar *out, const quill_p256_scalar_plain *a) {
    /* For a < 2^256 the CIOS bound a * r2 + m * n < 2 * 2^256 * n holds. */
    quill_p256_scalar t;
    for (int i = 0; i < 4; i++)
        t.v[i] = a->v[i];
    quill_p256_scalar_mul(out, &t, &sc_r2);
}

void quill_p256_scalar_from_mont(quill_p256_scalar_plain *out, const quill_p256_scalar *a) {
    static const quill_p256_scalar one_plain = {{1, 0, 0, 0}};
    quill_p256_scalar t;
    quill_p256_scalar_mul(&t, a, &one_plain);
    for (int i = 0; i < 4; i++)
        out->v[i] = t.v[i];
}

quill_word quill_p256_scalar_plain_from_bytes(quill_p256_scalar_plain *out, const uint8_t in[32]) {
    uint64_t d[4];
    quill_load_be256(out->v, in);
    return (quill_word)0 - quill_sub4(d, out->v, sc_n);
}

void quill_p256_scalar_plain_to_bytes(uint8_t out[32], const quill_p256_scalar_plain *a) {
    quill_store_be256(out, a->v);
}

void quill_p256_scalar_plain_reduce(quill_p256_scalar_plain *out,
                                    const quill_p256_scalar_plain *a) {
    sc_final_sub(out->v, a->v, 0);
}

void quill_p256_scalar_inv_consttime(quill_p256_scalar *out, const quill_p256_scalar *a) {
    /* n - 2, little-endian limbs; a fixed 4-bit window schedule over it. */
    static const uint64_t e[4] = {UINT64_C(0xf3b9cac2fc63254f), UINT64_C(0xbce6faada7179e84),
                                  UINT64_C(0xffffffffffffffff), UINT64_C(0xffffffff00000000)};
    quill_p256_scalar tab[16], acc;
    tab[0] = sc_one;
    tab[1] = *a;
    for (int i = 2; i < 16; i++)
        quill_p256_scalar_mul(&tab[i], &tab[i - 1], a);
    acc = sc_one;
    for (int i = 63; i >= 0; i--) {
        unsigned nib = (unsigned)(e[i / 16] >> (4 * (i % 16))) & 15;
        for (int j = 0; j < 4; j++)
            quill_p256_scalar_sqr(&acc, &acc);
        if (nib != 0) /* the exponent is public */
            quill_p256_scalar_mul(&acc, &acc, &tab[nib]);
    }
    *out = acc;
    quill_zeroize(tab, sizeof(tab));
    quill_zeroize(&acc, sizeof(acc));
}

/* ---- variable time ---- */

static int sc_is_zero_vartime(const uint64_t a[4]) {
    return (a[0] | a[1] | a[2] | a[3]) == 0;
}

static int sc_is_one_vartime(const uint64_t a[4]) {
    return a[0] == 1 && (a[1] | a[2] | a[3]) == 0;
}

static int sc_geq_vartime(const uint64_t a[4], const uint64_t b[4]) {
    for (int i = 3; i >= 0; i--)
        if (a[i] != b[i])
            return a[i] > b[i];
    return 1;
}

/* a >>= k for 0 < k < 64. */
static void sc_shr_vartime(uint64_t a[4], unsigned k) {
    for (int i = 0; i < 3; i++)
        a[i] = (a[i] >> k) | (a[i + 1] << (64 - k));
    a[3] >>= k;
}

/* x = x / 2^k mod n for x < n, 0 < k < 64: with t = x n0 mod 2^k (n0 =
 * -n^-1 mod 2^64), x + t n is divisible by 2^k and below 2^k n + n, so the
 * shifted value is below 2n: one conditional subtraction. */
static void sc_div2k_mod_vartime(uint64_t x[4], unsigned k) {
    uint64_t t = (x[0] * SC_N0) & ((UINT64_C(1) << k) - 1), w[5], lo, hi, c = 0, c2;
    for (int i = 0; i < 4; i++) {
        quill_mulx(&lo, &hi, t, sc_n[i]);
        c2 = quill_adc(&lo, 0, lo, c);
        hi += c2;
        c2 = quill_adc(&w[i], 0, x[i], lo);
        c = hi + c2;
    }
    w[4] = c;
    for (int i = 0; i < 4; i++)
        x[i] = (w[i] >> k) | (w[i + 1] << (64 - k));
    if (w[4] >> k) {
        (void)quill_sub4(x, x, sc_n); /* the value had 257 bits: >= n */
    } else if (sc_geq_vartime(x, sc_n)) {
        (void)quill_sub4(x, x, sc_n);
    }
}

/* Strips the trailing zero bits of a (nonzero), dividing x by as many
 * powers of two mod n. */
static void sc_strip_twos_vartime(uint64_t a[4], uint64_t x[4]) {
    while (a[0] == 0) { /* 64 zero bits at once (rare) */
        a[0] = a[1];
        a[1] = a[2];
        a[2] = a[3];
        a[3] = 0;
        sc_div2k_mod_vartime(x, 32);
        sc_div2k_mod_vartime(x, 32);
    }
    unsigned k = (unsigned)__builtin_ctzll(a[0]);
    if (k != 0) {
        sc_shr_vartime(a, k);
        sc_div2k_mod_vartime(x, k);
    }
}

/* x = x - y mod n for x, y < n. */
static void sc_sub_mod_vartime(uint64_t x[4], const uint64_t y[4]) {
    if (quill_sub4(x, x, y))
        (void)quill_add4(x, x, sc_n);
}

int quill_p256_scalar_inv_vartime(quill_p256_scalar_plain *out, const quill_p256_scalar_plain *a) {
    /* Invariants (n prime, gcd(a, n) = 1): x1 * a = u and x2 * a = v mod n. */
    uint64_t u[4], v[4], x1[4] = {1, 0, 0, 0}, x2[4] = {0, 0, 0, 0};
    if (sc_is_zero_vartime(a->v))
        return 0;
    for (int i = 0; i < 4; i++) {
        u[i] = a->v[i];
        v[i] = sc_n[i];
    }
    /* Binary extended Euclid, stripping all factors of two at once. */
    while (!sc_is_one_vartime(u) && !sc_is_one_vartime(v)) {
        sc_strip_twos_vartime(u, x1);
        sc_strip_twos_vartime(v, x2);
        if (sc_is_one_vartime(u) || sc_is_one_vartime(v))
            break;
        if (sc_geq_vartime(u, v)) {
            (void)quill_sub4(u, u, v);
            sc_sub_mod_vartime(x1, x2);
        } else {
            (void)quill_sub4(v, v, u);
            sc_sub_mod_vartime(x2, x1);
        }
    }
    const uint64_t *r = sc_is_one_vartime(u) ? x1 : x2;
    for (int i = 0; i < 4; i++)
        out->v[i] = r[i];
    return 1;
}
