/* Copyright quill authors. */
#include "ec_digest.h"

#include <openssl/err.h>

#include "prov_err.h"
#include "prov_props.h"

static const struct {
    quill_ec_md id;
    const char *name;
    size_t size;
} md_table[] = {
    {QUILL_EC_MD_SHA1, "SHA1", 20},          {QUILL_EC_MD_SHA224, "SHA224", 28},
    {QUILL_EC_MD_SHA256, "SHA256", 32},      {QUILL_EC_MD_SHA384, "SHA384", 48},
    {QUILL_EC_MD_SHA512, "SHA512", 64},      {QUILL_EC_MD_SHA512_224, "SHA512-224", 28},
    {QUILL_EC_MD_SHA512_256, "SHA512-256", 32}, {QUILL_EC_MD_SHA3_224, "SHA3-224", 28},
    {QUILL_EC_MD_SHA3_256, "SHA3-256", 32},  {QUILL_EC_MD_SHA3_384, "SHA3-384", 48},
    {QUILL_EC_MD_SHA3_512, "SHA3-512", 64},
};

const char *quill_prov_ec_md_name(quill_ec_md md) {
    for (size_t i = 0; i < sizeof(md_table) / sizeof(md_table[0]); i++)
        if (md_table[i].id == md)
            return md_table[i].name;
    return NULL;
}

/* The quill_hash callback: H(in[0] || ... || in[count-1]). */
static int hash_digest(const quill_hash *h, uint8_t *out, const uint8_t *const in[],
                       const size_t in_len[], size_t count) {
    EVP_MD_CTX *mctx = EVP_MD_CTX_new();
    int ok = mctx != NULL && EVP_DigestInit_ex2(mctx, (const EVP_MD *)h->arg, NULL);
    for (size_t i = 0; ok && i < count; i++)
        ok = EVP_DigestUpdate(mctx, in[i], in_len[i]);
    unsigned int len = 0;
    ok = ok && EVP_DigestFinal_ex(mctx, out, &len) && len == h->size;
    EVP_MD_CTX_free(mctx);
    return ok;
}

static void digest_set(quill_prov_ec_digest *d, EVP_MD *md, quill_ec_md id) {
    d->md = md;
    d->id = id;
    d->hash.size = md != NULL ? (size_t)EVP_MD_get_size(md) : 0;
    d->hash.digest = md != NULL ? hash_digest : NULL;
    d->hash.arg = md;
    d->hash.block_size = md != NULL ? (size_t)EVP_MD_get_block_size(md) : 0;
}

int quill_prov_ec_digest_fetch(quill_prov_ec_digest *d, const quill_provctx *ctx,
                               const char *name, const char *props, int fallback_props) {
    if (name == NULL || *name == '\0') {
        QUILL_RAISE(ctx, QUILL_R_UNKNOWN_DIGEST);
        return 0;
    }
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
    quill_ec_md id = QUILL_EC_MD_NONE;
    size_t want = 0;
    /* EVP_MD_is_a matches every alias ("SHA2-256", "SHA256", the OID...). */
    for (size_t i = 0; i < sizeof(md_table) / sizeof(md_table[0]); i++) {
        if (EVP_MD_is_a(md, md_table[i].name)) {
            id = md_table[i].id;
            want = md_table[i].size;
            break;
        }
    }
    if (id == QUILL_EC_MD_NONE || (size_t)EVP_MD_get_size(md) != want ||
        EVP_MD_get_block_size(md) <= 0) {
        EVP_MD_free(md);
        QUILL_RAISE_MSG(ctx, QUILL_R_UNSUPPORTED_DIGEST, "digest %s", name);
        return 0;
    }
    quill_prov_ec_digest_clear(d);
    digest_set(d, md, id);
    return 1;
}

int quill_prov_ec_digest_copy(quill_prov_ec_digest *dst, const quill_prov_ec_digest *src) {
    if (src->md != NULL && !EVP_MD_up_ref(src->md))
        return 0;
    digest_set(dst, src->md, src->id);
    return 1;
}

void quill_prov_ec_digest_clear(quill_prov_ec_digest *d) {
    EVP_MD_free(d->md);
    digest_set(d, NULL, QUILL_EC_MD_NONE);
}
