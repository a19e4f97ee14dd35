/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * test_ec_verify: the verification paths of core/ec.
 *   - the vartime formulas' special cases (a + a, a - a, infinity), the
 *     n-fold doubling (portable and assembly) against n doublings, and the
 *     batched affine conversion;
 *   - quill_p256_wnaf_vartime: digits odd, bounded, w apart, summing to k,
 *     for every width used (and 2..8), on edge and random scalars;
 *   - u1 G + u2 Q by quill_p256_point_mul_double_vartime (any key) and by
 *     quill_p256_point_mul_double_precomp_vartime (per-key table) against
 *     OpenSSL's EC_POINT_mul and against u1 G + u2 Q computed separately
 *     with quill's constant-time routines, on thousands of random pairs and
 *     on edges: 0, 1, n - 1, 2^256 - 1, slice boundaries 2^(64 j) +- 1,
 *     long zero runs, u1 = u2, Q = G, Q = -G, u1 G + u2 Q = infinity;
 *   - quill_ecdsa_p256_verify_cached against quill_ecdsa_p256_verify: no
 *     table after the first call, one from the second on, the same one on
 *     the third; valid and corrupted signatures; a cache used with another
 *     key; and four threads racing to build and publish one table. */
#define _POSIX_C_SOURCE 200809L /* pthread barriers */

#include <pthread.h>
#include <string.h>

#include <openssl/ec.h>
#include <openssl/obj_mac.h>

#include "ec/ecdsa.h"
#include "ec/p256_point.h"
#include "ec/p256_verify_point.h"
#include "ec/p256_verify_precomp.h"
#include "ec_hash.h"
#include "ec_test_common.h"
#include "test_util.h"

static BN_CTX *ctx;
static EC_GROUP *group;

/* ---- wNAF ---- */

static void check_wnaf(const quill_p256_scalar_plain *k, int w) {
    int8_t d[QUILL_P256_WNAF_LEN];
    int len = quill_p256_wnaf_vartime(d, k, w);
    BIGNUM *sum = BN_new(), *t = BN_new(), *want = BN_new();
    int ok = 1, last = -1000, top = -1;
    BN_zero(sum);
    for (int i = 0; i < QUILL_P256_WNAF_LEN; i++) {
        int v = d[i];
        if (v == 0)
            continue;
        ok &= (v & 1) != 0 && v < (1 << (w - 1)) && v > -(1 << (w - 1));
        ok &= i - last >= w;
        last = top = i;
        BN_set_word(t, (BN_ULONG)(v < 0 ? -v : v));
        BN_lshift(t, t, i);
        if (v < 0)
            BN_sub(sum, sum, t);
        else
            BN_add(sum, sum, t);
    }
    ect_limbs_to_bn(want, k->v);
    QT_CHECK(ok);
    QT_CHECK(BN_cmp(sum, want) == 0);
    QT_CHECK(len == top + 1);
    QT_CHECK(top < 0 || d[top] > 0);
    BN_free(sum);
    BN_free(t);
    BN_free(want);
}

/* Edge scalars: small values, n - small, 2^256 - 1, slice boundaries,
 * long runs of zeros and of ones. */
#define N_EDGES 24
static void edge_scalar(uint64_t v[4], int i) {
    const BIGNUM *n = ect_p256_n();
    BIGNUM *x = BN_new();
    switch (i) {
    case 0: BN_zero(x); break;
    case 1: BN_one(x); break;
    case 2: BN_set_word(x, 2); break;
    case 3: BN_copy(x, n); BN_sub_word(x, 1); break;
    case 4: BN_copy(x, n); BN_sub_word(x, 2); break;
    case 5: BN_set_bit(x, 256); BN_sub_word(x, 1); break; /* 2^256 - 1 > n */
    case 6: BN_set_bit(x, 64); break;
    case 7: BN_set_bit(x, 64); BN_sub_word(x, 1); break;
    case 8: BN_set_bit(x, 128); BN_add_word(x, 1); break;
    case 9: BN_set_bit(x, 192); BN_sub_word(x, 1); break;
    case 10: BN_set_bit(x, 192); break;
    case 11: BN_set_bit(x, 255); break;
    case 12: BN_set_bit(x, 255); BN_set_bit(x, 0); break;            /* long zero run */
    case 13: BN_set_bit(x, 200); BN_set_bit(x, 3); break;
    case 14: BN_set_bit(x, 250); BN_sub_word(x, 1); break;           /* long one run */
    case 15: BN_set_bit(x, 128); BN_sub_word(x, 1); BN_lshift(x, x, 64); break;
    case 16: BN_set_word(x, 0x7f); BN_lshift(x, x, 57); break;       /* window edge */
    case 17: BN_set_word(x, 0x3f); BN_lshift(x, x, 250); break;      /* top window */
    case 18: BN_copy(x, n); BN_rshift1(x, x); break;
    case 19: BN_set_word(x, 0x55); BN_lshift(x, x, 120); break;
    case 20: BN_set_bit(x, 256); BN_sub_word(x, 0x40); break;        /* carry to 2^256 */
    case 21: BN_set_bit(x, 63); BN_set_bit(x, 127); BN_set_bit(x, 191); break;
    case 22: BN_set_word(x, 0xffff); BN_lshift(x, x, 56); break;     /* across a limb */
    default: BN_copy(x, n); BN_sub_word(x, 0x7f); break;
    }
    QT_CHECK(ect_bn_to_limbs(v, x)); /* 2^256 - 1 and 2^256 - 64 stay above n */
    BN_free(x);
}

