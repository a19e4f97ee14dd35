/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * bn_trace_a64 KERNEL N: calls one aarch64 bignum kernel once on random
 * operands of N limbs between two marker functions, so that
 * tools/mca/qemu_trace_mca.py can cut the executed instructions of exactly
 * that call out of a `qemu-aarch64 -d in_asm,exec,nochain` log and feed
 * them to llvm-mca (tools/mca/bn_aarch64.sh).  Not a test.
 *   quill_mul, quill_sqr   quill_mont_mul_arm64 / quill_mont_sqr_arm64 (the
 *                          dedicated squaring)
 *   quill_mulsq            quill_mont_mul_arm64 with b = a
 *   c_mul, c_sqr           the portable twins (quill_mont_kernels_c)
 *   quill_add, quill_sub   quill_bn_add_arm64 / quill_bn_sub_arm64
 *   c_add, c_sub           quill_bn_add_c / quill_bn_sub_c
 *   ossl_mul, ossl_sqr     OpenSSL's BN_mod_mul_montgomery (a != b, a = b);
 *                          its bn_mul_mont is cut out by address range
 * Prints "begin=<addr> end=<addr> lib=<libcrypto load address>" on stdout;
 * between the markers main runs only a switch and the call (its few
 * instructions and the calls themselves are left out by qemu_trace_mca.py,
 * which keeps the instructions from the callee's entry on and drops BL). */
#define _GNU_SOURCE /* dladdr */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/bn.h>

#include "bn/internal.h"
#include "bn/mont_arm64.h"

static volatile int quill_trace_sink;

/* The markers: distinct bodies so that no pass folds them together. */
__attribute__((noinline)) void quill_trace_begin(void);
__attribute__((noinline)) void quill_trace_end(void);
__attribute__((noinline)) void quill_trace_begin(void) {
    quill_trace_sink = 1;
}
__attribute__((noinline)) void quill_trace_end(void) {
    quill_trace_sink = 2;
}

static quill_limb M[QUILL_BN_MAX_LIMBS], A[QUILL_BN_MAX_LIMBS], B[QUILL_BN_MAX_LIMBS],
    R[QUILL_BN_MAX_LIMBS];

static quill_limb rnd(void) {
    static quill_limb s = 0x9e3779b97f4a7c15u;
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    return s;
}

static quill_limb neg_inv64(quill_limb m0) {
    quill_limb x = m0;
    for (int i = 0; i < 5; i++)
        x *= 2 - m0 * x;
    return (quill_limb)0 - x;
}

static void *fn_addr(void (*f)(void)) {
    void *p;
    memcpy(&p, &f, sizeof(p));
    return p;
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: bn_trace_a64 KERNEL N\n");
        return 2;
    }
    const char *k = argv[1];
    size_t n = (size_t)strtoul(argv[2], NULL, 10);
    if (n < 1 || n > QUILL_BN_MAX_LIMBS) {
        fprintf(stderr, "bn_trace_a64: N out of range\n");
        return 2;
    }
    for (size_t i = 0; i < n; i++) {
        M[i] = rnd();
        A[i] = rnd();
        B[i] = rnd();
    }
    M[0] |= 1;
    M[n - 1] |= (quill_limb)1 << 63;
    A[n - 1] >>= 1;
    B[n - 1] >>= 1;
    quill_limb n0 = neg_inv64(M[0]);
    quill_mont_mul_fn cmul;
    quill_mont_sqr_fn csqr;
    quill_mont_kernels_c(n, &cmul, &csqr);

    Dl_info info;
    if (!dladdr(fn_addr((void (*)(void))BN_mod_mul_montgomery), &info)) {
        fprintf(stderr, "bn_trace_a64: dladdr failed\n");
        return 1;
    }
    BN_CTX *ctx = BN_CTX_new();
    BN_MONT_CTX *mont = BN_MONT_CTX_new();
    BIGNUM *bm = BN_lebin2bn((const unsigned char *)M, (int)(8 * n), NULL);
    BIGNUM *ba = BN_lebin2bn((const unsigned char *)A, (int)(8 * n), NULL);
    BIGNUM *bb = BN_lebin2bn((const unsigned char *)B, (int)(8 * n), NULL);
    BIGNUM *br = BN_new();
    if (ctx == NULL || mont == NULL || bm == NULL || ba == NULL || bb == NULL || br == NULL ||
        !BN_MONT_CTX_set(mont, bm, ctx))
        return 1;
    printf("begin=%p end=%p lib=%p\n", fn_addr(quill_trace_begin), fn_addr(quill_trace_end),
           info.dli_fbase);
    fflush(stdout);

    static const char *const names[] = {"quill_mul", "quill_sqr", "c_mul",   "c_sqr",
                                        "quill_add", "quill_sub", "c_add",   "c_sub",
                                        "ossl_mul",  "ossl_sqr", "quill_mulsq"};
    int kind = -1;
    for (int i = 0; i < (int)(sizeof(names) / sizeof(names[0])); i++)
        if (strcmp(k, names[i]) == 0)
            kind = i;
    if (kind < 0) {
        fprintf(stderr, "bn_trace_a64: unknown kernel %s\n", k);
        return 2;
    }
    /* twice: the first call resolves lazy bindings; the second is traced */
    for (int rep = 0; rep < 2; rep++) {
        if (rep == 1)
            quill_trace_begin();
        switch (kind) {
        case 0:
            quill_mont_mul_arm64(R, A, B, M, n0, n);
            break;
        case 1:
            quill_mont_sqr_arm64(R, A, M, n0, n);
            break;
        case 2:
            cmul(R, A, B, M, n0, n);
            break;
        case 3:
            csqr(R, A, M, n0, n);
            break;
        case 4:
            (void)quill_bn_add_arm64(R, A, B, n);
            break;
        case 5:
            (void)quill_bn_sub_arm64(R, A, B, n);
            break;
        case 6:
            (void)quill_bn_add_c(R, A, B, n);
            break;
        case 7:
            (void)quill_bn_sub_c(R, A, B, n);
            break;
        case 8:
            BN_mod_mul_montgomery(br, ba, bb, mont, ctx);
            break;
        case 9:
            BN_mod_mul_montgomery(br, ba, ba, mont, ctx);
            break;
        default:
            quill_mont_mul_arm64(R, A, A, M, n0, n);
            break;
        }
        if (rep == 1)
            quill_trace_end();
    }
    BN_free(br);
    BN_free(bb);
    BN_free(ba);
    BN_free(bm);
    BN_MONT_CTX_free(mont);
    BN_CTX_free(ctx);
    return 0;
}
