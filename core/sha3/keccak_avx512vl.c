/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Keccak-f[1600] with AVX-512VL (x86-64), on one state and on four: the
 * round of keccak_round.h with the EVEX forms of two instructions that cut
 * it to about half of its instructions, on 32 vector registers (gcc 12
 * still spills a few temporaries):
 *   VPROLQ rotates a 64-bit lane in one instruction (two shifts and an OR
 *   otherwise);
 *   VPTERNLOGQ computes any three-input bitwise function; imm8 is its truth
 *   table over a = 0xf0, b = 0xcc, c = 0xaa: 0x96 is a ^ b ^ c (theta's
 *   column parity in two instructions per column) and 0xd2 is a ^ (~b & c)
 *   (chi in one instruction per lane).
 *
 * quill_keccak_f1600_avx512vl holds each lane of the single state in the
 * low half of a 128-bit register.  The other half is wasted, but the round
 * is still shorter than the scalar one (one instruction per rotation and
 * per chi lane): on Zen 4 (test/sha3/sha3_speed, 2026-12-03, shared
 * machine) 1.15x to 1.4x faster than the BMI1 scalar code in the same run
 * (e.g. 656 against 925 TSC ticks per permutation).  This is what the
 * serial hashes run on (tr = H(pk), mu, H(mu || w1), SampleInBall).
 * quill_keccak_f1600_x4_avx512vl holds lane i of the four interleaved
 * states of sha3_x4.h (s[4 * i + j]) in one 256-bit register: four
 * permutations for about the cost of one here.
 *
 * Valgrind does not emulate AVX-512: under memcheck these backends report
 * themselves unusable and the others run.  No branch or address depends on
 * the states. */
#include "sha3/keccak.h"

#if QUILL_KECCAK_HAVE_AVX2
#include <immintrin.h>

#include "common/cpu.h"

/* GCC and Clang define ^ on the vector types. */
#define KXOR(a, b) ((a) ^ (b))
#define KANDN(a, b) (~(a) & (b))
#define KCHI(a, b, c) KTERN((a), (b), (c), 0xd2)
#define KXOR5(a, b, c, d, e) KTERN(KTERN((a), (b), (c), 0x96), (d), (e), 0x96)
#include "sha3/keccak_round.h"

/* One state, lane i in the low 64 bits of a 128-bit register. */
#define KT __m128i
#define KTERN(a, b, c, imm) _mm_ternarylogic_epi64((a), (b), (c), (imm))
#define KROL(a, r) _mm_rol_epi64((a), (r))
#define KRC(c) _mm_cvtsi64_si128((long long)(c))
#define LOAD(i) _mm_cvtsi64_si128((long long)s[i])
#define STORE(i, v) s[i] = (uint64_t)_mm_cvtsi128_si64(v)

__attribute__((target("avx2,avx512f,avx512vl"))) void quill_keccak_f1600_avx512vl(uint64_t s[25]) {
    KECCAK_PERMUTE(LOAD, STORE, KECCAK_ROUND, KECCAK_NOTHING, KECCAK_NOTHING);
}

#undef KT
#undef KTERN
#undef KROL
#undef KRC
#undef LOAD
#undef STORE

/* Four states, lane i of state j in 64-bit element j of a 256-bit register. */
#define KT __m256i
#define KTERN(a, b, c, imm) _mm256_ternarylogic_epi64((a), (b), (c), (imm))
#define KROL(a, r) _mm256_rol_epi64((a), (r))
#define KRC(c) _mm256_set1_epi64x((long long)(c))
#define LOAD(i) _mm256_loadu_si256((const __m256i *)(s + 4 * (i)))
#define STORE(i, v) _mm256_storeu_si256((__m256i *)(s + 4 * (i)), (v))

__attribute__((target("avx2,avx512f,avx512vl"))) void
quill_keccak_f1600_x4_avx512vl(uint64_t s[100]) {
    KECCAK_PERMUTE(LOAD, STORE, KECCAK_ROUND, KECCAK_NOTHING, KECCAK_NOTHING);
}

int quill_keccak_f1600_avx512vl_capable(void) {
    return quill_cpu_has(QUILL_CPU_X86_AVX512VL);
}

int quill_keccak_f1600_x4_avx512vl_capable(void) {
    return quill_keccak_f1600_avx512vl_capable();
}
#endif
