/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * The whole-operation driver of bench/aarch64_model.py: runs one signature
 * operation (key generation, signing or verification) through EVP with
 * quill or the default provider, twice untraced (warm-up: fetches, caches,
 * the key's export to the provider), then once between two calls of
 * quill_model_mark(), whose addresses the model script reads from this
 * (non-PIE) executable's symbol table.  Run under
 * `qemu-aarch64 -d in_asm,exec,nochain`, the log between the marks is the
 * operation's exact dynamic instruction stream.  After the run it prints the
 * guest's /proc/self/maps lines of libcrypto and quill.so (their load bases).
 *
 *   op_driver PROVIDER OP [KEYFILE]
 *     PROVIDER  "default", or the directory holding quill.so
 *     OP        sign | verify | keygen | digest (KEYFILE is then a digest
 *               name, e.g. SHA3-256, hashed over a 32-byte message)
 *     KEYFILE   PEM private key (RSA, EC P-256), or ML-DSA-44/65/87 (keygen
 *               on the provider first)
 * Test-only benchmark code: errors print one line and exit 1. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/provider.h>

void quill_model_mark(int which);
__attribute__((noinline)) void quill_model_mark(int which) {
    __asm__ __volatile__("" : : "r"(which) : "memory");
}

static void die(const char *what) {
    fprintf(stderr, "op_driver: %s failed\n", what);
    ERR_print_errors_fp(stderr);
    exit(1);
}

static const char *propq;
static EVP_PKEY *key;
static unsigned char sig[8192];
static size_t siglen;
static const unsigned char msg[32] = "quill aarch64 model message....";

static int is_mldsa(const char *name) {
    return strncmp(name, "ML-DSA-", 7) == 0;
}

static void do_keygen(const char *name) {
    EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_from_name(NULL, is_mldsa(name) ? name : "EC", propq);
    if (c == NULL || EVP_PKEY_keygen_init(c) <= 0)
        die("keygen init");
    if (!is_mldsa(name) && EVP_PKEY_CTX_set_group_name(c, "P-256") <= 0)
        die("set group");
    EVP_PKEY *k = NULL;
    if (EVP_PKEY_generate(c, &k) <= 0)
        die("keygen");
    EVP_PKEY_CTX_free(c);
    if (key == NULL)
        key = k;
    else
        EVP_PKEY_free(k);
}

static void do_sign(const char *mdname) {
    EVP_MD_CTX *m = EVP_MD_CTX_new();
    if (m == NULL || EVP_DigestSignInit_ex(m, NULL, mdname, NULL, propq, key, NULL) <= 0)
        die("sign init");
    siglen = sizeof(sig);
    if (EVP_DigestSign(m, sig, &siglen, msg, sizeof(msg)) <= 0)
        die("sign");
    EVP_MD_CTX_free(m);
}

static void do_digest(const char *mdname) {
    EVP_MD *md = EVP_MD_fetch(NULL, mdname, propq);
    unsigned char out[64];
    size_t outlen = 32;
    EVP_MD_CTX *m = EVP_MD_CTX_new();
    if (md == NULL || m == NULL || EVP_DigestInit_ex2(m, md, NULL) <= 0 ||
        EVP_DigestUpdate(m, msg, sizeof(msg)) <= 0)
        die("digest");
    if ((EVP_MD_get_flags(md) & EVP_MD_FLAG_XOF) != 0 ? EVP_DigestFinalXOF(m, out, outlen) <= 0
                                                      : EVP_DigestFinal_ex(m, out, NULL) <= 0)
        die("digest final");
    EVP_MD_CTX_free(m);
    EVP_MD_free(md);
}

static void do_verify(const char *mdname) {
    EVP_MD_CTX *m = EVP_MD_CTX_new();
    if (m == NULL || EVP_DigestVerifyInit_ex(m, NULL, mdname, NULL, propq, key, NULL) <= 0)
        die("verify init");
    if (EVP_DigestVerify(m, sig, siglen, msg, sizeof(msg)) != 1)
        die("verify");
    EVP_MD_CTX_free(m);
}

/* The load addresses of libcrypto and quill.so, as the guest sees them. */
static void print_maps(void) {
    FILE *maps = fopen("/proc/self/maps", "r");
    char line[512];
    while (maps != NULL && fgets(line, sizeof(line), maps) != NULL)
        if (strstr(line, "libcrypto") != NULL || strstr(line, "quill.so") != NULL)
            fputs(line, stdout);
    if (maps != NULL)
        fclose(maps);
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: op_driver default|QUILL_DIR sign|verify|keygen|digest "
                        "KEYFILE|ML-DSA-nn|P-256|DIGEST\n");
        return 2;
    }
    const char *prov = argv[1], *op = argv[2], *keyarg = argv[3];
    if (strcmp(prov, "default") != 0) {
        if (!OSSL_PROVIDER_set_default_search_path(NULL, prov) || OSSL_PROVIDER_load(NULL, "quill") == NULL)
            die("loading quill");
        propq = "provider=quill";
    } else {
        propq = "provider=default";
    }
    if (OSSL_PROVIDER_load(NULL, "default") == NULL)
        die("loading default");
    const char *mdname = "SHA256";
    if (strcmp(op, "digest") == 0) {
        /* a 32-byte message: one Keccak-f[1600] call for SHA-3 / SHAKE */
        for (int i = 0; i < 3; i++) {
            if (i == 2)
                quill_model_mark(1);
            do_digest(keyarg);
            if (i == 2)
                quill_model_mark(2);
        }
        print_maps();
        printf("OK %s digest %s\n", prov, keyarg);
        return 0;
    }
    if (is_mldsa(keyarg)) {
        mdname = NULL;
        do_keygen(keyarg);
    } else if (strcmp(keyarg, "P-256") == 0) {
        do_keygen(keyarg);
    } else {
        FILE *f = fopen(keyarg, "r");
        if (f == NULL || (key = PEM_read_PrivateKey(f, NULL, NULL, NULL)) == NULL)
            die("reading the key");
        fclose(f);
    }
    int kind = strcmp(op, "sign") == 0 ? 0 : strcmp(op, "verify") == 0 ? 1 : 2;
    if (kind == 2 && mdname != NULL && strcmp(keyarg, "P-256") != 0)
        die("keygen (RSA keygen is not modelled)");
    for (int i = 0; i < 3; i++) {
        if (i == 2)
            quill_model_mark(1);
        if (kind == 0)
            do_sign(mdname);
        else if (kind == 1) {
            if (i == 0)
                do_sign(mdname);
            do_verify(mdname);
        } else
            do_keygen(keyarg);
        if (i == 2)
            quill_model_mark(2);
    }
    print_maps();
    printf("OK %s %s %s siglen=%zu\n", prov, op, keyarg, siglen);
    EVP_PKEY_free(key);
    return 0;
}
