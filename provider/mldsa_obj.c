/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * The ML-DSA OIDs registered with the core (see mldsa_obj.h). */
#include "mldsa_obj.h"

#include <pthread.h>

#include <openssl/core_dispatch.h>
#include <openssl/objects.h>

#include "core_version.h"
#include "mldsa_key.h"
#include "prov_err.h"

static pthread_mutex_t obj_lock = PTHREAD_MUTEX_INITIALIZER;
static int obj_done; /* under obj_lock */

/* Registers one set's OID and sigid unless the core has them. */
static int register_one(const quill_provctx *prov, const quill_mldsa_alg *a,
                        OSSL_FUNC_core_obj_create_fn *obj_create,
                        OSSL_FUNC_core_obj_add_sigid_fn *add_sigid) {
    if (OBJ_txt2nid(a->oid) == NID_undef &&
        (obj_create == NULL || !obj_create(prov->handle, a->oid, a->sn, a->name))) {
        QUILL_RAISE_MSG(prov, QUILL_R_OBJ_REGISTRATION, "%s (%s)", a->oid, a->sn);
        return 0;
    }
    int nid = OBJ_txt2nid(a->oid);
    /* Signature OID -> (no digest, key type = the same OID), as 3.5. */
    if (nid == NID_undef ||
        (!OBJ_find_sigid_algs(nid, NULL, NULL) &&
         (add_sigid == NULL || !add_sigid(prov->handle, a->oid, "", a->oid)))) {
        QUILL_RAISE_MSG(prov, QUILL_R_OBJ_REGISTRATION, "signature %s", a->sn);
        return 0;
    }
    return 1;
}

int quill_mldsa_obj_register(quill_provctx *prov, const OSSL_DISPATCH *in) {
    OSSL_FUNC_core_obj_create_fn *obj_create = NULL;
    OSSL_FUNC_core_obj_add_sigid_fn *add_sigid = NULL;
    for (const OSSL_DISPATCH *f = in; f->function_id != 0; f++) {
        switch (f->function_id) {
        case OSSL_FUNC_CORE_OBJ_CREATE:
            obj_create = OSSL_FUNC_core_obj_create(f);
            break;
        case OSSL_FUNC_CORE_OBJ_ADD_SIGID:
            add_sigid = OSSL_FUNC_core_obj_add_sigid(f);
            break;
        default:
            break;
        }
    }
    int ok = 1;
    pthread_mutex_lock(&obj_lock);
    if (!obj_done && prov->core_version < QUILL_CORE_VERSION(3, 5, 0)) {
        static const quill_mldsa_set sets[] = {QUILL_MLDSA_44, QUILL_MLDSA_65, QUILL_MLDSA_87};
        for (size_t i = 0; ok && i < sizeof(sets) / sizeof(sets[0]); i++)
            ok = register_one(prov, quill_mldsa_alg_get(sets[i]), obj_create, add_sigid);
    }
    if (ok)
        obj_done = 1;
    pthread_mutex_unlock(&obj_lock);
    return ok;
}
