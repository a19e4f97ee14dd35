/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * The 16-bit challenge products of signing (ntt16.h):
 *  - the zeta tables recomputed from 62, checked to be a primitive 512th
 *    root of unity mod p = 7681;
 *  - the body's reductions on every int16 input a: barrett16 the centred
 *    residue; mont16 congruent to a z 2^-16 and within |a z| / 2^16 + 3841
 *    for every zeta of the tables, the factor 1912 and +-3840;
 *  - the forward transform against a scalar CT transform mod p (Algorithm
 *    41's loops with these zetas), at its input bound +-2^13 and on
 *    random input, every output within the bound ntt16_body.h states;
 *  - quill_mldsa_mulc16 against schoolbook negacyclic products: random
 *    sparse ternary c (tau = 39, 49, 60), halves like s1/s2 (|.| <= 4) and
 *    like the t0 split (lo in [-32, 32), hi in [-64, 64]), shifts 0, 6, 9,
 *    and the extreme products +-(p - 1) / 2 = +-3840;
 *  - the inverse transform on constant NTT-domain input, which drives the
 *    sums of every level to the largest value its input allows (an
 *    overflow anywhere would break the congruence checked);
 *  - pair16_split against its definition over t0's whole range, and
 *    pair16_set with no second polynomial;
 *  - the portable and AVX2 (x86-64) or NEON (aarch64) builds bit for bit,
 *    and the dispatch.
 * Run natively and with QUILL_CPU_MASK clearing every feature (_portable). */
#include <string.h>

#include "mldsa/ntt16.h"
#include "mldsa/ntt16_v8.h"
#include "test_util.h"

#define P QUILL_MLDSA_P16
#define N QUILL_MLDSA_N

struct impl {
    const char *name;
    int (*capable)(void);
    void (*ntt)(quill_mldsa_pair16 *pair);
    void (*prepare)(quill_mldsa_chal16 *m, const int32_t c[N]);
    void (*mulc)(int32_t out[N], const quill_mldsa_chal16 *m, const quill_mldsa_pair16 *s_hat,
                 unsigned shift);
};

static int always(void) {
    return 1;
}

static const struct impl impls[] = {
    {"portable", always, quill_mldsa_ntt16_c, quill_mldsa_mulc16_prepare_c, quill_mldsa_mulc16_c},
#if QUILL_MLDSA_HAVE_AVX2
    {"AVX2", quill_mldsa_avx2_capable, quill_mldsa_ntt16_avx2, quill_mldsa_mulc16_prepare_avx2,
     quill_mldsa_mulc16_avx2},
#endif
#if QUILL_MLDSA_HAVE_NEON
    {"NEON", quill_mldsa_neon_capable, quill_mldsa_ntt16_neon, quill_mldsa_mulc16_prepare_neon,
     quill_mldsa_mulc16_neon},
#endif
};

static int64_t modp(int64_t a) {
    a %= P;
    return a < 0 ? a + P : a;
}

static int64_t powp(int64_t b, unsigned e) {
    int64_t r = 1;
    for (b = modp(b); e != 0; e >>= 1, b = b * b % P)
        if (e & 1)
            r = r * b % P;
    return r;
}

static int16_t centred(int64_t a) {
    a = modp(a);
    return (int16_t)(a > (P - 1) / 2 ? a - P : a);
}

static unsigned brv8(unsigned m) {
    unsigned r = 0;
    for (unsigned i = 0; i < 8; i++)
        r |= ((m >> i) & 1) << (7 - i);
    return r;
}

static int16_t zeta_fwd(unsigned m) {
    return centred(powp(62, brv8(m)) * 65536);
}

static int16_t zeta_inv(unsigned m) {
    return centred(powp(62, 512 - brv8(m)) * 65536);
}

static int16_t times_pinv(int16_t z) {
    return (int16_t)(uint16_t)((uint32_t)(uint16_t)z * 57857u);
}

/* The row of level 6 (r = 0), 7 (r = 1, 2) or 8 (r = 3..6) for lane e of
 * group g (ntt16_body.h). */
static unsigned row_m(unsigned g, unsigned r, unsigned e) {
    if (r == 0)
        return 32 + 8 * g + e;
    if (r < 3)
        return 64 + 16 * g + 2 * e + (r - 1);
    return 128 + 32 * g + 4 * e + (r - 3);
}

static void test_tables(void) {
    const quill_mldsa_ntt16_tables *t = &quill_mldsa_ntt16_tab;
    QT_CHECK(powp(62, 256) == P - 1); /* order 512 */
    QT_CHECK((uint16_t)(57857u * P) == 1);
    for (unsigned m = 1; m < 32; m++) {
        QT_CHECK(t->top[m] == zeta_fwd(m));
        QT_CHECK(t->inv_top[m] == zeta_inv(m));
        QT_CHECK(t->top_q[m] == times_pinv(t->top[m]));
        QT_CHECK(t->inv_top_q[m] == times_pinv(t->inv_top[m]));
        QT_CHECK(modp((int64_t)t->top[m] * t->inv_top[m]) == modp(65536LL * 65536));
        for (unsigned e = 0; e < 8; e++) {
            QT_CHECK(t->top8[m][e] == t->top[m] && t->top8_q[m][e] == t->top_q[m]);
            QT_CHECK(t->inv_top8[m][e] == t->inv_top[m] && t->inv_top8_q[m][e] == t->inv_top_q[m]);
        }
    }
    for (unsigned g = 0; g < 4; g++)
        for (unsigned r = 0; r < 7; r++)
            for (unsigned e = 0; e < 8; e++) {
                unsigned m = row_m(g, r, e);
                QT_CHECK(t->rows[g][r][e] == zeta_fwd(m));
                QT_CHECK(t->inv_rows[g][r][e] == zeta_inv(m));
                QT_CHECK(t->rows_q[g][r][e] == times_pinv(t->rows[g][r][e]));
                QT_CHECK(t->inv_rows_q[g][r][e] == times_pinv(t->inv_rows[g][r][e]));
            }
}

/* Every int16, eight at a time. */
static void test_reductions(void) {
    int fails = 0;
    for (int32_t base = -32768; base < 32768; base += 8) {
        v8 a;
        for (int i = 0; i < 8; i++)
            a[i] = (int16_t)(base + i);
        v8 b = barrett16(a);
        for (int i = 0; i < 8; i++)
            fails += b[i] != centred(a[i]);
    }
    QT_CHECK(fails == 0);
    /* mont16 for every a and every multiplier it is used with */
    const quill_mldsa_ntt16_tables *t = &quill_mldsa_ntt16_tab;
    int16_t zs[2 * 32 + 2 * 4 * 7 * 8 + 3] = {1912, 3840, -3840};
    size_t nz = 3;
    for (unsigned m = 1; m < 32; m++) {
        zs[nz++] = t->top[m];
        zs[nz++] = t->inv_top[m];
    }
    for (unsigned i = 0; i < 4 * 7 * 8; i++) {
        zs[nz++] = (&t->rows[0][0][0])[i];
        zs[nz++] = (&t->inv_rows[0][0][0])[i];
    }
    fails = 0;
    int64_t rinv = powp(65536, (unsigned)(P - 2));
    for (size_t k = 0; k < nz; k++) {
        const v8 z = V_DUP(zs[k]), zq = V_DUP(times_pinv(zs[k]));
        const int64_t absz = zs[k] < 0 ? -zs[k] : zs[k];
        for (int32_t base = -32768; base < 32768; base += 8) {
            v8 a;
            for (int i = 0; i < 8; i++)
                a[i] = (int16_t)(base + i);
            v8 r = mont16(a, z, zq);
            for (int i = 0; i < 8; i++) {
                int64_t bound = (int64_t)(a[i] < 0 ? -a[i] : a[i]) * absz / 65536 + 3841;
                fails += modp(r[i] - (int64_t)a[i] * zs[k] % P * rinv) != 0 ||
                         (r[i] < 0 ? -r[i] : r[i]) > bound;
            }
        }
    }
    QT_CHECK(fails == 0);
}

/* Algorithm 41's loops mod p on plain integers; out[i] is natural index i. */
static void ref_ntt(int64_t out[N], const int32_t a[N]) {
    for (unsigned i = 0; i < N; i++)
        out[i] = modp(a[i]);
    unsigned m = 0;
    for (unsigned len = 128; len >= 1; len >>= 1)
        for (unsigned start = 0; start < N; start += 2 * len) {
            int64_t z = powp(62, brv8(++m));
            for (unsigned j = start; j < start + len; j++) {
                int64_t t = z * out[j + len] % P;
                out[j + len] = modp(out[j] - t);
                out[j] = modp(out[j] + t);
            }
        }
}

/* Where natural index i of half h sits after the forward transform: vector
 * 8g + r lane e holds index 64g + 8e + r. */
static unsigned ntt_pos(unsigned i, unsigned h) {
    unsigned g = i / 64, e = (i / 8) % 8, r = i % 8;
    return 16 * (8 * g + r) + e + 8 * h;
}

static int32_t rand_range(int32_t lo, int32_t hi) {
    return lo + (int32_t)(qt_rng_u64() % (uint64_t)(hi - lo + 1));
}

static void test_forward(void) {
    int32_t a[N], b[N];
    int64_t ra[N], rb[N];
    for (int t = 0; t < 200; t++) {
        for (unsigned i = 0; i < N; i++) {
            int kind = t % 4;
            a[i] = kind == 0 ? 8192 : kind == 1 ? -8192 : rand_range(-8192, 8192);
            b[i] = kind == 2 ? ((i & 1) ? 8192 : -8192) : rand_range(-8192, 8192);
        }
        ref_ntt(ra, a);
        ref_ntt(rb, b);
        for (size_t k = 0; k < QT_ARRAY_LEN(impls); k++) {
            if (!impls[k].capable())
                continue;
            quill_mldsa_pair16 pr;
            quill_mldsa_pair16_set(&pr, a, b);
            impls[k].ntt(&pr);
            int fails = 0;
            for (unsigned i = 0; i < N; i++) {
                int16_t x = pr.c[ntt_pos(i, 0)], y = pr.c[ntt_pos(i, 1)];
                fails += modp(x) != ra[i] || modp(y) != rb[i];
                fails += x > 26884 || x < -26884 || y > 26884 || y < -26884;
            }
            QT_CHECK(fails == 0);
        }
    }
}

static void random_c(int32_t c[N], unsigned tau, int same_sign) {
    memset(c, 0, N * sizeof(int32_t));
    for (unsigned n = 0; n < tau;) {
        unsigned pos = (unsigned)(qt_rng_u64() % N);
        if (c[pos] != 0)
            continue;
        c[pos] = same_sign || (qt_rng_u64() & 1) ? 1 : -1;
        n++;
    }
}

static void schoolbook(int64_t out[N], const int32_t a[N], const int32_t b[N]) {
    memset(out, 0, N * sizeof(int64_t));
    for (unsigned i = 0; i < N; i++)
        for (unsigned j = 0; j < N; j++) {
            int64_t t = (int64_t)a[i] * b[j];
            if (i + j < N)
                out[i + j] += t;
            else
                out[i + j - N] -= t;
        }
}

/* kind 0: s-like halves; 1: a t0 split; 2: t0 = 4096 everywhere (hi = 64)
 * with same-signed c, the extreme +3840; 3: t0 = -4095 (hi = -64, lo = 1);
 * 4: halves +4 and -4 with same-signed c. */
static void test_mulc(void) {
    static const unsigned taus[3] = {39, 49, 60};
    static const unsigned shifts[3] = {0, 6, 9};
    int32_t c[N], a[N], b[N], t0[N], got[N], first[N];
    int64_t pa[N], pb[N];
    int64_t maxabs = 0;
    for (int t = 0; t < 600; t++) {
        unsigned tau = taus[t % 3], shift = shifts[(t / 3) % 3];
        int kind = (t / 9) % 5;
        random_c(c, tau, kind >= 2);
        quill_mldsa_pair16 s_hat;
        if (kind == 0 || kind == 4) {
            for (unsigned i = 0; i < N; i++) {
                a[i] = kind == 4 ? 4 : rand_range(-4, 4);
                b[i] = kind == 4 ? -4 : rand_range(-4, 4);
            }
            quill_mldsa_pair16_set(&s_hat, a, b);
        } else {
            for (unsigned i = 0; i < N; i++)
                t0[i] = kind == 2 ? 4096 : kind == 3 ? -4095 : rand_range(-4095, 4096);
            quill_mldsa_pair16_split(&s_hat, t0, 6);
            for (unsigned i = 0; i < N; i++) {
                unsigned pos = 16 * (i / 8) + i % 8;
                a[i] = s_hat.c[pos];
                b[i] = s_hat.c[pos + 8];
            }
        }
        schoolbook(pa, c, a);
        schoolbook(pb, c, b);
        for (unsigned i = 0; i < N; i++) {
            int64_t m = pa[i] < 0 ? -pa[i] : pa[i], n = pb[i] < 0 ? -pb[i] : pb[i];
            maxabs = m > maxabs ? m : n > maxabs ? n : maxabs;
        }
        quill_mldsa_pair16 hat_ref = s_hat;
        impls[0].ntt(&hat_ref);
        for (size_t k = 0; k < QT_ARRAY_LEN(impls); k++) {
            const struct impl *im = &impls[k];
            if (!im->capable())
                continue;
            quill_mldsa_pair16 hat = s_hat;
            im->ntt(&hat);
            QT_CHECK(memcmp(&hat, &hat_ref, sizeof(hat)) == 0);
            quill_mldsa_chal16 m;
            im->prepare(&m, c);
            int fails = 0;
            for (unsigned i = 0; i < 2 * N; i++)
                fails += m.m[i] > 4625 || m.m[i] < -4625 || m.mq[i] != times_pinv(m.m[i]);
            QT_CHECK(fails == 0);
            memset(got, 0x55, sizeof(got));
            im->mulc(got, &m, &hat, shift);
            fails = 0;
            for (unsigned i = 0; i < N; i++)
                fails += got[i] != (int32_t)(pa[i] + pb[i] * ((int64_t)1 << shift));
            QT_CHECK(fails == 0);
            if (k == 0)
                memcpy(first, got, sizeof(first));
            else
                QT_CHECK(memcmp(got, first, sizeof(got)) == 0);
        }
        quill_mldsa_chal16 m;
        quill_mldsa_mulc16_prepare(&m, c);
        { /* the byte form of the challenge gives the same multiplier */
            int8_t c8[N];
            for (unsigned i = 0; i < N; i++)
                c8[i] = (int8_t)c[i];
            quill_mldsa_chal16 m8;
            memset(&m8, 0x33, sizeof(m8));
            quill_mldsa_mulc16_prepare_i8(&m8, c8);
            QT_CHECK(memcmp(&m8, &m, sizeof(m)) == 0);
#if QUILL_MLDSA_HAVE_AVX2
            if (quill_mldsa_avx2_capable()) {
                memset(&m8, 0x33, sizeof(m8));
                quill_mldsa_mulc16_prepare_i8_avx2(&m8, c8);
                QT_CHECK(memcmp(&m8, &m, sizeof(m)) == 0);
            }
#endif
        }
        quill_mldsa_ntt16(&s_hat);
        quill_mldsa_mulc16(got, &m, &s_hat, shift);
        QT_CHECK(memcmp(got, first, sizeof(got)) == 0);
    }
    QT_CHECK(maxabs == 3840); /* tau = 60, hi = 64 */
}

/* mont16's value, scalar: (a z - t p) / 2^16 with t = a z p^-1 mod 2^16. */
static int32_t mont_scalar(int32_t a, int32_t z) {
    int16_t t = (int16_t)(uint16_t)((uint32_t)(a * z) * 57857u);
    return (a * z - t * P) / 65536;
}

/* Constant NTT-domain input: every pointwise product is the same v, and
 * the unscaled inverse of a constant is 256 v at coefficient 0 and zero
 * elsewhere, while every level's sums take the largest value their inputs
 * allow.  Inputs at the stated bounds (|s_hat| <= 26884, |m| <= 4625): the
 * largest |v|, both signs, and v = 1067, whose multiples stay near +-3840
 * after each reduction.  Half h carries the input, the other half zero. */
static void test_inverse_extremes(void) {
    int32_t cases[3][2] = {{-26884, 0}, {-26884, 0}, {26884, 0}};
    int32_t best = 0;
    for (int32_t m = -4625; m <= 4625; m++) {
        int32_t v = mont_scalar(-26884, m);
        if ((v < 0 ? -v : v) > best) {
            best = v < 0 ? -v : v;
            cases[0][1] = m;
        }
        if (mont_scalar(26884, m) == 1067)
            cases[2][1] = m;
    }
    cases[1][1] = -cases[0][1];
    QT_CHECK(best >= 5600 && cases[2][1] != 0);
    int64_t rinv = powp(65536, (unsigned)(P - 2));
    for (unsigned k = 0; k < 3; k++)
        for (unsigned h = 0; h < 2; h++) {
            static quill_mldsa_chal16 m;
            static quill_mldsa_pair16 s_hat;
            int32_t sv = cases[k][0], mv = cases[k][1];
            for (unsigned i = 0; i < 2 * N; i++) {
                m.m[i] = (int16_t)mv;
                m.mq[i] = times_pinv((int16_t)mv);
                s_hat.c[i] = (int16_t)((i / 8) % 2 == h ? sv : 0);
            }
            int64_t want0 = modp(256 * modp((int64_t)sv * mv) * rinv);
            for (size_t j = 0; j < QT_ARRAY_LEN(impls); j++) {
                if (!impls[j].capable())
                    continue;
                int32_t out[N];
                impls[j].mulc(out, &m, &s_hat, 0);
                int fails = 0;
                for (unsigned i = 0; i < N; i++)
                    fails += modp(out[i]) != (i == 0 ? want0 : 0) || out[i] > 3840 ||
                             out[i] < -3840;
                QT_CHECK(fails == 0);
            }
        }
}

static void test_split(void) {
    static int32_t t0[N];
    int fails = 0;
    for (int32_t base = -4095; base <= 4096; base += N) {
        for (unsigned i = 0; i < N; i++)
            t0[i] = base + (int32_t)i > 4096 ? 4096 : base + (int32_t)i;
        quill_mldsa_pair16 pr;
        quill_mldsa_pair16_split(&pr, t0, 6);
        for (unsigned i = 0; i < N; i++) {
            unsigned pos = 16 * (i / 8) + i % 8;
            int32_t lo = pr.c[pos], hi = pr.c[pos + 8];
            fails += lo < -32 || lo >= 32 || hi < -64 || hi > 64 || lo + 64 * hi != t0[i];
        }
    }
    QT_CHECK(fails == 0);
    quill_mldsa_pair16 pr;
    memset(&pr, 0x55, sizeof(pr));
    quill_mldsa_pair16_set(&pr, t0, NULL);
    fails = 0;
    for (unsigned i = 0; i < N; i++) {
        unsigned pos = 16 * (i / 8) + i % 8;
        fails += pr.c[pos] != t0[i] || pr.c[pos + 8] != 0;
    }
    QT_CHECK(fails == 0);
}

int main(void) {
    qt_rng_seed(0x1616);
    test_tables();
    test_reductions();
    test_split();
    test_forward();
    test_mulc();
    test_inverse_extremes();
    return qt_finish("mldsa_ntt16");
}
