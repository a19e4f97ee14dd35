/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * RSA keys: import with the cheap consistency checks of rsa.h, assembly
 * (Montgomery contexts precomputed once, so the key is immutable and can be
 * shared between threads), getters and zeroising free. */
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "common/zeroize.h"
#include "rsa/internal.h"

/* ---- Assembly ---- */

quill_err quill_rsa_key_assemble(quill_rsa_key **out, const quill_rsa_limbs *c) {
    int priv = c->d != NULL, crt = c->p != NULL;
    size_t nl = c->nl, el = c->el, pl = crt ? c->pl : 0, ql = crt ? c->ql : 0;
    size_t total = nl + el + (priv ? nl : 0) + 4 * pl + 2 * ql;
    quill_rsa_key *key = quill_calloc(1, sizeof(*key));
    quill_limb *mem = quill_calloc(total, sizeof(quill_limb));
    if (key == NULL || mem == NULL)
        goto oom;
    key->mem = mem;
    key->mem_limbs = total;
    key->nl = nl;
    key->el = el;
    key->n = mem;
    key->e = key->n + nl;
    memcpy(key->n, c->n, nl * sizeof(quill_limb));
    memcpy(key->e, c->e, el * sizeof(quill_limb));
    quill_limb *next = key->e + el;
    key->bits = quill_bn_num_bits_public(key->n, nl);
    key->bytes = (key->bits + 7) / 8;
    key->mont_n = quill_mont_new_public(key->n, nl);
    if (key->mont_n == NULL)
        goto oom;
    if (priv) {
        key->has_private = 1;
        key->d = next;
        next += nl;
        memcpy(key->d, c->d, nl * sizeof(quill_limb));
        /* Best effort: without a pair every operation draws a fresh r. */
        key->blind = quill_rsa_blinding_new(nl);
    }
    if (crt) {
        key->has_crt = 1;
        key->pl = pl;
        key->ql = ql;
        key->p = next;
        key->q = key->p + pl;
        key->dp = key->q + ql;
        key->dq = key->dp + pl;
        key->qinv = key->dq + ql;
        key->qinv_mont = key->qinv + pl;
        memcpy(key->p, c->p, pl * sizeof(quill_limb));
        memcpy(key->q, c->q, ql * sizeof(quill_limb));
        memcpy(key->dp, c->dp, pl * sizeof(quill_limb));
        memcpy(key->dq, c->dq, ql * sizeof(quill_limb));
        memcpy(key->qinv, c->qinv, pl * sizeof(quill_limb));
        key->mont_p = quill_rsa_mont_new_secret(key->p, pl);
        key->mont_q = quill_rsa_mont_new_secret(key->q, ql);
        if (key->mont_p == NULL || key->mont_q == NULL)
            goto oom;
        key->p_bits = quill_bn_num_bits_consttime(key->p, pl);
        key->q_bits = quill_bn_num_bits_consttime(key->q, ql);
        QUILL_CT_DECLASSIFY(&key->p_bits, sizeof(key->p_bits));
        QUILL_CT_DECLASSIFY(&key->q_bits, sizeof(key->q_bits));
        /* Garner multiplies by qinv in the Montgomery domain: keep qinv * R. */
        quill_mont_to(key->qinv_mont, key->qinv, key->mont_p);
    }
    *out = key;
    return QUILL_OK;
oom:
    if (key != NULL)
        quill_rsa_key_free(key);
    else
        quill_free(mem);
    return QUILL_ERR_MEMORY;
}

void quill_rsa_key_free(quill_rsa_key *key) {
    if (key == NULL)
        return;
    quill_mont_free(key->mont_n);
    quill_mont_free(key->mont_p);
    quill_mont_free(key->mont_q);
    quill_rsa_blinding_free(key->blind);
    if (key->mem != NULL) {
        quill_zeroize(key->mem, key->mem_limbs * sizeof(quill_limb));
        quill_free(key->mem);
    }
    quill_zeroize(key, sizeof(*key));
    quill_free(key);
}

/* ---- Import ---- */

