/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * The dispatch tables prov.c registers with OpenSSL (one per algorithm
 * implementation, each defined in its own file). */
#ifndef QUILL_PROV_ALGORITHMS_H
#define QUILL_PROV_ALGORITHMS_H

#include <openssl/core.h>

/* rsa_keymgmt.c */
extern const OSSL_DISPATCH quill_rsa_keymgmt_functions[];
extern const OSSL_DISPATCH quill_rsapss_keymgmt_functions[];
/* rsa_sig.c */
extern const OSSL_DISPATCH quill_rsa_signature_functions[];

/* ec_keymgmt.c */
extern const OSSL_DISPATCH quill_ec_keymgmt_functions[];
/* ec_sig.c */
extern const OSSL_DISPATCH quill_ecdsa_signature_functions[];

/* mldsa_keymgmt.c */
extern const OSSL_DISPATCH quill_mldsa44_keymgmt_functions[];
extern const OSSL_DISPATCH quill_mldsa65_keymgmt_functions[];
extern const OSSL_DISPATCH quill_mldsa87_keymgmt_functions[];
/* mldsa_sig.c */
extern const OSSL_DISPATCH quill_mldsa44_signature_functions[];
extern const OSSL_DISPATCH quill_mldsa65_signature_functions[];
extern const OSSL_DISPATCH quill_mldsa87_signature_functions[];
/* ... and with OpenSSL 3.4's message API (sign_message_init, ...) */
extern const OSSL_DISPATCH quill_mldsa44_message_signature_functions[];
extern const OSSL_DISPATCH quill_mldsa65_message_signature_functions[];
extern const OSSL_DISPATCH quill_mldsa87_message_signature_functions[];

/* ec_codec_dec.c */
extern const OSSL_DISPATCH quill_ec_spki_der_decoder[];

/* sig_algs.c: the signature tables for a core before 3.4 and for 3.4+
 * (terminated by a NULL row). */
extern const OSSL_ALGORITHM quill_signatures[];
extern const OSSL_ALGORITHM quill_signatures_34[];

/* codec_algs.c: encoder and decoder tables (terminated by a NULL row). */
extern const OSSL_ALGORITHM quill_encoders[];
extern const OSSL_ALGORITHM quill_decoders[];

#endif
