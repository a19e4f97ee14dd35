/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * ct_trace: constant-time check of the AVX-512 backends, which valgrind's
 * memcheck cannot run (valgrind 3.19 has no AVX-512 and hides it from
 * CPUID, so test/ct never reaches this code; see test/ct.cmake).
 *
 * A child process runs each kernel on four sets of secret inputs (moduli,
 * bases, exponents; polynomials; Keccak states): two random, then the
 * largest and the smallest values its contract allows, each call between
 * a breakpoint (INT3) and an empty marker function.  The parent
 * single-steps it from the one to the other with ptrace and, for every
 * instruction executed inside this executable's text (which holds quill's
 * statically linked core), hashes its address and, where it has a memory
 * operand addressed by registers, the address it accesses (read off
 * `objdump -d` of this executable: disp(base, index, scale) evaluated on
 * the registers at that step; LEA and NOPs are not accesses).  Calls into
 * the C library (memset, the allocator) are run over at full speed and left
 * out (a leak inside them would go unseen: they get public sizes only); an
 * address inside a heap block, allocated during the call or by the setup
 * before it, is hashed as (block number, offset), where the allocator puts
 * a block being no secret.
 * Every input set of a kernel must give the same instructions and the same
 * accesses: a branch on a secret, a loop whose trip count depends on one,
 * or a memory index derived from one changes the trace.  This is a check on
 * a few random inputs, not memcheck's taint tracking: it finds what those
 * inputs exercise.
 *
 * Covered: the two-way IFMA exponentiation of the RSA CRT halves at 512 and
 * 1024 bits (RSA-1024 and RSA-2048) with a one-limb exponent, so a 3-bit
 * window (its driver, window table, gathers, conversions and kernels; the
 * 1536- and 2048-bit instances of the gather are not traced), RSA-2048's
 * product with the next window's 32-entry lookup spread over it
 * (quill_mont_amm_gather_x2_ifma_for_testing: index e mod 32), its squaring
 * and almost-Montgomery product at every supported
 * size, the AVX-512VL NTT, inverse NTT, pointwise and dot products (one
 * row and two) of ML-DSA, the AVX-512VL build of signing's fused rows
 * (sign_row.h: the challenge products, the checks and the hints of a row,
 * both the rows with z and those without), and the AVX-512VL Keccak
 * permutations (C and assembly), and the ECDSA nonce's HMAC-DRBG on the
 * core SHA-256 with the SHA extensions (hmac_drbg.h: init on three secret
 * 32-byte seeds, two outputs with a reseed between; traced where the CPU
 * has them, which valgrind hides, so memcheck never runs that path).
 * Two negative controls, a
 * loop as long as its secret and a table read at a secret index, must give
 * different traces: they show that the harness sees either leak.
 *
 * Exits 77 (skipped) on a CPU without AVX-512 IFMA, under a QUILL_CPU_MASK
 * that clears it, where ptrace is not permitted or without objdump. */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bn/bn.h"
#include "bn/exp_ifma.h"
#include "bn/internal.h" /* struct quill_mont's alloc_len */
#include "common/cpu.h"
#include "ec/hmac_drbg.h"
#include "ec/sha256.h"
#include "mldsa/ntt.h"
#include "mldsa/ntt16.h"
#include "mldsa/params.h"
#include "mldsa/sign_row.h"
#include "sha3/keccak.h"
#include "test_util.h"

/* Input sets per kernel: two random, then the largest values the kernel's
 * contract allows, then the smallest (zero, or the most negative). */
#define RUNS 4
#define RUN_HIGH 2
#define RUN_LOW 3
#define MAXN 32
#define Q 8380417

extern char __executable_start, etext;

/* ---- The kernels, as the child runs them ---- */

static uint64_t rnd(void) {
    return qt_rng_u64();
}

typedef struct {
    quill_limb m[2][MAXN], a[2][MAXN + 1], e[2][1], r[2][MAXN + 1], s[2][MAXN + 1];
    quill_mont *mont[2];
    int32_t pa[7][QUILL_MLDSA_N], pb[7][QUILL_MLDSA_N], acc[QUILL_MLDSA_N];
    uint64_t keccak[100];
    /* the nonce DRBG: its seeds (private key, digest, extra; secret) */
    uint8_t drbg_seed[3][32], drbg_out[64];
    quill_hmac_drbg drbg;
    /* signing's row: c, the pairs, y, w0, w1 (secret); z, h, workspace */
    quill_mldsa_chal16 chat;
    quill_mldsa_pair16 s_hat, t0_hat;
    quill_mldsa_poly y, w0, w1, z, h, ws[2];
    unsigned run; /* which input set (the controls' secret) */
    /* Heap blocks the call reads that setup allocated (base, size), for
     * the parent's canonical addresses: the Montgomery contexts. */
    uint64_t blocks[2][2];
} inputs;

static inputs child_in; /* the child's; the parent reads its blocks */

/* The negative controls, deliberate leaks: a loop as long as its secret s
 * (acc goes through memory, so it cannot become a closed form), and a
 * table read at a secret index (the same instructions every time). */
__attribute__((noinline)) static void leaky(volatile uint64_t *acc, unsigned s) {
    for (unsigned i = 0; i <= s; i++)
        *acc += i;
}

