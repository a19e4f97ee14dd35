/* Copyright quill authors.
 *
 * Keccak-f[1600] on four interleaved states (sha3_x4.h): s[4 * i + j] is
 * lane i of state j.
 *
 * quill_keccak_f1600_x4_avx2 keeps lane i of the four states in one 256-bit
 * vector and runs the round of keccak_round.h on vectors: AVX2 has no
 * 64-bit rotate, so rotations are two shifts and an OR, except by 8 and 56
 * bits, which are byte shuffles (one instruction).
 * quill_keccak_f1600_x4_avx512vl is the same on 256-bit vectors with the
 * AVX-512VL rotate and three-input logic instructions.
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
 * than the two in turn).  No branch or address depends on the states. */
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
    quill_v2u64 a00 = LOAD(0), a10 = LOAD(1), a20 = LOAD(2), a30 = LOAD(3), a40 = LOAD(4);
    quill_v2u64 a01 = LOAD(5), a11 = LOAD(6), a21 = LOAD(7), a31 = LOAD(8), a41 = LOAD(9);
    quill_v2u64 a02 = LOAD(10), a12 = LOAD(11), a22 = LOAD(12), a32 = LOAD(13), a42 = LOAD(14);
    quill_v2u64 a03 = LOAD(15), a13 = LOAD(16), a23 = LOAD(17), a33 = LOAD(18), a43 = LOAD(19);
    quill_v2u64 a04 = LOAD(20), a14 = LOAD(21), a24 = LOAD(22), a34 = LOAD(23), a44 = LOAD(24);
    quill_v2u64 e00, e10, e20, e30, e40, e01, e11, e21, e31, e41, e02, e12, e22, e32, e42;
    quill_v2u64 e03, e13, e23, e33, e43, e04, e14, e24, e34, e44;

    for (unsigned i = 0; i < 24; i += 2) {
        KECCAK_ROUND(a, e, quill_keccak_rc[i]);
        KECCAK_ROUND(e, a, quill_keccak_rc[i + 1]);
    }

    STORE(0, a00), STORE(1, a10), STORE(2, a20), STORE(3, a30), STORE(4, a40);
    STORE(5, a01), STORE(6, a11), STORE(7, a21), STORE(8, a31), STORE(9, a41);
    STORE(10, a02), STORE(11, a12), STORE(12, a22), STORE(13, a32), STORE(14, a42);
    STORE(15, a03), STORE(16, a13), STORE(17, a23), STORE(18, a33), STORE(19, a43);
    STORE(20, a04), STORE(21, a14), STORE(22, a24), STORE(23, a34), STORE(24, a44);
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
    __m256i a00 = LOAD(0), a10 = LOAD(1), a20 = LOAD(2), a30 = LOAD(3), a40 = LOAD(4);
    __m256i a01 = LOAD(5), a11 = LOAD(6), a21 = LOAD(7), a31 = LOAD(8), a41 = LOAD(9);
    __m256i a02 = LOAD(10), a12 = LOAD(11), a22 = LOAD(12), a32 = LOAD(13), a42 = LOAD(14);
    __m256i a03 = LOAD(15), a13 = LOAD(16), a23 = LOAD(17), a33 = LOAD(18), a43 = LOAD(19);
    __m256i a04 = LOAD(20), a14 = LOAD(21), a24 = LOAD(22), a34 = LOAD(23), a44 = LOAD(24);
    __m256i e00, e10, e20, e30, e40, e01, e11, e21, e31, e41, e02, e12, e22, e32, e42;
    __m256i e03, e13, e23, e33, e43, e04, e14, e24, e34, e44;

    for (unsigned i = 0; i < 24; i += 2) {
        KECCAK_ROUND(a, e, quill_keccak_rc[i]);
        KECCAK_ROUND(e, a, quill_keccak_rc[i + 1]);
    }

    STORE(0, a00), STORE(1, a10), STORE(2, a20), STORE(3, a30), STORE(4, a40);
    STORE(5, a01), STORE(6, a11), STORE(7, a21), STORE(8, a31), STORE(9, a41);
    STORE(10, a02), STORE(11, a12), STORE(12, a22), STORE(13, a32), STORE(14, a42);
    STORE(15, a03), STORE(16, a13), STORE(17, a23), STORE(18, a33), STORE(19, a43);
    STORE(20, a04), STORE(21, a14), STORE(22, a24), STORE(23, a34), STORE(24, a44);
}

