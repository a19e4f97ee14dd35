/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * RSA base blinding values for the private operation.  A private operation
 * computes x * r^e mod n, exponentiates, and multiplies by r^-1.  Drawing a
 * fresh r costs a constant-time inversion mod n and an exponentiation by e
 * per operation; instead each private key keeps one blinding pair
 * (A, Ai) = (r^e, r^-1) mod n, made from a fresh random r, and after each
 * use replaces it by (A^2, Ai^2) = ((r^2)^e, (r^2)^-1), which is again a
 * valid pair.  Every QUILL_RSA_BLINDING_REFRESH uses (and after a fork) the
 * pair is drawn afresh.
 *
 * The pair is shared by every thread using the key.  A C11 atomic flag
 * serves as a try-lock: a thread that finds it taken draws a fresh r of its
 * own (the pre-pair path) rather than waiting.  The lock decision depends on
 * the flag, the use counter and the process id, never on a secret.
 *
 * Both values are held in the Montgomery domain of n (times R = 2^(64 nl)),
 * so that one Montgomery product both applies them and leaves the normal
 * domain: mont_mul(x, A R) = x A mod n. */

/* getpid() and pid_t (POSIX). */
#define _POSIX_C_SOURCE 200809L

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/alloc.h"
#include "common/zeroize.h"
#include "rsa/internal.h"

/* Attempts at drawing a blinding value before giving up on the generator:
 * each draw is accepted with probability > 1/2 (n >= 2^(bits-1)), so 64
 * failures mean the generator is broken (2^-64 otherwise). */
#define BLINDING_ATTEMPTS 64

struct quill_rsa_blinding {
    atomic_flag busy; /* try-lock over everything below */
    int ready;        /* public: a and ai hold a pair */
    unsigned uses;    /* public: uses since the pair was drawn */
    pid_t pid;        /* public: the process that drew the pair */
    size_t nl;        /* public: limbs of n */
    quill_limb *a;    /* r^e R mod n, secret */
    quill_limb *ai;   /* r^-1 R mod n, secret */
};

quill_rsa_blinding *quill_rsa_blinding_new(size_t nl) {
    quill_rsa_blinding *b = quill_calloc(1, sizeof(*b) + 2 * nl * sizeof(quill_limb));
    if (b == NULL)
        return NULL;
    atomic_flag_clear(&b->busy);
    b->nl = nl;
    b->a = (quill_limb *)(b + 1);
    b->ai = b->a + nl;
    return b;
}

void quill_rsa_blinding_free(quill_rsa_blinding *b) {
    if (b == NULL)
        return;
    quill_zeroize(b, sizeof(*b) + 2 * b->nl * sizeof(quill_limb));
    quill_free(b);
}

/* draw sets r to a uniform value in [1, n) and rinv to its inverse mod n, by
 * rejection: only the accept/reject decision of each fresh draw is made
 * public. */
static quill_err draw(const quill_rsa_key *key, quill_limb *r, quill_limb *rinv, uint8_t *rand,
                      const quill_rng *rng) {
    size_t nl = key->nl, top_bits = key->bits % 64;
    for (int attempt = 0; attempt < BLINDING_ATTEMPTS; attempt++) {
        if (!rng->fill(rng->arg, rand, key->bytes))
            return QUILL_ERR_RNG;
        QUILL_CT_SECRET(rand, key->bytes);
        if (!quill_bn_from_bytes_be(r, nl, rand, key->bytes))
            return QUILL_ERR_INTERNAL;
        if (top_bits != 0)
            r[nl - 1] &= ((quill_limb)1 << top_bits) - 1;
        quill_word ok = ~quill_bn_is_zero_mask(r, nl) & quill_bn_lt_mask(r, key->n, nl);
        if (!quill_rsa_verdict(ok))
            continue;
        /* Not invertible only if r shares a factor with n: negligible, but
         * then draw again rather than fail. */
        if (quill_rsa_verdict(quill_bn_inv_mod_odd_consttime(rinv, r, key->n, nl)))
            return QUILL_OK;
    }
    return QUILL_ERR_RNG;
}

/* fresh: a_m = r^e R, ai_m = r^-1 R mod n for a fresh random r. */
static quill_err fresh(const quill_rsa_key *key, quill_limb *a_m, quill_limb *ai_m,
                       quill_limb *r, uint8_t *rand, const quill_rng *rng) {
    quill_err err = draw(key, r, ai_m, rand, rng);
    if (err != QUILL_OK)
        return err;
    /* e is public; r is secret only as a base (no table indexed by it). */
    if (!quill_mont_exp_vartime(a_m, r, key->e, key->el, key->mont_n))
        return QUILL_ERR_MEMORY;
    quill_mont_to(a_m, a_m, key->mont_n);
    quill_mont_to(ai_m, ai_m, key->mont_n);
    return QUILL_OK;
}

quill_err quill_rsa_blinding_get(const quill_rsa_key *key, quill_limb *a_m, quill_limb *ai_m,
                                 quill_limb *r, uint8_t *rand, const quill_rng *rng) {
    quill_rsa_blinding *b = key->blind;
    /* No pair (public key, allocation failure) or another thread holds it:
     * a fresh r for this operation alone. */
    if (b == NULL || atomic_flag_test_and_set_explicit(&b->busy, memory_order_acquire))
        return fresh(key, a_m, ai_m, r, rand, rng);

    size_t bytes = key->nl * sizeof(quill_limb);
    pid_t pid = getpid();
    if (!b->ready || b->uses >= QUILL_RSA_BLINDING_REFRESH || b->pid != pid) {
        /* Draw afresh; the old pair (if any) is dropped first, so a failure
         * leaves no pair behind. */
        b->ready = 0;
        quill_zeroize(b->a, bytes);
        quill_zeroize(b->ai, bytes);
        quill_err err = fresh(key, a_m, ai_m, r, rand, rng);
        if (err != QUILL_OK) {
            atomic_flag_clear_explicit(&b->busy, memory_order_release);
            return err;
        }
        b->ready = 1;
        b->uses = 0;
        b->pid = pid;
    } else {
        memcpy(a_m, b->a, bytes);
        memcpy(ai_m, b->ai, bytes);
    }
    /* The next pair: (A R)^2 R^-1 = A^2 R, likewise for Ai. */
    quill_mont_sqr_x2(b->a, a_m, key->mont_n, b->ai, ai_m, key->mont_n);
    QUILL_CT_SECRET(b->a, bytes);
    QUILL_CT_SECRET(b->ai, bytes);
    b->uses++;
    atomic_flag_clear_explicit(&b->busy, memory_order_release);
    return QUILL_OK;
}