__attribute__((noinline)) static void leaky_index(volatile uint64_t *acc, const uint64_t *table,
                                                  unsigned s) {
    *acc += table[s];
}

/* Both lanes: a random odd modulus of n limbs with its top bit set, and a
 * base below it (the exponentiation) or below 2m (the squaring hook, n + 1
 * limbs), with a random one-limb exponent; for RUN_HIGH the base m - 1 (or
 * 2m - 1) and the exponent all ones, for RUN_LOW zero and zero. */
static void ifma_setup(inputs *in, size_t n, int below_2m) {
    for (int l = 0; l < 2; l++) {
        quill_limb *m = in->m[l], *a = in->a[l];
        for (size_t i = 0; i < n; i++) {
            m[i] = rnd();
            a[i] = rnd();
        }
        m[0] |= 1;
        m[n - 1] |= (quill_limb)1 << 63;
        a[n] = 0;
        in->e[l][0] = rnd();
        if (in->run == RUN_HIGH) { /* m - 1, or 2m - 1 (m is odd: no borrow) */
            for (size_t i = 0; i < n; i++)
                a[i] = below_2m ? (m[i] << 1) | (i > 0 ? m[i - 1] >> 63 : 0) : m[i];
            a[n] = below_2m ? m[n - 1] >> 63 : 0;
            a[0] -= 1;
            in->e[l][0] = ~(quill_limb)0;
        } else if (in->run == RUN_LOW) {
            memset(a, 0, (n + 1) * sizeof(quill_limb));
            in->e[l][0] = 0;
        } else {
            a[n - 1] %= m[n - 1]; /* a < m */
            if (below_2m && (rnd() & 1)) { /* a + m < 2m */
                quill_limb carry = 0;
                for (size_t i = 0; i < n; i++) {
                    quill_limb t = a[i] + carry;
                    carry = t < carry;
                    a[i] = t + m[i];
                    carry += a[i] < t;
                }
                a[n] = carry;
            }
        }
        in->mont[l] = quill_mont_new(m, n);
        if (in->mont[l] == NULL)
            abort();
        in->blocks[l][0] = (uintptr_t)in->mont[l];
        in->blocks[l][1] = in->mont[l]->alloc_len;
    }
}

/* Freed in the reverse order of their allocation, so that the allocator
 * hands the next set the same blocks: their addresses are part of the
 * trace. */
static void ifma_teardown(inputs *in) {
    quill_mont_free(in->mont[1]);
    quill_mont_free(in->mont[0]);
    memset(in->blocks, 0, sizeof(in->blocks));
}

/* Coefficients in (-bound, bound): random, or all bound - 1 (RUN_HIGH), or
 * all -(bound - 1) (RUN_LOW); lo = 0 makes it [0, bound) (0 for RUN_LOW). */
static void poly_fill(int32_t *p, int32_t bound, unsigned run, int signed_range) {
    for (int i = 0; i < QUILL_MLDSA_N; i++) {
        if (run == RUN_HIGH)
            p[i] = bound - 1;
        else if (run == RUN_LOW)
            p[i] = signed_range ? -(bound - 1) : 0;
        else if (signed_range)
            p[i] = (int32_t)(rnd() % (uint64_t)(2 * bound - 1)) - (bound - 1);
        else
            p[i] = (int32_t)(rnd() % (uint64_t)bound);
    }
}

/* Signing's row for set: a challenge with tau entries +-1 at random
 * positions (RUN_HIGH: all +1 in the first tau; RUN_LOW: all -1 in the
 * last tau), s1, s2 in [-eta, eta] and t0 in (-2^12, 2^12] (the extremes
 * for RUN_HIGH / RUN_LOW), y, w0 and w1 in their ranges; prepared and
 * transformed here, outside the trace. */
static void sign_row_setup(inputs *in, quill_mldsa_set set) {
    const quill_mldsa_params *p = quill_mldsa_params_get(set);
    const int32_t eta = (int32_t)p->eta, m = (QUILL_MLDSA_Q - 1) / (2 * p->gamma2);
    int32_t *c = in->pa[0], *s1 = in->pa[1], *s2 = in->pa[2], *t0 = in->pa[3];
    memset(c, 0, QUILL_MLDSA_N * sizeof(int32_t));
    for (unsigned t = 0; t < p->tau; t++) {
        if (in->run == RUN_HIGH)
            c[t] = 1;
        else if (in->run == RUN_LOW)
            c[QUILL_MLDSA_N - 1 - t] = -1;
        else
            c[rnd() % QUILL_MLDSA_N] = (rnd() & 1) ? 1 : -1;
    }
    poly_fill(s1, eta + 1, in->run, 1);
    poly_fill(s2, eta + 1, in->run, 1);
    poly_fill(t0, 1 << 12, in->run, 1);
    poly_fill(in->y.c, p->gamma1, in->run, 1);
    poly_fill(in->w0.c, p->gamma2, in->run, 1);
    poly_fill(in->w1.c, m, in->run, 0);
    quill_mldsa_mulc16_prepare(&in->chat, c);
    quill_mldsa_pair16_set(&in->s_hat, s1, set == QUILL_MLDSA_44 ? s2 : NULL);
    quill_mldsa_ntt16(&in->s_hat);
    quill_mldsa_pair16_split(&in->t0_hat, t0, QUILL_MLDSA_T0_SPLIT);
    quill_mldsa_ntt16(&in->t0_hat);
}