static void test_wnaf(int count) {
    quill_p256_scalar_plain k;
    for (int i = 0; i < N_EDGES + count; i++) {
        if (i < N_EDGES)
            edge_scalar(k.v, i);
        else
            ect_random_below(k.v, NULL, ctx);
        for (int w = 2; w <= 8; w++)
            check_wnaf(&k, w);
    }
}

/* ---- double-scalar multiplication ---- */

static int same_jacobian(const quill_p256_jacobian *a, const quill_p256_jacobian *b) {
    quill_p256_affine x, y;
    quill_word ia = quill_p256_point_to_affine(&x, a), ib = quill_p256_point_to_affine(&y, b);
    if (ia || ib)
        return ia && ib;
    return memcmp(&x, &y, sizeof(x)) == 0;
}

/* u1 G + u2 Q with quill's constant-time routines (scalars reduced mod n
 * first: the fixed-base comb needs k < n). */
static void separate(quill_p256_jacobian *r, const uint64_t u1[4], const uint64_t u2[4],
                     const quill_p256_affine *q) {
    BIGNUM *b = BN_new();
    quill_p256_scalar_plain s1, s2;
    quill_p256_jacobian a, c;
    ect_limbs_to_bn(b, u1);
    BN_nnmod(b, b, ect_p256_n(), ctx);
    ect_bn_to_limbs(s1.v, b);
    ect_limbs_to_bn(b, u2);
    BN_nnmod(b, b, ect_p256_n(), ctx);
    ect_bn_to_limbs(s2.v, b);
    quill_p256_point_mul_base(&a, &s1);
    quill_p256_point_mul_consttime(&c, &s2, q);
    quill_p256_point_add_consttime(r, &a, &c);
    BN_free(b);
}

/* One case: both double-scalar routines against OpenSSL and the separate
 * computation.  Returns 1 if the result is infinity. */
static int check_pair(const quill_p256_scalar_plain *u1, const quill_p256_scalar_plain *u2,
                      const quill_p256_affine *q, const EC_POINT *oq,
                      const quill_p256_verify_precomp *pre) {
    quill_p256_jacobian r1, r2, r3;
    EC_POINT *o = EC_POINT_new(group);
    BIGNUM *b1 = BN_new(), *b2 = BN_new();
    quill_p256_point_mul_double_vartime(&r1, u1, u2, q);
    quill_p256_point_mul_double_precomp_vartime(&r2, u1, u2, pre);
    separate(&r3, u1->v, u2->v, q);
    ect_limbs_to_bn(b1, u1->v);
    ect_limbs_to_bn(b2, u2->v);
    EC_POINT_mul(group, o, b1, oq, b2, ctx);
    QT_CHECK(ect_same_point(&r1, o, group, ctx));
    QT_CHECK(ect_same_point(&r2, o, group, ctx));
    QT_CHECK(same_jacobian(&r1, &r3));
    int inf = EC_POINT_is_at_infinity(group, o);
    EC_POINT_free(o);
    BN_free(b1);
    BN_free(b2);
    return inf;
}

