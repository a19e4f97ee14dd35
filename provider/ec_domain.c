/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors. */
#include "ec_domain.h"

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/params.h>

#include "names.h"
#include "params.h"

int quill_prov_ec_group_is_p256(const char *name) {
    static const char *const names[] = {QUILL_EC_GROUP_NAME, "P-256", "secp256r1",
                                        "1.2.840.10045.3.1.7"};
    if (name == NULL)
        return 0;
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        if (OPENSSL_strcasecmp(name, names[i]) == 0)
            return 1;
    return 0;
}

int quill_prov_ec_params_explicit(const OSSL_PARAM params[]) {
    /* Parameters that describe a curve explicitly: keys quill refuses. */
    static const char *const explicit_names[] = {
        OSSL_PKEY_PARAM_EC_FIELD_TYPE, OSSL_PKEY_PARAM_EC_P,         OSSL_PKEY_PARAM_EC_A,
        OSSL_PKEY_PARAM_EC_B,          OSSL_PKEY_PARAM_EC_GENERATOR, OSSL_PKEY_PARAM_EC_ORDER,
        OSSL_PKEY_PARAM_EC_COFACTOR,   OSSL_PKEY_PARAM_EC_SEED,
    };
    for (size_t i = 0; i < sizeof(explicit_names) / sizeof(explicit_names[0]); i++)
        if (OSSL_PARAM_locate_const(params, explicit_names[i]) != NULL)
            return 1;
    return 0;
}

int quill_prov_ec_params_foreign(const OSSL_PARAM params[]) {
    if (params == NULL)
        return 0;
    const char *s = NULL;
    const OSSL_PARAM *p = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_EC_ENCODING);
    if (p != NULL && quill_param_get_utf8(p, &s) &&
        OPENSSL_strcasecmp(s, OSSL_PKEY_EC_ENCODING_GROUP) != 0)
        return 1;
    if (quill_prov_ec_params_explicit(params))
        return 1;
    p = OSSL_PARAM_locate_const(params, OSSL_PKEY_PARAM_GROUP_NAME);
    return p != NULL && quill_param_get_utf8(p, &s) && !quill_prov_ec_group_is_p256(s);
}
