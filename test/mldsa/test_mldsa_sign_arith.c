/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * The fused arithmetic of ML-DSA signing (ntt.h) against its definitions
 * (the challenge products are test_mldsa_ntt16's),
 * for the portable bodies and every native backend the CPU has:
 *  - quill_mldsa_invntt_tomont_freeze against freeze(invntt_tomont(a)),
 *    and key generation's quill_mldsa_invntt_power2round against
 *    invntt_tomont, + s2, freeze and Power2Round;
 *  - quill_mldsa_invntt_freeze_highbits (verification's) for outputs
 *    covering every r in [0, q), against the round trip and
 *    quill_mldsa_poly_highbits, both gamma2;
 *  - quill_mldsa_dot_mont against quill_mldsa_mont_reduce of the exact
 *    sum of products, for n = 1..8, and congruent to the sum of
 *    pointwise_mont products; quill_mldsa_dot_mont_x2 (two rows on one b)
 *    against dot_mont twice; quill_mldsa_dot_mont_x2_tail (the last pair's
 *    a side elsewhere, verification's NTT(-t1 2^d)) against dot_mont on
 *    the same n pairs laid out consecutively;
 *  - quill_mldsa_poly_decompose and _highbits against the scalar
 *    quill_mldsa_decompose (checked against FIPS 204 by test_mldsa_arith)
 *    for every r in [0, q) and both gamma2 (the polynomial loops are
 *    separate vectorised builds);
 *  - quill_mldsa_sign_row (the per-row products, checks and hints of an
 *    attempt) against schoolbook products and the scalar checks and
 *    quill_mldsa_hint_low, for random rows of every set and rows steered
 *    to the edges of every check and of the hint (a0 = +-gamma2 +- 1,
 *    w1 = 0 or not), portable, AVX2 and AVX-512VL;
 *  - quill_mldsa_sample_in_ball (constant time, for signing) against
 *    quill_mldsa_sample_in_ball_public (the verifier's plain Fisher-Yates
 *    of FIPS 204, Algorithm 29) for random c~ of every set, and against
 *    the algorithm on streams whose first block runs out of candidates
 *    (the continuation sponge).
 * Run natively, with AVX-512 masked (_avx2: SampleInBall's AVX2 build) and
 * with QUILL_CPU_MASK clearing every feature (_portable). */
#include <stdlib.h>
#include <string.h>

#include "mldsa/hint.h"
#include "mldsa/ntt.h"
#include "mldsa/ntt16.h"
#include "mldsa/params.h"
#include "mldsa/poly.h"
#include "mldsa/reduce.h"
#include "mldsa/rounding.h"
#include "mldsa/sample.h"
#include "mldsa/sign_row.h"
#include "sha3/sha3.h"
#include "mldsa_ref.h"
#include "test_util.h"

#define Q QUILL_MLDSA_Q
#define N QUILL_MLDSA_N

struct impl {
    const char *name;
    int (*capable)(void);
    void (*inv_freeze)(int32_t a[N]);
    void (*dot)(int32_t r[N], const int32_t *a, const int32_t *b, unsigned n);
    void (*dot_x2)(int32_t r0[N], int32_t r1[N], const int32_t *a0, const int32_t *a1,
                   const int32_t *b, unsigned n);
    void (*dot_x2_tail)(int32_t r0[N], int32_t r1[N], const int32_t *a0, const int32_t *a1,
                        const int32_t *e0, const int32_t *e1, const int32_t *b, unsigned n);
};

/* The portable pair of rows: dot_mont_c twice. */
static void dot_x2_c(int32_t r0[N], int32_t r1[N], const int32_t *a0, const int32_t *a1,
                     const int32_t *b, unsigned n) {
    quill_mldsa_dot_mont_c(r0, a0, b, n);
    quill_mldsa_dot_mont_c(r1, a1, b, n);
}

static int always(void) {
    return 1;
}

static const struct impl impls[] = {
    {"portable", always, quill_mldsa_invntt_tomont_freeze_c, quill_mldsa_dot_mont_c, dot_x2_c,
     quill_mldsa_dot_mont_x2_tail_c},
#if QUILL_MLDSA_HAVE_AVX2
    {"AVX2", quill_mldsa_avx2_capable, quill_mldsa_invntt_tomont_freeze_avx2,
     quill_mldsa_dot_mont_avx2, quill_mldsa_dot_mont_x2_avx2, quill_mldsa_dot_mont_x2_tail_avx2},
    {"AVX-512VL", quill_mldsa_avx512vl_capable, quill_mldsa_invntt_tomont_freeze_avx512vl,
     quill_mldsa_dot_mont_avx512vl, quill_mldsa_dot_mont_x2_avx512vl,
     quill_mldsa_dot_mont_x2_tail_avx512vl},
#endif
};

static int32_t rand_range(int32_t lo, int32_t hi) {
    return lo + (int32_t)(qt_rng_u64() % (uint64_t)(hi - lo + 1));
}

static void random_q(int32_t a[N], int kind) {
    for (unsigned i = 0; i < N; i++) {
        int32_t v = rand_range(-(Q - 1), Q - 1);
        if (kind == 1)
            v = Q - 1;
        else if (kind == 2)
            v = -(Q - 1);
        else if (kind == 3)
            v = (qt_rng_u64() & 1) ? Q - 1 : -(Q - 1);
        a[i] = v;
    }
}

static void test_invntt_freeze(void) {
    quill_mldsa_poly a, want, got;
    for (int t = 0; t < 1000; t++) {
        random_q(a.c, t % 4);
        want = a;
        quill_mldsa_invntt_tomont_c(want.c);
        quill_mldsa_poly_freeze(&want);
        for (unsigned i = 0; i < N; i++)
            QT_CHECK(want.c[i] >= 0 && want.c[i] < Q);
        for (size_t k = 0; k < QT_ARRAY_LEN(impls); k++) {
            if (!impls[k].capable())
                continue;
            got = a;
            impls[k].inv_freeze(got.c);
            QT_CHECK(memcmp(&got, &want, sizeof(want)) == 0);
        }
        got = a;
        quill_mldsa_invntt_tomont_freeze(got.c);
        QT_CHECK(memcmp(&got, &want, sizeof(want)) == 0);
    }
}

/* quill_mldsa_invntt_freeze_highbits (verification's last transform with
 * HighBits made in its last pass) for outputs covering every r in [0, q):
 * the input is NTT(r 2^-32), frozen, so the transform gives r back; w1
 * against quill_mldsa_poly_highbits of it, both gamma2, dispatch and each
 * x86-64 twin the CPU has. */
static void test_invntt_highbits(void) {
    static const int32_t gammas[2] = {(Q - 1) / 88, (Q - 1) / 32};
    typedef void (*inv_hb_fn)(int32_t a[N], int32_t w1[N], int32_t gamma2);
    struct {
        int (*capable)(void);
        inv_hb_fn fn;
    } fns[] = {
        {always, quill_mldsa_invntt_freeze_highbits},
#if QUILL_MLDSA_HAVE_AVX2
        {quill_mldsa_avx2_capable, quill_mldsa_invntt_freeze_highbits_avx2},
        {quill_mldsa_avx512vl_capable, quill_mldsa_invntt_freeze_highbits_avx512vl},
#endif
    };
    unsigned long bad = 0;
    for (int32_t base = 0; base < Q; base += N) {
        quill_mldsa_poly r, in, got, w1, want1;
        for (unsigned i = 0; i < N; i++) {
            /* the last block: the top of the range, where HighBits wraps */
            r.c[i] = base + (int32_t)i < Q ? base + (int32_t)i : Q - 1 - (int32_t)i;
            in.c[i] = quill_mldsa_mont_reduce((int64_t)r.c[i]); /* r 2^-32 */
        }
        quill_mldsa_ntt_c(in.c);
        quill_mldsa_poly_freeze(&in);
        for (int g = 0; g < 2; g++) {
            quill_mldsa_poly_highbits(&want1, &r, gammas[g]);
            for (size_t k = 0; k < QT_ARRAY_LEN(fns); k++) {
                if (!fns[k].capable())
                    continue;
                got = in;
                memset(&w1, 0x5a, sizeof(w1));
                fns[k].fn(got.c, w1.c, gammas[g]);
                bad += memcmp(&got, &r, sizeof(r)) != 0 || memcmp(&w1, &want1, sizeof(w1)) != 0;
            }
        }
    }
    QT_CHECK(bad == 0);
}

/* Key generation's end of a row: quill_mldsa_invntt_power2round (each
 * backend and the dispatch) against invntt_tomont, + s2, freeze and
 * Power2Round one after the other, for s2 in [-4, 4] (ExpandS), up to
 * [-11, 4] (what a bad expanded key decodes to before it is rejected) and
 * at +-(q - 1) (the kernel's stated bound), with a at the extremes too. */
typedef void (*inv_p2r_fn)(int32_t t1[N], int32_t a[N], const int32_t s2[N]);

static void test_invntt_power2round(void) {
    static const struct {
        const char *name;
        int (*capable)(void);
        inv_p2r_fn fn;
    } fns[] = {
        {"portable", always, quill_mldsa_invntt_power2round_c},
        {"dispatch", always, quill_mldsa_invntt_power2round},
#if QUILL_MLDSA_HAVE_AVX2
        {"AVX2", quill_mldsa_avx2_capable, quill_mldsa_invntt_power2round_avx2},
        {"AVX-512VL", quill_mldsa_avx512vl_capable, quill_mldsa_invntt_power2round_avx512vl},
#endif
    };
    quill_mldsa_poly a, s2, t0, t1, got0, got1;
    for (int t = 0; t < 1000; t++) {
        random_q(a.c, t % 4);
        const int32_t lo = t % 3 == 0 ? -4 : t % 3 == 1 ? -11 : -(Q - 1);
        const int32_t hi = t % 3 == 2 ? Q - 1 : 4;
        for (unsigned i = 0; i < N; i++)
            s2.c[i] = (t / 3) % 2 ? ((qt_rng_u64() & 1) ? lo : hi) : rand_range(lo, hi);
        t0 = a;
        quill_mldsa_invntt_tomont_c(t0.c);
        quill_mldsa_poly_add(&t0, &t0, &s2);
        quill_mldsa_poly_freeze(&t0);
        mdt_poly_power2round(&t1, &t0, &t0);
        for (unsigned i = 0; i < N; i++)
            QT_CHECK(t1.c[i] >= 0 && t1.c[i] < 1024 && t0.c[i] > -4096 && t0.c[i] <= 4096);
        for (size_t k = 0; k < QT_ARRAY_LEN(fns); k++) {
            if (!fns[k].capable())
                continue;
            got0 = a;
            memset(&got1, 0x55, sizeof(got1));
            fns[k].fn(got1.c, got0.c, s2.c);
            if (memcmp(&got0, &t0, sizeof(t0)) != 0 || memcmp(&got1, &t1, sizeof(t1)) != 0) {
                fprintf(stderr, "invntt_power2round %s differs (trial %d)\n", fns[k].name, t);
                QT_CHECK(0);
            }
        }
    }
}

/* a in [0, q) like A-hat, b within +-(17q - 1) like an NTT output
 * (quill_mldsa_ntt_lazy_from's bound, ntt.h), or both at their extremes
 * (sums up to 8 (q - 1) (17q - 1) in absolute value, of either sign in
 * either lane of a pair). */
static quill_mldsa_poly x2_rows[8];

static void test_dot(void) {
    static quill_mldsa_poly a[8], b[8], tail[2];
    quill_mldsa_poly want, got;
    for (int t = 0; t < 400; t++) {
        unsigned n = 1 + (unsigned)t % 8;
        for (unsigned j = 0; j < n; j++)
            for (unsigned i = 0; i < N; i++) {
                /* t = 1 mod 3: the extremes, b's signs alternating both ways
                 * or all one sign, so each lane of a 64-bit pair sees both
                 * ends (every n meets every pattern) */
                static const int32_t m = 17 * Q - 1;
                const int pattern = (t / 24) % 4;
                int32_t sign = pattern == 0   ? ((i & 1) ? 1 : -1)
                               : pattern == 1 ? ((i & 1) ? -1 : 1)
                               : pattern == 2 ? 1
                                              : -1;
                a[j].c[i] = t % 3 == 1 ? Q - 1 : rand_range(0, Q - 1);
                b[j].c[i] = t % 3 == 1 ? sign * m : rand_range(-m, m);
            }
        /* sep: the sum of the separately reduced products */
        quill_mldsa_poly sep, term;
        quill_mldsa_pointwise_mont_c(sep.c, a[0].c, b[0].c);
        for (unsigned j = 1; j < n; j++) {
            quill_mldsa_pointwise_mont_c(term.c, a[j].c, b[j].c);
            for (unsigned i = 0; i < N; i++)
                sep.c[i] += term.c[i];
        }
        for (unsigned i = 0; i < N; i++) {
            int64_t sum = 0;
            for (unsigned j = 0; j < n; j++)
                sum += (int64_t)a[j].c[i] * b[j].c[i];
            want.c[i] = quill_mldsa_mont_reduce(sum);
            QT_CHECK(want.c[i] > -Q && want.c[i] < Q);
            QT_CHECK(((int64_t)want.c[i] - sep.c[i]) % Q == 0);
        }
        for (unsigned j = 0; j < n; j++) /* a second row for dot_x2 */
            for (unsigned i = 0; i < N; i++)
                x2_rows[j].c[i] = a[j].c[N - 1 - i];
        for (size_t k = 0; k < QT_ARRAY_LEN(impls); k++) {
            if (!impls[k].capable())
                continue;
            impls[k].dot(got.c, a[0].c, b[0].c, n);
            QT_CHECK(memcmp(&got, &want, sizeof(want)) == 0);
            /* two rows on the same b: a and a reversed in its coefficients
             * (then the second row's sums differ from the first's) */
            quill_mldsa_poly got2, want2, *a2 = x2_rows;
            quill_mldsa_dot_mont_c(want2.c, a2[0].c, b[0].c, n);
            memset(&got, 0x5a, sizeof(got));
            impls[k].dot_x2(got.c, got2.c, a[0].c, a2[0].c, b[0].c, n);
            QT_CHECK(memcmp(&got, &want, sizeof(want)) == 0);
            QT_CHECK(memcmp(&got2, &want2, sizeof(want2)) == 0);
            /* the last pair's a sides from copies elsewhere: the same sums */
            if (n >= 2) {
                memcpy(&tail[0], &a[n - 1], sizeof(tail[0]));
                memcpy(&tail[1], &a2[n - 1], sizeof(tail[1]));
                memset(&got, 0x5a, sizeof(got));
                memset(&got2, 0xa5, sizeof(got2));
                impls[k].dot_x2_tail(got.c, got2.c, a[0].c, a2[0].c, tail[0].c, tail[1].c,
                                     b[0].c, n - 1);
                QT_CHECK(memcmp(&got, &want, sizeof(want)) == 0);
                QT_CHECK(memcmp(&got2, &want2, sizeof(want2)) == 0);
            }
        }
        if (n >= 2) {
            quill_mldsa_poly got2, want2;
            quill_mldsa_dot_mont_c(want2.c, x2_rows[0].c, b[0].c, n);
            memcpy(&tail[0], &a[n - 1], sizeof(tail[0]));
            memcpy(&tail[1], &x2_rows[n - 1], sizeof(tail[1]));
            quill_mldsa_dot_mont_x2_tail(got.c, got2.c, a[0].c, x2_rows[0].c, tail[0].c, tail[1].c,
                                         b[0].c, n - 1); /* dispatch */
            QT_CHECK(memcmp(&got, &want, sizeof(want)) == 0);
            QT_CHECK(memcmp(&got2, &want2, sizeof(want2)) == 0);
        }
        quill_mldsa_poly_matvec_mont(&got, a, b, n);
        QT_CHECK(memcmp(&got, &want, sizeof(want)) == 0);
        {
            quill_mldsa_poly got2, want2;
            quill_mldsa_dot_mont_c(want2.c, x2_rows[0].c, b[0].c, n);
            quill_mldsa_dot_mont_x2(got.c, got2.c, a[0].c, x2_rows[0].c, b[0].c, n); /* dispatch */
            QT_CHECK(memcmp(&got, &want, sizeof(want)) == 0);
            QT_CHECK(memcmp(&got2, &want2, sizeof(want2)) == 0);
        }
    }
}

static void test_decompose(void) {
    static const int32_t gammas[2] = {(Q - 1) / 88, (Q - 1) / 32};
    quill_mldsa_poly r, r1, r0, hb;
    for (int g = 0; g < 2; g++) {
        unsigned long bad = 0;
        for (int32_t base = 0; base < Q; base += N) {
            for (unsigned i = 0; i < N; i++)
                r.c[i] = base + (int32_t)i < Q ? base + (int32_t)i : Q - 1;
            quill_mldsa_poly_decompose(&r1, &r0, &r, gammas[g]);
            quill_mldsa_poly_highbits(&hb, &r, gammas[g]);
            for (unsigned i = 0; i < N; i++) {
                int32_t e0, e1 = quill_mldsa_decompose(&e0, r.c[i], gammas[g]);
                bad += r1.c[i] != e1 || r0.c[i] != e0 || hb.c[i] != e1;
            }
        }
        QT_CHECK(bad == 0);
    }
}

/* SampleInBall by the letter of FIPS 204 (Algorithm 29) on a given byte
 * stream: 8 sign bytes, then one byte per candidate position. */
static void ball_plain(int32_t c[N], const uint8_t *stream, unsigned tau) {
    uint64_t signs = 0;
    for (unsigned i = 0; i < 8; i++)
        signs |= (uint64_t)stream[i] << (8 * i);
    unsigned pos = 8;
    memset(c, 0, N * sizeof(int32_t));
    for (unsigned i = N - tau; i < N; i++) {
        unsigned j;
        while ((j = stream[pos++]) > i)
            ;
        c[i] = c[j];
        c[j] = 1 - 2 * (int32_t)(signs & 1);
        signs >>= 1;
    }
}

static void test_ball(void) {
    static const quill_mldsa_set sets[3] = {QUILL_MLDSA_44, QUILL_MLDSA_65, QUILL_MLDSA_87};
    unsigned long cases = 0, bad = 0;
    for (unsigned si = 0; si < 3; si++) {
        const quill_mldsa_params *p = quill_mldsa_params_get(sets[si]);
        /* random c~, against the verifier's form */
        for (unsigned n = 0; n < 3000; n++) {
            uint8_t ctilde[QUILL_MLDSA_CTILDE_MAX];
            qt_rng_bytes(ctilde, p->ctilde_bytes);
            quill_mldsa_poly got, want;
            quill_mldsa_sample_in_ball(&got, ctilde, p);
            quill_mldsa_sample_in_ball_public(&want, ctilde, p);
            unsigned weight = 0;
            for (unsigned t = 0; t < N; t++)
                weight += got.c[t] != 0;
            bad += memcmp(got.c, want.c, sizeof(got.c)) != 0 || weight != p->tau;
            cases++;
        }
        /* A first block of mostly rejected candidates (255 is accepted
         * only at the last step), so the candidates run on into the
         * blocks squeezed from the sponge handed over: no c~ does that in
         * practice (60 positions need about 68 of the block's 128). */
        for (unsigned n = 0; n < 300; n++) {
            uint8_t stream[4 * QUILL_SHAKE256_RATE], seed[32];
            qt_rng_bytes(stream, QUILL_SHAKE256_RATE);
            unsigned keep = (unsigned)(qt_rng_u64() % 40);
            for (unsigned b = 8 + keep; b < QUILL_SHAKE256_RATE; b++)
                stream[b] = 0xff;
            qt_rng_bytes(seed, sizeof(seed));
            quill_keccak k, copy;
            quill_shake256_init(&k);
            quill_keccak_absorb(&k, seed, sizeof(seed));
            copy = k;
            quill_keccak_squeeze(&copy, stream + QUILL_SHAKE256_RATE, 3 * QUILL_SHAKE256_RATE);
            quill_mldsa_poly got;
            int32_t want[N];
            quill_mldsa_sample_in_ball_block(&got, stream, &k, p);
            ball_plain(want, stream, p->tau);
            bad += memcmp(got.c, want, sizeof(want)) != 0;
            cases++;
        }
    }
    QT_CHECK(bad == 0);
    printf("mldsa_sign_arith: SampleInBall matched the plain form on %lu streams\n", cases);
}

/* c a over Z[X]/(X^256 + 1), schoolbook. */
static void negacyclic(int32_t r[N], const int32_t c[N], const int32_t a[N]) {
    int64_t acc[N] = {0};
    for (unsigned i = 0; i < N; i++)
        for (unsigned j = 0; j < N; j++) {
            int64_t t = (int64_t)c[i] * a[j];
            if (i + j < N)
                acc[i + j] += t;
            else
                acc[i + j - N] -= t;
        }
    for (unsigned i = 0; i < N; i++)
        r[i] = (int32_t)acc[i];
}

typedef quill_word (*sign_row_fn)(quill_mldsa_poly *, quill_mldsa_poly *,
                                  const quill_mldsa_sign_row_in *, quill_mldsa_poly[2],
                                  const quill_mldsa_params *, uint32_t *);

static void test_sign_row(void) {
    static const quill_mldsa_set sets[3] = {QUILL_MLDSA_44, QUILL_MLDSA_65, QUILL_MLDSA_87};
    struct {
        const char *name;
        int (*capable)(void);
        sign_row_fn fn;
    } rows[] = {
        {"portable", always, quill_mldsa_sign_row_c},
        {"dispatch", always, quill_mldsa_sign_row},
#if QUILL_MLDSA_HAVE_AVX2
        {"AVX2", quill_mldsa_avx2_capable, quill_mldsa_sign_row_avx2},
        {"AVX-512VL", quill_mldsa_avx512vl_capable, quill_mldsa_sign_row_avx512vl},
#endif
    };
    unsigned long cases = 0, bad = 0, rejected = 0, hints = 0, rows_seen = 0;
    for (unsigned si = 0; si < 3; si++) {
        const quill_mldsa_params *p = quill_mldsa_params_get(sets[si]);
        const int32_t g2 = p->gamma2, g1 = p->gamma1, beta = (int32_t)p->beta;
        for (unsigned n = 0; n < 120; n++) {
            int32_t c[N] = {0}, s1[N], s2[N], t0[N], cs1[N], cs2[N], ct0[N];
            for (unsigned t = 0; t < p->tau; t++) /* repeats only lower the weight */
                c[qt_rng_u64() % N] = (qt_rng_u64() & 1) ? 1 : -1;
            for (unsigned i = 0; i < N; i++) {
                s1[i] = rand_range(-(int32_t)p->eta, (int32_t)p->eta);
                s2[i] = rand_range(-(int32_t)p->eta, (int32_t)p->eta);
                t0[i] = rand_range(-(1 << 12) + 1, 1 << 12);
            }
            if (n % 4 == 0) /* the extremes of every factor */
                for (unsigned i = 0; i < N; i++) {
                    c[i] = i < p->tau ? 1 : 0;
                    s1[i] = s2[i] = (int32_t)p->eta;
                    t0[i] = 1 << 12;
                }
            negacyclic(cs1, c, s1);
            negacyclic(cs2, c, s2);
            negacyclic(ct0, c, t0);
            int has_z = n % 2 == 0;
            quill_mldsa_chal16 chat;
            quill_mldsa_pair16 s_hat, t0_hat;
            quill_mldsa_mulc16_prepare(&chat, c);
            quill_mldsa_pair16_set(&s_hat, has_z ? s1 : s2, has_z ? s2 : NULL);
            quill_mldsa_ntt16(&s_hat);
            quill_mldsa_pair16_split(&t0_hat, t0, QUILL_MLDSA_T0_SPLIT);
            quill_mldsa_ntt16(&t0_hat);
            /* y, w0 and w1: a third of the rows random, a third with
             * coefficients steered to the edge of a check or of the hint,
             * a third with some steered to the edges of the hint only */
            unsigned mode = n % 3;
            quill_mldsa_poly y, w0, w1;
            for (unsigned i = 0; i < N; i++) {
                y.c[i] = rand_range(-g1 + 1, g1);
                w0.c[i] = rand_range(-g2 + 1, g2);
                w1.c[i] = (qt_rng_u64() & 1) ? 0 : rand_range(1, (Q - 1) / (2 * g2) - 1);
                int32_t d = rand_range(-1, 1), sg = (qt_rng_u64() & 1) ? 1 : -1;
                unsigned kind = (unsigned)(qt_rng_u64() % 64);
                if (mode == 0 || (mode == 2 && kind < 2))
                    kind = 63;
                switch (kind) {
                case 0: /* ||z|| at gamma1 - beta */
                    y.c[i] = sg * (g1 - beta + d) - cs1[i];
                    break;
                case 1: /* ||r0|| at gamma2 - beta */
                    w0.c[i] = sg * (g2 - beta + d) + cs2[i];
                    break;
                case 2: /* a0 = r0 + c t0 at +-gamma2 */
                case 3:
                    w0.c[i] = sg * g2 + d - ct0[i] + cs2[i];
                    break;
                default:
                    break;
                }
            }
            /* the definitions */
            quill_mldsa_poly want_z, want_h;
            uint32_t want_bad = 0, want_ones = 0;
            for (unsigned i = 0; i < N; i++) {
                int32_t r0 = w0.c[i] - cs2[i];
                if (has_z) {
                    want_z.c[i] = y.c[i] + cs1[i];
                    want_bad |= abs(want_z.c[i]) >= g1 - beta;
                }
                want_bad |= abs(r0) >= g2 - beta || abs(ct0[i]) >= g2;
                int32_t a0 = r0 + ct0[i];
                want_h.c[i] = a0 > g2 || a0 < -g2 || (a0 == -g2 && w1.c[i] != 0);
                QT_CHECK((uint32_t)want_h.c[i] == quill_mldsa_hint_low(a0, w1.c[i], g2));
                want_ones += (uint32_t)want_h.c[i];
            }
            rejected += want_bad;
            rows_seen++;
            hints += want_ones;
            const quill_mldsa_sign_row_in in = {&chat, &s_hat, &t0_hat, has_z ? &y : NULL, &w0, &w1};
            for (size_t k = 0; k < QT_ARRAY_LEN(rows); k++) {
                if (!rows[k].capable())
                    continue;
                quill_mldsa_poly z, h, ws[2];
                memset(&z, 0x5a, sizeof(z));
                uint32_t ones = 7;
                quill_word r = rows[k].fn(has_z ? &z : NULL, &h, &in, ws, p, &ones);
                int ok = r == ((quill_word)0 - want_bad) && ones == 7 + want_ones &&
                         memcmp(&h, &want_h, sizeof(h)) == 0 &&
                         (!has_z || memcmp(&z, &want_z, sizeof(z)) == 0);
                if (!ok && bad++ < 5)
                    printf("mldsa_sign_arith: sign_row %s differs (set %u, case %u)\n",
                           rows[k].name, si, n);
                cases++;
            }
        }
    }
    QT_CHECK(bad == 0);
    QT_CHECK(rejected > 0 && rejected < rows_seen); /* both outcomes seen */
    printf("mldsa_sign_arith: sign_row matched the definitions on %lu rows "
           "(%lu hints, %lu of %lu rows rejecting)\n", cases, hints, rejected, rows_seen);
}

int main(void) {
    qt_rng_seed(0x51676e61726974ULL);
    for (size_t k = 0; k < QT_ARRAY_LEN(impls); k++)
        if (!impls[k].capable())
            printf("mldsa_sign_arith: no %s, its comparisons skipped\n", impls[k].name);
    test_invntt_freeze();
    test_invntt_highbits();
    test_invntt_power2round();
    test_dot();
    test_decompose();
    test_sign_row();
    test_ball();
    return qt_finish("mldsa_sign_arith");
}