static void test_double(int count) {
    const BIGNUM *n = ect_p256_n();
    EC_POINT *oq = EC_POINT_new(group);
    BIGNUM *t = BN_new(), *b = BN_new();
    quill_p256_scalar_plain u1, u2;
    quill_p256_affine q;
    uint64_t qv[4];
    int infinities = 0;
    /* Q: random, G, -G, 2G. */
    for (int qi = 0; qi < 4; qi++) {
        memset(qv, 0, sizeof(qv));
        if (qi == 0) {
            ect_random_below(qv, n, ctx);
            qv[0] |= 1;
        } else if (qi == 2) {
            BN_copy(t, n);
            BN_sub_word(t, 1);
            ect_bn_to_limbs(qv, t);
        } else {
            qv[0] = qi == 1 ? 1 : 2;
        }
        ect_make_q(&q, oq, qv, group, ctx);
        quill_p256_verify_precomp *pre = quill_p256_verify_precomp_new_vartime(&q);
        QT_CHECK(pre != NULL);
        if (pre == NULL)
            break;
        /* Every pair of edges, and each edge with itself (u1 = u2). */
        for (int i = 0; i < N_EDGES; i++)
            for (int j = 0; j < N_EDGES; j++) {
                edge_scalar(u1.v, i);
                edge_scalar(u2.v, j);
                infinities += check_pair(&u1, &u2, &q, oq, pre);
            }
        /* Random pairs; some with u1 = u2 or u1 = -u2 q (infinity). */
        int reps = qi == 0 ? count : count / 4;
        for (int i = 0; i < reps; i++) {
            ect_random_below(u1.v, n, ctx);
            ect_random_below(u2.v, n, ctx);
            if (i % 7 == 3)
                u2 = u1;
            if (i % 7 == 5) {
                ect_limbs_to_bn(b, u2.v);
                ect_limbs_to_bn(t, qv);
                BN_mod_mul(b, b, t, n, ctx);
                BN_mod_sub(b, n, b, n, ctx);
                ect_bn_to_limbs(u1.v, b);
                QT_CHECK(check_pair(&u1, &u2, &q, oq, pre));
                continue;
            }
            infinities += check_pair(&u1, &u2, &q, oq, pre);
        }
        quill_p256_verify_precomp_free(pre);
    }
    QT_CHECK(infinities > 0); /* Q = -G with u1 = u2 among the edges */
    EC_POINT_free(oq);
    BN_free(t);
    BN_free(b);
}

/* The special cases of the vartime formulas, directly: a + a (doubling),
 * a + (-a) (infinity), infinity + b, with a in non-normalised Jacobian
 * form; and the batched affine conversion refusing infinity. */
static void test_formulas(void) {
    quill_p256_affine g, ng, ga;
    quill_p256_jacobian gj, g2, gz, inf, r, want;
    quill_p256_chudnovsky gc, ngc;
    quill_p256_fe zz, zzz, scratch[3];
    quill_p256_generator(&g);
    ng = g;
    quill_p256_fe_opp(&ng.y, &ng.y);
    quill_p256_point_from_affine(&gj, &g);
    quill_p256_point_double(&g2, &gj);
    /* G as (X Z^2, Y Z^3, Z) with Z = x(2G) */
    quill_p256_fe_sqr(&zz, &g2.x);
    quill_p256_fe_mul(&zzz, &zz, &g2.x);
    quill_p256_fe_mul(&gz.x, &g.x, &zz);
    quill_p256_fe_mul(&gz.y, &g.y, &zzz);
    gz.z = g2.x;
    gc = (quill_p256_chudnovsky){gz.x, gz.y, gz.z, zz, zzz};
    ngc = gc;
    quill_p256_fe_opp(&ngc.y, &ngc.y);
    vt_set_infinity(&inf);

    vt_madd(&r, &gz, &g); /* G + G */
    QT_CHECK(same_jacobian(&r, &g2));
    vt_madd(&r, &gz, &ng); /* G - G */
    QT_CHECK(!vt_is_zero(&gz.z) && vt_is_zero(&r.z));
    vt_madd(&r, &inf, &g);
    QT_CHECK(same_jacobian(&r, &gj));
    r = gz;
    vt_madd(&r, &r, &g); /* aliased output */
    QT_CHECK(same_jacobian(&r, &g2));

    vt_add_cached(&r, &gj, &gc); /* G + G */
    QT_CHECK(same_jacobian(&r, &g2));
    vt_add_cached(&r, &gz, &ngc); /* G - G */
    QT_CHECK(vt_is_zero(&r.z));
    vt_add_cached(&r, &inf, &gc);
    QT_CHECK(same_jacobian(&r, &gj));
    vt_add_cached(&r, &g2, &gc); /* 2G + G = 3G */
    quill_p256_point_add_vartime(&want, &g2, &gj);
    QT_CHECK(same_jacobian(&r, &want));

    vt_double(&r, &gz);
    QT_CHECK(same_jacobian(&r, &g2));
    vt_double(&r, &inf);
    QT_CHECK(vt_is_zero(&r.z));
    /* n doublings at once, portable and (where the CPU has it) assembly,
     * bit-identical to n calls of quill_p256_point_double, aliased or not,
     * from a point with Z != 1 and from infinity */
    for (int n = 1; n <= 6; n++) {
        quill_p256_jacobian dn_want;
        const quill_p256_jacobian *from[2] = {&gz, &inf};
        for (int f = 0; f < 2; f++) {
            dn_want = *from[f];
            for (int k = 0; k < n; k++)
                quill_p256_point_double(&dn_want, &dn_want);
            for (int adx = 0; adx <= quill_p256_adx_capable(); adx++) {
                vt_double_n(&r, from[f], n, adx);
                QT_CHECK(memcmp(&r, &dn_want, sizeof(r)) == 0);
                r = *from[f];
                vt_double_n(&r, &r, n, adx);
                QT_CHECK(memcmp(&r, &dn_want, sizeof(r)) == 0);
            }
        }
    }

    quill_p256_jacobian in[3] = {gz, g2, want};
    quill_p256_affine out[3];
    QT_CHECK(quill_p256_batch_to_affine_vartime(out, in, scratch, 3));
    for (int i = 0; i < 3; i++) {
        (void)quill_p256_point_to_affine(&ga, &in[i]);
        QT_CHECK(memcmp(&ga, &out[i], sizeof(ga)) == 0);
    }
    in[1] = inf;
    QT_CHECK(!quill_p256_batch_to_affine_vartime(out, in, scratch, 3));
}

