/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors. */
#include "digest.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <openssl/crypto.h>
#include <openssl/err.h>

#include "core_version.h"
#include "prov_err.h"

/* Bit of quill_prov_scheme |s| in a row's scheme mask. */
#define SCHEME_BIT(s) (1u << (s))
#define ALL_SCHEMES (SCHEME_BIT(QUILL_PROV_SCHEME_ANY) | SCHEME_BIT(QUILL_PROV_SCHEME_RSA))
#define RSA_ONLY SCHEME_BIT(QUILL_PROV_SCHEME_RSA)

static const struct {
    quill_md id;
    const char *name; /* the name reported back to OpenSSL */
    unsigned schemes; /* SCHEME_BIT()s of the schemes that accept it */
} md_table[] = {
    {QUILL_MD_SHA1, "SHA1", ALL_SCHEMES},
    {QUILL_MD_SHA224, "SHA224", ALL_SCHEMES},
    {QUILL_MD_SHA256, "SHA256", ALL_SCHEMES},
    {QUILL_MD_SHA384, "SHA384", ALL_SCHEMES},
    {QUILL_MD_SHA512, "SHA512", ALL_SCHEMES},
    {QUILL_MD_SHA512_224, "SHA512-224", ALL_SCHEMES},
    {QUILL_MD_SHA512_256, "SHA512-256", ALL_SCHEMES},
    {QUILL_MD_SHA3_224, "SHA3-224", ALL_SCHEMES},
    {QUILL_MD_SHA3_256, "SHA3-256", ALL_SCHEMES},
    {QUILL_MD_SHA3_384, "SHA3-384", ALL_SCHEMES},
    {QUILL_MD_SHA3_512, "SHA3-512", ALL_SCHEMES},
    /* OpenSSL 3.0's default provider signs RSA with these too. */
    {QUILL_MD_MD5, "MD5", RSA_ONLY},
    {QUILL_MD_MD4, "MD4", RSA_ONLY},
    {QUILL_MD_RIPEMD160, "RIPEMD160", RSA_ONLY},
    {QUILL_MD_MD5_SHA1, "MD5-SHA1", RSA_ONLY},
    /* Known, but refused by every scheme, as OpenSSL 3.0's default
     * provider refuses it for RSA ("digest not allowed"); from 3.4 on the
     * default provider signs RSA with it, and so does quill on such a core
     * (md_accepted). */
    {QUILL_MD_SM3, "SM3", 0},
};

/* The scheme mask of |md|'s row (0 for unknown digests). */
static unsigned md_schemes(quill_md md) {
    for (size_t i = 0; i < sizeof(md_table) / sizeof(md_table[0]); i++)
        if (md_table[i].id == md)
            return md_table[i].schemes;
    return 0;
}

/* Whether |scheme| takes |md| on the core |ctx| runs in: its table row,
 * plus SM3 for RSA on a 3.4+ core. */
static int md_accepted(const quill_provctx *ctx, quill_md md, quill_prov_scheme scheme) {
    if (md == QUILL_MD_SM3 && scheme == QUILL_PROV_SCHEME_RSA)
        return ctx->core_version >= QUILL_CORE_VERSION(3, 4, 0);
    return (md_schemes(md) & SCHEME_BIT(scheme)) != 0;
}

const char *quill_prov_md_name(quill_md md) {
    for (size_t i = 0; i < sizeof(md_table) / sizeof(md_table[0]); i++)
        if (md_table[i].id == md)
            return md_table[i].name;
    return NULL;
}

quill_md quill_prov_md_from_evp(const EVP_MD *md) {
    /* EVP_MD_is_a matches every alias ("SHA2-256", "SHA256", the OID...). */
    for (size_t i = 0; i < sizeof(md_table) / sizeof(md_table[0]); i++)
        if (EVP_MD_is_a(md, md_table[i].name))
            return md_table[i].id;
    return QUILL_MD_NONE;
}

/* The row whose name is |name| (ASCII case ignored, as OpenSSL's name
 * lookups do), or QUILL_MD_NONE.  A digest fetched by one of the table's
 * names is that row's algorithm: this spares the EVP_MD_is_a scan of
 * quill_prov_md_from_evp (a name-map lookup per row tried) on every
 * signature initialisation, where OpenSSL passes the canonical names
 * ("SHA256"); aliases and OIDs still go through the scan. */
static quill_md md_by_table_name(const char *name) {
    for (size_t i = 0; i < sizeof(md_table) / sizeof(md_table[0]); i++)
        if (OPENSSL_strcasecmp(name, md_table[i].name) == 0)
            return md_table[i].id;
    return QUILL_MD_NONE;
}