typedef enum {
    K_EXP8,
    K_EXP16,
    K_AMM_GATHER16,
    K_SQR8,
    K_SQR16,
    K_SQR24,
    K_SQR32,
    K_NTT,
    K_INVNTT,
    K_INVNTT_FREEZE,
    K_POINTWISE,
    K_DOT,
    K_DOT_X2,
    K_SIGN_ROW_Z,
    K_SIGN_ROW,
    K_KECCAK_X4,
    K_KECCAK_X1,
    K_KECCAK_X4_ASM,
    K_KECCAK_X1_ASM,
    K_NONCE_DRBG,
    K_CONTROL,
    K_CONTROL_INDEX,
    K_COUNT
} kernel;

static const char *const kernel_names[K_COUNT] = {
    "IFMA exponentiation, 2 x 512-bit, 64-bit exponents",
    "IFMA exponentiation, 2 x 1024-bit, 64-bit exponents",
    "IFMA product with a 32-entry lookup, 1024-bit",
    "IFMA squaring and product, 512-bit",
    "IFMA squaring and product, 1024-bit",
    "IFMA squaring and product, 1536-bit",
    "IFMA squaring and product, 2048-bit",
    "ML-DSA NTT (AVX-512VL)",
    "ML-DSA inverse NTT (AVX-512VL)",
    "ML-DSA inverse NTT, frozen (AVX-512VL)",
    "ML-DSA pointwise product (AVX-512VL)",
    "ML-DSA dot product of 7 (AVX-512VL)",
    "ML-DSA two dot products of 7 on one b (AVX-512VL)",
    "ML-DSA-44 signing row with z (AVX-512VL)",
    "ML-DSA-65 signing row without z (AVX-512VL)",
    "Keccak-f[1600] four-way (AVX-512VL)",
    "Keccak-f[1600] single (AVX-512VL)",
    "Keccak-f[1600] four-way (AVX-512VL assembly)",
    "Keccak-f[1600] single (AVX-512VL assembly, xmm)",
    "ECDSA nonce HMAC-DRBG (SHA-256 with SHA-NI)",
    "negative control: a loop as long as a secret",
    "negative control: a table read at a secret index",
};

/* The function each kernel's trace must enter (else it traced nothing). */
static uintptr_t kernel_entry(kernel k) {
    switch (k) {
    case K_EXP8:
    case K_EXP16:
        return (uintptr_t)&quill_mont_exp_consttime_x2_ifma;
    case K_AMM_GATHER16:
        return (uintptr_t)&quill_mont_amm_gather_x2_ifma_for_testing;
    case K_SQR8:
    case K_SQR16:
    case K_SQR24:
    case K_SQR32:
        return (uintptr_t)&quill_mont_sqr_x2_ifma_for_testing;
    case K_NTT:
        return (uintptr_t)&quill_mldsa_ntt_avx512vl;
    case K_INVNTT:
        return (uintptr_t)&quill_mldsa_invntt_tomont_avx512vl;
    case K_INVNTT_FREEZE:
        return (uintptr_t)&quill_mldsa_invntt_tomont_freeze_avx512vl;
    case K_POINTWISE:
        return (uintptr_t)&quill_mldsa_pointwise_mont_avx512vl;
    case K_DOT:
        return (uintptr_t)&quill_mldsa_dot_mont_avx512vl;
    case K_DOT_X2:
        return (uintptr_t)&quill_mldsa_dot_mont_x2_avx512vl;
    case K_SIGN_ROW_Z:
    case K_SIGN_ROW:
        return (uintptr_t)&quill_mldsa_sign_row_avx512vl;
    case K_KECCAK_X4:
        return (uintptr_t)&quill_keccak_f1600_x4_avx512vl;
    case K_KECCAK_X1:
        return (uintptr_t)&quill_keccak_f1600_avx512vl;
    case K_KECCAK_X4_ASM:
        return (uintptr_t)&quill_keccak_f1600_x4_avx512vl_asm;
    case K_KECCAK_X1_ASM:
        return (uintptr_t)&quill_keccak_f1600_avx512vl_asm;
    case K_NONCE_DRBG:
#ifdef QUILL_SHA256_HAVE_SHANI
        return (uintptr_t)&quill_sha256_blocks_shani;
#else
        return 0;
#endif
    case K_CONTROL:
        return (uintptr_t)&leaky;
    case K_CONTROL_INDEX:
        return (uintptr_t)&leaky_index;
    case K_COUNT:
        break;
    }
    return 0;
}

/* The nonce DRBG's hash: SHA-256 (is_sha256), so that with the SHA
 * extensions the DRBG runs on the core's SHA-256 and never calls digest;
 * digest fails, so that a DRBG that took the other path fails the run. */
static int no_digest(const quill_hash *h, uint8_t *out, const uint8_t *const in[],
                     const size_t in_len[], size_t count) {
    (void)h, (void)out, (void)in, (void)in_len, (void)count;
    return 0;
}
static const quill_hash nonce_hash = {32, no_digest, NULL, 64, 1};

