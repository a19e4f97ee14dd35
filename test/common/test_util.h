/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.  Helpers shared by the test suites. */
#ifndef QUILL_TEST_UTIL_H
#define QUILL_TEST_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <openssl/crypto.h>
#include <openssl/provider.h>

/* Exit code that CTest reports as "skipped". */
#define QT_SKIP 77

/* Failure counting: QT_CHECK records a failure with its location and goes
 * on; qt_failures() is the count so far. */
extern unsigned long qt_failed, qt_checked;
#define QT_CHECK(cond)                                                          \
    do {                                                                        \
        qt_checked++;                                                           \
        if (!(cond)) {                                                          \
            qt_failed++;                                                        \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
        }                                                                       \
    } while (0)

/* Number of elements of an array. */
#define QT_ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* Monotonic time in seconds, for timings the suites print. */
double qt_now(void);

/* Prints "<suite>: N passed, M failed" and returns the exit code. */
int qt_finish(const char *suite);

/* The vectors directory: $QUILL_VECTORS_DIR, else the build's default.
 * qt_vector_path returns a malloc'ed path of a file inside it, or NULL (and a
 * message) if the file is absent. */
const char *qt_vectors_dir(void);
char *qt_vector_path(const char *name);

/* Reads a whole file; returns malloc'ed bytes with a NUL appended, or NULL. */
char *qt_read_file(const char *path, size_t *len);

/* Decodes lowercase or uppercase hex; returns 1 on success (malloc'ed *out,
 * at least one byte allocated even for an empty string). */
int qt_hex_decode(const char *hex, uint8_t **out, size_t *out_len);

/* Deterministic PRNG (splitmix64) for reproducible random cases. */
void qt_rng_seed(uint64_t seed);
uint64_t qt_rng_u64(void);
void qt_rng_bytes(void *out, size_t len);

/* A fresh library context with the default provider and quill loaded (from
 * $OPENSSL_MODULES).  Returns NULL on failure, with the OpenSSL errors
 * printed.  qt_libctx_free unloads both and frees the context. */
OSSL_LIB_CTX *qt_libctx_new(OSSL_PROVIDER **def, OSSL_PROVIDER **quill);
void qt_libctx_free(OSSL_LIB_CTX *ctx, OSSL_PROVIDER *def, OSSL_PROVIDER *quill);

/* 1 if the libcrypto loaded at run time (OpenSSL_version_num(), not the
 * headers built against) is OpenSSL major.minor or later: where a later
 * core's default provider or EVP legitimately differs from 3.0's, a test
 * expects what the core it runs on does. */
int qt_core_at_least(unsigned major, unsigned minor);

#endif
