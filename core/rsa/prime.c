/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Primality testing for key generation and key checks: trial division by
 * the odd primes below QUILL_RSA_TRIAL_LIMIT (quill_bn_mod_u16, constant
 * time) and Miller-Rabin (FIPS 186-5 B.3.1) with quill_mont_exp_consttime.
 * The candidate is secret: only accept/reject verdicts are declassified. */
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "common/zeroize.h"
#include "rsa/internal.h"

size_t quill_rsa_mr_rounds(size_t bits) {
    /* FIPS 186-5 Table B.1, p and q for RSA with M-R tests only, the column
     * matching each size's security strength: 1024-bit primes (nlen 2048)
     * 5 rounds for 2^-112; 1536-bit (nlen 3072) 4 for 2^-128; 2048-bit
     * (nlen 4096) 4 for 2^-144.  The error bound only falls with size, so
     * 4 rounds stay sufficient above 2048 bits.  Below 1024 bits (key checks
     * of 1024-bit moduli) FIPS 186-4 Table C.2 gives 7 rounds for 512-bit
     * primes at 2^-100; use 7 for anything smaller than 1024. */
    if (bits < 1024)
        return 7;
    if (bits < 1536)
        return 5;
    return 4;
}

size_t quill_rsa_small_primes(uint16_t *out, size_t cap) {
    /* Sieve of Eratosthenes over the odd numbers below the limit: index i
     * stands for 2i + 1.  Public computation. */
    uint8_t composite[QUILL_RSA_TRIAL_LIMIT / 2] = {0};
    size_t count = 0;
    for (size_t i = 1; i < QUILL_RSA_TRIAL_LIMIT / 2; i++) {
        if (composite[i])
            continue;
        size_t p = 2 * i + 1;
        if (count < cap)
            out[count++] = (uint16_t)p;
        for (size_t j = (p * p) / 2; j < QUILL_RSA_TRIAL_LIMIT / 2; j += p)
            composite[j] = 1;
    }
    return count;
}

quill_word quill_rsa_trial_division_consttime(const quill_limb *w, size_t n,
                                              const uint16_t *primes, size_t count) {
    quill_word divisible = 0;
    for (size_t i = 0; i < count; i++)
        divisible |= quill_ct_is_zero_mask(quill_bn_mod_u16(w, n, primes[i]));
    return ~divisible;
}

/* Working memory of one Miller-Rabin test, n limbs each. */
enum { MR_WM1, MR_M, MR_B, MR_Z, MR_ONE_M, MR_WM1_M, MR_COUNT };

/* One round with base b: z = b^m; passes if z == 1 or z == w - 1, or if
 * z^(2^j) == w - 1 for some 1 <= j < a.  The squarings run for every j up to
 * bits - 1 (a public bound on a), the comparison masked by j < a. */
static int mr_round(quill_word *pass, quill_limb *ws[], size_t a, size_t bits,
                    const quill_mont *mont) {
    size_t n = quill_mont_limbs(mont);
    quill_limb *z = ws[MR_Z];
    if (!quill_mont_exp_consttime(z, ws[MR_B], ws[MR_M], n, mont))
        return 0;
    quill_mont_to(z, z, mont);
    quill_word ok = quill_bn_eq_mask(z, ws[MR_ONE_M], n) | quill_bn_eq_mask(z, ws[MR_WM1_M], n);
    for (size_t j = 1; j < bits; j++) {
        quill_mont_sqr(z, z, mont);
        /* The barrier keeps the compiler from splitting the loop at j = a
         * (it recognises the mask as a comparison otherwise). */
        quill_word active = quill_ct_lt_mask((quill_word)j, quill_value_barrier_w((quill_word)a));
        ok |= active & quill_bn_eq_mask(z, ws[MR_WM1_M], n);
    }
    *pass = ok;
    return 1;
}

quill_err quill_rsa_miller_rabin(int *probable_prime, const quill_mont *mont, size_t bits,
                                 size_t rounds, const quill_rng *rng) {
    size_t n = quill_mont_limbs(mont);
    const quill_limb *w = quill_mont_modulus(mont);
    size_t rand_len = (bits - 1 + 7) / 8;
    quill_limb *mem = quill_calloc(MR_COUNT * n, sizeof(quill_limb));
    uint8_t *rand = quill_malloc(rand_len);
    quill_err err = QUILL_OK;
    *probable_prime = 0;
    if (mem == NULL || rand == NULL) {
        err = QUILL_ERR_MEMORY;
        goto done;
    }
    quill_limb *ws[MR_COUNT];
    for (int i = 0; i < MR_COUNT; i++)
        ws[i] = mem + (size_t)i * n;
    /* w - 1 = 2^a m with m odd (B.3.1 steps 1-2); w is odd. */
    memcpy(ws[MR_WM1], w, n * sizeof(quill_limb));
    ws[MR_WM1][0] &= ~(quill_limb)1;
    size_t a = quill_bn_ctz_consttime(ws[MR_WM1], n);
    unsigned levels = 0;
    while (((size_t)1 << levels) <= 64 * n)
        levels++;
    quill_bn_rshift_consttime(ws[MR_M], ws[MR_WM1], n, a, levels);
    /* 1 and w - 1 in the Montgomery domain, for the comparisons. */
    memset(ws[MR_B], 0, n * sizeof(quill_limb));
    ws[MR_B][0] = 1;
    quill_mont_to(ws[MR_ONE_M], ws[MR_B], mont);
    quill_mont_to(ws[MR_WM1_M], ws[MR_WM1], mont);

    for (size_t round = 0; round < rounds; round++) {
        /* A base b in [2, 2^(bits-1)) subset of [2, w - 2] (w > 2^(bits-1)),
         * drawn without comparing it to w.  b is fresh randomness: rejecting
         * b <= 1 says nothing about w. */
        for (;;) {
            if (!rng->fill(rng->arg, rand, rand_len)) {
                err = QUILL_ERR_RNG;
                goto done;
            }
            if (!quill_bn_from_bytes_be(ws[MR_B], n, rand, rand_len)) {
                err = QUILL_ERR_INTERNAL;
                goto done;
            }
            size_t top = (bits - 1) % 64;
            if (top != 0)
                ws[MR_B][(bits - 1) / 64] &= ((quill_limb)1 << top) - 1;
            if ((bits - 1) / 64 < n && top == 0)
                ws[MR_B][(bits - 1) / 64] = 0;
            QUILL_CT_SECRET(ws[MR_B], n * sizeof(quill_limb));
            quill_limb two[QUILL_BN_MAX_LIMBS] = {2};
            if (!quill_rsa_verdict(quill_bn_lt_mask(ws[MR_B], two, n)))
                break;
        }
        quill_word pass;
        if (!mr_round(&pass, ws, a, bits, mont)) {
            err = QUILL_ERR_MEMORY;
            goto done;
        }
        if (!quill_rsa_verdict(pass))
            goto done; /* composite: rejected, which may be public */
    }
    *probable_prime = 1;
done:
    if (mem != NULL) {
        quill_zeroize(mem, MR_COUNT * n * sizeof(quill_limb));
        quill_free(mem);
    }
    if (rand != NULL) {
        quill_zeroize(rand, rand_len);
        quill_free(rand);
    }
    return err;
}