/* ---- cached verification ---- */

typedef struct sigcase {
    uint8_t digest[32];
    uint8_t sig[64];
    int valid;
} sigcase;

#define N_SIGS 64

static quill_hash sha256;
static quill_p256_public pub_a, pub_b;
static sigcase sigs_a[N_SIGS], sigs_b[N_SIGS];

static int make_key(quill_p256_public *pub, uint8_t priv[32]) {
    quill_p256_scalar_plain k;
    ect_random_below(k.v, ect_p256_n(), ctx);
    k.v[0] |= 1;
    quill_p256_scalar_plain_to_bytes(priv, &k);
    return quill_p256_public_from_private(pub, priv) == QUILL_OK;
}

/* Half valid, half corrupted (a flipped bit in r, s or the digest). */
static int make_sigs(sigcase *c, const uint8_t priv[32]) {
    for (int i = 0; i < N_SIGS; i++) {
        qt_rng_bytes(c[i].digest, 32);
        if (quill_ecdsa_p256_sign(c[i].sig, priv, c[i].digest, 32, &sha256,
                                  QUILL_ECDSA_NONCE_DETERMINISTIC, NULL) != QUILL_OK)
            return 0;
        c[i].valid = i % 2 == 0;
        if (!c[i].valid) {
            int bit = (int)(qt_rng_u64() % 3);
            if (bit == 2)
                c[i].digest[i % 32] ^= 0x01;
            else
                c[i].sig[32 * bit + (i % 32)] ^= 0x80;
        }
    }
    return 1;
}

static int verify_ok(const quill_p256_public *pub, quill_p256_verify_cache *cache,
                     const sigcase *c) {
    return quill_ecdsa_p256_verify_cached(pub, cache, c->digest, 32, c->sig) == QUILL_OK;
}