/* Kernels that need more than ifma_usable(): the nonce DRBG's core path
 * needs the SHA extensions. */
static int kernel_usable(kernel k) {
    return k != K_NONCE_DRBG || quill_sha256_shani_capable();
}

static void setup(inputs *in, kernel k) {
    static const size_t limbs[K_COUNT] = {[K_EXP8] = 8,  [K_EXP16] = 16, [K_AMM_GATHER16] = 16,
                                          [K_SQR8] = 8,  [K_SQR16] = 16, [K_SQR24] = 24,
                                          [K_SQR32] = 32};
    switch (k) {
    case K_EXP8:
    case K_EXP16:
    case K_AMM_GATHER16:
        ifma_setup(in, limbs[k], 0);
        break;
    case K_SQR8:
    case K_SQR16:
    case K_SQR24:
    case K_SQR32:
        ifma_setup(in, limbs[k], 1);
        break;
    case K_NTT:
    case K_INVNTT:
    case K_INVNTT_FREEZE:
        poly_fill(in->pb[0], Q, in->run, 1);
        break;
    case K_POINTWISE:
    case K_DOT:
    case K_DOT_X2:
        for (int j = 0; j < 7; j++) {
            poly_fill(in->pa[j], Q, in->run, 0);     /* A-hat: [0, q) */
            poly_fill(in->pb[j], 9 * Q, in->run, 1); /* NTT outputs: (-9q, 9q) */
        }
        break;
    case K_SIGN_ROW_Z:
    case K_SIGN_ROW:
        sign_row_setup(in, k == K_SIGN_ROW_Z ? QUILL_MLDSA_44 : QUILL_MLDSA_65);
        break;
    case K_KECCAK_X4:
    case K_KECCAK_X1:
    case K_KECCAK_X4_ASM:
    case K_KECCAK_X1_ASM:
        qt_rng_bytes(in->keccak, sizeof(in->keccak));
        if (in->run == RUN_HIGH || in->run == RUN_LOW)
            memset(in->keccak, in->run == RUN_HIGH ? 0xff : 0, sizeof(in->keccak));
        break;
    case K_NONCE_DRBG:
        qt_rng_bytes(in->drbg_seed, sizeof(in->drbg_seed));
        if (in->run == RUN_HIGH || in->run == RUN_LOW)
            memset(in->drbg_seed, in->run == RUN_HIGH ? 0xff : 0, sizeof(in->drbg_seed));
        break;
    case K_CONTROL:
    case K_CONTROL_INDEX:
    case K_COUNT:
        break;
    }
}

/* The traced part: between the breakpoint and trace_end, nothing but the
 * kernel. */
static int run(inputs *in, kernel k) {
    switch (k) {
    case K_EXP8:
    case K_EXP16:
        return quill_mont_exp_consttime_x2_ifma(in->r[0], in->a[0], in->e[0], in->mont[0], in->r[1],
                                                in->a[1], in->e[1], in->mont[1], 1);
    case K_AMM_GATHER16:
        return quill_mont_amm_gather_x2_ifma_for_testing(in->a[0], in->mont[0], in->e[0][0] & 31,
                                                         in->a[1], in->mont[1],
                                                         in->e[1][0] & 31) == 1;
    case K_SQR8:
    case K_SQR16:
    case K_SQR24:
    case K_SQR32:
        return quill_mont_sqr_x2_ifma_for_testing(in->r[0], in->s[0], in->a[0], in->mont[0],
                                                  in->r[1], in->s[1], in->a[1], in->mont[1]);
    case K_NTT:
        quill_mldsa_ntt_avx512vl(in->pb[0]);
        return 1;
    case K_INVNTT:
        quill_mldsa_invntt_tomont_avx512vl(in->pb[0]);
        return 1;
    case K_INVNTT_FREEZE:
        quill_mldsa_invntt_tomont_freeze_avx512vl(in->pb[0]);
        return 1;
    case K_POINTWISE:
        quill_mldsa_pointwise_mont_avx512vl(in->acc, in->pa[0], in->pb[0]);
        return 1;
    case K_DOT:
        quill_mldsa_dot_mont_avx512vl(in->acc, in->pa[0], in->pb[0], 7);
        return 1;
    case K_DOT_X2: /* rows pa[0..6] and pa[0..6] again (the same values: any row) */
        quill_mldsa_dot_mont_x2_avx512vl(in->acc, in->y.c, in->pa[0], in->pa[0], in->pb[0], 7);
        return 1;
    case K_SIGN_ROW_Z:
    case K_SIGN_ROW: {
        const quill_mldsa_params *p =
            quill_mldsa_params_get(k == K_SIGN_ROW_Z ? QUILL_MLDSA_44 : QUILL_MLDSA_65);
        const quill_mldsa_sign_row_in row = {&in->chat, &in->s_hat, &in->t0_hat,
                                             k == K_SIGN_ROW_Z ? &in->y : NULL, &in->w0, &in->w1};
        uint32_t ones = 0;
        quill_word bad = quill_mldsa_sign_row_avx512vl(k == K_SIGN_ROW_Z ? &in->z : NULL, &in->h,
                                                       &row, in->ws, p, &ones);
        in->acc[0] = (int32_t)(bad ^ ones); /* kept, not branched on */
        return 1;
    }
    case K_KECCAK_X4:
        quill_keccak_f1600_x4_avx512vl(in->keccak);
        return 1;
    case K_KECCAK_X1:
        quill_keccak_f1600_avx512vl(in->keccak);
        return 1;
    case K_KECCAK_X4_ASM:
        quill_keccak_f1600_x4_avx512vl_asm(in->keccak);
        return 1;
    case K_KECCAK_X1_ASM:
        quill_keccak_f1600_avx512vl_asm(in->keccak);
        return 1;
    case K_NONCE_DRBG: {
        /* as ECDSA signing runs it (core/ec/ecdsa.c): every status is
         * QUILL_OK whatever the seeds, so the checks are no secret */
        const uint8_t *seed[3] = {in->drbg_seed[0], in->drbg_seed[1], in->drbg_seed[2]};
        const size_t len[3] = {32, 32, 32};
        int ok = quill_hmac_drbg_init(&in->drbg, &nonce_hash, seed, len, 3) == QUILL_OK;
        ok = ok && in->drbg.core_sha256;
        ok = ok && quill_hmac_drbg_generate(&in->drbg, in->drbg_out, 32) == QUILL_OK;
        ok = ok && quill_hmac_drbg_update(&in->drbg, NULL, NULL, 0) == QUILL_OK;
        ok = ok && quill_hmac_drbg_generate(&in->drbg, in->drbg_out + 32, 32) == QUILL_OK;
        quill_hmac_drbg_clear(&in->drbg);
        return ok;
    }
    case K_CONTROL:
        leaky(&in->keccak[0], in->run);
        return 1;
    case K_CONTROL_INDEX:
        leaky_index(&in->keccak[0], &in->keccak[1], in->run);
        return 1;
    case K_COUNT:
        break;
    }
    return 0;
}

