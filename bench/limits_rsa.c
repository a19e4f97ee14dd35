/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * quill-limits: the parts of an RSA private operation (core/rsa/private.c)
 * outside its CRT exponentiation, each timed alone on one key through the
 * same calls the operation makes (the sequence is written out here, so
 * that each part can be timed by itself):
 *   rsaB.part.private   quill_rsa_private alone (no encoding)
 *   rsaB.part.blinding  quill_rsa_blinding_get in its steady state (the
 *                       pair copied out and squared in place; the minimum
 *                       leaves out the redraw every 32 uses)
 *   rsaB.part.blind_mul one Montgomery product mod n (x r^e; the unblinding
 *                       s = sb r^-1 is another)
 *   rsaB.part.mod_pq    xb mod p and xb mod q (the CRT reductions)
 *   rsaB.part.exp_x2    the two-way exponentiation by dp and dq
 *   rsaB.part.garner    m2 mod p, h = qinv (m1 - m2) mod p, sb = m2 + h q
 *   rsaB.part.check     the fault check s^e mod n (and the comparison)
 *   rsaB.part.ws        the operation's working memory: calloc, wipe, free
 * The parts are timed apart, so their sum may differ from the whole by
 * what overlapping them hides (or the cache misses it adds). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/rand.h>

#include "bn/bn.h"
#include "common/alloc.h"
#include "common/zeroize.h"
#include "limits.h"
#include "rsa/internal.h"

static int rng_fill(void *arg, uint8_t *out, size_t len) {
    (void)arg;
    return RAND_bytes(out, (int)len) == 1;
}

static const quill_rng g_rng = {rng_fill, NULL};
static volatile uint64_t g_sink;

#define MAXL QUILL_BN_MAX_LIMBS

typedef struct {
    quill_rsa_key *key;
    uint8_t em[QUILL_RSA_MAX_BITS / 8], out[QUILL_RSA_MAX_BITS / 8], rand[QUILL_RSA_MAX_BITS / 8];
    quill_limb x[MAXL], re[MAXL], rinv[MAXL], r[MAXL], xb[MAXL], cp[MAXL], cq[MAXL];
    quill_limb m1[MAXL], m2[MAXL], sb[MAXL], s[MAXL], chk[MAXL];
    quill_limb join[QUILL_RSA_CRT_JOIN_SCRATCH(MAXL)];
} parts_ctx;

static void run_private(void *c, unsigned iters) {
    parts_ctx *k = c;
    for (unsigned i = 0; i < iters; i++)
        g_sink += (uint64_t)quill_rsa_private(k->key, k->out, k->em, k->key->bytes, &g_rng);
}

static void run_blinding(void *c, unsigned iters) {
    parts_ctx *k = c;
    for (unsigned i = 0; i < iters; i++)
        g_sink += (uint64_t)quill_rsa_blinding_get(k->key, k->re, k->rinv, k->r, k->rand, &g_rng);
}

static void run_blind_mul(void *c, unsigned iters) {
    parts_ctx *k = c;
    for (unsigned i = 0; i < iters; i++)
        quill_mont_mul(k->xb, k->x, k->re, k->key->mont_n);
}

static void run_mod_pq(void *c, unsigned iters) {
    parts_ctx *k = c;
    for (unsigned i = 0; i < iters; i++)
        quill_rsa_crt_split(k->key, k->cp, k->cq, k->xb);
}

static void run_exp_x2(void *c, unsigned iters) {
    parts_ctx *k = c;
    const quill_rsa_key *key = k->key;
    for (unsigned i = 0; i < iters; i++)
        g_sink += (uint64_t)quill_mont_exp_consttime_x2(k->m1, k->cp, key->dp, key->mont_p, k->m2,
                                                         k->cq, key->dq, key->mont_q, key->pl);
}

static void run_garner(void *c, unsigned iters) {
    parts_ctx *k = c;
    for (unsigned i = 0; i < iters; i++)
        quill_rsa_crt_join(k->key, k->sb, k->m1, k->m2, k->join);
}

