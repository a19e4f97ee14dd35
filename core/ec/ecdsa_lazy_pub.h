/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * A P-256 public key whose affine form is computed on first use.
 *
 * Key generation ends with the Jacobian point priv * G; its affine form
 * costs one inversion mod p (about a fifth of a key generation), and many
 * generated keys never need it (a key generated to sign, or only to be
 * encoded later).  quill_p256_lazy_public holds the Jacobian point and
 * converts it on the first read, once, for every thread:
 *
 *   - The Jacobian representation is NOT public even though the point is:
 *     its Z depends on the steps of the scalar multiplication, and so on
 *     the private key ("projective coordinates leak": Naccache, Smart and
 *     Stern, Eurocrypt 2004; Aldaya, Pereida Garcia and Brumley, "From A to
 *     Z", TCHES 2021).  So the conversion uses the constant-time inversion
 *     (quill_p256_point_to_affine), never the variable-time one, and the
 *     Jacobian point is zeroised by quill_p256_lazy_public_clear.  Only the
 *     affine result is declassified.
 *   - Publication without locks: a state word goes PENDING -> CLAIMED ->
 *     READY.  A reader that finds READY (acquire) reads the stored affine
 *     point.  A reader that finds PENDING or CLAIMED converts the Jacobian
 *     point (which nobody writes any more) into its own scratch; the one
 *     reader whose compare-and-swap moves PENDING to CLAIMED also stores
 *     its result and then sets READY (release).  Every reader gets the
 *     same affine point; none waits; at most one writes.
 *
 * Writers other than that publication (set, copy, clear, keygen_lazy) must
 * not run concurrently with any other use of the object: they belong to
 * import, generation, duplication and release, which OpenSSL performs
 * before it shares a key object or after its last user. */
#ifndef QUILL_EC_ECDSA_LAZY_PUB_H
#define QUILL_EC_ECDSA_LAZY_PUB_H

#include <stdatomic.h>

#include "common/compiler.h"
#include "common/err.h"
#include "common/rng.h"
#include "ec/ecdsa.h"
#include "ec/p256_point.h"

/* The states of quill_p256_lazy_public.state. */
enum {
    QUILL_P256_LAZY_EMPTY = 0,   /* no public key */
    QUILL_P256_LAZY_PENDING = 1, /* jac holds it; pub not yet written */
    QUILL_P256_LAZY_CLAIMED = 2, /* one reader is writing pub */
    QUILL_P256_LAZY_READY = 3,   /* pub holds it (jac may too) */
};

/* An all-zero object (calloc, zero-initialisation) is empty. */
typedef struct quill_p256_lazy_public {
    atomic_uint state;
    quill_p256_jacobian jac; /* secret representation (see above) */
    quill_p256_public pub;   /* valid once READY */
} quill_p256_lazy_public;

/* quill_p256_lazy_public_has returns 1 unless lp is empty. */
int quill_p256_lazy_public_has(const quill_p256_lazy_public *lp);

/* quill_p256_lazy_public_get returns the affine public key held by lp, or
 * NULL if lp is empty.  The pointer is either into lp (READY) or scratch
 * (the conversion was made by this call); it stays valid while both live.
 * Safe to call from many threads at once on one lp (see above); the first
 * calls pay one constant-time conversion each, later ones nothing. */
const quill_p256_public *quill_p256_lazy_public_get(const quill_p256_lazy_public *lp,
                                                    quill_p256_public *scratch);

/* quill_p256_lazy_public_set makes lp hold the (validated, affine) pub,
 * READY.  Not concurrent with other uses of lp. */
void quill_p256_lazy_public_set(quill_p256_lazy_public *lp, const quill_p256_public *pub);

/* quill_p256_lazy_public_copy makes dst hold the public key of src in the
 * form src has it (a pending point stays pending, so that a copy does not
 * force a conversion), or empties dst if src is empty.  src may be in use
 * by readers; dst must not be. */
void quill_p256_lazy_public_copy(quill_p256_lazy_public *dst, const quill_p256_lazy_public *src);

/* quill_p256_lazy_public_clear empties lp and zeroises it.  Not concurrent
 * with other uses of lp. */
void quill_p256_lazy_public_clear(quill_p256_lazy_public *lp);

/* quill_p256_keygen_lazy is quill_p256_keygen (same draws from rng, same
 * priv, same errors) leaving the public key PENDING in pub: no inversion.
 * On failure priv is zeroised and pub untouched.  pub must not be in use
 * by other threads. */
QUILL_MUST_CHECK quill_err quill_p256_keygen_lazy(uint8_t priv[32], quill_p256_lazy_public *pub,
                                                  const quill_rng *rng);

#endif
