/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Helpers of the differential verification harnesses (fuzz_sigcmp.h). */
#define _POSIX_C_SOURCE 200809L /* unsetenv */
#include "fuzz_sigcmp.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/core.h>
#include <openssl/err.h>
#include <openssl/params.h>

#include "info_params.h"

OSSL_LIB_CTX *fz_libctx;
OSSL_PROVIDER *fz_prov_quill, *fz_prov_default;
fz_tally fz_stats;
static const char *fz_name = "fuzz";

static void fz_report(void) {
    fprintf(stderr,
            "%s: %lu inputs; quill served %lu (accepted %lu, set-up refused %lu); default "
            "served %lu (accepted %lu, set-up refused %lu); both accepted %lu; unmutated "
            "genuine signatures %lu; known divergences skipped %lu; keys quill declined %lu\n",
            fz_name, fz_stats.inputs, fz_stats.served[0], fz_stats.accepted[0],
            fz_stats.setup_failed[0], fz_stats.served[1], fz_stats.accepted[1],
            fz_stats.setup_failed[1], fz_stats.both_accept, fz_stats.genuine,
            fz_stats.known_divergence, fz_stats.quill_declined_keys);
}

void fz_init(const char *harness) {
    fz_name = harness;
    /* quill's counters must be this process's own (fz_counter): a
     * statistics directory would share them with every process using it,
     * e.g. libFuzzer's -jobs workers. */
    unsetenv("QUILL_STATS");
    fz_libctx = OSSL_LIB_CTX_new();
    if (fz_libctx == NULL)
        abort();
    const char *modules = getenv("OPENSSL_MODULES");
    if (modules != NULL && *modules != '\0')
        OSSL_PROVIDER_set_default_search_path(fz_libctx, modules);
    fz_prov_default = OSSL_PROVIDER_load(fz_libctx, "default");
    fz_prov_quill = OSSL_PROVIDER_load(fz_libctx, "quill");
    if (fz_prov_default == NULL || fz_prov_quill == NULL) {
        fprintf(stderr, "%s: cannot load the default provider and quill (OPENSSL_MODULES=%s)\n",
                harness, modules != NULL ? modules : "(unset)");
        ERR_print_errors_fp(stderr);
        abort();
    }
    atexit(fz_report);
}

void fz_fail(const char *fmt, ...) {
    va_list ap;
    fprintf(stderr, "%s: DISAGREEMENT: ", fz_name);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    ERR_print_errors_fp(stderr);
    abort();
}

uint64_t fz_counter(const char *name) {
    char buf[QUILL_PARAM_COUNTERS_MAX];
    OSSL_PARAM p[2] = {OSSL_PARAM_utf8_string(QUILL_PARAM_COUNTERS, buf, sizeof(buf)),
                       OSSL_PARAM_END};
    if (!OSSL_PROVIDER_get_params(fz_prov_quill, p) || !OSSL_PARAM_modified(p))
        fz_fail("cannot read quill's counters");
    size_t len = strlen(name);
    for (const char *s = buf; (s = strstr(s, name)) != NULL; s += len)
        if ((s == buf || s[-1] == ' ') && s[len] == '=')
            return strtoull(s + len + 1, NULL, 10);
    fz_fail("no counter %s in \"%s\"", name, buf);
}

void fz_check_served(const EVP_PKEY_CTX *pctx, const OSSL_PROVIDER *want, const char *what) {
    const OSSL_PROVIDER *p = EVP_PKEY_CTX_get0_provider(pctx);
    if (p != want)
        fz_fail("%s was served by %s, not %s", what, p ? OSSL_PROVIDER_get0_name(p) : "(none)",
                OSSL_PROVIDER_get0_name(want));
}

void fz_record(const int res[2], const char *counter, uint64_t before, uint64_t after) {
    fz_stats.inputs++;
    for (int side = 0; side < 2; side++) {
        fz_stats.served[side] += res[side] >= 0;
        fz_stats.accepted[side] += res[side] == 1;
        fz_stats.setup_failed[side] += res[side] == -1;
    }
    if (after - before != (uint64_t)(res[0] == 1))
        fz_fail("quill's %s counter moved by %llu, quill's verdict %d", counter,
                (unsigned long long)(after - before), res[0]);
}

uint8_t fz_u8(fz_in *in) {
    if (in->n == 0)
        return 0;
    in->n--;
    return *in->p++;
}

size_t fz_u16(fz_in *in) {
    size_t hi = fz_u8(in);
    return (hi << 8) | fz_u8(in);
}

const uint8_t *fz_take(fz_in *in, size_t want, size_t *got) {
    const uint8_t *p = in->p;
    *got = want < in->n ? want : in->n;
    in->p += *got;
    in->n -= *got;
    return p;
}

unsigned fz_mutate(uint8_t *buf, size_t *len, size_t cap, fz_in *in) {
    unsigned changes = 0;
    while (in->n >= 3) {
        size_t off = fz_u16(in);
        uint8_t x = fz_u8(in);
        if (*len > 0 && x != 0) {
            buf[off % *len] ^= x;
            changes++;
        }
    }
    if (in->n > 0) {
        uint8_t t = fz_u8(in);
        size_t k = (size_t)(t & 0x3f) + 1;
        int front = (t & 0x40) != 0;
        if (t & 0x80) {
            k = k < *len ? k : *len;
            if (front)
                memmove(buf, buf + k, *len - k);
            *len -= k;
        } else {
            k = *len + k <= cap ? k : cap - *len;
            if (front) {
                memmove(buf + k, buf, *len);
                memset(buf, 0, k);
            } else {
                memset(buf + *len, 0, k);
            }
            *len += k;
        }
        changes += k > 0;
    }
    return changes;
}

size_t fz_tbs(const char *md_name, const uint8_t *msg, size_t msg_len, uint8_t *tbs) {
    if (md_name == NULL) {
        memcpy(tbs, msg, msg_len);
        return msg_len;
    }
    unsigned len = 0;
    EVP_MD *md = EVP_MD_fetch(fz_libctx, md_name, FZ_DEFAULT);
    if (md == NULL || !EVP_Digest(msg, msg_len, tbs, &len, md, NULL))
        len = 0;
    EVP_MD_free(md);
    return len;
}

size_t fz_chunk(unsigned *state, size_t remaining) {
    *state = *state * 1103515245u + 12345u;
    unsigned r = (*state >> 16) & 0x7fff;
    /* mostly small chunks, sometimes large ones */
    size_t c = (r & 0x100) ? (size_t)(r % 200) + 1 : (size_t)(r % 7) + 1;
    return c < remaining ? c : remaining;
}

int fz_digest_verify(EVP_MD_CTX *m, int streaming, unsigned chunk_seed, const uint8_t *sig,
                     size_t sig_len, const uint8_t *msg, size_t msg_len) {
    if (!streaming)
        return EVP_DigestVerify(m, sig, sig_len, msg, msg_len) == 1;
    size_t off = 0;
    int ok = 1;
    while (ok && off < msg_len) {
        size_t c = fz_chunk(&chunk_seed, msg_len - off);
        ok = EVP_DigestVerifyUpdate(m, msg + off, c) > 0;
        off += c;
    }
    return ok && EVP_DigestVerifyFinal(m, sig, sig_len) == 1;
}