static void test_cached_sequence(void) {
    quill_p256_verify_cache cache = QUILL_P256_VERIFY_CACHE_INIT;
    /* first call: counted, no table */
    QT_CHECK(verify_ok(&pub_a, &cache, &sigs_a[0]));
    QT_CHECK(atomic_load(&cache.table) == NULL);
    /* second: builds it */
    QT_CHECK(verify_ok(&pub_a, &cache, &sigs_a[2]));
    struct quill_p256_verify_precomp *t = atomic_load(&cache.table);
    QT_CHECK(t != NULL);
    /* third: the same table */
    QT_CHECK(!verify_ok(&pub_a, &cache, &sigs_a[1]));
    QT_CHECK(atomic_load(&cache.table) == t);
    for (int i = 0; i < N_SIGS; i++) {
        quill_err plain = quill_ecdsa_p256_verify(&pub_a, sigs_a[i].digest, 32, sigs_a[i].sig);
        quill_err cached =
            quill_ecdsa_p256_verify_cached(&pub_a, &cache, sigs_a[i].digest, 32, sigs_a[i].sig);
        QT_CHECK(plain == cached);
        QT_CHECK((plain == QUILL_OK) == sigs_a[i].valid);
        /* a signature under the other key never verifies */
        QT_CHECK(quill_ecdsa_p256_verify_cached(&pub_a, &cache, sigs_b[i].digest, 32,
                                                sigs_b[i].sig) == QUILL_ERR_BAD_SIGNATURE);
    }
    /* Out-of-range r and s are rejected before any table is read. */
    uint8_t bad[64];
    memset(bad, 0, sizeof(bad));
    QT_CHECK(quill_ecdsa_p256_verify_cached(&pub_a, &cache, sigs_a[0].digest, 32, bad) ==
             QUILL_ERR_BAD_SIGNATURE);
    memset(bad, 0xff, sizeof(bad));
    QT_CHECK(quill_ecdsa_p256_verify_cached(&pub_a, &cache, sigs_a[0].digest, 32, bad) ==
             QUILL_ERR_BAD_SIGNATURE);
    /* The cache used with another key: its table is ignored, results stay
     * right. */
    for (int i = 0; i < 8; i++)
        QT_CHECK(verify_ok(&pub_b, &cache, &sigs_b[i]) == sigs_b[i].valid);
    QT_CHECK(atomic_load(&cache.table) == t);
    /* Cleared: empty again, and the count restarts. */
    quill_p256_verify_cache_clear(&cache);
    QT_CHECK(atomic_load(&cache.table) == NULL);
    QT_CHECK(verify_ok(&pub_b, &cache, &sigs_b[0]));
    QT_CHECK(atomic_load(&cache.table) == NULL);
    QT_CHECK(verify_ok(&pub_b, &cache, &sigs_b[0]));
    QT_CHECK(atomic_load(&cache.table) != NULL);
    quill_p256_verify_cache_clear(&cache);
    quill_p256_verify_cache_clear(NULL);
    /* No cache at all. */
    QT_CHECK(verify_ok(&pub_a, NULL, &sigs_a[0]));
    QT_CHECK(!verify_ok(&pub_a, NULL, &sigs_a[1]));
}

/* ---- threads ---- */

#define N_THREADS 4
#define N_ROUNDS 6

static quill_p256_verify_cache shared_cache;
static pthread_barrier_t barrier;

typedef struct worker {
    pthread_t thread;
    int id;
    unsigned long checks, failures;
} worker;

static void *run(void *arg) {
    worker *w = arg;
    pthread_barrier_wait(&barrier);
    for (int r = 0; r < N_ROUNDS; r++) {
        for (int i = 0; i < N_SIGS; i++) {
            const sigcase *c = &sigs_a[(i + 11 * w->id) % N_SIGS];
            w->checks++;
            if (verify_ok(&pub_a, &shared_cache, c) != c->valid)
                w->failures++;
        }
        /* all threads again at once, so that several find no table */
        pthread_barrier_wait(&barrier);
        if (w->id == 0)
            quill_p256_verify_cache_clear(&shared_cache);
        pthread_barrier_wait(&barrier);
        if (w->id == 0)
            atomic_store(&shared_cache.uses, 1); /* the next call builds */
        pthread_barrier_wait(&barrier);
    }
    return NULL;
}

static void test_threads(void) {
    worker w[N_THREADS];
    atomic_store(&shared_cache.uses, 1);
    QT_CHECK(pthread_barrier_init(&barrier, NULL, N_THREADS) == 0);
    for (int i = 0; i < N_THREADS; i++) {
        w[i].id = i;
        w[i].checks = w[i].failures = 0;
        QT_CHECK(pthread_create(&w[i].thread, NULL, run, &w[i]) == 0);
    }
    for (int i = 0; i < N_THREADS; i++) {
        QT_CHECK(pthread_join(w[i].thread, NULL) == 0);
        QT_CHECK(w[i].failures == 0);
        QT_CHECK(w[i].checks == (unsigned long)N_ROUNDS * N_SIGS);
    }
    pthread_barrier_destroy(&barrier);
    quill_p256_verify_cache_clear(&shared_cache);
}

int main(void) {
    uint8_t priv_a[32], priv_b[32];
    qt_rng_seed(0x5eed31);
    ctx = BN_CTX_new();
    group = EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1);
    if (ctx == NULL || group == NULL || !ect_hash_init(&sha256, "SHA256"))
        return 1;
    test_wnaf(2000);
    test_formulas();
    test_double(2000);
    QT_CHECK(make_key(&pub_a, priv_a) && make_key(&pub_b, priv_b));
    QT_CHECK(make_sigs(sigs_a, priv_a) && make_sigs(sigs_b, priv_b));
    test_cached_sequence();
    test_threads();
    ect_hash_free(&sha256);
    EC_GROUP_free(group);
    BN_CTX_free(ctx);
    return qt_finish("test_ec_verify");
}
