/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors. */
#define _POSIX_C_SOURCE 200809L
#include "test_util.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <openssl/crypto.h>
#include <openssl/err.h>

unsigned long qt_failed, qt_checked;

int qt_finish(const char *suite) {
    printf("%s: %lu checks\n", suite, qt_checked);
    printf("%lu passed, %lu failed\n", qt_checked - qt_failed, qt_failed);
    return qt_failed == 0 ? 0 : 1;
}

double qt_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

const char *qt_vectors_dir(void) {
    const char *d = getenv("QUILL_VECTORS_DIR");
    return (d != NULL && *d != '\0') ? d : QUILL_DEFAULT_VECTORS_DIR;
}

char *qt_vector_path(const char *name) {
    const char *dir = qt_vectors_dir();
    size_t len = strlen(dir) + strlen(name) + 2;
    char *path = malloc(len);
    if (path == NULL)
        return NULL;
    snprintf(path, len, "%s/%s", dir, name);
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        fprintf(stderr, "vector file absent: %s\n", path);
        free(path);
        return NULL;
    }
    fclose(f);
    return path;
}

char *qt_read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    char *buf = NULL;
    size_t cap = 0, n = 0;
    for (;;) {
        if (n + 65536 + 1 > cap) {
            cap = (n + 65536 + 1) * 2;
            char *nb = realloc(buf, cap);
            if (nb == NULL) {
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = nb;
        }
        size_t got = fread(buf + n, 1, 65536, f);
        n += got;
        if (got == 0)
            break;
    }
    fclose(f);
    buf[n] = '\0';
    if (len != NULL)
        *len = n;
    return buf;
}

static int hexval(char c) {
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

int qt_hex_decode(const char *hex, uint8_t **out, size_t *out_len) {
    size_t len = strlen(hex);
    if (len % 2 != 0)
        return 0;
    uint8_t *buf = malloc(len / 2 + 1);
    if (buf == NULL)
        return 0;
    for (size_t i = 0; i < len / 2; i++) {
        int hi = hexval(hex[2 * i]), lo = hexval(hex[2 * i + 1]);
        if (hi < 0 || lo < 0) {
            free(buf);
            return 0;
        }
        buf[i] = (uint8_t)(hi << 4 | lo);
    }
    *out = buf;
    *out_len = len / 2;
    return 1;
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

void qt_rng_seed(uint64_t seed) {
    rng_state = seed;
}

uint64_t qt_rng_u64(void) {
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

void qt_rng_bytes(void *out, size_t len) {
    uint8_t *p = out;
    while (len > 0) {
        uint64_t r = qt_rng_u64();
        size_t take = len < 8 ? len : 8;
        memcpy(p, &r, take);
        p += take;
        len -= take;
    }
}

OSSL_LIB_CTX *qt_libctx_new(OSSL_PROVIDER **def, OSSL_PROVIDER **quill) {
    OSSL_LIB_CTX *ctx = OSSL_LIB_CTX_new();
    if (ctx == NULL)
        return NULL;
    const char *modules = getenv("OPENSSL_MODULES");
    if (modules != NULL && *modules != '\0')
        OSSL_PROVIDER_set_default_search_path(ctx, modules);
    *def = OSSL_PROVIDER_load(ctx, "default");
    *quill = OSSL_PROVIDER_load(ctx, "quill");
    if (*def == NULL || *quill == NULL) {
        ERR_print_errors_fp(stderr);
        qt_libctx_free(ctx, *def, *quill);
        *def = *quill = NULL;
        return NULL;
    }
    return ctx;
}

void qt_libctx_free(OSSL_LIB_CTX *ctx, OSSL_PROVIDER *def, OSSL_PROVIDER *quill) {
    if (quill != NULL)
        OSSL_PROVIDER_unload(quill);
    if (def != NULL)
        OSSL_PROVIDER_unload(def);
    OSSL_LIB_CTX_free(ctx);
}

int qt_core_at_least(unsigned major, unsigned minor) {
    /* 0xMNN00PPSL: major in the top nibble, minor in the next byte. */
    unsigned long v = OpenSSL_version_num();
    unsigned long want = ((unsigned long)major << 28) | ((unsigned long)minor << 20);
    return v >= want;
}