/* Scratch for an import: every component at the modulus' width. */
typedef struct import_ws {
    quill_limb n[QUILL_BN_MAX_LIMBS], e[QUILL_BN_MAX_LIMBS], d[QUILL_BN_MAX_LIMBS];
    quill_limb p[QUILL_BN_MAX_LIMBS], q[QUILL_BN_MAX_LIMBS], dp[QUILL_BN_MAX_LIMBS];
    quill_limb dq[QUILL_BN_MAX_LIMBS], qinv[QUILL_BN_MAX_LIMBS];
    quill_limb prod[2 * QUILL_BN_MAX_LIMBS], t[QUILL_BN_MAX_LIMBS];
} import_ws;

static int present(const quill_bytes *b) {
    return b->data != NULL;
}

/* Strips leading zero bytes of a public string. */
static quill_bytes strip_public(quill_bytes b) {
    while (b.len > 0 && b.data[0] == 0) {
        b.data++;
        b.len--;
    }
    return b;
}

/* Reads a secret component into nl limbs and marks it secret.  Returns 0 if
 * it does not fit. */
static int load_secret(quill_limb *r, size_t nl, const quill_bytes *b) {
    int ok = quill_bn_from_bytes_be(r, nl, b->data, b->len);
    QUILL_CT_SECRET(r, nl * sizeof(quill_limb));
    return ok;
}

/* The limb length of a secret value, declassified: the size of a prime
 * factor (or of a CRT exponent's container) is public. */
static size_t limbs_declassified(const quill_limb *a, size_t n) {
    size_t bits = quill_bn_num_bits_consttime(a, n);
    QUILL_CT_DECLASSIFY(&bits, sizeof(bits));
    return QUILL_BN_LIMBS_FOR_BITS(bits);
}

static quill_err import_crt(import_ws *w, quill_rsa_limbs *l, const quill_rsa_components *c) {
    size_t nl = l->nl;
    if (!load_secret(w->p, nl, &c->p) || !load_secret(w->q, nl, &c->q) ||
        !load_secret(w->dp, nl, &c->dp) || !load_secret(w->dq, nl, &c->dq) ||
        !load_secret(w->qinv, nl, &c->qinv))
        return QUILL_ERR_BAD_CRT;
    size_t pl = limbs_declassified(w->p, nl), ql = limbs_declassified(w->q, nl);
    if (pl == 0 || ql == 0 || pl + ql < nl)
        return QUILL_ERR_BAD_CRT;
    /* p * q == n (which makes p and q odd). */
    memset(w->prod, 0, sizeof(w->prod));
    quill_bn_mul(w->prod, w->p, pl, w->q, ql);
    memset(w->t, 0, sizeof(w->t));
    memcpy(w->t, w->n, nl * sizeof(quill_limb));
    quill_word ok = quill_bn_eq_mask(w->prod, w->t, nl);
    if (pl + ql > nl)
        ok &= quill_bn_is_zero_mask(w->prod + nl, pl + ql - nl);
    /* p, q < n: with p * q == n both are then > 1. */
    ok &= quill_bn_lt_mask(w->p, w->n, nl) & quill_bn_lt_mask(w->q, w->n, nl);
    /* dp < p, dq < q, qinv < p (at the width of n: the high limbs of p are
     * zero, so this also says dp fits in pl limbs). */
    ok &= quill_bn_lt_mask(w->dp, w->p, nl);
    ok &= quill_bn_lt_mask(w->dq, w->q, nl);
    ok &= quill_bn_lt_mask(w->qinv, w->p, nl);
    if (!quill_rsa_verdict(ok))
        return QUILL_ERR_BAD_CRT;
    l->p = w->p;
    l->q = w->q;
    l->dp = w->dp;
    l->dq = w->dq;
    l->qinv = w->qinv;
    l->pl = pl;
    l->ql = ql;
    return QUILL_OK;
}

/* qinv * q == 1 mod p, on the assembled key (it needs the context of p). */
static quill_err check_qinv(const quill_rsa_key *key, quill_limb *t) {
    quill_limb one[QUILL_BN_MAX_LIMBS] = {1};
    quill_bn_mod_consttime(t, key->q, key->ql, key->mont_p);
    quill_mont_mul(t, t, key->qinv_mont, key->mont_p);
    quill_word ok = quill_bn_eq_mask(t, one, key->pl);
    quill_zeroize(t, key->pl * sizeof(quill_limb));
    return quill_rsa_verdict(ok) ? QUILL_OK : QUILL_ERR_BAD_CRT;
}