static void teardown(inputs *in, kernel k) {
    if (k <= K_SQR32)
        ifma_teardown(in);
}

static int ifma_usable(void) {
    return quill_cpu_has(QUILL_CPU_X86_AVX512VL | QUILL_CPU_X86_AVX512IFMA) &&
           quill_mldsa_avx512vl_capable() && quill_keccak_f1600_x4_avx512vl_capable() &&
           quill_keccak_f1600_avx512vl_capable();
}

/* The end marker: the parent stops tracing when the child reaches it. */
__attribute__((noinline)) static void trace_end(void) {
    __asm__ __volatile__("" ::: "memory");
}

/* The child: each kernel RUNS times between a breakpoint (INT3, the start)
 * and trace_end. */
static void child(void) {
    if (ptrace(PTRACE_TRACEME, 0, NULL, NULL) != 0)
        _exit(77);
    qt_rng_seed(20261204);
    /* Warm-up outside the traces: the CPU probe, lazy binding, first-use
     * paths. */
    for (int k = 0; k < K_COUNT; k++) {
        if (!kernel_usable((kernel)k))
            continue;
        child_in.run = 0;
        setup(&child_in, (kernel)k);
        if (!run(&child_in, (kernel)k))
            _exit(2);
        teardown(&child_in, (kernel)k);
    }
    raise(SIGSTOP); /* the parent is ready */
    for (int k = 0; k < K_COUNT; k++) {
        if (!kernel_usable((kernel)k))
            continue;
        for (int r = 0; r < RUNS; r++) {
            child_in.run = (unsigned)r;
            setup(&child_in, (kernel)k);
            __asm__ __volatile__("int3" ::: "memory");
            int ok = run(&child_in, (kernel)k);
            trace_end();
            if (!ok)
                _exit(2);
            teardown(&child_in, (kernel)k);
        }
    }
    _exit(0);
}

/* ---- The parent: tracing ---- */

#define MAX_ALLOCS 16

typedef struct {
    unsigned long steps;    /* instructions inside the executable */
    unsigned long accesses; /* of them, those with a register-addressed memory operand */
    uint64_t hash;          /* FNV-1a over their addresses */
    uint64_t addr_hash;     /* FNV-1a over the addresses they access */
    /* Heap blocks, those setup made (child_in.blocks) and those allocated
     * during the call: an address inside one is hashed as (its number, the
     * offset), where the allocator puts a block being no secret. */
    struct {
        uint64_t base, size;
    } allocs[MAX_ALLOCS];
    unsigned n_allocs;
    int entered; /* the kernel's entry point was executed */
} trace;

/* An accessed address as it enters the hash. */
static uint64_t canonical_address(const trace *t, uint64_t a) {
    for (unsigned i = 0; i < t->n_allocs; i++)
        if (a - t->allocs[i].base < t->allocs[i].size)
            return ((uint64_t)(i + 1) << 56) ^ (a - t->allocs[i].base);
    return a;
}

#define FNV_INIT 0xcbf29ce484222325u
static uint64_t fnv(uint64_t h, uint64_t v) {
    return (h ^ v) * 0x100000001b3u;
}

/* ---- Memory operands, from the executable's disassembly ---- */

/* A memory operand disp(base, index, scale) of the instruction at text
 * offset off (registers as indexes into user_regs_struct, -1 for none). */