/* The quill_hash callback: H(in[0] || ... || in[count-1]), on the digest's
 * own EVP_MD_CTX (created on first use, re-initialised by every call).  h
 * is always the hash member of a quill_prov_digest (digest.h), which is not
 * const: the core only passes the pointer through. */
static int hash_digest(const quill_hash *h, uint8_t *out, const uint8_t *const in[],
                       const size_t in_len[], size_t count) {
    quill_prov_digest *d =
        (quill_prov_digest *)(void *)((char *)(uintptr_t)h - offsetof(quill_prov_digest, hash));
    if (d->mctx == NULL && (d->mctx = EVP_MD_CTX_new()) == NULL)
        return 0;
    int ok = EVP_DigestInit_ex2(d->mctx, (const EVP_MD *)h->arg, NULL);
    for (size_t i = 0; ok && i < count; i++)
        ok = EVP_DigestUpdate(d->mctx, in[i], in_len[i]);
    unsigned int len = 0;
    ok = ok && EVP_DigestFinal_ex(d->mctx, out, &len) && len == h->size;
    return ok;
}

static void digest_set(quill_prov_digest *d, EVP_MD *md, quill_md id) {
    d->md = md;
    d->mctx = NULL;
    d->id = id;
    d->hash.size = md != NULL ? (size_t)EVP_MD_get_size(md) : 0;
    d->hash.digest = md != NULL ? hash_digest : NULL;
    d->hash.arg = md;
    d->hash.block_size = md != NULL ? (size_t)EVP_MD_get_block_size(md) : 0;
    d->hash.is_sha256 = md != NULL && id == QUILL_MD_SHA256;
}

int quill_prov_props_require_quill(const char *props) {
    static const char want[] = "provider=quill";
    while (props != NULL && *props != '\0') {
        const char *end = strchr(props, ',');
        size_t len = end != NULL ? (size_t)(end - props) : strlen(props);
        char clause[64];
        size_t n = 0;
        for (size_t i = 0; i < len && n + 1 < sizeof(clause); i++)
            if (props[i] != ' ' && props[i] != '\t')
                clause[n++] = props[i];
        clause[n] = '\0';
        if (OPENSSL_strcasecmp(clause, want) == 0)
            return 1;
        props = end != NULL ? end + 1 : NULL;
    }
    return 0;
}

int quill_prov_digest_fetch(quill_prov_digest *d, const quill_provctx *ctx, const char *name,
                            const char *props, int fallback_props) {
    return quill_prov_digest_fetch_for(d, ctx, name, props, fallback_props,
                                       QUILL_PROV_SCHEME_ANY);
}

int quill_prov_digest_fetch_for(quill_prov_digest *d, const quill_provctx *ctx, const char *name,
                                const char *props, int fallback_props, quill_prov_scheme scheme) {
    if (name == NULL || *name == '\0') {
        QUILL_RAISE(ctx, QUILL_R_UNKNOWN_DIGEST);
        return 0;
    }
    /* Skip a query bound to fail (it costs a full, uncached method search
     * on every signature initialisation). */
    if (fallback_props && quill_prov_props_require_quill(props))
        props = NULL;
    ERR_set_mark();
    EVP_MD *md = EVP_MD_fetch(ctx->libctx, name, props);
    if (md == NULL && fallback_props && props != NULL)
        md = EVP_MD_fetch(ctx->libctx, name, NULL);
    if (md == NULL) {
        ERR_clear_last_mark();
        QUILL_RAISE_MSG(ctx, QUILL_R_UNKNOWN_DIGEST, "digest %s", name);
        return 0;
    }
    ERR_pop_to_mark();
    quill_md id = md_by_table_name(name);
    if (id == QUILL_MD_NONE)
        id = quill_prov_md_from_evp(md);
    if (id == QUILL_MD_NONE || !md_accepted(ctx, id, scheme) ||
        (size_t)EVP_MD_get_size(md) != quill_md_size(id)) {
        EVP_MD_free(md);
        QUILL_RAISE_MSG(ctx, QUILL_R_UNSUPPORTED_DIGEST, "digest %s", name);
        return 0;
    }
    quill_prov_digest_clear(d);
    digest_set(d, md, id);
    return 1;
}

int quill_prov_digest_copy(quill_prov_digest *dst, const quill_prov_digest *src) {
    if (src->md != NULL && !EVP_MD_up_ref(src->md))
        return 0;
    digest_set(dst, src->md, src->id);
    return 1;
}

void quill_prov_digest_clear(quill_prov_digest *d) {
    /* Only a digest that holds md owns mctx (see digest.h). */
    if (d->md != NULL)
        EVP_MD_CTX_free(d->mctx);
    EVP_MD_free(d->md);
    digest_set(d, NULL, QUILL_MD_NONE);
}
