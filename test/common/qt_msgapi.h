/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * OpenSSL 3.4's message signing API (EVP_PKEY_sign_message_init and
 * friends) for tests built against the 3.0 headers and run on whatever
 * libcrypto is loaded: the functions are looked up at run time, and
 * qt_msgapi_load says whether the core has them (3.4 or later).  Also a
 * reader of quill's live counters.  Header only (static inline), so that
 * the suites that use it need no new library. */
#ifndef QUILL_TEST_QT_MSGAPI_H
#define QUILL_TEST_QT_MSGAPI_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* RTLD_DEFAULT */
#endif
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/provider.h>

typedef struct qt_msgapi {
    int (*sign_message_init)(EVP_PKEY_CTX *, EVP_SIGNATURE *, const OSSL_PARAM *);
    int (*sign_message_update)(EVP_PKEY_CTX *, const unsigned char *, size_t);
    int (*sign_message_final)(EVP_PKEY_CTX *, unsigned char *, size_t *);
    int (*verify_message_init)(EVP_PKEY_CTX *, EVP_SIGNATURE *, const OSSL_PARAM *);
    int (*verify_message_update)(EVP_PKEY_CTX *, const unsigned char *, size_t);
    int (*verify_message_final)(EVP_PKEY_CTX *);
    int (*set_signature)(EVP_PKEY_CTX *, const unsigned char *, size_t);
    int (*sign_init_ex2)(EVP_PKEY_CTX *, EVP_SIGNATURE *, const OSSL_PARAM *);
    int (*verify_init_ex2)(EVP_PKEY_CTX *, EVP_SIGNATURE *, const OSSL_PARAM *);
} qt_msgapi;

/* Looks one symbol up in the loaded libcrypto (a function pointer from
 * dlsym, as POSIX allows). */
static inline void *qt_msgapi_sym(const char *name) {
    return dlsym(RTLD_DEFAULT, name);
}

/* qt_msgapi_load fills *api from the libcrypto loaded at run time.
 * Returns 1 if it is OpenSSL 3.4 or later and has every function; else 0
 * with the reason printed (the caller reports the test skipped). */
static inline int qt_msgapi_load(qt_msgapi *api) {
    unsigned long v = OpenSSL_version_num();
    if (v < 0x30400000UL) {
        printf("libcrypto %s is older than OpenSSL 3.4: no message signing API "
               "(EVP_PKEY_sign_message_init), nothing to test: skipped\n",
               OpenSSL_version(OPENSSL_VERSION));
        return 0;
    }
#define QT_MSGAPI_SYM(field, name) *(void **)&api->field = qt_msgapi_sym(name)
    QT_MSGAPI_SYM(sign_message_init, "EVP_PKEY_sign_message_init");
    QT_MSGAPI_SYM(sign_message_update, "EVP_PKEY_sign_message_update");
    QT_MSGAPI_SYM(sign_message_final, "EVP_PKEY_sign_message_final");
    QT_MSGAPI_SYM(verify_message_init, "EVP_PKEY_verify_message_init");
    QT_MSGAPI_SYM(verify_message_update, "EVP_PKEY_verify_message_update");
    QT_MSGAPI_SYM(verify_message_final, "EVP_PKEY_verify_message_final");
    QT_MSGAPI_SYM(set_signature, "EVP_PKEY_CTX_set_signature");
    QT_MSGAPI_SYM(sign_init_ex2, "EVP_PKEY_sign_init_ex2");
    QT_MSGAPI_SYM(verify_init_ex2, "EVP_PKEY_verify_init_ex2");
#undef QT_MSGAPI_SYM
    if (api->sign_message_init == NULL || api->sign_message_update == NULL ||
        api->sign_message_final == NULL || api->verify_message_init == NULL ||
        api->verify_message_update == NULL || api->verify_message_final == NULL ||
        api->set_signature == NULL || api->sign_init_ex2 == NULL || api->verify_init_ex2 == NULL) {
        printf("libcrypto %s lacks a message signing function: skipped\n",
               OpenSSL_version(OPENSSL_VERSION));
        return 0;
    }
    printf("libcrypto: %s\n", OpenSSL_version(OPENSSL_VERSION));
    return 1;
}

/* qt_counter returns quill's live counter |name| ("rsa-sign",
 * "mldsa-keygen", ...) from the provider parameter "quill-counters", or -1
 * if it cannot be read. */
static inline long qt_counter(OSSL_PROVIDER *quill, const char *name) {
    char line[512] = "";
    OSSL_PARAM p[] = {OSSL_PARAM_construct_utf8_string("quill-counters", line, sizeof(line)),
                      OSSL_PARAM_construct_end()};
    if (quill == NULL || !OSSL_PROVIDER_get_params(quill, p))
        return -1;
    char key[64];
    snprintf(key, sizeof(key), " %s=", name);
    const char *at = strstr(line, key);
    return at != NULL ? strtol(at + strlen(key), NULL, 10) : -1;
}

#endif
