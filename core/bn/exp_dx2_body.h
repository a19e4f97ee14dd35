/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * The body of the two-way constant-time exponentiation on the AVX2 dx2
 * kernels, included by exp_d28x2.c (16-limb moduli, radix 2^28:
 * mont_d28x2_avx2.h), exp_d27x2.c (24) and exp_d27x2_32.c (32, both radix
 * 2^27: mont_d27x2_avx2.h), which define NLIMBS (the moduli's limbs),
 * RADIX (the digits' bits), VECS, LIMBS (the form's vectors and its
 * values' limbs), KERNEL_STACK (see wipe_kernel_stack), MOD, MOD_INIT,
 * FROM_LIMBS, TO_LIMBS, MUL, SQR and EXP_NAME.  Fixed 5-bit windows, a
 * 32-entry table read whole at every lookup (see gather); the kernels'
 * R' = 2^(RADIX (2 VECS - 1)).  Not a public header. */
#include <string.h>

#include "common/alloc.h"
#include "common/zeroize.h"
#include <immintrin.h>

#define W (4 * VECS)
/* R'^2 = 2^SHIFT R^2 (R = 2^(64 NLIMBS)): 24 at 1024 bits, 6 at 1536, 62
 * at 2048 */
#define SHIFT (2 * (RADIX * (2 * VECS - 1) - 64 * NLIMBS))

/* The table holds each entry as the two lanes' values cut into VECS words
 * q_s = bits [2 RADIX s, 2 RADIX s + 64) (digits 2s and 2s+1 in the low
 * 2 RADIX bits), interleaved (q_2v, q'_2v, q_2v+1, q'_2v+1) in ENTRY_VECS
 * vectors, so that a lookup, which reads every entry, reads about half the
 * bytes of the dx2 form (1024 bits: 320 bytes per entry against 608;
 * 1536: 480 against 928; 2048: 640 against 1248), and leaves the selected
 * entry in registers (one VPERMQ, shift and AND per dx2 vector). */
#define ENTRY_VECS ((VECS + 1) / 2)
#define ENTRY_BYTES (32 * ENTRY_VECS)

/* entry = x's two lanes, cut as above. */
static void pack(uint8_t *entry, const uint64_t *x) {
    quill_limb v[2][LIMBS + 1];
    uint64_t *q = (uint64_t *)entry;
    memset(v, 0, sizeof(v));
    TO_LIMBS(v[0], v[1], x);
    memset(entry, 0, ENTRY_BYTES);
    for (int s = 0; s < VECS; s++)
        for (int l = 0; l < 2; l++) {
            size_t bit = 2 * RADIX * (size_t)s, w = bit / 64, sh = bit % 64;
            uint64_t word = v[l][w] >> sh;
            if (sh)
                word |= v[l][w + 1] << (64 - sh);
            q[4 * (s / 2) + 2 * (s & 1) + l] = word;
        }
    quill_zeroize(v, sizeof(v));
}

/* x = table[i0] in lane 0, table[i1] in lane 1 (dx2 form); every entry
 * read.  Aligned to 64 bytes, which pins the object's layout mod 64 (its
 * .text then 64-byte aligned) wherever the link puts it, as the kernels'
 * (mont_d27x2_body.h): unpinned, 16 bytes more before exp_d28x2.c made
 * RSA-2048 signing at the AVX2 level 5% slower (docs/limits.md). */
__attribute__((target("avx2"), aligned(64))) static void
gather(uint64_t *x, const uint8_t *table, size_t entries, quill_limb i0, quill_limb i1) {
    __m256i acc[ENTRY_VECS];
    for (int v = 0; v < ENTRY_VECS; v++)
        acc[v] = _mm256_setzero_si256();
    const __m256i want = _mm256_set_epi64x((long long)i1, (long long)i0, (long long)i1,
                                           (long long)i0);
    for (size_t i = 0; i < entries; i++) {
        __m256i k = _mm256_cmpeq_epi64(want, _mm256_set1_epi64x((long long)i));
        const __m256i *e = (const __m256i *)(table + i * ENTRY_BYTES);
        for (int v = 0; v < ENTRY_VECS; v++)
            acc[v] = _mm256_or_si256(acc[v], _mm256_and_si256(k, _mm256_load_si256(e + v)));
    }
    const __m256i mask = _mm256_set1_epi64x((1 << RADIX) - 1);
    const __m256i sh = _mm256_set_epi64x(RADIX, 0, RADIX, 0);
    for (int s = 0; s < VECS; s++) {
        /* (q_s, q_s, q'_s, q'_s) */
        __m256i v = (s & 1) ? _mm256_permute4x64_epi64(acc[s / 2], 0xFA)
                            : _mm256_permute4x64_epi64(acc[s / 2], 0x50);
        _mm256_storeu_si256((__m256i *)x + s, _mm256_and_si256(_mm256_srlv_epi64(v, sh), mask));
    }
}

/* The kernels keep their column sums and operand copies (secret: derived
 * from the base, the exponent's windows and the primes) in arrays of
 * their own stack frames, and gather its selected entry: about 9 KiB deep
 * at 1024 bits (gcc 12: 6.6 KiB for the squaring, 2.5 KiB for d28_redc),
 * 11.3 KiB at 1536 and 15.2 KiB at 2048 (-fstack-usage, gcc 12 -O2:
 * squaring 7,808 / 10,368 bytes, redc 3,784 / 5,064; clang 14 within 1%).
 * Wiping them in every call would cost more than the lookup; instead this,
 * called from the exponentiation after the last kernel call, zeroes
 * KERNEL_STACK bytes (16 KiB at 1024 bits, 24 KiB above) of stack below
 * the exponentiation's frame, where the kernels' frames were. */
__attribute__((noinline)) static void wipe_kernel_stack(void) {
    uint8_t below[KERNEL_STACK];
    quill_zeroize(below, sizeof(below));
    __asm__ __volatile__("" : : "r"(below) : "memory");
}

/* x = 2^SHIFT x mod m by SHIFT constant-time modular doublings (x < m). */
static void shift_r(quill_limb *x, const quill_limb *m, size_t n) {
    quill_limb d[NLIMBS], t[NLIMBS];
    for (int k = 0; k < SHIFT; k++) {
        quill_limb c = quill_bn_add(t, x, x, n);
        quill_limb b = quill_bn_sub(d, t, m, n);
        /* 2x < 2m: 2x - m when 2x overflowed or did not borrow */
        quill_word mask = (quill_word)0 - (c | (b ^ 1));
        quill_bn_select(x, mask, d, t, n);
    }
    quill_zeroize(d, sizeof(d));
    quill_zeroize(t, sizeof(t));
}

int EXP_NAME(quill_limb *r0, const quill_limb *a0, const quill_limb *e0, const quill_mont *mont0,
             quill_limb *r1, const quill_limb *a1, const quill_limb *e1, const quill_mont *mont1,
             size_t e_limbs) {
    const size_t n = NLIMBS, entries = 32;
    const unsigned w = 5;
    /* md, the table, acc, tmp, am, k (R'^2), one (R'), unit (1) */
    size_t bytes = sizeof(MOD) + entries * ENTRY_BYTES + 6 * W * sizeof(uint64_t);
    uint8_t *mem = quill_aligned_alloc(32, bytes);
    if (mem == NULL)
        return 0;
    MOD *md = (MOD *)mem;
    uint8_t *table = mem + sizeof(MOD);
    uint64_t *acc = (uint64_t *)(table + entries * ENTRY_BYTES), *tmp = acc + W, *am = tmp + W, *k = am + W,
             *one = k + W, *unit = one + W;
    quill_limb k0[NLIMBS], k1[NLIMBS], v0[LIMBS], v1[LIMBS], d[LIMBS], mw[LIMBS] = {0};

    MOD_INIT(md, mont0->m, mont1->m, n);
    /* k = R'^2 mod m = 2^SHIFT R^2 mod m */
    memcpy(k0, mont0->rr, sizeof(k0));
    memcpy(k1, mont1->rr, sizeof(k1));
    shift_r(k0, mont0->m, n);
    shift_r(k1, mont1->m, n);
    FROM_LIMBS(k, k0, k1, n);
    memset(unit, 0, W * sizeof(uint64_t));
    unit[0] = unit[2] = 1;
    FROM_LIMBS(am, a0, a1, n);
    MUL(am, am, k, md);   /* a R' */
    MUL(one, k, unit, md); /* R' */
    pack(table, one);
    pack(table + ENTRY_BYTES, am);
    memcpy(acc, am, W * sizeof(uint64_t));
    for (size_t i = 2; i < entries; i++) {
        MUL(acc, acc, am, md);
        pack(table + i * ENTRY_BYTES, acc);
    }

    size_t bits = 64 * e_limbs, windows = (bits + w - 1) / w;
    if (windows == 0) {
        memcpy(acc, one, W * sizeof(uint64_t));
    } else {
        size_t pos = (windows - 1) * w;
        gather(acc, table, entries, quill_bn_bits(e0, e_limbs, pos, w),
               quill_bn_bits(e1, e_limbs, pos, w));
        while (pos > 0) {
            pos -= w;
            /* the lookup first: it does not wait for the squarings, whose
             * first phase then overlaps its tail */
            gather(tmp, table, entries, quill_bn_bits(e0, e_limbs, pos, w),
                   quill_bn_bits(e1, e_limbs, pos, w));
            for (unsigned j = 0; j < w; j++)
                SQR(acc, acc, md);
            MUL(acc, acc, tmp, md);
        }
    }
    MUL(acc, acc, unit, md); /* out of the Montgomery form: < 2m */
    TO_LIMBS(v0, v1, acc);
    wipe_kernel_stack();
    quill_limb *v[2] = {v0, v1}, *r[2] = {r0, r1};
    const quill_mont *mont[2] = {mont0, mont1};
    for (int l = 0; l < 2; l++) {
        memcpy(mw, mont[l]->m, n * sizeof(quill_limb));
        quill_limb b = quill_bn_sub(d, v[l], mw, LIMBS);
        quill_bn_select(v[l], (quill_word)0 - b, v[l], d, LIMBS);
        memcpy(r[l], v[l], n * sizeof(quill_limb));
    }
    quill_zeroize(k0, sizeof(k0));
    quill_zeroize(k1, sizeof(k1));
    quill_zeroize(v0, sizeof(v0));
    quill_zeroize(v1, sizeof(v1));
    quill_zeroize(d, sizeof(d));
    quill_zeroize(mw, sizeof(mw));
    quill_zeroize(mem, bytes);
    quill_free(mem);
    return 1;
}

