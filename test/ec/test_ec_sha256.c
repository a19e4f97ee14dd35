/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * test_ec_sha256: the core's SHA-256 (core/ec/sha256.c) against OpenSSL's:
 * both compression functions (portable, and the SHA extensions where the
 * CPU has them) on random blocks, the streaming API on every length 0..600
 * and on random splits of random messages, FIPS 180-4's "abc" example; and
 * the ECDSA nonce's HMAC-DRBG (core/ec/hmac_drbg.c) with is_sha256 set (the
 * core SHA-256 with cached pad states, where the CPU has the SHA
 * extensions) against the same DRBG through the quill_hash callback
 * (is_sha256 clear), on random seeds, updates and output lengths. */
#include <stdio.h>
#include <string.h>

#include <openssl/evp.h>

#include "ec/hmac_drbg.h"
#include "ec/sha256.h"
#include "ec_hash.h"
#include "test_util.h"

static void openssl_sha256(uint8_t out[32], const uint8_t *in, size_t len) {
    unsigned int n = 0;
    QT_CHECK(EVP_Digest(in, len, out, &n, EVP_sha256(), NULL) == 1 && n == 32);
}

static void check_blocks(void) {
    static uint8_t buf[64 * 8];
    for (int r = 0; r < 2000; r++) {
        uint32_t h1[8], h2[8];
        size_t n = 1 + (size_t)(qt_rng_u64() % 8);
        for (int i = 0; i < 8; i++)
            h1[i] = h2[i] = (uint32_t)qt_rng_u64();
        qt_rng_bytes(buf, 64 * n);
        quill_sha256_blocks_c(h1, buf, n);
#ifdef QUILL_SHA256_HAVE_SHANI
        if (quill_sha256_shani_capable()) {
            quill_sha256_blocks_shani(h2, buf, n);
            QT_CHECK(memcmp(h1, h2, sizeof(h1)) == 0);
        }
#endif
        (void)h2;
    }
}

static void check_stream(void) {
    static uint8_t msg[4096];
    uint8_t want[32], got[32];
    quill_sha256_ctx c;
    static const uint8_t abc_digest[32] = {
        0xba, 0x78, 0x16, 0xbf, 0x8f, 0x01, 0xcf, 0xea, 0x41, 0x41, 0x40, 0xde, 0x5d, 0xae, 0x22, 0x23,
        0xb0, 0x03, 0x61, 0xa3, 0x96, 0x17, 0x7a, 0x9c, 0xb4, 0x10, 0xff, 0x61, 0xf2, 0x00, 0x15, 0xad};
    quill_sha256_init(&c);
    quill_sha256_update(&c, (const uint8_t *)"abc", 3);
    quill_sha256_final(&c, got);
    QT_CHECK(memcmp(got, abc_digest, 32) == 0);
    qt_rng_bytes(msg, sizeof(msg));
    for (size_t len = 0; len <= 600; len++) {
        openssl_sha256(want, msg, len);
        quill_sha256_init(&c);
        quill_sha256_update(&c, msg, len);
        quill_sha256_final(&c, got);
        QT_CHECK(memcmp(got, want, 32) == 0);
    }
    for (int r = 0; r < 2000; r++) {
        size_t len = (size_t)(qt_rng_u64() % sizeof(msg)), off = 0;
        openssl_sha256(want, msg, len);
        quill_sha256_init(&c);
        while (off < len) {
            size_t take = (size_t)(qt_rng_u64() % 150);
            if (take > len - off)
                take = len - off;
            quill_sha256_update(&c, msg + off, take);
            off += take;
        }
        quill_sha256_final(&c, got);
        QT_CHECK(memcmp(got, want, 32) == 0);
    }
}

static void check_drbg(void) {
    quill_hash fast, slow;
    QT_CHECK(ect_hash_init(&fast, "SHA256"));
    QT_CHECK(ect_hash_init(&slow, "SHA256"));
    QT_CHECK(fast.is_sha256);
    slow.is_sha256 = 0;
    for (int r = 0; r < 500; r++) {
        uint8_t s[3][48], o1[100], o2[100];
        const uint8_t *seed[3] = {s[0], s[1], s[2]};
        size_t seed_len[3];
        size_t count = 1 + (size_t)(qt_rng_u64() % 3);
        for (size_t i = 0; i < 3; i++) {
            seed_len[i] = (size_t)(qt_rng_u64() % 49);
            qt_rng_bytes(s[i], sizeof(s[i]));
        }
        quill_hmac_drbg a, b;
        QT_CHECK(quill_hmac_drbg_init(&a, &fast, seed, seed_len, count) == QUILL_OK);
        QT_CHECK(quill_hmac_drbg_init(&b, &slow, seed, seed_len, count) == QUILL_OK);
        /* the core SHA-256 only with the SHA extensions (hmac_drbg.h) */
        QT_CHECK(!a.core_sha256 == !quill_sha256_shani_capable() && !b.core_sha256);
        for (int step = 0; step < 3; step++) {
            size_t len = 1 + (size_t)(qt_rng_u64() % sizeof(o1));
            QT_CHECK(quill_hmac_drbg_generate(&a, o1, len) == QUILL_OK);
            QT_CHECK(quill_hmac_drbg_generate(&b, o2, len) == QUILL_OK);
            QT_CHECK(memcmp(o1, o2, len) == 0);
            size_t n = (size_t)(qt_rng_u64() % 3);
            QT_CHECK(quill_hmac_drbg_update(&a, seed, seed_len, n) == QUILL_OK);
            QT_CHECK(quill_hmac_drbg_update(&b, seed, seed_len, n) == QUILL_OK);
        }
        QT_CHECK(memcmp(a.k, b.k, 32) == 0 && memcmp(a.v, b.v, 32) == 0);
        quill_hmac_drbg_clear(&a);
        quill_hmac_drbg_clear(&b);
    }
    ect_hash_free(&fast);
    ect_hash_free(&slow);
}

int main(void) {
    qt_rng_seed(0x5a256);
    printf("test_ec_sha256: SHA extensions %s\n",
           quill_sha256_shani_capable() ? "present (compared with the portable code)"
                                        : "absent or masked (portable code only)");
    check_blocks();
    check_stream();
    check_drbg();
    return qt_finish("test_ec_sha256");
}