typedef struct {
    uintptr_t off;
    long long disp;
    int base, index, scale;
} mem_operand;

static mem_operand *operands;
static size_t n_operands;

/* The address after each CALL instruction (offsets, sorted): where a call
 * into the C library returns. */
static uintptr_t *returns;
static size_t n_returns, cap_returns;

static int push_return(uintptr_t off) {
    if (n_returns == cap_returns) {
        cap_returns = cap_returns ? 2 * cap_returns : 4096;
        uintptr_t *grown = realloc(returns, cap_returns * sizeof(*returns));
        if (grown == NULL)
            return 0;
        returns = grown;
    }
    returns[n_returns++] = off;
    return 1;
}

static int cmp_offset(const void *a, const void *b) {
    const uintptr_t x = *(const uintptr_t *)a, y = *(const uintptr_t *)b;
    return x < y ? -1 : x > y;
}

static int reg_index(const char *name, size_t len) {
    static const char *const names[] = {"rax", "rbx", "rcx", "rdx", "rsi", "rdi", "rbp", "rsp",
                                        "r8",  "r9",  "r10", "r11", "r12", "r13", "r14", "r15"};
    for (int i = 0; i < (int)QT_ARRAY_LEN(names); i++)
        if (strlen(names[i]) == len && memcmp(names[i], name, len) == 0)
            return i;
    return -2; /* not a 64-bit general register */
}

static uint64_t reg_value(const struct user_regs_struct *r, int i) {
    const unsigned long long v[16] = {r->rax, r->rbx, r->rcx, r->rdx, r->rsi, r->rdi,
                                      r->rbp, r->rsp, r->r8,  r->r9,  r->r10, r->r11,
                                      r->r12, r->r13, r->r14, r->r15};
    return i < 0 ? 0 : (uint64_t)v[i];
}

/* Parses "disp(%base,%index,scale)" in an AT&T operand list; returns 1 with
 * *m filled, 0 if there is no register-addressed memory operand (none, or
 * RIP-relative or absolute: constant addresses), -1 if it cannot be read
 * (a register that is not a 64-bit general one, e.g. a vector index). */
static int parse_operand(const char *ops, mem_operand *m) {
    const char *open = strchr(ops, '(');
    if (open == NULL)
        return 0;
    const char *close = strchr(open, ')');
    if (close == NULL)
        return -1;
    if (strncmp(open, "(%rip)", 6) == 0)
        return 0;
    const char *d = open;
    while (d > ops && d[-1] != ',' && d[-1] != ' ' && d[-1] != ':')
        d--;
    m->disp = d == open ? 0 : strtoll(d, NULL, 0);
    m->base = m->index = -1;
    m->scale = 1;
    const char *p = open + 1;
    for (int field = 0; p < close; field++) {
        const char *end = memchr(p, ',', (size_t)(close - p));
        if (end == NULL)
            end = close;
        if (field < 2 && end > p) {
            if (*p != '%')
                return -1;
            int r = reg_index(p + 1, (size_t)(end - p - 1));
            if (r < 0)
                return -1;
            *(field == 0 ? &m->base : &m->index) = r;
        } else if (field == 2) {
            m->scale = (int)strtol(p, NULL, 10);
        }
        p = end + 1;
    }
    return 1;
}

static int cmp_operand(const void *a, const void *b) {
    const mem_operand *x = a, *y = b;
    return x->off < y->off ? -1 : x->off > y->off;
}

/* Reads `objdump -d` of this executable into operands (sorted by offset
 * from __executable_start).  Instructions whose operand is not an access
 * (LEA, NOPs, prefetches) are left out. */
