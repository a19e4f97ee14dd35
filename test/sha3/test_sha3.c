/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * core/sha3 against known answers and against OpenSSL's EVP SHA3-256,
 * SHA3-512, SHAKE128 and SHAKE256.
 *
 *  1. Known answers: FIPS 202 example values for the empty message, "abc"
 *     and the 200-byte message of 0xa3 bytes (the "1600-bit" examples of
 *     NIST's SHA-3 example files), and the Keccak team's Keccak-f[1600]
 *     output for the all-zero state (KeccakF-1600-IntermediateValues.txt).
 *  2. Edge lengths: inputs of rate * j + {-1, 0, 1} bytes for j = 0..3 (the
 *     one-byte-left padding case 0x86 / 0x9f among them), outputs of
 *     rate * j + {-1, 0, 1} bytes.
 *  3. Random differential (seeded): input 0..2000 bytes absorbed in random
 *     splits (including byte at a time), output 0..1000 bytes for SHAKE
 *     squeezed in random pieces, sometimes starting with squeeze_blocks and
 *     sometimes forking the context by copy; one-shot forms on the same
 *     input.
 *  4. Backends: quill_keccak_f1600_bmi and _avx512vl against
 *     quill_keccak_f1600_c (when the CPU has them) on the all-zero,
 *     all-ones and random states and a chain of 200 permutations
 *     (kt_single_mismatches, keccak_test_common.h).
 *     CTest also runs the whole suite with QUILL_CPU_MASK clearing every
 *     feature (test_sha3_portable), so the portable permutation serves the
 *     sponge there. */
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "keccak_test_common.h"
#include "sha3/keccak.h"
#include "sha3/sha3.h"
#include "test_util.h"

enum alg { ALG_SHA3_256, ALG_SHA3_512, ALG_SHAKE128, ALG_SHAKE256, ALG_COUNT };

static const char *const alg_name[ALG_COUNT] = {"SHA3-256", "SHA3-512", "SHAKE128",
                                                "SHAKE256"};
static const unsigned alg_rate[ALG_COUNT] = {QUILL_SHA3_256_RATE, QUILL_SHA3_512_RATE,
                                             QUILL_SHAKE128_RATE, QUILL_SHAKE256_RATE};
static const size_t alg_fixed_len[ALG_COUNT] = {32, 64, 0, 0};

static EVP_MD *evp_md[ALG_COUNT];

static void alg_init(enum alg a, quill_keccak *k) {
    switch (a) {
    case ALG_SHA3_256:
        quill_sha3_256_init(k);
        break;
    case ALG_SHA3_512:
        quill_sha3_512_init(k);
        break;
    case ALG_SHAKE128:
        quill_shake128_init(k);
        break;
    default:
        quill_shake256_init(k);
        break;
    }
}

/* The one-shot form of |a| (out_len ignored for SHA-3). */
static void alg_oneshot(enum alg a, uint8_t *out, size_t out_len, const uint8_t *in,
                        size_t len) {
    switch (a) {
    case ALG_SHA3_256:
        quill_sha3_256(out, in, len);
        break;
    case ALG_SHA3_512:
        quill_sha3_512(out, in, len);
        break;
    case ALG_SHAKE128:
        quill_shake128(out, out_len, in, len);
        break;
    default:
        quill_shake256(out, out_len, in, len);
        break;
    }
}

/* OpenSSL's answer; returns 1 on success. */
static int evp_hash(enum alg a, uint8_t *out, size_t out_len, const uint8_t *in, size_t len) {
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    int ok = ctx != NULL && EVP_DigestInit_ex(ctx, evp_md[a], NULL) == 1 &&
             EVP_DigestUpdate(ctx, in, len) == 1;
    if (ok) {
        if (alg_fixed_len[a] != 0) {
            unsigned n = 0;
            ok = EVP_DigestFinal_ex(ctx, out, &n) == 1 && n == out_len;
        } else if (out_len == 0) {
            ok = 1; /* EVP_DigestFinalXOF with no output: nothing to compare */
        } else {
            ok = EVP_DigestFinalXOF(ctx, out, out_len) == 1;
        }
    }
    EVP_MD_CTX_free(ctx);
    return ok;
}

static int hex_eq(const uint8_t *got, const char *hex) {
    uint8_t *want;
    size_t want_len;
    if (!qt_hex_decode(hex, &want, &want_len))
        return 0;
    int eq = memcmp(got, want, want_len) == 0;
    free(want);
    return eq;
}

/* ---- 1. known answers ---- */

static void test_known_answers(void) {
    static const uint8_t abc[3] = {'a', 'b', 'c'};
    uint8_t a3[200];
    uint8_t out[64];
    memset(a3, 0xa3, sizeof(a3));

    quill_sha3_256(out, NULL, 0);
    QT_CHECK(hex_eq(out, "a7ffc6f8bf1ed76651c14756a061d662f580ff4de43b49fa82d80a4b80f8434a"));
    quill_sha3_256(out, abc, 3);
    QT_CHECK(hex_eq(out, "3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532"));
    quill_sha3_256(out, a3, sizeof(a3));
    QT_CHECK(hex_eq(out, "79f38adec5c20307a98ef76e8324afbfd46cfd81b22e3973c65fa1bd9de31787"));

    quill_sha3_512(out, NULL, 0);
    QT_CHECK(hex_eq(out, "a69f73cca23a9ac5c8b567dc185a756e97c982164fe25859e0d1dcc1475c80a6"
                         "15b2123af1f5f94c11e3e9402c3ac558f500199d95b6d3e301758586281dcd26"));
    quill_sha3_512(out, abc, 3);
    QT_CHECK(hex_eq(out, "b751850b1a57168a5693cd924b6b096e08f621827444f70d884f5d0240d2712e"
                         "10e116e9192af3c91a7ec57647e3934057340b4cf408d5a56592f8274eec53f0"));
    quill_sha3_512(out, a3, sizeof(a3));
    QT_CHECK(hex_eq(out, "e76dfad22084a8b1467fcf2ffa58361bec7628edf5f3fdc0e4805dc48caeeca8"
                         "1b7c13c30adf52a3659584739a2df46be589c51ca1a4a8416df6545a1ce8ba00"));

    quill_shake128(out, 32, NULL, 0);
    QT_CHECK(hex_eq(out, "7f9c2ba4e88f827d616045507605853ed73b8093f6efbc88eb1a6eacfa66ef26"));
    quill_shake128(out, 32, a3, sizeof(a3));
    QT_CHECK(hex_eq(out, "131ab8d2b594946b9c81333f9bb6e0ce75c3b93104fa3469d3917457385da037"));

    quill_shake256(out, 64, NULL, 0);
    QT_CHECK(hex_eq(out, "46b9dd2b0ba88d13233b3feb743eeb243fcd52ea62b81b82b50c27646ed5762f"
                         "d75dc4ddd8c0f200cb05019d67b592f6fc821c49479ab48640292eacb3b7c4be"));
    quill_shake256(out, 32, a3, sizeof(a3));
    QT_CHECK(hex_eq(out, "cd8a920ed141aa0407a22d59288652e9d9f1a7ee0c1e7c1ca699424da84a904d"));

    /* The 0xa3 message fed one byte at a time gives the same digest. */
    quill_keccak k;
    quill_sha3_256_init(&k);
    for (size_t i = 0; i < sizeof(a3); i++)
        quill_keccak_absorb(&k, a3 + i, 1);
    quill_sha3_256_final(&k, out);
    QT_CHECK(hex_eq(out, "79f38adec5c20307a98ef76e8324afbfd46cfd81b22e3973c65fa1bd9de31787"));

    /* Keccak-f[1600] of the all-zero state (lanes in order s[0..24]). */
    static const uint64_t zero_perm[25] = {
        0xf1258f7940e1dde7, 0x84d5ccf933c0478a, 0xd598261ea65aa9ee, 0xbd1547306f80494d,
        0x8b284e056253d057, 0xff97a42d7f8e6fd4, 0x90fee5a0a44647c4, 0x8c5bda0cd6192e76,
        0xad30a6f71b19059c, 0x30935ab7d08ffc64, 0xeb5aa93f2317d635, 0xa9a6e6260d712103,
        0x81a57c16dbcf555f, 0x43b831cd0347c826, 0x01f22f1a11a5569f, 0x05e5635a21d9ae61,
        0x64befef28cc970f2, 0x613670957bc46611, 0xb87c5a554fd00ecb, 0x8c3ee88a1ccf32c8,
        0x940c7922ae3a2614, 0x1841f924a2c509e4, 0x16f53526e70465c2, 0x75f644e97f30a13b,
        0xeaf1ff7b5ceca249,
    };
    uint64_t s[25] = {0};
    quill_keccak_f1600(s);
    QT_CHECK(memcmp(s, zero_perm, sizeof(s)) == 0);

    /* Zeroisation clears every byte of the context. */
    quill_shake256_init(&k);
    quill_keccak_absorb(&k, a3, 17);
    quill_keccak_zeroize(&k);
    static const quill_keccak zero_ctx;
    QT_CHECK(memcmp(&k, &zero_ctx, sizeof(k)) == 0);
}

/* ---- 2 and 3. differential ---- */

/* absorb_split feeds |in| in pieces: mode 0 whole, 1 byte at a time, 2
 * random pieces of 0..2*rate bytes (empty pieces included). */
static void absorb_split(quill_keccak *k, const uint8_t *in, size_t len, unsigned mode) {
    if (mode == 0) {
        quill_keccak_absorb(k, in, len);
        return;
    }
    size_t off = 0;
    while (off < len) {
        size_t n = mode == 1 ? 1 : (size_t)(qt_rng_u64() % (2 * k->rate + 1));
        if (n > len - off)
            n = len - off;
        quill_keccak_absorb(k, in + off, n);
        off += n;
    }
}

/* squeeze_split writes |len| bytes in pieces; if |blocks| it starts with as
 * many whole blocks as fit via squeeze_blocks, split across calls. */
static void squeeze_split(quill_keccak *k, uint8_t *out, size_t len, int blocks) {
    size_t off = 0;
    if (blocks) {
        size_t nb = len / k->rate;
        while (nb > 0) {
            size_t take = 1 + (size_t)(qt_rng_u64() % nb);
            quill_keccak_squeeze_blocks(k, out + off, take);
            off += take * k->rate;
            nb -= take;
        }
    }
    while (off < len) {
        size_t n = (size_t)(qt_rng_u64() % (k->rate + 9));
        if (n > len - off)
            n = len - off;
        quill_keccak_squeeze(k, out + off, n);
        off += n;
    }
}

static unsigned long cases_run;

/* One differential case: returns 1 if everything matched. */
static int run_case(enum alg a, const uint8_t *in, size_t len, size_t out_len,
                    unsigned absorb_mode, int blocks, int fork) {
    uint8_t *want = malloc(out_len + 1), *got = malloc(out_len + 1), *got2 = malloc(out_len + 1);
    int ok = want != NULL && got != NULL && got2 != NULL && evp_hash(a, want, out_len, in, len);
    QT_CHECK(ok);
    if (ok) {
        quill_keccak k, k2;
        alg_init(a, &k);
        if (fork) {
            /* Copy the context halfway: both copies finish identically. */
            size_t half = len / 2;
            absorb_split(&k, in, half, absorb_mode);
            k2 = k;
            absorb_split(&k, in + half, len - half, absorb_mode);
            absorb_split(&k2, in + half, len - half, 2);
        }
        else {
            absorb_split(&k, in, len, absorb_mode);
        }
        if (alg_fixed_len[a] == 32 && !blocks && !fork && absorb_mode == 0)
            quill_sha3_256_final(&k, got);
        else if (alg_fixed_len[a] == 64 && !blocks && !fork && absorb_mode == 0)
            quill_sha3_512_final(&k, got);
        else
            squeeze_split(&k, got, out_len, blocks);
        ok = memcmp(got, want, out_len) == 0;
        if (fork) {
            squeeze_split(&k2, got2, out_len, !blocks);
            ok &= memcmp(got2, want, out_len) == 0;
        }
        alg_oneshot(a, got2, out_len, in, len);
        ok &= memcmp(got2, want, out_len) == 0;
        if (!ok)
            fprintf(stderr, "%s: in %zu out %zu absorb mode %u blocks %d fork %d differs\n",
                    alg_name[a], len, out_len, absorb_mode, blocks, fork);
        QT_CHECK(ok);
        quill_keccak_zeroize(&k);
        cases_run++;
    }
    free(want);
    free(got);
    free(got2);
    return ok;
}

static void test_edge_lengths(void) {
    uint8_t in[4 * 168 + 2];
    qt_rng_bytes(in, sizeof(in));
    for (int a = 0; a < ALG_COUNT; a++) {
        const size_t rate = alg_rate[a];
        for (size_t j = 0; j <= 3; j++) {
            for (int d = -1; d <= 1; d++) {
                if (j == 0 && d < 0)
                    continue;
                size_t n = rate * j + (size_t)(long)d;
                size_t out_len = alg_fixed_len[a] != 0 ? alg_fixed_len[a] : n;
                for (unsigned mode = 0; mode < 3; mode++)
                    run_case((enum alg)a, in, n, out_len, mode, (int)(j & 1), mode == 2);
            }
        }
    }
}

static void test_random(unsigned per_alg) {
    uint8_t *in = malloc(2001);
    QT_CHECK(in != NULL);
    if (in == NULL)
        return;
    for (int a = 0; a < ALG_COUNT; a++) {
        unsigned failures = 0;
        for (unsigned i = 0; i < per_alg && failures < 10; i++) {
            size_t len = (size_t)(qt_rng_u64() % 2001);
            size_t out_len =
                alg_fixed_len[a] != 0 ? alg_fixed_len[a] : (size_t)(qt_rng_u64() % 1001);
            uint64_t r = qt_rng_u64();
            unsigned mode = (unsigned)(r % 3);
            int blocks = (int)((r >> 8) & 1), fork = (int)((r >> 9) & 1);
            qt_rng_bytes(in, len);
            failures += !run_case((enum alg)a, in, len, out_len, mode, blocks, fork);
        }
    }
    free(in);
}


static void test_backends(unsigned count) {
#if QUILL_KECCAK_HAVE_BMI
    if (quill_keccak_f1600_bmi_capable()) {
        QT_CHECK(kt_single_mismatches(quill_keccak_f1600_bmi, count, 200) == 0);
        printf("sha3: bmi backend compared with the portable one on %u random states\n", count);
    } else {
        printf("sha3: BMI backend not usable on this CPU (or masked)\n");
    }
#endif
#if QUILL_KECCAK_HAVE_AVX2
    if (quill_keccak_f1600_avx512vl_capable()) {
        QT_CHECK(kt_single_mismatches(quill_keccak_f1600_avx512vl, count, 200) == 0);
        printf("sha3: avx512vl backend compared with the portable one on %u random states\n",
               count);
#if QUILL_KECCAK_HAVE_AVX512_ASM
        /* The single-state variant of the four-way assembly (dispatched). */
        QT_CHECK(kt_single_mismatches(quill_keccak_f1600_avx512vl_asm, count, 200) == 0);
        printf("sha3: avx512vl assembly (xmm) compared with the portable one\n");
#endif
    } else {
        printf("sha3: AVX-512VL backend not usable on this CPU (or masked)\n");
    }
#endif
#if !QUILL_KECCAK_HAVE_BMI && !QUILL_KECCAK_HAVE_AVX2
    (void)count;
    printf("sha3: no native backend in this build\n");
#endif
}

int main(int argc, char **argv) {
    unsigned per_alg = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 0) : 2500;
    qt_rng_seed(0x5a3a5a3a20260001ull);
    for (int a = 0; a < ALG_COUNT; a++) {
        evp_md[a] = EVP_MD_fetch(NULL, alg_name[a], NULL);
        if (evp_md[a] == NULL) {
            fprintf(stderr, "OpenSSL lacks %s\n", alg_name[a]);
            return QT_SKIP;
        }
    }
    test_known_answers();
    test_edge_lengths();
    test_random(per_alg);
    test_backends(10000);
    printf("sha3: %lu differential cases against EVP\n", cases_run);
    for (int a = 0; a < ALG_COUNT; a++)
        EVP_MD_free(evp_md[a]);
    return qt_finish("sha3");
}
