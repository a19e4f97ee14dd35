/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * ML-DSA arithmetic against direct implementations of FIPS 204's
 * definitions: the zeta table regenerated from zeta = 1753, the reductions,
 * NTT round trips and NTT-domain products against schoolbook negacyclic
 * multiplication (random and extreme coefficients), Power2Round /
 * Decompose / HighBits / LowBits / UseHint for every r in [0, q) for both
 * values of gamma2, the CT norm check, pack/unpack round trips
 * (including the private-key range check and the hint decoding rules),
 * every fixed-width packer and unpacker against the generic bit packing
 * (random and extreme values; unpack_z with verification's norm check at
 * ||z|| = gamma1 - beta - 1, gamma1 - beta and the range's ends), and the ExpandS and ExpandA rejection
 * samplers (portable and native) against direct transcriptions of FIPS
 * 204's RejBoundedPoly and RejNTTPoly. */
#include <stdlib.h>
#include <string.h>

#include "mldsa/hint.h"
#include "mldsa/ntt.h"
#include "mldsa/pack.h"
#include "mldsa/params.h"
#include "mldsa/poly.h"
#include "mldsa/reduce.h"
#include "mldsa/rounding.h"
#include "mldsa/sample.h"
#include "mldsa_ref.h"
#include "test_util.h"

#define Q QUILL_MLDSA_Q
#define N QUILL_MLDSA_N

static int64_t modq(int64_t a) {
    a %= Q;
    return a < 0 ? a + Q : a;
}

static int64_t powmod(int64_t b, unsigned e) {
    int64_t r = 1;
    b = modq(b);
    while (e) {
        if (e & 1)
            r = r * b % Q;
        b = b * b % Q;
        e >>= 1;
    }
    return r;
}

static unsigned brv8(unsigned i) {
    unsigned r = 0;
    for (unsigned b = 0; b < 8; b++)
        r |= ((i >> b) & 1) << (7 - b);
    return r;
}

static void test_constants(void) {
    const int64_t r32 = (int64_t)((UINT64_C(1) << 32) % Q);
    QT_CHECK((uint32_t)((uint32_t)Q * (uint32_t)QUILL_MLDSA_QINV) == 1u);
    QT_CHECK(modq(QUILL_MLDSA_MONT) == r32);
    /* the inverse transform's factors (ntt.h): 256 F = 2^64, and F_Z1 2^32 =
     * -zetas[1] F (mod q); the bias a multiple of q */
    QT_CHECK(modq((int64_t)QUILL_MLDSA_INVNTT_F * 256) == modq(r32 * r32));
    QT_CHECK(modq((int64_t)QUILL_MLDSA_INVNTT_F_Z1 * r32) ==
             modq(-(int64_t)quill_mldsa_zetas[1] * QUILL_MLDSA_INVNTT_F));
    QT_CHECK(QUILL_MLDSA_MONT_BIAS % Q == 0);
    QT_CHECK(powmod(1753, 256) == Q - 1); /* primitive 512th root */
    QT_CHECK(quill_mldsa_zetas[0] == 0);
    for (unsigned i = 1; i < N; i++) {
        int64_t z = powmod(1753, brv8(i)) * r32 % Q;
        if (z > Q / 2)
            z -= Q;
        QT_CHECK(quill_mldsa_zetas[i] == z);
    }
    for (unsigned b = 0; b < 32; b++) {
        QT_CHECK(quill_mldsa_zetas_rows[0][b] == quill_mldsa_zetas[32 + b]);
        for (unsigned s = 0; s < 2; s++)
            QT_CHECK(quill_mldsa_zetas_rows[1 + s][b] == quill_mldsa_zetas[64 + 2 * b + s]);
        for (unsigned s = 0; s < 4; s++)
            QT_CHECK(quill_mldsa_zetas_rows[3 + s][b] == quill_mldsa_zetas[128 + 4 * b + s]);
        QT_CHECK(quill_mldsa_zetas_inv_rows[0][b] == -quill_mldsa_zetas[63 - b]);
        for (unsigned s = 0; s < 2; s++)
            QT_CHECK(quill_mldsa_zetas_inv_rows[1 + s][b] == -quill_mldsa_zetas[127 - (2 * b + s)]);
        for (unsigned s = 0; s < 4; s++)
            QT_CHECK(quill_mldsa_zetas_inv_rows[3 + s][b] == -quill_mldsa_zetas[255 - (4 * b + s)]);
    }
    /* the rows as the vector backends load them (ntt.h,
     * quill_mldsa_zeta_rows_mult): residues, q^-1 products, zero padding */
    const quill_mldsa_zeta_rows_mult *rm[2] = {&quill_mldsa_zetas_rows_mult,
                                               &quill_mldsa_zetas_inv_rows_mult};
    const int32_t(*rows[2])[32] = {quill_mldsa_zetas_rows, quill_mldsa_zetas_inv_rows};
    for (unsigned t = 0; t < 2; t++) {
        for (unsigned r = 0; r < 7; r++)
            for (unsigned b = 0; b < 32; b++) {
                int32_t v = rm[t]->res[32 * r + b];
                QT_CHECK(v >= 0 && v < Q && modq((int64_t)v - rows[t][r][b]) == 0);
                QT_CHECK((uint32_t)rm[t]->qinv[r][b] ==
                         (uint32_t)v * (uint32_t)QUILL_MLDSA_QINV);
            }
        for (unsigned i = 7 * 32; i < 7 * 32 + 8; i++)
            QT_CHECK(rm[t]->res[i] == 0);
    }
    const quill_mldsa_zeta_top_mult *tm = &quill_mldsa_zetas_top_mult;
    for (unsigned k = 0; k < 32; k++) {
        QT_CHECK(tm->fwd_res[k] >= 0 && tm->fwd_res[k] < Q &&
                 modq((int64_t)tm->fwd_res[k] - quill_mldsa_zetas[k]) == 0);
        QT_CHECK(tm->inv_res[k] >= 0 && tm->inv_res[k] < Q &&
                 modq((int64_t)tm->inv_res[k] + quill_mldsa_zetas[k]) == 0);
        QT_CHECK((uint32_t)tm->fwd_qinv[k] == (uint32_t)tm->fwd_res[k] * (uint32_t)QUILL_MLDSA_QINV);
        QT_CHECK((uint32_t)tm->inv_qinv[k] == (uint32_t)tm->inv_res[k] * (uint32_t)QUILL_MLDSA_QINV);
    }
    /* NTT_POS is a permutation */
    unsigned char seen[N] = {0};
    for (unsigned i = 0; i < N; i++)
        seen[QUILL_MLDSA_NTT_POS(i)]++;
    for (unsigned i = 0; i < N; i++)
        QT_CHECK(seen[i] == 1);
}

static void random_poly(quill_mldsa_poly *a, int kind);

/* The NTT of X^j is (zeta^((2 brv8(i) + 1) j)) at FIPS index i: checks the
 * NTT-domain order that ExpandA relies on. */
static void test_ntt_order(void) {
    quill_mldsa_poly a;
    for (unsigned j = 0; j < 4; j++) {
        memset(&a, 0, sizeof(a));
        a.c[j] = 1;
        quill_mldsa_ntt(a.c);
        int ok = 1;
        for (unsigned i = 0; i < N; i++)
            ok &= modq(a.c[QUILL_MLDSA_NTT_POS(i)]) == powmod(1753, (2 * brv8(i) + 1) * j);
        QT_CHECK(ok);
    }
}

/* Every implementation of the backend functions gives identical output. */
#if QUILL_MLDSA_HAVE_AVX2
/* A native twin of the portable transforms, which must match bit for bit. */
struct backend {
    const char *name;
    int (*capable)(void);
    void (*ntt)(int32_t a[N]);
    void (*invntt)(int32_t a[N]);
    void (*pointwise)(int32_t c[N], const int32_t a[N], const int32_t b[N]);
};

static void test_backend(const struct backend *be) {
    if (!be->capable()) {
        printf("mldsa_arith: no %s, that comparison skipped\n", be->name);
        return;
    }
    quill_mldsa_poly a, b, c1, c2;
    for (int t = 0; t < 3000; t++) {
        random_poly(&a, t % 7);
        random_poly(&b, (t + 1) % 7);
        c1 = a;
        c2 = a;
        quill_mldsa_ntt_c(c1.c);
        be->ntt(c2.c);
        QT_CHECK(memcmp(&c1, &c2, sizeof(c1)) == 0);
        c1 = a;
        c2 = a;
        quill_mldsa_invntt_tomont_c(c1.c);
        be->invntt(c2.c);
        QT_CHECK(memcmp(&c1, &c2, sizeof(c1)) == 0);
        quill_mldsa_pointwise_mont_c(c1.c, a.c, b.c);
        be->pointwise(c2.c, a.c, b.c);
        QT_CHECK(memcmp(&c1, &c2, sizeof(c1)) == 0);
    }
}
#endif

static void test_backends(void) {
#if QUILL_MLDSA_HAVE_AVX2
    static const struct backend backends[] = {
        {"AVX2", quill_mldsa_avx2_capable, quill_mldsa_ntt_avx2,
         quill_mldsa_invntt_tomont_avx2, quill_mldsa_pointwise_mont_avx2},
        {"AVX-512VL", quill_mldsa_avx512vl_capable, quill_mldsa_ntt_avx512vl,
         quill_mldsa_invntt_tomont_avx512vl, quill_mldsa_pointwise_mont_avx512vl},
    };
    for (size_t i = 0; i < sizeof(backends) / sizeof(backends[0]); i++)
        test_backend(&backends[i]);
#else
    printf("mldsa_arith: portable build, no native backend to compare\n");
#endif
    /* mont_mul against mont_reduce */
    quill_mldsa_poly a, b;
    for (int t = 0; t < 3000; t++) {
        random_poly(&a, t % 7);
        random_poly(&b, (t + 1) % 7);
        for (unsigned i = 0; i < N; i++)
            QT_CHECK(quill_mldsa_mont_mul(a.c[i], b.c[i]) ==
                     quill_mldsa_mont_reduce((int64_t)a.c[i] * b.c[i]));
    }
}

static void test_reduce(void) {
    for (int i = 0; i < 200000; i++) {
        int64_t a = (int64_t)(qt_rng_u64() % ((uint64_t)Q << 32)) - ((int64_t)Q << 31);
        if (i < 2)
            a = i == 0 ? -((int64_t)Q << 31) + 1 : ((int64_t)Q << 31) - 1;
        int32_t r = quill_mldsa_mont_reduce(a);
        QT_CHECK(r > -Q && r < Q);
        /* mont_mul (via the unsigned high products) equals mont_reduce */
        int32_t x = (int32_t)qt_rng_u64(), y = (int32_t)(qt_rng_u64() % (2 * Q - 1)) - (Q - 1);
        if (i < 4) /* extremes of the signed high product */
            x = (i & 1) ? INT32_MIN : INT32_MAX;
        if ((int64_t)x * y < ((int64_t)Q << 31) && (int64_t)x * y > -((int64_t)Q << 31))
            QT_CHECK(quill_mldsa_mont_mul(x, y) == quill_mldsa_mont_reduce((int64_t)x * y));
        QT_CHECK(quill_mldsa_mulhi(x, y) == (int32_t)(((int64_t)x * y) >> 32));
        QT_CHECK(modq((int64_t)r * ((int64_t)1 << 32)) == modq(a));
        int32_t b = (int32_t)(qt_rng_u64() % (UINT64_C(1) << 32) >> 1);
        if (i & 1)
            b = -b;
        if (b > (1 << 30) + (1 << 29)) /* stay below 2^31 - 2^22 */
            b = (1 << 30);
        int32_t c = quill_mldsa_reduce32(b);
        QT_CHECK(c >= -6283009 && c <= 6283008 && modq(c) == modq(b));
        int32_t f = quill_mldsa_freeze(b);
        QT_CHECK(f >= 0 && f < Q && f == modq(b));
        int32_t ce = quill_mldsa_centre(f);
        QT_CHECK(ce >= -(Q - 1) / 2 && ce <= (Q - 1) / 2 && modq(ce) == f);
    }
}

static void schoolbook(int64_t out[N], const int32_t *a, const int32_t *b) {
    for (unsigned i = 0; i < N; i++)
        out[i] = 0;
    for (unsigned i = 0; i < N; i++) {
        for (unsigned j = 0; j < N; j++) {
            int64_t t = (int64_t)a[i] * b[j] % Q;
            if (i + j < N)
                out[i + j] += t;
            else
                out[i + j - N] -= t;
        }
    }
    for (unsigned i = 0; i < N; i++)
        out[i] = modq(out[i]);
}

/* Random coefficients in (-q, q), with some polynomials all at +-(q - 1),
 * 0, or mixed extremes; kinds 5 and 6 are q - 1 in one half and -(q - 1)
 * in the other, which drives the inverse transform's last difference to
 * 256 (q - 1), the largest input its products take. */
static void random_poly(quill_mldsa_poly *a, int kind) {
    for (unsigned i = 0; i < N; i++) {
        int32_t v = (int32_t)(qt_rng_u64() % (2 * Q - 1)) - (Q - 1);
        switch (kind) {
        case 1: v = Q - 1; break;
        case 2: v = -(Q - 1); break;
        case 3: v = (qt_rng_u64() & 1) ? Q - 1 : -(Q - 1); break;
        case 4: v = 0; break;
        case 5: v = i < N / 2 ? Q - 1 : -(Q - 1); break;
        case 6: v = i < N / 2 ? -(Q - 1) : Q - 1; break;
        default: break;
        }
        a->c[i] = v;
    }
}

static void test_ntt(void) {
    const int64_t r32 = (int64_t)((UINT64_C(1) << 32) % Q);
    quill_mldsa_poly a, b, c, ah, bh, acc;
    int64_t want[N];
    for (int t = 0; t < 2000; t++) {
        random_poly(&a, t % 7);
        random_poly(&b, (t / 7) % 7);
        /* invntt_tomont(ntt(a)) = a 2^32 */
        ah = a;
        quill_mldsa_poly_ntt(&ah);
        for (unsigned i = 0; i < N; i++)
            QT_CHECK(ah.c[i] > -9 * Q && ah.c[i] < 9 * Q);
        c = ah;
        quill_mldsa_poly_reduce32(&c);
        quill_mldsa_poly_invntt_tomont(&c);
        int ok = 1;
        for (unsigned i = 0; i < N; i++)
            ok &= c.c[i] > -Q && c.c[i] < Q && modq(c.c[i]) == modq(a.c[i] * r32);
        QT_CHECK(ok);
        if (t >= 600)
            continue;
        /* NTT-domain product against schoolbook (one operand < q as A-hat
         * is, the other straight out of the NTT, < 9q) */
        bh = b;
        quill_mldsa_poly_ntt(&bh);
        quill_mldsa_poly_reduce32(&ah);
        quill_mldsa_poly_pointwise_mont(&c, &ah, &bh);
        quill_mldsa_poly_invntt_tomont(&c);
        schoolbook(want, a.c, b.c);
        ok = 1;
        for (unsigned i = 0; i < N; i++)
            ok &= modq(c.c[i]) == want[i];
        QT_CHECK(ok);
        /* matvec of 7 copies: 7 a b */
        quill_mldsa_poly as[7], bs[7];
        for (int j = 0; j < 7; j++) {
            for (unsigned i = 0; i < N; i++)
                as[j].c[i] = (int32_t)modq(ah.c[i]); /* [0, q) */
            bs[j] = bh;
        }
        quill_mldsa_poly_matvec_mont(&acc, as, bs, 7);
        for (unsigned i = 0; i < N; i++)
            QT_CHECK(acc.c[i] > -Q && acc.c[i] < Q);
        quill_mldsa_poly_invntt_tomont(&acc);
        ok = 1;
        for (unsigned i = 0; i < N; i++)
            ok &= modq(acc.c[i]) == modq(7 * want[i]);
        QT_CHECK(ok);
    }
}

/* The forward transform over its documented input range, |a_i| < B with
 * B + 8q < 2^31 (ntt.h; callers use B <= 2^23): for B = 2^23 and for the
 * largest B, the portable body and the dispatched one stay within B + 8q
 * and are congruent to the transform of the input reduced mod q (the
 * transform is linear), at random inputs and at +-B; the native backends
 * give the portable body's output bit for bit. */
static void test_ntt_wide_input(void) {
    static const int32_t bounds[2] = {1 << 23, (int32_t)(((int64_t)1 << 31) - 8 * Q - 1)};
    quill_mldsa_poly a, ar, ah, ref;
    for (int t = 0; t < 400; t++) {
        const int32_t b = bounds[t & 1] - 1; /* |a_i| <= b < B */
        for (unsigned i = 0; i < N; i++) {
            int32_t v = (int32_t)((int64_t)(qt_rng_u64() % (2 * (uint64_t)b + 1)) - b);
            switch ((t >> 1) % 4) {
            case 1: v = b; break;
            case 2: v = -b; break;
            case 3: v = (qt_rng_u64() & 1) ? b : -b; break;
            default: break;
            }
            a.c[i] = v;
            ar.c[i] = (int32_t)(v % Q); /* |.| < q */
        }
        ref = ar;
        quill_mldsa_ntt_c(ref.c);
#if QUILL_MLDSA_HAVE_AVX2
        quill_mldsa_poly port = a, nat;
        quill_mldsa_ntt_c(port.c);
        if (quill_mldsa_avx2_capable()) {
            nat = a;
            quill_mldsa_ntt_avx2(nat.c);
            QT_CHECK(memcmp(&nat, &port, sizeof(nat)) == 0);
        }
        if (quill_mldsa_avx512vl_capable()) {
            nat = a;
            quill_mldsa_ntt_avx512vl(nat.c);
            QT_CHECK(memcmp(&nat, &port, sizeof(nat)) == 0);
        }
        /* out of place: in left as it was */
        quill_mldsa_poly in = a;
        if (quill_mldsa_avx2_capable()) {
            memset(&nat, 0x5a, sizeof(nat));
            quill_mldsa_ntt_from_avx2(nat.c, in.c);
            QT_CHECK(memcmp(&nat, &port, sizeof(nat)) == 0);
        }
        if (quill_mldsa_avx512vl_capable()) {
            memset(&nat, 0x5a, sizeof(nat));
            quill_mldsa_ntt_from_avx512vl(nat.c, in.c);
            QT_CHECK(memcmp(&nat, &port, sizeof(nat)) == 0);
        }
        QT_CHECK(memcmp(&in, &a, sizeof(in)) == 0);
#endif
        {
            quill_mldsa_poly from, in2 = a, want = a;
            quill_mldsa_ntt(want.c);
            quill_mldsa_ntt_from(from.c, in2.c); /* dispatch, out of place */
            QT_CHECK(memcmp(&from, &want, sizeof(from)) == 0);
            QT_CHECK(memcmp(&in2, &a, sizeof(in2)) == 0);
            quill_mldsa_ntt_from(in2.c, in2.c); /* in place */
            QT_CHECK(memcmp(&in2, &want, sizeof(in2)) == 0);
        }
        for (int impl = 0; impl < 2; impl++) {
            ah = a;
            if (impl == 0)
                quill_mldsa_ntt_c(ah.c);
            else
                quill_mldsa_poly_ntt(&ah);
            int ok = 1;
            for (unsigned i = 0; i < N; i++) {
                ok &= (int64_t)ah.c[i] > -((int64_t)b + 1 + 8 * Q);
                ok &= (int64_t)ah.c[i] < (int64_t)b + 1 + 8 * Q;
                ok &= modq(ah.c[i]) == modq(ref.c[i]);
            }
            QT_CHECK(ok);
        }
    }
}

/* quill_mldsa_ntt_lazy_from (Shoup's products): its constants are
 * w = zeta 2^-32 mod q and w' = floor(w 2^32 / q) for every entry of the
 * tables it reads, and the first level's centred residue is zetas[1]'s;
 * the portable body is congruent to quill_mldsa_ntt_c and within 17q for
 * inputs |a_i| <= B, B = 2 and 4 (eta; random and +-B); the AVX2 and
 * AVX-512VL twins give its output
 * bit for bit, out of place (in unchanged) and in place; the dispatcher's
 * output is within the same contract (it may be the Montgomery transform
 * where there is no twin); and the sum of 8 products of such outputs with
 * A-hat-range values stays within dot_mont's exact range (the row end
 * agrees with the schoolbook product). */
static uint32_t shoup_w(int32_t z) {
    const int64_t rinv = 8265825; /* 2^-32 mod q */
    QT_CHECK(modq((int64_t)rinv << 32) == 1);
    return (uint32_t)modq(modq(z) * rinv);
}

/* The signed form (the inverse's tables): wc is w centred, |wc| < q/2, and
 * wp = floor(wc 2^32 / q), checked as wp q <= wc 2^32 < (wp + 1) q. */
static void shoup_check_signed(int32_t wp, int32_t wc, uint32_t w) {
    QT_CHECK(wc > -Q / 2 && wc <= Q / 2 && modq(wc) == (int64_t)w);
    const int64_t n = (int64_t)wc * ((int64_t)1 << 32);
    QT_CHECK((int64_t)wp * Q <= n && n < ((int64_t)wp + 1) * Q);
}

static void test_ntt_lazy(void) {
    const quill_mldsa_zeta_top_mult *ts = &quill_mldsa_zetas_top_shoup;
    for (unsigned k = 0; k < 32; k++) {
        uint32_t w = shoup_w(quill_mldsa_zetas[k]), wn = shoup_w(-quill_mldsa_zetas[k]);
        QT_CHECK((uint32_t)ts->fwd_qinv[k] == w);
        QT_CHECK((uint32_t)ts->fwd_res[k] == (uint32_t)(((uint64_t)w << 32) / Q));
        shoup_check_signed(ts->inv_res[k], ts->inv_qinv[k], wn);
    }
    for (int inv = 0; inv < 2; inv++) {
        const quill_mldsa_zeta_rows_mult *rs =
            inv ? &quill_mldsa_zetas_inv_rows_shoup : &quill_mldsa_zetas_rows_shoup;
        for (unsigned r = 0; r < 7; r++)
            for (unsigned b = 0; b < 32; b++) {
                uint32_t w = shoup_w(inv ? quill_mldsa_zetas_inv_rows[r][b]
                                         : quill_mldsa_zetas_rows[r][b]);
                if (inv) {
                    shoup_check_signed(rs->res[32 * r + b], rs->qinv[r][b], w);
                    continue;
                }
                QT_CHECK((uint32_t)rs->qinv[r][b] == w);
                QT_CHECK((uint32_t)rs->res[32 * r + b] == (uint32_t)(((uint64_t)w << 32) / Q));
            }
        for (unsigned i = 7 * 32; i < 7 * 32 + 8; i++)
            QT_CHECK(rs->res[i] == 0);
    }

    QT_CHECK(QUILL_MLDSA_LAZY_W1 > -Q / 2 && QUILL_MLDSA_LAZY_W1 < Q / 2 &&
             (uint32_t)modq(QUILL_MLDSA_LAZY_W1) == shoup_w(quill_mldsa_zetas[1]));
    quill_mldsa_poly a, ref, port;
    for (int t = 0; t < 2000; t++) {
        const int32_t b = (t & 1) ? 4 : 2; /* |a_i| <= b */
        for (unsigned i = 0; i < N; i++) {
            int32_t v = (int32_t)((int64_t)(qt_rng_u64() % (2 * (uint64_t)b + 1)) - b);
            switch ((t >> 1) % 4) {
            case 1: v = b; break;
            case 2: v = -b; break;
            case 3: v = (qt_rng_u64() & 1) ? b : -b; break;
            default: break;
            }
            a.c[i] = v;
        }
        ref = a;
        quill_mldsa_ntt_c(ref.c);
        quill_mldsa_poly in = a;
        memset(&port, 0x5a, sizeof(port));
        quill_mldsa_ntt_lazy_from_c(port.c, in.c);
        QT_CHECK(memcmp(&in, &a, sizeof(in)) == 0);
        int ok = 1;
        for (unsigned i = 0; i < N; i++) {
            ok &= port.c[i] > -(b + 2 * Q + 14 * Q) && port.c[i] < b + 2 * Q + 14 * Q;
            ok &= modq(port.c[i]) == modq(ref.c[i]);
        }
        QT_CHECK(ok);
        quill_mldsa_poly self = a;
        quill_mldsa_ntt_lazy_from_c(self.c, self.c);
        QT_CHECK(memcmp(&self, &port, sizeof(self)) == 0);
#if QUILL_MLDSA_HAVE_AVX2
        quill_mldsa_poly nat;
        if (quill_mldsa_avx2_capable()) {
            memset(&nat, 0x5a, sizeof(nat));
            quill_mldsa_ntt_lazy_from_avx2(nat.c, in.c);
            QT_CHECK(memcmp(&nat, &port, sizeof(nat)) == 0);
            nat = a;
            quill_mldsa_ntt_lazy_from_avx2(nat.c, nat.c);
            QT_CHECK(memcmp(&nat, &port, sizeof(nat)) == 0);
        }
        if (quill_mldsa_avx512vl_capable()) {
            memset(&nat, 0x5a, sizeof(nat));
            quill_mldsa_ntt_lazy_from_avx512vl(nat.c, in.c);
            QT_CHECK(memcmp(&nat, &port, sizeof(nat)) == 0);
            nat = a;
            quill_mldsa_ntt_lazy_from_avx512vl(nat.c, nat.c);
            QT_CHECK(memcmp(&nat, &port, sizeof(nat)) == 0);
        }
        QT_CHECK(memcmp(&in, &a, sizeof(in)) == 0);
#endif
        quill_mldsa_poly disp;
        quill_mldsa_ntt_lazy_from(disp.c, in.c);
        ok = 1;
        for (unsigned i = 0; i < N; i++) {
            ok &= disp.c[i] > -(b + 2 * Q + 14 * Q) && disp.c[i] < b + 2 * Q + 14 * Q;
            ok &= modq(disp.c[i]) == modq(ref.c[i]);
        }
        QT_CHECK(ok);
        if (t % 8 != 1) /* b = 4 */
            continue;
        /* 8 products of A-hat-range values (all q - 1 every other time,
         * else random) with it, reduced once. */
        static quill_mldsa_poly as[8], bs[8];
        quill_mldsa_poly acc, want;
        for (int j = 0; j < 8; j++) {
            for (unsigned i = 0; i < N; i++)
                as[j].c[i] = (t & 16) ? Q - 1 : (int32_t)(qt_rng_u64() % Q);
            bs[j] = port;
        }
        quill_mldsa_poly_matvec_mont(&acc, as, bs, 8);
        for (unsigned i = 0; i < N; i++) {
            int64_t sum = 0;
            for (int j = 0; j < 8; j++)
                sum += (int64_t)as[j].c[i] * port.c[i];
            want.c[i] = (int32_t)modq(modq(sum) * 8265825);
            QT_CHECK(acc.c[i] > -Q && acc.c[i] < Q && modq(acc.c[i]) == want.c[i]);
        }
    }
}

/* FIPS 204 definitions, written directly. */
static int32_t modpm(int32_t r, int32_t alpha) { /* r mod± alpha, alpha even */
    int32_t m = r % alpha;
    if (m < 0)
        m += alpha;
    if (m > alpha / 2)
        m -= alpha;
    return m;
}

static int32_t ref_decompose(int32_t *r0, int32_t r, int32_t gamma2) {
    int32_t lo = modpm(r, 2 * gamma2);
    if (r - lo == Q - 1) {
        *r0 = lo - 1;
        return 0;
    }
    *r0 = lo;
    return (r - lo) / (2 * gamma2);
}

static void test_rounding(void) {
    const int32_t gammas[2] = {(Q - 1) / 88, (Q - 1) / 32};
    unsigned long bad_p2r = 0, bad_dec[2] = {0, 0}, bad_hint[2] = {0, 0};
    for (int32_t r = 0; r < Q; r++) {
        int32_t a0, a1 = quill_mldsa_power2round(&a0, r);
        int32_t w0 = modpm(r, 1 << 13);
        if (a0 != w0 || a1 != (r - w0) >> 13)
            bad_p2r++;
        for (int g = 0; g < 2; g++) {
            int32_t m = (Q - 1) / (2 * gammas[g]);
            int32_t d0, d1 = quill_mldsa_decompose(&d0, r, gammas[g]);
            int32_t e0, e1 = ref_decompose(&e0, r, gammas[g]);
            if (d0 != e0 || d1 != e1)
                bad_dec[g]++;
            int32_t u0 = mdt_use_hint(r, 0, gammas[g]);
            int32_t u1 = mdt_use_hint(r, 1, gammas[g]);
            int32_t v1 = e0 > 0 ? (e1 + 1) % m : ((e1 - 1) % m + m) % m;
            if (u0 != e1 || u1 != v1)
                bad_hint[g]++;
        }
    }
    QT_CHECK(bad_p2r == 0);
    QT_CHECK(bad_dec[0] == 0 && bad_dec[1] == 0);
    QT_CHECK(bad_hint[0] == 0 && bad_hint[1] == 0);
    /* polynomial forms against the scalar ones */
    quill_mldsa_poly r, h, l, t1, t0, hb;
    for (unsigned i = 0; i < N; i++)
        r.c[i] = (int32_t)(qt_rng_u64() % Q);
    r.c[0] = Q - 1;
    r.c[1] = 0;
    for (int g = 0; g < 2; g++) {
        quill_mldsa_poly_decompose(&h, &l, &r, gammas[g]);
        quill_mldsa_poly_highbits(&hb, &r, gammas[g]);
        for (unsigned i = 0; i < N; i++) {
            int32_t e0, e1 = ref_decompose(&e0, r.c[i], gammas[g]);
            QT_CHECK(h.c[i] == e1 && l.c[i] == e0 && hb.c[i] == e1);
        }
    }
    mdt_poly_power2round(&t1, &t0, &r);
    for (unsigned i = 0; i < N; i++)
        QT_CHECK(t1.c[i] * 8192 + t0.c[i] == r.c[i]);
    /* the polynomial UseHint (branch-free, vectorised) against the scalar
     * one for every r in [0, q), with h = 0, h = 1 and random h (in place
     * for the last) */
    unsigned long bad_poly[2] = {0, 0};
    for (int g = 0; g < 2; g++) {
        for (int32_t base = 0; base < Q; base += N) {
            quill_mldsa_poly hh[3], u;
            uint64_t bits[4] = {qt_rng_u64(), qt_rng_u64(), qt_rng_u64(), qt_rng_u64()};
            for (unsigned i = 0; i < N; i++) {
                r.c[i] = base + (int32_t)i < Q ? base + (int32_t)i : Q - 1;
                hh[0].c[i] = 0;
                hh[1].c[i] = 1;
                hh[2].c[i] = (int32_t)((bits[i / 64] >> (i % 64)) & 1);
            }
            for (int k = 0; k < 3; k++) {
                u = r;
                mdt_poly_use_hint(&u, &u, &hh[k], gammas[g]);
                for (unsigned i = 0; i < N; i++)
                    bad_poly[g] +=
                        u.c[i] != mdt_use_hint(r.c[i], hh[k].c[i], gammas[g]);
                /* the index-list form (verification's) on the same hints */
                uint8_t idx[N];
                unsigned n = 0;
                for (unsigned i = 0; i < N; i++)
                    if (hh[k].c[i])
                        idx[n++] = (uint8_t)i;
                quill_mldsa_poly u2;
                mdt_poly_use_hint_idx(&u2, &r, idx, n, gammas[g]);
                for (unsigned i = 0; i < N; i++)
                    bad_poly[g] += u2.c[i] != u.c[i];
            }
        }
    }
    QT_CHECK(bad_poly[0] == 0 && bad_poly[1] == 0);
}

/* hint.h against FIPS 204's r0 check and MakeHint: for every w in [0, q),
 * a random c s2 within +-beta and a c t0 within +-(gamma2 - 1) (one case
 * in eight chosen to put a0 exactly on -gamma2), with r = w - c s2:
 * ||LowBits(r)|| < gamma2 - beta iff ||w0 - c s2|| < gamma2 - beta, and
 * then HighBits(r + c t0) != HighBits(r) iff quill_mldsa_hint_low. */
static void test_hint_low(void) {
    const int32_t gammas[2] = {(Q - 1) / 88, (Q - 1) / 32}, betas[2] = {78, 196};
    unsigned long bad_check[2] = {0, 0}, bad_hint[2] = {0, 0}, on_edge[2] = {0, 0};
    for (int g = 0; g < 2; g++) {
        const int32_t g2 = gammas[g], beta = betas[g];
        for (int32_t w = 0; w < Q; w++) {
            uint64_t rnd = qt_rng_u64();
            int32_t cs2 = (int32_t)(rnd % (2 * beta + 1)) - beta;
            int32_t ct0 = (int32_t)((rnd >> 16) % (2 * g2 - 1)) - (g2 - 1);
            int32_t w0, w1 = ref_decompose(&w0, w, g2);
            if (((rnd >> 48) & 7) == 0 && -g2 - (w0 - cs2) > -g2 && -g2 - (w0 - cs2) < g2)
                ct0 = -g2 - (w0 - cs2);
            int32_t r = (int32_t)modq((int64_t)w - cs2), r0, r1 = ref_decompose(&r0, r, g2);
            int fips_ok = abs(r0) < g2 - beta, ours_ok = abs(w0 - cs2) < g2 - beta;
            if (fips_ok != ours_ok)
                bad_check[g]++;
            if (!fips_ok)
                continue;
            int32_t s0, s1 = ref_decompose(&s0, (int32_t)modq((int64_t)r + ct0), g2);
            uint32_t fips_h = s1 != r1;
            int32_t a0 = w0 - cs2 + ct0;
            on_edge[g] += a0 == -g2;
            if (quill_mldsa_hint_low(a0, w1, g2) != fips_h)
                bad_hint[g]++;
        }
    }
    QT_CHECK(bad_check[0] == 0 && bad_check[1] == 0);
    QT_CHECK(bad_hint[0] == 0 && bad_hint[1] == 0);
    QT_CHECK(on_edge[0] > 1000 && on_edge[1] > 1000); /* the edge case was exercised */
}

static void test_norm(void) {
    quill_mldsa_poly a;
    for (int t = 0; t < 2000; t++) {
        int32_t bound = 1 + (int32_t)(qt_rng_u64() % (1 << 20));
        int32_t lim = bound + 5;
        for (unsigned i = 0; i < N; i++)
            a.c[i] = (int32_t)(qt_rng_u64() % (uint64_t)(2 * lim + 1)) - lim;
        if (t & 1) /* mostly in range with one edge value */
            for (unsigned i = 0; i < N; i++)
                a.c[i] = a.c[i] % bound;
        if (t % 4 == 1)
            a.c[qt_rng_u64() % N] = (t & 8) ? bound : -bound;
        if (t % 4 == 3)
            a.c[qt_rng_u64() % N] = (t & 8) ? bound - 1 : -(bound - 1);
        int want = quill_mldsa_poly_norm_ge_public(&a, bound);
        int slow = 0;
        for (unsigned i = 0; i < N; i++)
            slow |= a.c[i] >= bound || -a.c[i] >= bound;
        QT_CHECK(want == slow);
        QT_CHECK(quill_mldsa_poly_norm_ge_mask(&a, bound) == (want ? ~(quill_word)0 : 0));
    }
}

static void test_pack(void) {
    for (int set = 0; set < 3; set++) {
        const quill_mldsa_params *p = quill_mldsa_params_get((quill_mldsa_set)set);
        quill_mldsa_poly a, b;
        uint8_t buf[640], buf2[640];
        for (int t = 0; t < 200; t++) {
            /* t1: 10 bits */
            for (unsigned i = 0; i < N; i++)
                a.c[i] = (int32_t)(qt_rng_u64() & 1023);
            quill_mldsa_poly_pack_t1(buf, &a);
            quill_mldsa_poly_unpack_t1(&b, buf);
            QT_CHECK(memcmp(&a, &b, sizeof(a)) == 0);
            /* t0: (-2^12, 2^12] */
            for (unsigned i = 0; i < N; i++)
                a.c[i] = (int32_t)(qt_rng_u64() % 8192) - 4095;
            a.c[0] = 4096;
            a.c[1] = -4095;
            quill_mldsa_poly_pack_t0(buf, &a);
            quill_mldsa_poly_unpack_t0(&b, buf);
            QT_CHECK(memcmp(&a, &b, sizeof(a)) == 0);
            /* eta: round trip in range, and every out-of-range value caught */
            for (unsigned i = 0; i < N; i++)
                a.c[i] = (int32_t)(qt_rng_u64() % (2 * p->eta + 1)) - (int32_t)p->eta;
            quill_mldsa_poly_pack_eta(buf, &a, p);
            QT_CHECK(quill_mldsa_poly_unpack_eta(&b, buf, p) == 0);
            QT_CHECK(memcmp(&a, &b, sizeof(a)) == 0);
            unsigned idx = (unsigned)(qt_rng_u64() % N);
            uint32_t v[N];
            quill_mldsa_unpack_bits(v, buf, p->eta_bits);
            v[idx] = 2 * p->eta + 1 + (uint32_t)(qt_rng_u64() % ((1u << p->eta_bits) - 2 * p->eta - 1));
            quill_mldsa_pack_bits(buf2, v, p->eta_bits);
            QT_CHECK(quill_mldsa_poly_unpack_eta(&b, buf2, p) == ~(quill_word)0);
            /* z: [-gamma1 + 1, gamma1] */
            for (unsigned i = 0; i < N; i++)
                a.c[i] = (int32_t)(qt_rng_u64() % (uint64_t)(2 * p->gamma1)) - p->gamma1 + 1;
            a.c[0] = p->gamma1;
            a.c[1] = -p->gamma1 + 1;
            quill_mldsa_poly_pack_z(buf, &a, p);
            quill_mldsa_poly_unpack_z(&b, buf, p);
            QT_CHECK(memcmp(&a, &b, sizeof(a)) == 0);
        }
        /* generic bit packing against a bit-by-bit reference */
        for (unsigned bits = 1; bits <= 20; bits++) {
            uint32_t v[N], w[N];
            uint8_t ref[N * 20 / 8 + 1];
            memset(ref, 0, sizeof(ref));
            for (unsigned i = 0; i < N; i++) {
                v[i] = (uint32_t)(qt_rng_u64() & ((1u << bits) - 1));
                for (unsigned j = 0; j < bits; j++)
                    if ((v[i] >> j) & 1)
                        ref[(i * bits + j) / 8] |= (uint8_t)(1u << ((i * bits + j) % 8));
            }
            quill_mldsa_pack_bits(buf, v, bits);
            QT_CHECK(memcmp(buf, ref, N * bits / 8) == 0);
            quill_mldsa_unpack_bits(w, buf, bits);
            QT_CHECK(memcmp(v, w, sizeof(v)) == 0);
        }
    }
}

/* fill_range sets v_i in [lo, hi] by kind: 0 random, 1 all lo, 2 all hi,
 * 3 alternating lo / hi, 4 random among lo, hi and the values next to
 * them. */
static void fill_range(int32_t v[N], int32_t lo, int32_t hi, int kind) {
    for (unsigned i = 0; i < N; i++) {
        uint64_t r = qt_rng_u64();
        switch (kind) {
        case 0: v[i] = lo + (int32_t)(r % (uint64_t)(hi - lo + 1)); break;
        case 1: v[i] = lo; break;
        case 2: v[i] = hi; break;
        case 3: v[i] = i & 1 ? hi : lo; break;
        default: {
            static const int32_t d[4] = {0, 1, -1, 0};
            v[i] = r & 4 ? hi - d[r & 3] * (r & 1) : lo + d[r & 3] * (r & 1);
            if (hi - lo < 2)
                v[i] = r & 4 ? hi : lo;
        }
        }
    }
}

/* The generic packing of the offset values off - c_i (off = 0: c_i as is). */
static void generic_pack(uint8_t *out, const int32_t c[N], int32_t off, int sign, unsigned bits) {
    uint32_t v[N];
    for (unsigned i = 0; i < N; i++)
        v[i] = (uint32_t)(sign ? off - c[i] : c[i]);
    quill_mldsa_pack_bits(out, v, bits);
}

/* untouched: the n bytes at b still hold the 0xa5 they were filled with. */
static int untouched(const uint8_t *b, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (b[i] != 0xa5)
            return 0;
    return 1;
}

/* Each fixed-width packer against the generic SimpleBitPack, and each
 * unpacker against SimpleBitUnpack on random bytes (every bit pattern: for
 * eta the range flag is checked against the decoded values). */
static void test_pack_fixed(void) {
    for (int set = 0; set < 3; set++) {
        const quill_mldsa_params *p = quill_mldsa_params_get((quill_mldsa_set)set);
        const unsigned zbits = p->gamma1_bits + 1;
        static quill_mldsa_poly a[QUILL_MLDSA_K_MAX], b;
        uint8_t got[8 * 640], want[8 * 640], in[640];
        uint32_t v[N];
        for (int t = 0; t < 500; t++) {
            const int kind = t % 5;
            /* t1 */
            /* (t1, t0 and eta also with nothing written past the end) */
            fill_range(a[0].c, 0, 1023, kind);
            memset(got, 0xa5, sizeof(got));
            quill_mldsa_poly_pack_t1(got, &a[0]);
            generic_pack(want, a[0].c, 0, 0, 10);
            QT_CHECK(memcmp(got, want, QUILL_MLDSA_T1_BYTES) == 0);
            QT_CHECK(untouched(got + QUILL_MLDSA_T1_BYTES, 32));
            /* t0 in (-2^12, 2^12] */
            fill_range(a[0].c, -4095, 4096, kind);
            memset(got, 0xa5, sizeof(got));
            quill_mldsa_poly_pack_t0(got, &a[0]);
            generic_pack(want, a[0].c, 4096, 1, 13);
            QT_CHECK(memcmp(got, want, QUILL_MLDSA_T0_BYTES) == 0);
            QT_CHECK(untouched(got + QUILL_MLDSA_T0_BYTES, 32));
            /* eta */
            const int32_t eta = (int32_t)p->eta;
            fill_range(a[0].c, -eta, eta, kind);
            memset(got, 0xa5, sizeof(got));
            quill_mldsa_poly_pack_eta(got, &a[0], p);
            generic_pack(want, a[0].c, eta, 1, p->eta_bits);
            QT_CHECK(memcmp(got, want, 32u * p->eta_bits) == 0);
            QT_CHECK(untouched(got + 32u * p->eta_bits, 32));
            /* z in [-gamma1 + 1, gamma1] */
            fill_range(a[0].c, -p->gamma1 + 1, p->gamma1, kind);
            generic_pack(want, a[0].c, p->gamma1, 1, zbits);
            for (unsigned f = 0; f < 3; f++) { /* dispatch, portable, AVX2 */
                memset(got, 0xa5, sizeof(got));
                if (f == 0)
                    quill_mldsa_poly_pack_z(got, &a[0], p);
                else if (f == 1)
                    quill_mldsa_poly_pack_z_c(got, &a[0], p);
#if QUILL_MLDSA_HAVE_AVX2
                else if (quill_mldsa_avx2_capable())
                    quill_mldsa_poly_pack_z_avx2(got, &a[0], p);
#endif
                else
                    continue;
                QT_CHECK(memcmp(got, want, 32u * zbits) == 0);
                QT_CHECK(got[32u * zbits] == 0xa5); /* nothing written past it */
            }
            /* w1: k polynomials, every value of the width */
            for (unsigned i = 0; i < p->k; i++) {
                fill_range(a[i].c, 0, (1 << p->w1_bits) - 1, (kind + (int)i) % 5);
                generic_pack(want + 32u * p->w1_bits * i, a[i].c, 0, 0, p->w1_bits);
            }
            QT_CHECK(quill_mldsa_pack_w1(got, a, p) == 32u * p->w1_bits * p->k);
            QT_CHECK(memcmp(got, want, 32u * p->w1_bits * p->k) == 0);

            /* unpackers on random bytes (t % 5 == 1, 2: all zero / all ones) */
            qt_rng_bytes(in, sizeof(in));
            if (kind == 1 || kind == 2)
                memset(in, kind == 1 ? 0 : 0xff, sizeof(in));
            quill_mldsa_poly_unpack_t1(&b, in);
            quill_mldsa_unpack_bits(v, in, 10);
            for (unsigned i = 0; i < N; i++)
                QT_CHECK(b.c[i] == (int32_t)v[i]);
            quill_mldsa_poly_unpack_t0(&b, in);
            quill_mldsa_unpack_bits(v, in, 13);
            for (unsigned i = 0; i < N; i++)
                QT_CHECK(b.c[i] == 4096 - (int32_t)v[i]);
            quill_mldsa_unpack_bits(v, in, zbits);
            for (unsigned f = 0; f < 3; f++) {
                memset(&b, 0x5a, sizeof(b));
                if (f == 0)
                    quill_mldsa_poly_unpack_z(&b, in, p);
                else if (f == 1)
                    quill_mldsa_poly_unpack_z_c(&b, in, p);
#if QUILL_MLDSA_HAVE_AVX2
                else if (quill_mldsa_avx2_capable())
                    quill_mldsa_poly_unpack_z_avx2(&b, in, p);
#elif QUILL_MLDSA_HAVE_NEON
                else if (quill_mldsa_neon_capable())
                    quill_mldsa_poly_unpack_z_neon(b.c, in, p->gamma1_bits, p->gamma1);
#endif
                else
                    continue;
                for (unsigned i = 0; i < N; i++)
                    QT_CHECK(b.c[i] == p->gamma1 - (int32_t)v[i]);
            }
            /* unpack_z with the norm check (verification): z within the
             * bound, one coefficient set to an edge (bound - 1, bound, the
             * ends of the range, either sign) or left inside; every
             * coefficient decoded and the verdict that of norm_ge */
            {
                const int32_t bound = p->gamma1 - (int32_t)p->beta;
                const int32_t edges[8] = {bound - 1, -(bound - 1), bound,     -bound,
                                          p->gamma1, -p->gamma1 + 1, bound + 1, 0};
                int32_t zz[N];
                fill_range(zz, -(bound - 1), bound - 1, kind);
                const unsigned idx = (unsigned)(qt_rng_u64() % N);
                zz[idx] = edges[t % 8];
                generic_pack(in, zz, p->gamma1, 1, zbits);
                const int want_bad = zz[idx] >= bound || zz[idx] <= -bound;
                for (unsigned f = 0; f < 2; f++) {
                    memset(&b, 0x5a, sizeof(b));
                    int bad;
                    if (f == 0)
                        bad = quill_mldsa_poly_unpack_z_norm_public(&b, in, p, bound);
#if QUILL_MLDSA_HAVE_AVX2
                    else if (quill_mldsa_avx2_capable())
                        bad = quill_mldsa_poly_unpack_z_norm_avx2(&b, in, p, bound);
#endif
                    else
                        continue;
                    QT_CHECK((bad != 0) == want_bad);
                    QT_CHECK(memcmp(b.c, zz, sizeof(zz)) == 0);
                }
            }
            /* eta: mostly in-range bytes (generic pack of in-range values),
             * sometimes one or more values above 2 eta */
            fill_range(a[0].c, 0, 2 * eta, kind);
            generic_pack(in, a[0].c, 0, 0, p->eta_bits);
            if (t & 1) {
                unsigned idx = (unsigned)(qt_rng_u64() % N);
                const uint64_t above = (1u << p->eta_bits) - 2 * p->eta - 1;
                a[0].c[idx] = 2 * eta + 1 + (int32_t)(qt_rng_u64() % above);
                if (t & 2)
                    a[0].c[N - 1 - idx] = (1 << p->eta_bits) - 1;
                generic_pack(in, a[0].c, 0, 0, p->eta_bits);
            }
            quill_word bad = quill_mldsa_poly_unpack_eta(&b, in, p);
            quill_mldsa_unpack_bits(v, in, p->eta_bits);
            int want_bad = 0;
            for (unsigned i = 0; i < N; i++) {
                QT_CHECK(b.c[i] == eta - (int32_t)v[i]);
                want_bad |= v[i] > 2u * p->eta;
            }
            QT_CHECK(bad == (want_bad ? ~(quill_word)0 : 0));
            QT_CHECK(want_bad == (t & 1));
        }
    }
}

/* RejBoundedPoly as FIPS 204 writes it (Algorithms 31 and 15), from count n. */
static unsigned ref_rej_eta(int32_t a[N], unsigned n, const uint8_t *buf, size_t len,
                            unsigned eta) {
    for (size_t i = 0; i < len && n < N; i++)
        for (unsigned h = 0; h < 2 && n < N; h++) {
            int32_t z = h ? buf[i] >> 4 : buf[i] & 15;
            if (eta == 2 && z < 15)
                a[n++] = 2 - z % 5;
            else if (eta == 4 && z < 9)
                a[n++] = 4 - z;
        }
    return n;
}

typedef unsigned (*rej_eta_fn)(int32_t a[N], unsigned n, const uint8_t *buf, size_t len,
                               unsigned eta);

/* The ExpandS sampler and its native twin against the reference: random
 * streams (and all-rejected / all-accepted ones) fed in chunks of random
 * length, from a random starting count; the count and every kept value
 * must match, and nothing past the polynomial may be written. */
static void test_rej_eta(void) {
    struct {
        int32_t a[N];
        int32_t guard[16];
    } got;
    int32_t want[N];
    uint8_t buf[600];
    rej_eta_fn fns[3] = {quill_mldsa_rej_eta_c, NULL, NULL};
    const char *names[3] = {"portable", "AVX2 + BMI2", "AVX-512VL"};
#if QUILL_MLDSA_HAVE_AVX2
    if (quill_mldsa_rej_eta_avx2_capable())
        fns[1] = quill_mldsa_rej_eta_avx2;
    if (quill_mldsa_rej_eta_avx512vl_capable())
        fns[2] = quill_mldsa_rej_eta_avx512vl;
    else
        printf("mldsa_arith: no AVX-512VL, that ExpandS sampler not compared\n");
#endif
    if (fns[1] == NULL)
        printf("mldsa_arith: no AVX2 + BMI2, the native ExpandS sampler not compared\n");
    for (unsigned f = 0; f < 3 && fns[f] != NULL; f++) {
        unsigned long checked = 0;
        for (int t = 0; t < 20000; t++) {
            const unsigned eta = t & 1 ? 4 : 2;
            qt_rng_bytes(buf, sizeof(buf));
            if (t % 97 == 5) /* every candidate rejected (15 for both), or 0 */
                memset(buf, t % 2 ? 0xff : 0x00, sizeof(buf));
            if (t % 89 == 7) /* long runs of 9..15 for eta = 4 */
                for (size_t i = 0; i < sizeof(buf); i++)
                    buf[i] |= 0x88;
            unsigned n0 = t % 3 == 0 ? (unsigned)(qt_rng_u64() % (N + 1)) : 0;
            if (t % 7 == 0)
                n0 = N - 1 - (unsigned)(qt_rng_u64() % 12);
            for (unsigned i = 0; i < N; i++)
                want[i] = got.a[i] = (int32_t)(qt_rng_u64() % 9) - 4;
            for (unsigned i = 0; i < 16; i++)
                got.guard[i] = 0x5a5a5a5a;
            unsigned nw = n0, ng = n0;
            size_t pos = 0;
            /* Every fifth stream in SHAKE256 blocks, as key generation's
             * lanes feed it (keygen_lanes.c): 136 = 8 * 16 + 8 bytes. */
            const int blocks = t % 5 == 2;
            while (pos < sizeof(buf)) {
                size_t len = blocks ? QUILL_SHAKE256_RATE : 1 + (size_t)(qt_rng_u64() % 300);
                if (len > sizeof(buf) - pos)
                    len = sizeof(buf) - pos;
                nw = ref_rej_eta(want, nw, buf + pos, len, eta);
                ng = fns[f](got.a, ng, buf + pos, len, eta);
                QT_CHECK(ng == nw);
                pos += len;
            }
            QT_CHECK(memcmp(got.a, want, nw * sizeof(int32_t)) == 0);
            for (unsigned i = 0; i < 16; i++)
                QT_CHECK(got.guard[i] == 0x5a5a5a5a);
            checked += nw - n0;
        }
        printf("mldsa_arith: ExpandS sampler (%s): %lu coefficients checked\n", names[f], checked);
    }
}

/* RejNTTPoly's parsing as FIPS 204 writes it (Algorithms 30 and 14), from
 * count n. */
static unsigned ref_rej_ntt(int32_t a[N], unsigned n, const uint8_t *buf, size_t len) {
    for (size_t i = 0; i + 3 <= len && n < N; i += 3) {
        int32_t z = buf[i] | (buf[i + 1] << 8) | ((buf[i + 2] & 0x7f) << 16);
        if (z < Q)
            a[n++] = z;
    }
    return n;
}

typedef unsigned (*rej_ntt_fn)(int32_t a[N], unsigned n, const uint8_t *buf, size_t len);

/* The ExpandA parser and its native twin against the reference, as for
 * ExpandS: random streams with many candidates at or above q (the top
 * bytes forced to 0x7f / 0xff: 0x7fe001 and up are rejected), fed in
 * chunks of random multiples of 3 bytes. */
static void test_rej_ntt(void) {
    struct {
        int32_t a[N];
        int32_t guard[16];
    } got;
    int32_t want[N];
    uint8_t buf[1200];
    rej_ntt_fn fns[3] = {quill_mldsa_rej_ntt_c, NULL, NULL};
    const char *names[3] = {"portable", "AVX2 + BMI2", "AVX-512VL"};
#if QUILL_MLDSA_HAVE_AVX2
    if (quill_mldsa_rej_ntt_avx2_capable())
        fns[1] = quill_mldsa_rej_ntt_avx2;
    if (quill_mldsa_rej_ntt_avx512vl_capable())
        fns[2] = quill_mldsa_rej_ntt_avx512vl;
    else
        printf("mldsa_arith: no AVX-512VL, that ExpandA parser not compared\n");
#endif
    if (fns[1] == NULL)
        printf("mldsa_arith: no AVX2 + BMI2, the native ExpandA parser not compared\n");
    for (unsigned f = 0; f < 3 && fns[f] != NULL; f++) {
        unsigned long checked = 0;
        for (int t = 0; t < 5000; t++) {
            qt_rng_bytes(buf, sizeof(buf));
            if (t % 53 == 9) /* every candidate accepted (0) or rejected (0x7fffff) */
                memset(buf, t % 2 ? 0xff : 0x00, sizeof(buf));
            const unsigned mode = (unsigned)(t % 4);
            for (size_t i = 2; mode != 0 && i < sizeof(buf); i += 3) {
                uint64_t r = qt_rng_u64();
                if (mode == 1 || (r & 3) == 0) { /* near q: 0x7fdfff..0x7fffff */
                    buf[i] = (uint8_t)(0x7f | (r & 0x80));
                    buf[i - 1] = (uint8_t)(0xdf + ((r >> 8) % 0x21));
                }
            }
            unsigned n0 = t % 3 == 0 ? (unsigned)(qt_rng_u64() % (N + 1)) : 0;
            if (t % 7 == 0)
                n0 = N - 1 - (unsigned)(qt_rng_u64() % 12);
            for (unsigned i = 0; i < N; i++)
                want[i] = got.a[i] = (int32_t)(qt_rng_u64() % Q);
            for (unsigned i = 0; i < 16; i++)
                got.guard[i] = 0x5a5a5a5a;
            unsigned nw = n0, ng = n0;
            size_t pos = 0;
            while (pos < sizeof(buf)) {
                size_t len = 3 * (1 + (size_t)(qt_rng_u64() % 300));
                if (len > sizeof(buf) - pos)
                    len = sizeof(buf) - pos;
                nw = ref_rej_ntt(want, nw, buf + pos, len);
                ng = fns[f](got.a, ng, buf + pos, len);
                QT_CHECK(ng == nw);
                pos += len;
            }
            QT_CHECK(memcmp(got.a, want, nw * sizeof(int32_t)) == 0);
            for (unsigned i = 0; i < 16; i++)
                QT_CHECK(got.guard[i] == 0x5a5a5a5a);
            checked += nw - n0;
        }
        printf("mldsa_arith: ExpandA parser (%s): %lu coefficients checked\n", names[f], checked);
    }
}

/* Both parsers where acceptance ends exactly at the output length: from
 * count n0, a buffer whose candidates are all accepted holds exactly
 * 256 - n0 of them (then the same buffer with one more candidate, and with
 * one candidate rejected in the middle so that one is missing); every
 * twin must agree with the reference on the count and the values. */
static void test_rej_exact_end(void) {
    rej_eta_fn efns[3] = {quill_mldsa_rej_eta_c, NULL, NULL};
    rej_ntt_fn nfns[3] = {quill_mldsa_rej_ntt_c, NULL, NULL};
#if QUILL_MLDSA_HAVE_AVX2
    if (quill_mldsa_rej_eta_avx2_capable()) {
        efns[1] = quill_mldsa_rej_eta_avx2;
        nfns[1] = quill_mldsa_rej_ntt_avx2;
    }
    if (quill_mldsa_rej_eta_avx512vl_capable()) {
        efns[2] = quill_mldsa_rej_eta_avx512vl;
        nfns[2] = quill_mldsa_rej_ntt_avx512vl;
    }
#endif
    static uint8_t buf[3 * N + 3];
    int32_t want[N], got[N];
    unsigned long cases = 0;
    for (unsigned f = 0; f < 3; f++) {
        if (efns[f] == NULL || nfns[f] == NULL)
            continue;
        for (unsigned n0 = 0; n0 < N; n0 += n0 < 40 ? 1 : 7)
            for (unsigned extra = 0; extra < 3; extra++)
                for (unsigned eta = 2; eta <= 4; eta += 2) {
                    /* eta: bytes of accepted half-bytes (random below 9). */
                    unsigned cand = N - n0 + (extra == 1);
                    size_t len = (cand + 1) / 2;
                    for (size_t i = 0; i < len; i++)
                        buf[i] = (uint8_t)((qt_rng_u64() % 9) | (qt_rng_u64() % 9) << 4);
                    if (extra == 2 && len > 2)
                        buf[len / 2] |= 0x0f; /* one rejected (15) */
                    for (unsigned i = 0; i < N; i++)
                        want[i] = got[i] = 7;
                    unsigned nw = ref_rej_eta(want, n0, buf, len, eta);
                    unsigned ng = efns[f](got, n0, buf, len, eta);
                    QT_CHECK(ng == nw);
                    QT_CHECK(memcmp(got, want, sizeof(got)) == 0 || nw < N);
                    QT_CHECK(memcmp(got, want, nw * sizeof(int32_t)) == 0);
                    /* ExpandA: 3-byte candidates, all below q. */
                    len = 3 * (size_t)cand;
                    for (size_t i = 0; i < len; i += 3) {
                        uint32_t v = (uint32_t)(qt_rng_u64() % Q);
                        v |= (uint32_t)(qt_rng_u64() & 1) << 23; /* the dropped bit */
                        buf[i] = (uint8_t)v;
                        buf[i + 1] = (uint8_t)(v >> 8);
                        buf[i + 2] = (uint8_t)(v >> 16);
                    }
                    if (extra == 2 && cand > 2) {
                        buf[3 * (cand / 2) + 1] = 0xff; /* 0x7fff.. >= q */
                        buf[3 * (cand / 2) + 2] = 0x7f;
                    }
                    nw = ref_rej_ntt(want, n0, buf, len);
                    ng = nfns[f](got, n0, buf, len);
                    QT_CHECK(ng == nw);
                    QT_CHECK(nw == (extra == 2 && cand > 2 ? N - 1 : N));
                    QT_CHECK(memcmp(got, want, nw * sizeof(int32_t)) == 0);
                    cases++;
                }
    }
    printf("mldsa_arith: parsers ending exactly at 256: %lu cases\n", cases);
}

/* The move of ExpandA's values into the NTT order: each twin against
 * QUILL_MLDSA_NTT_POS itself, on random values, from and to buffers at
 * every 4-byte offset of a 32-byte line (the AVX2 twin loads and stores
 * unaligned), from every first chunk (0..4: the chunks before it must be
 * left as they were), with guards around the output. */
typedef void (*rej_order_fn)(int32_t a[N], const int32_t c[N], unsigned first);

static void test_rej_ntt_order(void) {
    rej_order_fn fns[2] = {quill_mldsa_rej_ntt_order_c, NULL};
    const char *names[2] = {"portable", "AVX2"};
#if QUILL_MLDSA_HAVE_AVX2
    if (quill_mldsa_avx2_capable())
        fns[1] = quill_mldsa_rej_ntt_order_avx2;
#endif
    if (fns[1] == NULL)
        printf("mldsa_arith: no AVX2, the native NTT reordering not compared\n");
    static int32_t in[N + 8], out[N + 8 + 16];
    for (unsigned f = 0; f < 2 && fns[f] != NULL; f++) {
        unsigned long checked = 0;
        for (int t = 0; t < 320; t++) {
            const unsigned ia = (unsigned)t % 8, oa = (unsigned)(t / 8) % 8;
            const unsigned first = (unsigned)(t / 64);
            for (unsigned i = 0; i < N + 8; i++)
                in[i] = (int32_t)(qt_rng_u64() % Q);
            for (unsigned i = 0; i < N + 8 + 16; i++)
                out[i] = 0x5a5a5a5a;
            fns[f](out + 8 + oa, in + ia, first);
            for (unsigned i = 0; i < N; i++, checked++)
                QT_CHECK(out[8 + oa + QUILL_MLDSA_NTT_POS(i)] ==
                         (i < 64 * first ? 0x5a5a5a5a : in[ia + i]));
            for (unsigned i = 0; i < 8 + oa; i++)
                QT_CHECK(out[i] == 0x5a5a5a5a);
            for (unsigned i = 8 + oa + N; i < N + 8 + 16; i++)
                QT_CHECK(out[i] == 0x5a5a5a5a);
        }
        printf("mldsa_arith: NTT reordering (%s): %lu values checked\n", names[f], checked);
    }
}

/* The in-place chunks of ExpandA (quill_mldsa_rej_ntt_chunks), each twin
 * against the reference parser and QUILL_MLDSA_NTT_POS: random streams of
 * every length from 0 to 840 bytes in steps of 3 (around each chunk's
 * read bound, 192 (g + 1) + 8), with no rejection or one rejected
 * candidate (0x7fe001 and up) at a random place, sometimes just inside or
 * just outside a chunk's edge; the count must be the number of leading
 * chunks with no rejection whose read bound fits, those chunks' values
 * must be RejNTTPoly's first ones in NTT order, and nothing else of a
 * (guarded) may change. */
typedef unsigned (*rej_chunks_fn)(int32_t a[N], const uint8_t *buf, size_t len);

static void test_rej_ntt_chunks(void) {
    rej_chunks_fn fns[2] = {quill_mldsa_rej_ntt_chunks_c, NULL};
    const char *names[2] = {"portable", "AVX2"};
#if QUILL_MLDSA_HAVE_AVX2
    if (quill_mldsa_avx2_capable())
        fns[1] = quill_mldsa_rej_ntt_chunks_avx2;
#endif
    if (fns[1] == NULL)
        printf("mldsa_arith: no AVX2, the native in-place ExpandA chunks not compared\n");
    static uint8_t buf[840 + 32];
    static int32_t out[N + 32], want[N];
    for (unsigned f = 0; f < 2 && fns[f] != NULL; f++) {
        unsigned long checked = 0, chunks = 0;
        for (int t = 0; t < 6000; t++) {
            size_t len = 3 * (size_t)(qt_rng_u64() % 281);
            if (t % 3 == 0) { /* at a read bound: just short of it, on it, past it */
                const size_t g = qt_rng_u64() % 4, d = qt_rng_u64() % 3;
                len = QUILL_MLDSA_REJ_CHUNK_READ(g) + 1 - 3 + 3 * d; /* 201: a multiple of 3 */
            }
            qt_rng_bytes(buf, sizeof(buf));
            for (size_t i = 2; i < sizeof(buf); i += 3)
                buf[i] &= 0x7e; /* every candidate below 0x7f0000 < q: accepted */
            size_t bad = SIZE_MAX;
            if (t % 4 != 0) { /* one rejected candidate */
                bad = (size_t)(qt_rng_u64() % 280);
                if (t % 4 == 1) /* the first or last of a chunk */
                    bad = 64 * (qt_rng_u64() % 4) + (qt_rng_u64() % 2 ? 63 : 0) +
                          (bad % 2 ? 64 : 0);
                if (bad >= 280)
                    bad = 279;
                buf[3 * bad + 2] |= 0x7f;
                buf[3 * bad + 1] = (uint8_t)(0xe1 + qt_rng_u64() % 0x1f); /* >= 0x7fe100 */
            }
            unsigned expect = 0;
            while (expect < 4 && QUILL_MLDSA_REJ_CHUNK_READ(expect) <= len &&
                   (bad == SIZE_MAX || bad / 64 != expect))
                expect++;
            unsigned nw = ref_rej_ntt(want, 0, buf, len);
            for (unsigned i = 0; i < N + 32; i++)
                out[i] = 0x5a5a5a5a;
            unsigned got = fns[f](out + 16, buf, len);
            QT_CHECK(got == expect);
            QT_CHECK(nw >= 64 * got);
            for (unsigned i = 0; i < N; i++, checked++)
                QT_CHECK(out[16 + QUILL_MLDSA_NTT_POS(i)] ==
                         (i < 64 * got ? want[i] : 0x5a5a5a5a));
            for (unsigned i = 0; i < 16; i++)
                QT_CHECK(out[i] == 0x5a5a5a5a && out[16 + N + i] == 0x5a5a5a5a);
            chunks += got;
        }
        printf("mldsa_arith: in-place ExpandA chunks (%s): %lu values checked, %lu chunks\n",
               names[f], checked, chunks);
    }
}

/* Signature encoding: random z and hints round trip; malformed hints are
 * refused. */
static void test_sig_pack(void) {
    for (int set = 0; set < 3; set++) {
        const quill_mldsa_params *p = quill_mldsa_params_get((quill_mldsa_set)set);
        static quill_mldsa_poly z[QUILL_MLDSA_L_MAX], h[QUILL_MLDSA_K_MAX];
        static quill_mldsa_poly z2[QUILL_MLDSA_L_MAX], h2[QUILL_MLDSA_K_MAX];
        uint8_t ct[64], ct2[64], sig[QUILL_MLDSA_MAX_SIG_BYTES], bad[QUILL_MLDSA_MAX_SIG_BYTES];
        for (int t = 0; t < 200; t++) {
            qt_rng_bytes(ct, sizeof(ct));
            for (unsigned i = 0; i < p->l; i++)
                for (unsigned j = 0; j < N; j++)
                    z[i].c[j] = (int32_t)(qt_rng_u64() % (uint64_t)(2 * p->gamma1)) - p->gamma1 + 1;
            unsigned ones = (unsigned)(qt_rng_u64() % (p->omega + 1));
            memset(h, 0, sizeof(h));
            for (unsigned o = 0; o < ones; o++)
                h[qt_rng_u64() % p->k].c[qt_rng_u64() % N] = 1;
            quill_mldsa_pack_sig(sig, ct, z, h, p);
            QT_CHECK(mdt_unpack_sig(ct2, z2, h2, sig, p) == 1);
            QT_CHECK(memcmp(ct, ct2, p->ctilde_bytes) == 0);
            QT_CHECK(memcmp(z, z2, sizeof(quill_mldsa_poly) * p->l) == 0);
            QT_CHECK(memcmp(h, h2, sizeof(quill_mldsa_poly) * p->k) == 0);
            const size_t hoff = p->sig_bytes - p->omega - p->k;
            unsigned total = sig[p->sig_bytes - 1];
            /* count above omega */
            memcpy(bad, sig, p->sig_bytes);
            bad[p->sig_bytes - 1] = (uint8_t)(p->omega + 1);
            QT_CHECK(mdt_unpack_sig(ct2, z2, h2, bad, p) == 0);
            /* nonzero padding after the last index */
            if (total < p->omega) {
                memcpy(bad, sig, p->sig_bytes);
                bad[hoff + p->omega - 1] = 1;
                QT_CHECK(mdt_unpack_sig(ct2, z2, h2, bad, p) == 0);
            }
            /* counts decreasing */
            unsigned first = sig[hoff + p->omega];
            if (first > 0) {
                memcpy(bad, sig, p->sig_bytes);
                bad[hoff + p->omega + 1] = (uint8_t)(first - 1);
                QT_CHECK(mdt_unpack_sig(ct2, z2, h2, bad, p) == 0);
            }
            /* indices not strictly increasing within the first polynomial */
            if (first >= 2) {
                memcpy(bad, sig, p->sig_bytes);
                bad[hoff + 1] = bad[hoff];
                QT_CHECK(mdt_unpack_sig(ct2, z2, h2, bad, p) == 0);
            }
        }
    }
}

/* Verification's flat hint pass (quill_mldsa_use_hints_public) against
 * the per-polynomial forms: on encodings of random hints (valid) and on
 * the same with one byte of the hint area replaced (often malformed), it
 * must accept exactly what mdt_hint_check accepts and then give what
 * mdt_poly_apply_hint_idx gives polynomial by polynomial. */
static void test_use_hints(void) {
    unsigned long checked = 0, accepted = 0;
    for (int set = 0; set < 3; set++) {
        const quill_mldsa_params *p = quill_mldsa_params_get((quill_mldsa_set)set);
        static quill_mldsa_poly w[QUILL_MLDSA_K_MAX], hi[QUILL_MLDSA_K_MAX];
        static quill_mldsa_poly got[QUILL_MLDSA_K_MAX], want[QUILL_MLDSA_K_MAX];
        static quill_mldsa_poly z[QUILL_MLDSA_L_MAX], h[QUILL_MLDSA_K_MAX];
        uint8_t ct[64] = {0}, sig[QUILL_MLDSA_MAX_SIG_BYTES];
        const size_t hoff = p->sig_bytes - p->omega - p->k;
        memset(z, 0, sizeof(z));
        for (int t = 0; t < 3000; t++) {
            for (unsigned i = 0; i < p->k; i++) {
                for (unsigned j = 0; j < N; j++)
                    w[i].c[j] = (int32_t)(qt_rng_u64() % Q);
                quill_mldsa_poly_highbits(&hi[i], &w[i], p->gamma2);
            }
            unsigned ones = (unsigned)(qt_rng_u64() % (p->omega + 1));
            memset(h, 0, sizeof(h));
            for (unsigned o = 0; o < ones; o++)
                h[qt_rng_u64() % p->k].c[qt_rng_u64() % N] = 1;
            quill_mldsa_pack_sig(sig, ct, z, h, p);
            uint8_t *hint = sig + hoff;
            if (t % 2 == 1) { /* one byte replaced: a random one or a neighbour's */
                unsigned at = (unsigned)(qt_rng_u64() % (p->omega + p->k));
                uint64_t r = qt_rng_u64();
                hint[at] = (r & 1) != 0 || at == 0 ? (uint8_t)(r >> 8)
                                                   : (uint8_t)(hint[at - 1] + (r >> 8) % 3 - 1);
            }
            int ok = mdt_hint_check(hint, p);
            memcpy(got, hi, sizeof(got));
            int ret = quill_mldsa_use_hints_public(got, w, hint, p);
            QT_CHECK(ret == ok);
            if (ok) {
                memcpy(want, hi, sizeof(want));
                for (unsigned i = 0, j = 0; i < p->k; i++) {
                    mdt_poly_apply_hint_idx(&want[i], &w[i], hint + j, hint[p->omega + i] - j,
                                            p->gamma2);
                    j = hint[p->omega + i];
                }
                accepted++;
                QT_CHECK(memcmp(got, want, sizeof(quill_mldsa_poly) * p->k) == 0);
            }
            checked++;
        }
    }
    printf("mldsa_arith: flat hint pass: %lu encodings, %lu well-formed\n", checked, accepted);
}

int main(void) {
    qt_rng_seed(0x6d6c647361726974ull);
    double t0 = qt_now();
    test_constants();
    test_reduce();
    test_ntt();
    test_ntt_wide_input();
    test_ntt_lazy();
    test_ntt_order();
    test_backends();
    test_rounding();
    test_hint_low();
    test_use_hints();
    test_norm();
    test_pack();
    test_pack_fixed();
    test_rej_eta();
    test_rej_ntt_order();
    test_rej_ntt_chunks();
    test_rej_ntt();
    test_rej_exact_end();
    test_sig_pack();
    printf("mldsa_arith: %.1f s\n", qt_now() - t0);
    return qt_finish("mldsa_arith");
}
