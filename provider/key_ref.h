/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * The reference count of quill's key objects (RSA, EC and ML-DSA: rsa_key.h,
 * ec_key.h, mldsa_key.h).  A key object is shared between threads and
 * between operation contexts, each holding one reference; the holder of the
 * last reference releases it.  Adding a reference needs no ordering (the
 * adder already holds one); dropping one is acquire-release, so that
 * everything done with the object happens before whoever drops the last
 * reference frees it.  Nothing here is secret. */
#ifndef QUILL_PROV_KEY_REF_H
#define QUILL_PROV_KEY_REF_H

#include <stdatomic.h>
#include <stddef.h>

#include "prov_ctx.h"

typedef struct quill_key_ref {
    atomic_int count;
} quill_key_ref;

/* quill_key_ref_init sets |r| to one reference (the creator's). */
static inline void quill_key_ref_init(quill_key_ref *r) {
    atomic_init(&r->count, 1);
}

/* quill_key_ref_up adds a reference to |r|. */
static inline void quill_key_ref_up(quill_key_ref *r) {
    atomic_fetch_add_explicit(&r->count, 1, memory_order_relaxed);
}

/* quill_key_ref_down drops a reference and returns 1 if it was the last
 * one: the caller then releases the object. */
static inline int quill_key_ref_down(quill_key_ref *r) {
    return atomic_fetch_sub_explicit(&r->count, 1, memory_order_acq_rel) == 1;
}

/* quill_key_obj_alloc returns |size| zeroed bytes for a new key object, or
 * NULL with QUILL_R_MEMORY raised on |prov|.  The caller sets the object's
 * fields, its reference among them (quill_key_ref_init). */
void *quill_key_obj_alloc(const quill_provctx *prov, size_t size);

#endif