static int load_operands(void) {
    char cmd[64];
    snprintf(cmd, sizeof(cmd), "objdump -d --no-show-raw-insn /proc/%d/exe", (int)getpid());
    FILE *f = popen(cmd, "r");
    if (f == NULL)
        return 0;
    char line[512];
    size_t cap = 0;
    long long anchor_link = -1; /* where the disassembly puts trace_end */
    int after_call = 0, ok = 1;
    while (fgets(line, sizeof(line), f) != NULL) {
        unsigned long long addr;
        char sym[128];
        if (sscanf(line, "%llx <%127[^>]>:", &addr, sym) == 2) {
            if (strcmp(sym, "trace_end") == 0)
                anchor_link = (long long)addr;
            continue;
        }
        char *tab = strchr(line, '\t');
        if (tab == NULL || sscanf(line, " %llx:", &addr) != 1)
            continue;
        char mnem[32];
        int used = 0;
        if (sscanf(tab + 1, "%31s %n", mnem, &used) != 1)
            continue;
        /* objdump writes a prefix that is no part of an operand as a word
         * of its own: the padding before a loop is often `cs nopw
         * 0x0(%rax,%rax,1)` or `data16 cs nopw ...`, executed when the code
         * falls into the loop, whose registers may hold secrets.  Read the
         * mnemonic after such prefixes. */
        for (int more = 1; more;) {
            static const char *const prefixes[] = {"cs", "ds", "es", "ss", "data16", "addr32"};
            more = 0;
            for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++) {
                int next = 0;
                if (strcmp(mnem, prefixes[i]) == 0 &&
                    sscanf(tab + 1 + used, "%31s %n", mnem, &next) == 1) {
                    used += next;
                    more = 1;
                    break;
                }
            }
        }
        if (after_call)
            ok &= push_return((uintptr_t)addr);
        after_call = strncmp(mnem, "call", 4) == 0;
        if (strncmp(mnem, "lea", 3) == 0 || strncmp(mnem, "nop", 3) == 0 ||
            strncmp(mnem, "prefetch", 8) == 0)
            continue;
        mem_operand m;
        int r = parse_operand(tab + 1 + used, &m);
        if (r == 0)
            continue;
        if (r < 0) /* unreadable: tracing through it is an error */
            m.base = -2;
        if (n_operands == cap) {
            cap = cap ? 2 * cap : 4096;
            mem_operand *grown = realloc(operands, cap * sizeof(*operands));
            if (grown == NULL) {
                ok = 0;
                break;
            }
            operands = grown;
        }
        m.off = (uintptr_t)addr;
        operands[n_operands++] = m;
    }
    if (pclose(f) != 0 || !ok || anchor_link < 0 || n_operands == 0 || n_returns == 0)
        return 0;
    /* link-time addresses to offsets from __executable_start */
    const uintptr_t link_start = (uintptr_t)&trace_end - (uintptr_t)&__executable_start;
    for (size_t i = 0; i < n_operands; i++)
        operands[i].off = operands[i].off - (uintptr_t)anchor_link + link_start;
    for (size_t i = 0; i < n_returns; i++)
        returns[i] = returns[i] - (uintptr_t)anchor_link + link_start;
    qsort(operands, n_operands, sizeof(*operands), cmp_operand);
    qsort(returns, n_returns, sizeof(*returns), cmp_offset);
    return 1;
}

static const mem_operand *find_operand(uintptr_t off) {
    size_t lo = 0, hi = n_operands;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (operands[mid].off < off)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n_operands && operands[lo].off == off ? &operands[lo] : NULL;
}

/* Waits for the child's next stop; returns the signal, or -1 if it ended
 * (its exit status in *status). */
static int wait_stop(pid_t pid, int *status) {
    if (waitpid(pid, status, 0) != pid || !WIFSTOPPED(*status))
        return -1;
    return WSTOPSIG(*status);
}

static int in_text(uintptr_t a) {
    return a >= (uintptr_t)&__executable_start && a < (uintptr_t)&etext;
}

static int is_return_address(uintptr_t a) {
    const uintptr_t off = a - (uintptr_t)&__executable_start;
    return in_text(a) && bsearch(&off, returns, n_returns, sizeof(*returns), cmp_offset) != NULL;
}

/* Runs the child over a call into code outside this executable (the C
 * library: memset, the allocator) at full speed: single-stepping through
 * it would count every iteration of a REP STOSB, and the allocator's paths
 * depend on the heap's history.  The child is at the first instruction
 * outside, entered by a call (or a tail call) from inside, so the top of
 * the stack is the address after a CALL in the text (checked against the
 * disassembly; anything else fails the trace rather than leave a stretch
 * untraced): a breakpoint there, PTRACE_CONT, the original word back.  A
 * block returned by malloc, calloc or aligned_alloc is recorded in t. */
static int skip_outside(pid_t pid, struct user_regs_struct *regs, trace *t) {
    /* the size asked of an allocation function, 0 for other calls */
    uint64_t size = 0;
    if (regs->rip == (uintptr_t)&malloc)
        size = regs->rdi;
    else if (regs->rip == (uintptr_t)&aligned_alloc)
        size = regs->rsi;
    else if (regs->rip == (uintptr_t)&calloc)
        size = regs->rdi * regs->rsi;
    errno = 0;
    const uintptr_t ret = (uintptr_t)ptrace(PTRACE_PEEKDATA, pid, (void *)regs->rsp, NULL);
    if (errno != 0 || !is_return_address(ret)) {
        fprintf(stderr, "ct_trace: left the text at %#lx, not by a call\n",
                (unsigned long)regs->rip);
        return 0;
    }
    errno = 0;
    const long word = ptrace(PTRACE_PEEKTEXT, pid, (void *)ret, NULL);
    if (errno != 0)
        return 0;
    const long trap = (long)(((unsigned long)word & ~0xfful) | 0xcc);
    if (ptrace(PTRACE_POKETEXT, pid, (void *)ret, (void *)trap) != 0)
        return 0;
    int status, ok = ptrace(PTRACE_CONT, pid, NULL, NULL) == 0 && wait_stop(pid, &status) == SIGTRAP;
    ok = ok && ptrace(PTRACE_GETREGS, pid, NULL, regs) == 0 && regs->rip == ret + 1;
    /* the original word back, whatever happened */
    ok = ptrace(PTRACE_POKETEXT, pid, (void *)ret, (void *)word) == 0 && ok;
    if (ok && size != 0 && regs->rax != 0) {
        if (t->n_allocs == MAX_ALLOCS)
            return 0;
        t->allocs[t->n_allocs].base = regs->rax;
        t->allocs[t->n_allocs++].size = size;
    }
    regs->rip = ret;
    return ok && ptrace(PTRACE_SETREGS, pid, NULL, regs) == 0;
}

