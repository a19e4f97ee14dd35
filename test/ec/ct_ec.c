/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * ct_ec MODE: exercises the secret-handling paths of core/ec in the
 * constant-time validation build (QUILL_CT_VALIDATION), to be run under
 * valgrind memcheck by test/ct/memcheck.sh: private keys, nonces and DRBG
 * state are marked undefined, so a branch or an address depending on them
 * is reported.  Modes:
 *   sign     hedged and RFC 6979 signatures (then verified, on public data)
 *   keygen   key generation, eager and lazy (quill_p256_keygen_lazy and
 *            the conversion of its Jacobian point on first read, which
 *            must give the eager key's point from the same draws)
 *   pub      public key from a private key
 *   ecdh     constant-time variable-base k * Q (for ECDH)
 *   adx      the MULX/ADX routines (asm/x86_64/p256_*_adx.S) called
 *            directly on secret operands (the addition with the row scan
 *            with a secret abs too, where AVX2 is present), and k G on
 *            a secret k with ADX added to the CPU word by hand: valgrind hides ADX from CPUID,
 *            so the other modes take the C paths, but it runs the
 *            instructions (exits 77, skipped, in a build without them)
 * The nonce HMAC uses OpenSSL's SHA-256 (its code is then checked too):
 * is_sha256 is set, as the provider sets it, but valgrind hides the SHA
 * extensions, without which the core keeps the caller's digest. */
#include <stdio.h>
#include <string.h>

#include <openssl/evp.h>

#include "common/ct.h"
#include "ec/ecdsa.h"
#include "ec/ecdsa_lazy_pub.h"
#include "ec/p256_adx.h"
#include "ec/p256_point.h"
#include "ec/p256_table.h"
#include "ec_hash.h"

static int rng_fill(void *arg, uint8_t *out, size_t len) {
    uint64_t *st = arg;
    for (size_t i = 0; i < len; i++) {
        *st = *st * 6364136223846793005ULL + 1442695040888963407ULL;
        out[i] = (uint8_t)(*st >> 56);
    }
    return 1;
}

/* Every constant-time P-256 assembly routine on secret inputs (the
 * verification additions of p256_add_vartime_adx.S branch on H by design
 * and are left out; the repeated doubling, used only for public points,
 * has no branch on its values and is checked too); the results are
 * compared with the C twins (computed beforehand on the same values, not
 * marked) so that the run also checks them. */
static int mode_adx(void) {
#ifdef QUILL_P256_HAVE_ADX
    quill_p256_jacobian a, want, got, dwant, dgot;
    quill_p256_affine b;
    quill_p256_madd_scratch w;
    uint64_t f[4], g[4], o[4];
    quill_p256_fe fw, gw, ow;
    quill_p256_scalar os, fs;
    static quill_p256_affine row[QUILL_P256_BASE8_ROW];
    uint64_t gwant[8], gxy[8];
    quill_p256_jacobian ggot;
    uint64_t st = 7;
    /* The addition with the row scan needs AVX2 (valgrind has it). */
    const int gather = quill_cpu_has(QUILL_CPU_X86_AVX2);
    for (int round = 0; round < 8; round++) {
        /* coordinates below p: the top word is cleared */
        (void)rng_fill(&st, (uint8_t *)&a, sizeof(a));
        (void)rng_fill(&st, (uint8_t *)&b, sizeof(b));
        a.x.v[3] = a.y.v[3] = a.z.v[3] = b.x.v[3] = b.y.v[3] = 0;
        quill_p256_point_add_mixed_raw_c(&want, &a, &b, &w);
        dwant = a;
        for (int k = 0; k < 3; k++)
            quill_p256_point_double(&dwant, &dwant);
        /* the field and scalar chain below, by the C twins */
        fw = a.x;
        gw = b.y;
        quill_p256_fe_mul(&ow, &fw, &gw);
        quill_p256_fe_sqr(&ow, &ow);
        ow.v[3] = 0; /* below n for the scalar product */
        memcpy(os.v, ow.v, 32);
        memcpy(fs.v, fw.v, 32);
        quill_p256_scalar_mul_c(&os, &os, &fs);
        (void)rng_fill(&st, (uint8_t *)row, sizeof(row));
        /* 0 (no entry) .. 129 */
        uint64_t abs = (uint64_t)(round * 17 % (QUILL_P256_BASE8_ROW + 2));
        quill_p256_booth_gather8_c(gwant, gwant + 4, row, abs);
        QUILL_CT_SECRET(&abs, sizeof(abs));
        QUILL_CT_SECRET(&a, sizeof(a));
        QUILL_CT_SECRET(&b, sizeof(b));
        quill_p256_point_add_mixed_adx(&got, &a, &b);
        quill_p256_point_double_n_adx(&dgot, &a, 3);
        memcpy(f, a.x.v, 32);
        memcpy(g, b.y.v, 32);
        quill_p256_fe_mul_adx(o, f, g);
        quill_p256_fe_sqr_adx(o, o);
        o[3] = 0;
        quill_p256_scalar_mul_adx(o, o, f);
        if (gather) {
            quill_p256_point_add_mixed_gather_adx(&ggot, &a, &b, gxy, row, abs);
            QUILL_CT_DECLASSIFY(&ggot, sizeof(ggot));
            QUILL_CT_DECLASSIFY(gxy, sizeof(gxy));
            if (memcmp(&ggot, &want, sizeof(ggot)) != 0 || memcmp(gxy, gwant, sizeof(gxy)) != 0)
                return 1;
        }
        QUILL_CT_DECLASSIFY(&got, sizeof(got));
        QUILL_CT_DECLASSIFY(o, sizeof(o));
        QUILL_CT_DECLASSIFY(&dgot, sizeof(dgot));
        if (memcmp(&got, &want, sizeof(got)) != 0 || memcmp(o, os.v, 32) != 0 ||
            memcmp(&dgot, &dwant, sizeof(dgot)) != 0)
            return 1;
    }
    /* k G as signing and key generation run it on a CPU with ADX (and
     * AVX2: the additions that scan the next row, p256_base.c), with a
     * secret k: ADX is added to the CPU word by hand, as the callgrind
     * drivers do (test/common/qt_assume_adx.h), after the C path has
     * computed the expected points.  The two paths use different windows
     * (8 bits with the fused scan, 7 without), so the points are compared
     * in affine form.  Odd i: k >= 2^255 (recoded as n - k at w = 8). */
    if (quill_cpu_has(QUILL_CPU_X86_BMI2)) {
        quill_p256_scalar_plain k[4];
        quill_p256_jacobian kg_want[4], kg;
        quill_p256_affine aw, ag;
        for (int i = 0; i < 4; i++) {
            (void)rng_fill(&st, (uint8_t *)&k[i], sizeof(k[i]));
            /* below n: top word below 2^63, or in [2^63, 2^63 + 2^62) */
            k[i].v[3] = (k[i].v[3] >> 2) | ((uint64_t)(i & 1) << 63);
            quill_p256_point_mul_base(&kg_want[i], &k[i]);
        }
        const uint32_t feat = quill_cpu_features();
        __atomic_store_n(&quill_cpu_word, feat | QUILL_CPU_X86_ADX | QUILL_CPU_PROBED,
                         __ATOMIC_RELAXED);
        for (int i = 0; i < 4; i++) {
            QUILL_CT_SECRET(&k[i], sizeof(k[i]));
            quill_p256_point_mul_base(&kg, &k[i]);
            QUILL_CT_DECLASSIFY(&kg, sizeof(kg));
            if (quill_p256_point_to_affine(&ag, &kg) != 0 ||
                quill_p256_point_to_affine(&aw, &kg_want[i]) != 0 ||
                memcmp(&ag, &aw, sizeof(ag)) != 0)
                return 1;
        }
        __atomic_store_n(&quill_cpu_word, feat | QUILL_CPU_PROBED, __ATOMIC_RELAXED);
    }
    return 0;
#else
    printf("ct_ec adx: built without the P-256 assembly: skipped\n");
    return 77;
#endif
}

int main(int argc, char **argv) {
    uint64_t seed = 42;
    quill_rng rng = {rng_fill, &seed};
    quill_hash h = {32, ect_evp_digest, (void *)EVP_sha256(), 64, 1};
    uint8_t priv[32], dg[32], sig[64];
    quill_p256_public pub;
    if (argc != 2)
        return 2;
    memset(dg, 0x5a, sizeof(dg));
    if (strcmp(argv[1], "adx") == 0)
        return mode_adx();
    if (strcmp(argv[1], "keygen") == 0) {
        for (int i = 0; i < 4; i++) {
            uint64_t again = seed;
            quill_rng rng2 = {rng_fill, &again};
            quill_p256_lazy_public lazy = {0};
            quill_p256_public scratch;
            if (quill_p256_keygen(priv, &pub, &rng) != QUILL_OK ||
                quill_p256_keygen_lazy(priv, &lazy, &rng2) != QUILL_OK)
                return 1;
            const quill_p256_public *first = quill_p256_lazy_public_get(&lazy, &scratch);
            const quill_p256_public *later = quill_p256_lazy_public_get(&lazy, &scratch);
            if (first == NULL || later != &lazy.pub || memcmp(first, &pub, sizeof(pub)) != 0 ||
                memcmp(later, &pub, sizeof(pub)) != 0)
                return 1;
            quill_p256_lazy_public_clear(&lazy);
        }
        return 0;
    }
    /* A fixed private key, marked secret. */
    for (int i = 0; i < 32; i++)
        priv[i] = (uint8_t)(0x37 * i + 11);
    QUILL_CT_SECRET(priv, sizeof(priv));
    if (strcmp(argv[1], "pub") == 0)
        return quill_p256_public_from_private(&pub, priv) == QUILL_OK ? 0 : 1;
    if (strcmp(argv[1], "ecdh") == 0) {
        quill_p256_scalar_plain k;
        quill_p256_affine q, out;
        quill_p256_jacobian r;
        quill_p256_generator(&q);
        (void)quill_p256_scalar_plain_from_bytes(&k, priv);
        quill_p256_point_mul_consttime(&r, &k, &q);
        quill_word inf = quill_p256_point_to_affine(&out, &r);
        QUILL_CT_DECLASSIFY(&out, sizeof(out)); /* the shared point is output */
        return quill_ct_declassify_w(inf) ? 1 : 0;
    }
    if (strcmp(argv[1], "sign") == 0) {
        uint8_t pcopy[32];
        memcpy(pcopy, priv, 32);
        QUILL_CT_DECLASSIFY(pcopy, 32); /* only to derive the public key for the check */
        if (quill_p256_public_from_private(&pub, pcopy) != QUILL_OK)
            return 1;
        for (int t = 0; t < 2; t++) {
            quill_ecdsa_nonce_type nt = t ? QUILL_ECDSA_NONCE_DETERMINISTIC : QUILL_ECDSA_NONCE_HEDGED;
            if (quill_ecdsa_p256_sign(sig, priv, dg, sizeof(dg), &h, nt, &rng) != QUILL_OK)
                return 1;
            if (quill_ecdsa_p256_verify(&pub, dg, sizeof(dg), sig) != QUILL_OK)
                return 1;
        }
        return 0;
    }
    fprintf(stderr, "unknown mode %s\n", argv[1]);
    return 2;
}