static void run_check(void *c, unsigned iters) {
    parts_ctx *k = c;
    const quill_rsa_key *key = k->key;
    for (unsigned i = 0; i < iters; i++) {
        g_sink += (uint64_t)quill_mont_exp_vartime(k->chk, k->s, key->e, key->el, key->mont_n);
        g_sink += quill_bn_eq_mask(k->chk, k->x, key->nl);
    }
}

static void run_ws(void *c, unsigned iters) {
    parts_ctx *k = c;
    /* private.c's 12 arrays of nl limbs, the recombination's scratch and the
     * k random bytes */
    size_t nl = k->key->nl;
    size_t total = (12 * nl + QUILL_RSA_CRT_JOIN_SCRATCH(nl)) * sizeof(quill_limb) + k->key->bytes;
    for (unsigned i = 0; i < iters; i++) {
        quill_limb *mem = quill_calloc(1, total);
        if (mem == NULL)
            abort();
        g_sink += mem[0];
        quill_zeroize(mem, total);
        quill_free(mem);
    }
}

static void rsa_parts(size_t bits) {
    char prefix[32];
    snprintf(prefix, sizeof(prefix), "rsa%zu.part", bits);
    if (!limits_wanted_group(prefix))
        return;
    static parts_ctx k;
    memset(&k, 0, sizeof(k));
    if (quill_rsa_keygen(&k.key, bits, NULL, &g_rng) != QUILL_OK || !k.key->has_crt) {
        fprintf(stderr, "quill-limits: RSA-%zu key generation failed\n", bits);
        return;
    }
    const quill_rsa_key *key = k.key;
    /* an encoded message below n: 0x00 0x01 0xff ... */
    memset(k.em, 0xff, key->bytes);
    k.em[0] = 0;
    k.em[1] = 1;
    if (!quill_bn_from_bytes_be(k.x, key->nl, k.em, key->bytes) ||
        quill_rsa_blinding_get(key, k.re, k.rinv, k.r, k.rand, &g_rng) != QUILL_OK) {
        fprintf(stderr, "quill-limits: RSA-%zu set-up failed\n", bits);
        quill_rsa_key_free(k.key);
        return;
    }
    /* the intermediate values of one operation, in order */
    run_blind_mul(&k, 1);
    run_mod_pq(&k, 1);
    run_exp_x2(&k, 1);
    run_garner(&k, 1);
    quill_mont_mul(k.s, k.sb, k.rinv, key->mont_n);
    run_check(&k, 1);
    if (quill_bn_eq_mask(k.chk, k.x, key->nl) == 0) {
        fprintf(stderr, "quill-limits: RSA-%zu parts do not compose\n", bits);
        quill_rsa_key_free(k.key);
        return;
    }
    static const struct {
        const char *part, *note;
        limits_fn fn;
        unsigned batch, samples;
    } parts[] = {
        {"private", "quill_rsa_private, no encoding", run_private, 1, 300},
        {"blinding", "the blinding pair taken and squared", run_blinding, 1, 300},
        {"blind_mul", "one Montgomery product mod n", run_blind_mul, 10, 300},
        {"mod_pq", "xb mod p and xb mod q", run_mod_pq, 10, 300},
        {"exp_x2", "the CRT exponentiation by dp and dq", run_exp_x2, 1, 300},
        {"garner", "Garner's recombination", run_garner, 10, 300},
        {"check", "s^e mod n compared with x", run_check, 1, 300},
        {"ws", "the working memory: calloc, wipe, free", run_ws, 10, 300},
    };
    for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
        char name[64];
        snprintf(name, sizeof(name), "%s.%s", prefix, parts[i].part);
        limits_measure(name, "ticks/call", parts[i].note, parts[i].fn, &k, parts[i].batch,
                       parts[i].samples, 1);
    }
    quill_rsa_key_free(k.key);
}

void limits_rsa_parts(void) {
    rsa_parts(2048);
}
