/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.  Shared between the two files of rsa_interop. */
#ifndef QUILL_TEST_RSA_INTEROP_H
#define QUILL_TEST_RSA_INTEROP_H

#include <openssl/evp.h>
#include <openssl/provider.h>

#include "qt_evp.h"

#define DEFAULT_PQ "provider=default"

/* The suite's library context (qt_evp_libctx_new) and its providers. */
extern OSSL_LIB_CTX *libctx;
extern OSSL_PROVIDER *prov_default, *prov_quill;

/* cross signs a random message through |sign_pq| and verifies it through
 * |verify_pq| (NULL: the library defaults, which prefer quill), checking
 * who served each side and that a one-bit corruption is rejected. */
void cross(EVP_PKEY *key, const qt_sigparams *sign_p, const qt_sigparams *verify_p,
           const char *sign_pq, const char *verify_pq, int mode, const char *what);

/* rsa_interop_ops.c; each records its checks with QT_CHECK. */
void pkey_ops(EVP_PKEY *key, const char *label);
void dup_midstream(EVP_PKEY *key, int pad, const char *label);
void ctx_params(EVP_PKEY *key, const char *label);
void export_to_default(EVP_PKEY *key, const char *label);
void restricted_pss_key(void);
void keymgmt_checks(EVP_PKEY *key, const char *label);

#endif
