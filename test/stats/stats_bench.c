/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * stats_bench N: N ECDSA P-256 signatures through EVP on quill in the
 * default library context ($OPENSSL_CONF loads quill), for callgrind:
 * instructions per signature with a statistics directory against without
 * one are (Ir(N2) - Ir(N1)) / (N2 - N1) under each configuration (set-up
 * cancels out).  Prints the number of signatures made. */
#include <stdio.h>
#include <stdlib.h>

#include <openssl/evp.h>

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 100;
    if (OPENSSL_init_crypto(OPENSSL_INIT_LOAD_CONFIG, NULL) != 1)
        return 1;
    EVP_PKEY_CTX *g = EVP_PKEY_CTX_new_from_name(NULL, "EC", "provider=default");
    EVP_PKEY *key = NULL;
    if (g == NULL || EVP_PKEY_keygen_init(g) != 1 ||
        EVP_PKEY_CTX_set_group_name(g, "P-256") != 1 || EVP_PKEY_keygen(g, &key) != 1)
        return 1;
    EVP_PKEY_CTX_free(g);
    static const unsigned char msg[32] = {1, 2, 3};
    unsigned char sig[80];
    int made = 0;
    for (int i = 0; i < n; i++) {
        EVP_MD_CTX *md = EVP_MD_CTX_new();
        size_t len = sizeof(sig);
        if (md != NULL &&
            EVP_DigestSignInit_ex(md, NULL, "SHA256", NULL, "provider=quill", key, NULL) == 1 &&
            EVP_DigestSign(md, sig, &len, msg, sizeof(msg)) == 1)
            made++;
        EVP_MD_CTX_free(md);
    }
    EVP_PKEY_free(key);
    printf("%d\n", made);
    return made == n ? 0 : 1;
}
