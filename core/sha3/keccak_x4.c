/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Keccak-f[1600] on four interleaved states (sha3_x4.h): s[4 * i + j] is
 * lane i of state j.
 *
 * quill_keccak_f1600_x4_avx2 keeps lane i of the four states in one 256-bit
 * vector and runs the round of keccak_round.h on vectors: AVX2 has no
 * 64-bit rotate, so rotations are two shifts and an OR, except by 8 and 56
 * bits, which are byte shuffles (one instruction).
 * quill_keccak_f1600_x4_avx512vl (keccak_avx512vl.c) is the same with the
 * AVX-512VL rotate and three-input logic instructions; on x86-64 ELF the
 * dispatch runs its assembly twin quill_keccak_f1600_x4_avx512vl_asm
 * (asm/x86_64/keccak_x4_avx512vl.S) instead, the C one where that is not
 * built.
 * quill_keccak_f1600_x4_c, always built, is portable C: the same round on
 * the compiler's generic 128-bit vectors of two lanes (GCC and Clang
 * vector_size; SSE2 on x86-64, NEON on AArch64, pairs of scalars elsewhere),
 * run once on states 0 and 1 and once on states 2 and 3, whose lanes sit
 * side by side in the interleaved layout (only the first when a sponge uses
 * two states: quill_keccak_f1600_x4_some).  SSE2 has PANDN, so chi needs no
 * lane complementing; rotations are two shifts and an OR.  On Zen 4 (gcc 12
 * -O3, every CPU feature masked) this costs ~490 TSC ticks per state against
 * ~720 for the scalar permutation: the scalar and vector rounds both run at
 * the front end's width, so fewer instructions per state is what counts
 * (interleaving a scalar permutation with the vector one measured no faster
 * than the two in turn).  On aarch64 the same two-at-a-time split runs the
 * two-way assembly of asm/aarch64 (keccak_neon.S, and keccak_sha3.S with
 * the ARMv8.2-A SHA-3 instructions) on the interleaved layout as it is.
 * Without the SHA-3 instructions, three states (n == 3) run in one call of
 * the NEON+scalar hybrid (keccak_hybrid.S: states 0 and 1 in NEON, state 2
 * in general registers, interleaved): by llvm-mca-16 with -mcpu=neoverse-n1
 * (Cortex-A57's tables) 2680 cycles against 4070 for two two-way calls
 * and 4722 for the portable code.  Four states stay two two-way calls: a
 * four-state hybrid (states 2 and 3 taking turns in the general registers)
 * models at 4802 cycles for its rounds alone, the scalar round costing 152
 * micro-ops against 161 for a two-state NEON round and the model's core
 * issuing 3 a cycle (tools/mca_keccak_a64.sh).  With the SHA-3
 * instructions two two-way calls cost 1720 cycles there, so the hybrid
 * never runs.
 * No branch or address depends on the states. */
#include <string.h>

#include "common/cpu.h"
#include "sha3/keccak.h"
#include "sha3/sha3.h"
#include "sha3/sha3_x4.h"

typedef uint64_t quill_v2u64 __attribute__((vector_size(16)));

#define KT quill_v2u64
#define KXOR(a, b) ((a) ^ (b))
#define KXOR5(a, b, c, d, e) ((a) ^ (b) ^ (c) ^ (d) ^ (e))
#define KANDN(a, b) (~(a) & (b))
/* r is a constant; for r = 0 the right shift is by 0 too and gives a. */
#define KROL(a, r) (((a) << (r)) | ((a) >> ((64 - (r)) & 63)))
#define KRC(c) ((quill_v2u64){(c), (c)})
#include "sha3/keccak_round.h"

/* Lane i of states j and j + 1 (s[4i + j], s[4i + j + 1]) as one vector;
 * memcpy because s need not be 16-byte aligned. */
static inline quill_v2u64 load_v2(const uint64_t *p) {
    quill_v2u64 v;
    memcpy(&v, p, sizeof(v));
    return v;
}

static inline void store_v2(uint64_t *p, quill_v2u64 v) {
    memcpy(p, &v, sizeof(v));
}

#define LOAD(i) load_v2(s + 4 * (i))
#define STORE(i, v) store_v2(s + 4 * (i), (v))

/* keccak_f1600_x2 permutes states 0 and 1 of the interleaved s (pass s + 2
 * for states 2 and 3). */
static void keccak_f1600_x2(uint64_t *s) {
    KECCAK_PERMUTE(LOAD, STORE, KECCAK_ROUND, KECCAK_NOTHING, KECCAK_NOTHING);
}

void quill_keccak_f1600_x4_c(uint64_t s[100]) {
    keccak_f1600_x2(s);
    keccak_f1600_x2(s + 2);
}

#undef KT
#undef KXOR
#undef KXOR5
#undef KANDN
#undef KROL
#undef KRC
#undef LOAD
#undef STORE

#if QUILL_KECCAK_HAVE_AVX2
#include <immintrin.h>

#define KT __m256i
#define KXOR(a, b) _mm256_xor_si256((a), (b))
#define KXOR5(a, b, c, d, e) KXOR(KXOR(KXOR(a, b), KXOR(c, d)), (e))
#define KANDN(a, b) _mm256_andnot_si256((a), (b))
/* r is a constant; for r = 0 the right shift by 64 gives zero. */
#define KROL(a, r)                                                                                \
    ((r) == 8    ? _mm256_shuffle_epi8((a), rol8)                                                 \
     : (r) == 56 ? _mm256_shuffle_epi8((a), rol56)                                                \
                 : _mm256_or_si256(_mm256_slli_epi64((a), (r)), _mm256_srli_epi64((a), 64 - (r))))
#define KRC(c) _mm256_set1_epi64x((long long)(c))
#include "sha3/keccak_round.h"

#define LOAD(i) _mm256_loadu_si256((const __m256i *)(s + 4 * (i)))
#define STORE(i, v) _mm256_storeu_si256((__m256i *)(s + 4 * (i)), (v))

__attribute__((target("avx2"))) void quill_keccak_f1600_x4_avx2(uint64_t s[100]) {
    /* Byte permutations rotating each 64-bit lane left by 8 and by 56 bits:
     * output byte b of a lane is input byte b - 1 (resp. b + 1) mod 8. */
    const __m256i rol8 = _mm256_setr_epi8(7, 0, 1, 2, 3, 4, 5, 6, 15, 8, 9, 10, 11, 12, 13, 14,
                                          7, 0, 1, 2, 3, 4, 5, 6, 15, 8, 9, 10, 11, 12, 13, 14);
    const __m256i rol56 = _mm256_setr_epi8(1, 2, 3, 4, 5, 6, 7, 0, 9, 10, 11, 12, 13, 14, 15, 8,
                                           1, 2, 3, 4, 5, 6, 7, 0, 9, 10, 11, 12, 13, 14, 15, 8);
    KECCAK_PERMUTE(LOAD, STORE, KECCAK_ROUND, KECCAK_NOTHING, KECCAK_NOTHING);
}

int quill_keccak_f1600_x4_avx2_capable(void) {
    return quill_cpu_has(QUILL_CPU_X86_AVX2);
}

#endif

#if QUILL_KECCAK_HAVE_A64
int quill_keccak_f1600_x2_neon_capable(void) {
    return quill_cpu_has(QUILL_CPU_ARM_NEON);
}

int quill_keccak_f1600_x2_neon_sha3_capable(void) {
    return quill_cpu_has(QUILL_CPU_ARM_NEON | QUILL_CPU_ARM_SHA3);
}

int quill_keccak_f1600_x3_hybrid_capable(void) {
    return quill_cpu_has(QUILL_CPU_ARM_NEON);
}
#endif

void quill_keccak_f1600_x4_some(uint64_t s[100], unsigned n) {
#if QUILL_KECCAK_HAVE_A64
    /* Two two-way calls, the second only for more than two states, as the
     * portable path. */
    if (quill_keccak_f1600_x2_neon_sha3_capable()) {
        quill_keccak_f1600_x2_neon_sha3(s);
        if (n > 2)
            quill_keccak_f1600_x2_neon_sha3(s + 2);
        return;
    }
    /* Three states: the hybrid (CPUs without SHA-3; see above). */
    if (n == 3 && quill_keccak_f1600_x3_hybrid_capable()) {
        quill_keccak_f1600_x3_hybrid(s);
        return;
    }
    if (quill_keccak_f1600_x2_neon_capable()) {
        quill_keccak_f1600_x2_neon(s);
        if (n > 2)
            quill_keccak_f1600_x2_neon(s + 2);
        return;
    }
#endif
#if QUILL_KECCAK_HAVE_AVX2
    if (quill_keccak_f1600_x4_avx512vl_capable()) {
#if QUILL_KECCAK_HAVE_AVX512_ASM
        quill_keccak_f1600_x4_avx512vl_asm(s);
#else
        quill_keccak_f1600_x4_avx512vl(s);
#endif
        return;
    }
    if (quill_keccak_f1600_x4_avx2_capable()) {
        quill_keccak_f1600_x4_avx2(s);
        return;
    }
#endif
    keccak_f1600_x2(s);
    if (n > 2)
        keccak_f1600_x2(s + 2);
}

int quill_keccak_f1600_x4_wide(void) {
#if QUILL_KECCAK_HAVE_AVX2
    return quill_keccak_f1600_x4_avx512vl_capable() || quill_keccak_f1600_x4_avx2_capable();
#else
    return 0;
#endif
}

void quill_keccak_f1600_x4(uint64_t s[100]) {
    quill_keccak_f1600_x4_some(s, 4);
}