static quill_err import(import_ws *w, quill_rsa_key **out, const quill_rsa_components *c) {
    if (c->n.data == NULL || c->e.data == NULL)
        return QUILL_ERR_INVALID_ARGUMENT;
    quill_bytes n = strip_public(c->n), e = strip_public(c->e);
    if (n.len > QUILL_RSA_MAX_BITS / 8 || n.len == 0)
        return QUILL_ERR_KEY_SIZE;
    size_t nl = QUILL_BN_LIMBS_FOR_BITS(8 * n.len);
    if (!quill_bn_from_bytes_be(w->n, nl, n.data, n.len))
        return QUILL_ERR_INTERNAL;
    size_t bits = quill_bn_num_bits_public(w->n, nl);
    /* The import policy: keys below QUILL_RSA_IMPORT_MIN_BITS stay with
     * whoever made them (quill makes its own small keys by keygen/dup). */
    if (bits < QUILL_RSA_IMPORT_MIN_BITS || bits > QUILL_RSA_MAX_BITS)
        return QUILL_ERR_KEY_SIZE;
    nl = QUILL_BN_LIMBS_FOR_BITS(bits);
    if ((w->n[0] & 1) == 0)
        return QUILL_ERR_MODULUS_EVEN;
    /* 3 <= e < n, e odd. */
    if (e.len > n.len || !quill_bn_from_bytes_be(w->e, nl, e.data, e.len))
        return QUILL_ERR_BAD_EXPONENT;
    size_t el = quill_bn_limbs_public(w->e, nl);
    if (el == 0 || (w->e[0] & 1) == 0 || (el == 1 && w->e[0] < 3) ||
        !quill_bn_lt_mask(w->e, w->n, nl))
        return QUILL_ERR_BAD_EXPONENT;
    /* Above QUILL_RSA_LARGE_MODULUS_BITS, e is limited to
     * QUILL_RSA_LARGE_MODULUS_MAX_E_BITS bits: a public operation costs about
     * bits(e) modular squarings, so a 16383-bit e on a 16384-bit n would make
     * one verification take seconds (OpenSSL's default provider refuses the
     * same keys). */
    if (bits > QUILL_RSA_LARGE_MODULUS_BITS &&
        quill_bn_num_bits_public(w->e, el) > QUILL_RSA_LARGE_MODULUS_MAX_E_BITS)
        return QUILL_ERR_BAD_EXPONENT;

    quill_rsa_limbs l = {.n = w->n, .e = w->e, .nl = nl, .el = el};
    int crt_count = present(&c->p) + present(&c->q) + present(&c->dp) + present(&c->dq) +
                    present(&c->qinv);
    if (crt_count != 0 && crt_count != 5)
        return QUILL_ERR_BAD_CRT;
    if (present(&c->d)) {
        /* 0 < d < n. */
        if (!load_secret(w->d, nl, &c->d))
            return QUILL_ERR_BAD_EXPONENT;
        quill_word ok = ~quill_bn_is_zero_mask(w->d, nl) & quill_bn_lt_mask(w->d, w->n, nl);
        if (!quill_rsa_verdict(ok))
            return QUILL_ERR_BAD_EXPONENT;
        l.d = w->d;
        if (crt_count == 5) {
            quill_err err = import_crt(w, &l, c);
            if (err != QUILL_OK)
                return err;
        }
    } else if (crt_count != 0) {
        return QUILL_ERR_INVALID_ARGUMENT; /* CRT values without d */
    }

    quill_rsa_key *key;
    quill_err err = quill_rsa_key_assemble(&key, &l);
    if (err != QUILL_OK)
        return err;
    if (key->has_crt && (err = check_qinv(key, w->t)) != QUILL_OK) {
        quill_rsa_key_free(key);
        return err;
    }
    *out = key;
    return QUILL_OK;
}

quill_err quill_rsa_key_new(quill_rsa_key **out, const quill_rsa_components *c) {
    if (out == NULL || c == NULL)
        return QUILL_ERR_INVALID_ARGUMENT;
    import_ws *w = quill_malloc(sizeof(*w));
    if (w == NULL)
        return QUILL_ERR_MEMORY;
    quill_err err = import(w, out, c);
    quill_zeroize(w, sizeof(*w));
    quill_free(w);
    return err;
}

