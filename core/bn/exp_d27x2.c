/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * quill_mont_exp_consttime_x2_d27 (mont_d27x2_avx2.h): the two-way
 * constant-time exponentiation of quill_mont_exp_consttime_x2 for 24-limb
 * moduli on the radix-2^27 AVX2 kernels, as exp_d28x2.c does for 16 limbs:
 * fixed 5-bit windows, a 32-entry table (480 bytes per entry, see gather)
 * read whole at every lookup, R' = 2^1539. */
#include "bn/mont_d27x2_avx2.h"

#include <string.h>

#include "common/alloc.h"
#include "common/cpu.h"
#include "common/zeroize.h"

#if QUILL_BN_HAVE_D28X2
#include <immintrin.h>

int quill_mont_exp_x2_d27_capable(size_t n) {
    return n == 24 && quill_cpu_has(QUILL_CPU_X86_AVX2);
}

#define W QUILL_D27X2_WORDS
#define VECS QUILL_D27X2_VECS

/* The table holds each entry as the two lanes' values cut into 29 words
 * q_s = bits [54 s, 54 s + 64) (digits 2s and 2s+1 in the low 54 bits),
 * interleaved (q_2v, q'_2v, q_2v+1, q'_2v+1) in 15 vectors: 480 bytes per
 * entry against 928 in the d27x2 form (exp_d28x2.c has the measurements
 * behind this), and the lookup leaves the selected entry in registers (one
 * VPERMQ, shift and AND per d27x2 vector). */
#define ENTRY_VECS 15
#define ENTRY_BYTES (32 * ENTRY_VECS)

/* entry = x's two lanes, cut as above. */
static void pack(uint8_t *entry, const uint64_t *x) {
    quill_limb v[2][QUILL_D27X2_LIMBS + 1];
    uint64_t *q = (uint64_t *)entry;
    memset(v, 0, sizeof(v));
    quill_d27x2_to_limbs(v[0], v[1], x);
    memset(entry, 0, ENTRY_BYTES);
    for (int s = 0; s < VECS; s++)
        for (int l = 0; l < 2; l++) {
            size_t bit = 54 * (size_t)s, w = bit / 64, sh = bit % 64;
            uint64_t word = v[l][w] >> sh;
            if (sh)
                word |= v[l][w + 1] << (64 - sh);
            q[4 * (s / 2) + 2 * (s & 1) + l] = word;
        }
    quill_zeroize(v, sizeof(v));
}

/* x = table[i0] in lane 0, table[i1] in lane 1 (d27x2 form); every entry
 * read. */
__attribute__((target("avx2"))) static void gather(uint64_t *x, const uint8_t *table,
                                                   size_t entries, quill_limb i0,
                                                   quill_limb i1) {
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
    const __m256i m27 = _mm256_set1_epi64x((1 << 27) - 1);
    const __m256i sh = _mm256_set_epi64x(27, 0, 27, 0);
    for (int s = 0; s < VECS; s++) {
        /* (q_s, q_s, q'_s, q'_s) */
        __m256i v = (s & 1) ? _mm256_permute4x64_epi64(acc[s / 2], 0xFA)
                            : _mm256_permute4x64_epi64(acc[s / 2], 0x50);
        _mm256_storeu_si256((__m256i *)x + s, _mm256_and_si256(_mm256_srlv_epi64(v, sh), m27));
    }
}

/* The kernels keep their column sums and operand copies (secret) in
 * arrays of their own stack frames, about 12 KiB deep with the
 * reduction's (gcc 12), and gather its selected entry; as in exp_d28x2.c,
 * this, called after the last kernel call, zeroes KERNEL_STACK bytes of
 * stack below the exponentiation's frame, where those frames were. */
#define KERNEL_STACK (24 * 1024)
__attribute__((noinline)) static void wipe_kernel_stack(void) {
    uint8_t below[KERNEL_STACK];
    quill_zeroize(below, sizeof(below));
    __asm__ __volatile__("" : : "r"(below) : "memory");
}

/* x = 2^6 x mod m by 6 constant-time modular doublings (x < m). */
static void shift6(quill_limb *x, const quill_limb *m, size_t n) {
    quill_limb d[24], t[24];
    for (int k = 0; k < 6; k++) {
        quill_limb c = quill_bn_add(t, x, x, n);
        quill_limb b = quill_bn_sub(d, t, m, n);
        /* 2x < 2m: 2x - m when 2x overflowed or did not borrow */
        quill_word mask = (quill_word)0 - (c | (b ^ 1));
        quill_bn_select(x, mask, d, t, n);
    }
    quill_zeroize(d, sizeof(d));
    quill_zeroize(t, sizeof(t));
}