/* From the start breakpoint, single-steps to trace_end; entry is the
 * kernel's function, which the trace must reach. */
static int trace_call(pid_t pid, trace *t, uintptr_t entry) {
    t->steps = t->accesses = 0;
    t->hash = t->addr_hash = FNV_INIT;
    t->n_allocs = 0;
    t->entered = 0;
    for (int l = 0; l < 2; l++) {
        uint64_t block[2];
        for (int w = 0; w < 2; w++) {
            errno = 0;
            block[w] = (uint64_t)ptrace(PTRACE_PEEKDATA, pid, (void *)&child_in.blocks[l][w], NULL);
            if (errno != 0)
                return 0;
        }
        if (block[1] != 0) {
            t->allocs[t->n_allocs].base = block[0];
            t->allocs[t->n_allocs++].size = block[1];
        }
    }
    for (;;) {
        int status = 0;
        struct user_regs_struct regs;
        if (ptrace(PTRACE_SINGLESTEP, pid, NULL, NULL) != 0 || wait_stop(pid, &status) != SIGTRAP ||
            ptrace(PTRACE_GETREGS, pid, NULL, &regs) != 0)
            return 0;
        if (!in_text(regs.rip) && !skip_outside(pid, &regs, t))
            return 0;
        if (regs.rip == (uintptr_t)&trace_end)
            return 1;
        t->entered |= regs.rip == entry;
        t->steps++;
        t->hash = fnv(t->hash, (uint64_t)regs.rip);
        const mem_operand *m = find_operand((uintptr_t)regs.rip - (uintptr_t)&__executable_start);
        if (m != NULL) {
            if (m->base == -2) {
                fprintf(stderr, "ct_trace: unreadable memory operand at text offset %#lx\n",
                        (unsigned long)m->off);
                return 0;
            }
            t->accesses++;
            const uint64_t a = (uint64_t)m->disp + reg_value(&regs, m->base) +
                               reg_value(&regs, m->index) * (uint64_t)m->scale;
            t->addr_hash = fnv(t->addr_hash, canonical_address(t, a));
        }
    }
}

int main(void) {
    if (!ifma_usable()) {
        printf("ct_trace: skipped (no AVX-512 IFMA/VL, or masked)\n");
        return 77;
    }
    if (!load_operands()) {
        printf("ct_trace: skipped (no objdump to read the memory operands)\n");
        return 77;
    }
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0)
        return 1;
    if (pid == 0)
        child();

    int status = 0, sig = wait_stop(pid, &status);
    if (sig != SIGSTOP) { /* the child could not be traced */
        if (sig < 0 && WIFEXITED(status) && WEXITSTATUS(status) == 77) {
            printf("ct_trace: skipped (ptrace not permitted)\n");
            return 77;
        }
        fprintf(stderr, "ct_trace: the child ended or stopped before tracing\n");
        kill(pid, SIGKILL);
        waitpid(pid, &status, 0);
        return 1;
    }
    /* the child dies with this process, whatever happens to it */
    ptrace(PTRACE_SETOPTIONS, pid, NULL, (void *)(long)PTRACE_O_EXITKILL);
    int traced = 1;
    for (int k = 0; k < K_COUNT && traced; k++) {
        if (!kernel_usable((kernel)k)) {
            printf("  %-52s skipped (no SHA extensions, or masked)\n", kernel_names[k]);
            continue;
        }
        trace t[RUNS];
        for (int r = 0; r < RUNS && traced; r++) {
            /* on to the next start breakpoint, then step */
            traced = ptrace(PTRACE_CONT, pid, NULL, NULL) == 0 &&
                     wait_stop(pid, &status) == SIGTRAP && trace_call(pid, &t[r], kernel_entry(k));
        }
        QT_CHECK(traced);
        if (!traced) {
            fprintf(stderr, "ct_trace: lost the child at %s\n", kernel_names[k]);
            break;
        }
        int same = 1, entered = 1;
        for (int r = 0; r < RUNS; r++) {
            entered &= t[r].entered;
            same &= t[r].steps == t[0].steps && t[r].hash == t[0].hash &&
                    t[r].accesses == t[0].accesses && t[r].addr_hash == t[0].addr_hash;
        }
        QT_CHECK(entered && t[0].steps > 0 && t[0].accesses > 0);
        const int control = k == K_CONTROL || k == K_CONTROL_INDEX;
        if (control)
            QT_CHECK(!same); /* the harness sees a leak */
        else
            QT_CHECK(same);
        printf("  %-52s %6lu instructions, %5lu accesses:", kernel_names[k], t[0].steps,
               t[0].accesses);
        for (int r = 1; r < RUNS; r++)
            printf(" %s", t[r].steps == t[0].steps && t[r].hash == t[0].hash
                              ? (t[r].addr_hash == t[0].addr_hash ? "same" : "addresses differ")
                              : "flow differs");
        printf("%s\n", control ? " (must differ)" : "");
    }
    if (traced) {
        ptrace(PTRACE_CONT, pid, NULL, NULL);
        waitpid(pid, &status, 0);
        QT_CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0); /* the child finished cleanly */
    } else {
        kill(pid, SIGKILL);
        waitpid(pid, &status, 0);
    }
    return qt_finish("ct_trace");
}
