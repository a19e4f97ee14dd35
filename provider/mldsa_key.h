/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * The key object behind quill's ML-DSA-44/65/87 key managers, shared by the
 * key manager (mldsa_keymgmt.c), the signature (mldsa_sig.c) and the
 * encoders and decoders (mldsa_codec*.c).  A reference-counted holder of the
 * parameter set and, once filled, an immutable core key (core/mldsa). */
#ifndef QUILL_PROV_MLDSA_KEY_H
#define QUILL_PROV_MLDSA_KEY_H

#include <stddef.h>
#include <stdint.h>

#include <openssl/core.h>

#include "mldsa/mldsa.h"
#include "key_ref.h"
#include "prov_ctx.h"

/* One row per parameter set: OpenSSL 3.5's names and OIDs. */
typedef struct quill_mldsa_alg {
    quill_mldsa_set set;
    const char *name;     /* "ML-DSA-65" */
    const char *sn;       /* "id-ml-dsa-65" */
    const char *alias;    /* "MLDSA65" */
    const char *oid;      /* "2.16.840.1.101.3.4.3.18" */
    const uint8_t *oid_der; /* DER body of the OID (no tag/length) */
    size_t oid_der_len;
} quill_mldsa_alg;

/* quill_mldsa_alg_get returns the row for |set| (never NULL for a valid
 * set); quill_mldsa_alg_by_name matches name, sn, alias or OID text
 * (case-insensitive), NULL if none. */
const quill_mldsa_alg *quill_mldsa_alg_get(quill_mldsa_set set);
const quill_mldsa_alg *quill_mldsa_alg_by_name(const char *name);

typedef struct quill_prov_mldsa_key {
    quill_provctx *prov;
    quill_key_ref refs;
    const quill_mldsa_alg *alg;
    quill_mldsa_key *key; /* NULL while empty; immutable once set */
} quill_prov_mldsa_key;

/* quill_prov_mldsa_key_new returns an empty key of set |set| (one
 * reference), or NULL with an error raised. */
quill_prov_mldsa_key *quill_prov_mldsa_key_new(quill_provctx *prov, quill_mldsa_set set);
void quill_prov_mldsa_key_up_ref(quill_prov_mldsa_key *k);
/* Drops a reference; the last one frees the core key (which zeroises). */
void quill_prov_mldsa_key_free(quill_prov_mldsa_key *k);

/* quill_prov_mldsa_key_set_parts fills an empty |k| from any combination of
 * seed (32 bytes), expanded private key and public key (NULL/0 when
 * absent), the rules shared by import and the decoders:
 *   - seed present: the key is generated from it; a private key given too
 *     must equal the generated one (else QUILL_R_SEED_MISMATCH), a public key
 *     too (else QUILL_R_PUBLIC_MISMATCH);
 *   - else private key present: decoded and checked by the core, the public
 *     key derived; a public key given must equal it (QUILL_R_PUBLIC_MISMATCH);
 *   - else public key only.
 * Wrong lengths raise the core's QUILL_ERR_KEY_LENGTH.  Returns 1, or 0 with
 * an error raised and |k| unchanged.  Secret inputs are only read; the
 * comparisons of secrets are constant time. */
int quill_prov_mldsa_key_set_parts(quill_prov_mldsa_key *k, const uint8_t *seed, size_t seed_len,
                                   const uint8_t *priv, size_t priv_len, const uint8_t *pub,
                                   size_t pub_len);

#endif