/* ---- Copy ---- */

quill_err quill_rsa_key_dup(quill_rsa_key **out, const quill_rsa_key *key, int with_private) {
    if (out == NULL || key == NULL)
        return QUILL_ERR_INVALID_ARGUMENT;
    /* The source was checked when it was made: copy its limbs as they are.
     * The secret limbs are copied by memcpy inside the assembly, never
     * inspected.  The blinding pair is not copied: the copy draws its own. */
    quill_rsa_limbs l = {.n = key->n, .e = key->e, .nl = key->nl, .el = key->el};
    if (with_private && key->has_private) {
        l.d = key->d;
        if (key->has_crt) {
            l.p = key->p;
            l.q = key->q;
            l.dp = key->dp;
            l.dq = key->dq;
            l.qinv = key->qinv;
            l.pl = key->pl;
            l.ql = key->ql;
        }
    }
    quill_rsa_key *copy = NULL;
    quill_err err = quill_rsa_key_assemble(&copy, &l);
    if (err != QUILL_OK)
        return err;
    *out = copy;
    return QUILL_OK;
}

/* ---- Getters ---- */

size_t quill_rsa_key_bits(const quill_rsa_key *key) {
    return key->bits;
}

size_t quill_rsa_key_size(const quill_rsa_key *key) {
    return key->bytes;
}

int quill_rsa_key_has_private(const quill_rsa_key *key) {
    return key->has_private;
}

int quill_rsa_key_has_crt(const quill_rsa_key *key) {
    return key->has_crt;
}

quill_err quill_rsa_key_get(const quill_rsa_key *key, quill_rsa_field f, uint8_t *out, size_t cap,
                            size_t *out_len) {
    const quill_limb *a;
    size_t n;
    int secret = 1;
    if (key == NULL || out_len == NULL)
        return QUILL_ERR_INVALID_ARGUMENT;
    switch (f) {
    case QUILL_RSA_N:
        a = key->n, n = key->nl, secret = 0;
        break;
    case QUILL_RSA_E:
        a = key->e, n = key->el, secret = 0;
        break;
    case QUILL_RSA_D:
        a = key->d, n = key->nl;
        break;
    case QUILL_RSA_P:
        a = key->p, n = key->pl;
        break;
    case QUILL_RSA_Q:
        a = key->q, n = key->ql;
        break;
    case QUILL_RSA_DP:
        a = key->dp, n = key->pl;
        break;
    case QUILL_RSA_DQ:
        a = key->dq, n = key->ql;
        break;
    case QUILL_RSA_QINV:
        a = key->qinv, n = key->pl;
        break;
    default:
        return QUILL_ERR_INVALID_ARGUMENT;
    }
    if (a == NULL)
        return QUILL_ERR_INVALID_ARGUMENT;
    /* The length of the minimal encoding is what the caller asks for: it is
     * released even for a secret field (computed without a branch, then
     * declassified). */
    size_t bits = secret ? quill_bn_num_bits_consttime(a, n) : quill_bn_num_bits_public(a, n);
    QUILL_CT_DECLASSIFY(&bits, sizeof(bits));
    size_t len = bits == 0 ? 1 : (bits + 7) / 8;
    *out_len = len;
    if (out == NULL)
        return QUILL_OK;
    if (cap < len)
        return QUILL_ERR_BUFFER_TOO_SMALL;
    /* The verdict ("fits") follows from the declassified bit length; it is
     * computed from the secret bytes above len, so release it explicitly. */
    int fits = quill_bn_to_bytes_be(out, len, a, n);
    QUILL_CT_DECLASSIFY(&fits, sizeof(fits));
    if (!fits)
        return QUILL_ERR_INTERNAL;
    return QUILL_OK;
}

int quill_rsa_key_public_equal(const quill_rsa_key *a, const quill_rsa_key *b) {
    if (a == NULL || b == NULL || a->nl != b->nl || a->el != b->el)
        return 0;
    return memcmp(a->n, b->n, a->nl * sizeof(quill_limb)) == 0 &&
           memcmp(a->e, b->e, a->el * sizeof(quill_limb)) == 0;
}