int quill_mont_exp_consttime_x2_d27(quill_limb *r0, const quill_limb *a0, const quill_limb *e0,
                                    const quill_mont *mont0, quill_limb *r1,
                                    const quill_limb *a1, const quill_limb *e1,
                                    const quill_mont *mont1, size_t e_limbs) {
    const size_t n = 24, entries = 32;
    const unsigned w = 5;
    /* md, the table, acc, tmp, am, k (R'^2), one (R'), unit (1) */
    size_t bytes = sizeof(quill_d27x2_mod) + entries * ENTRY_BYTES + 6 * W * sizeof(uint64_t);
    uint8_t *mem = quill_aligned_alloc(32, bytes);
    if (mem == NULL)
        return 0;
    quill_d27x2_mod *md = (quill_d27x2_mod *)mem;
    uint8_t *table = mem + sizeof(quill_d27x2_mod);
    uint64_t *acc = (uint64_t *)(table + entries * ENTRY_BYTES), *tmp = acc + W, *am = tmp + W, *k = am + W,
             *one = k + W, *unit = one + W;
    quill_limb k0[24], k1[24], v0[QUILL_D27X2_LIMBS], v1[QUILL_D27X2_LIMBS],
        d[QUILL_D27X2_LIMBS], mw[QUILL_D27X2_LIMBS] = {0};

    quill_d27x2_mod_init(md, mont0->m, mont1->m, n);
    /* k = R'^2 mod m = 2^6 R^2 mod m */
    memcpy(k0, mont0->rr, sizeof(k0));
    memcpy(k1, mont1->rr, sizeof(k1));
    shift6(k0, mont0->m, n);
    shift6(k1, mont1->m, n);
    quill_d27x2_from_limbs(k, k0, k1, n);
    memset(unit, 0, W * sizeof(uint64_t));
    unit[0] = unit[2] = 1;
    quill_d27x2_from_limbs(am, a0, a1, n);
    quill_mont_mul_d27x2_avx2(am, am, k, md);   /* a R' */
    quill_mont_mul_d27x2_avx2(one, k, unit, md); /* R' */
    pack(table, one);
    pack(table + ENTRY_BYTES, am);
    memcpy(acc, am, W * sizeof(uint64_t));
    for (size_t i = 2; i < entries; i++) {
        quill_mont_mul_d27x2_avx2(acc, acc, am, md);
        pack(table + i * ENTRY_BYTES, acc);
    }

    size_t bits = 64 * e_limbs, windows = (bits + w - 1) / w;
    if (windows == 0) {
        memcpy(acc, one, W * sizeof(uint64_t));
    } else {
        size_t pos = (windows - 1) * w;
        gather(acc, table, entries, quill_exp_bits(e0, e_limbs, pos, w),
               quill_exp_bits(e1, e_limbs, pos, w));
        while (pos > 0) {
            pos -= w;
            /* the lookup first: it does not wait for the squarings, whose
             * first phase then overlaps its tail */
            gather(tmp, table, entries, quill_exp_bits(e0, e_limbs, pos, w),
                   quill_exp_bits(e1, e_limbs, pos, w));
            for (unsigned j = 0; j < w; j++)
                quill_mont_sqr_d27x2_avx2(acc, acc, md);
            quill_mont_mul_d27x2_avx2(acc, acc, tmp, md);
        }
    }
    quill_mont_mul_d27x2_avx2(acc, acc, unit, md); /* out of the Montgomery form: < 2m */
    quill_d27x2_to_limbs(v0, v1, acc);
    wipe_kernel_stack();
    quill_limb *v[2] = {v0, v1}, *r[2] = {r0, r1};
    const quill_mont *mont[2] = {mont0, mont1};
    for (int l = 0; l < 2; l++) {
        memcpy(mw, mont[l]->m, n * sizeof(quill_limb));
        quill_limb b = quill_bn_sub(d, v[l], mw, QUILL_D27X2_LIMBS);
        quill_bn_select(v[l], (quill_word)0 - b, v[l], d, QUILL_D27X2_LIMBS);
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

#else

int quill_mont_exp_x2_d27_capable(size_t n) {
    (void)n;
    return 0;
}

#endif