int quill_keccak_f1600_x4_avx2_capable(void) {
    return quill_cpu_has(QUILL_CPU_X86_AVX2);
}

/* The AVX-512VL form of the same round, still on 256-bit vectors: VPROLQ
 * rotates in one instruction and VPTERNLOGQ computes three-input functions:
 * imm8 0x96 is a ^ b ^ c, 0xd2 is a ^ (~b & c) (the truth table of the
 * function over a = 0xf0, b = 0xcc, c = 0xaa). */
#undef KXOR5
#undef KROL
#undef KCHI
#define KXOR3(a, b, c) _mm256_ternarylogic_epi64((a), (b), (c), 0x96)
#define KXOR5(a, b, c, d, e) KXOR3(KXOR3(a, b, c), d, e)
#define KROL(a, r) _mm256_rol_epi64((a), (r))
#define KCHI(a, b, c) _mm256_ternarylogic_epi64((a), (b), (c), 0xd2)

__attribute__((target("avx2,avx512f,avx512vl"))) void
quill_keccak_f1600_x4_avx512vl(uint64_t s[100]) {
    __m256i a00 = LOAD(0), a10 = LOAD(1), a20 = LOAD(2), a30 = LOAD(3), a40 = LOAD(4);
    __m256i a01 = LOAD(5), a11 = LOAD(6), a21 = LOAD(7), a31 = LOAD(8), a41 = LOAD(9);
    __m256i a02 = LOAD(10), a12 = LOAD(11), a22 = LOAD(12), a32 = LOAD(13), a42 = LOAD(14);
    __m256i a03 = LOAD(15), a13 = LOAD(16), a23 = LOAD(17), a33 = LOAD(18), a43 = LOAD(19);
    __m256i a04 = LOAD(20), a14 = LOAD(21), a24 = LOAD(22), a34 = LOAD(23), a44 = LOAD(24);
    __m256i e00, e10, e20, e30, e40, e01, e11, e21, e31, e41, e02, e12, e22, e32, e42;
    __m256i e03, e13, e23, e33, e43, e04, e14, e24, e34, e44;

    for (unsigned i = 0; i < 24; i += 2) {
        KECCAK_ROUND(a, e, quill_keccak_rc[i]);
        KECCAK_ROUND(e, a, quill_keccak_rc[i + 1]);
    }

    STORE(0, a00), STORE(1, a10), STORE(2, a20), STORE(3, a30), STORE(4, a40);
    STORE(5, a01), STORE(6, a11), STORE(7, a21), STORE(8, a31), STORE(9, a41);
    STORE(10, a02), STORE(11, a12), STORE(12, a22), STORE(13, a32), STORE(14, a42);
    STORE(15, a03), STORE(16, a13), STORE(17, a23), STORE(18, a33), STORE(19, a43);
    STORE(20, a04), STORE(21, a14), STORE(22, a24), STORE(23, a34), STORE(24, a44);
}

int quill_keccak_f1600_x4_avx512vl_capable(void) {
    return quill_cpu_has(QUILL_CPU_X86_AVX512VL);
}
#endif

void quill_keccak_f1600_x4_some(uint64_t s[100], unsigned n) {
#if QUILL_KECCAK_HAVE_AVX2
    if (quill_keccak_f1600_x4_avx512vl_capable()) {
        quill_keccak_f1600_x4_avx512vl(s);
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

void quill_keccak_f1600_x4(uint64_t s[100]) {
    quill_keccak_f1600_x4_some(s, 4);
}
