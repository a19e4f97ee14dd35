/* Copyright quill authors.
 *
 * Four-way Keccak-f[1600] (FIPS 202, section 3) with AVX2: lane i of the
 * four states in one 256-bit register, theta, rho and pi, chi and iota
 * written out per lane (rotations as two shifts and an OR).  Checked
 * against quill_keccak_f1600 by test_mldsa_arith. */
#include "keccak_x4.h"

#include <string.h>

#include "common/cpu.h"
#include "sha3/sha3.h"

/* Full unrolling keeps the 25 lanes in registers (gcc 12 does not unroll
 * the 25-step loops by itself: 920 -> 330 ns per four permutations). */
#define UNROLL5 _Pragma("GCC unroll 5")
#define UNROLL25 _Pragma("GCC unroll 25")

#if QUILL_MLDSA_HAVE_AVX2
#include <immintrin.h>

#define AVX2 __attribute__((target("avx2")))

static const uint64_t rc[24] = {
    0x0000000000000001ull, 0x0000000000008082ull, 0x800000000000808aull, 0x8000000080008000ull,
    0x000000000000808bull, 0x0000000080000001ull, 0x8000000080008081ull, 0x8000000000008009ull,
    0x000000000000008aull, 0x0000000000000088ull, 0x0000000080008009ull, 0x000000008000000aull,
    0x000000008000808bull, 0x800000000000008bull, 0x8000000000008089ull, 0x8000000000008003ull,
    0x8000000000008002ull, 0x8000000000000080ull, 0x000000000000800aull, 0x800000008000000aull,
    0x8000000080008081ull, 0x8000000000008080ull, 0x0000000080000001ull, 0x8000000080008008ull,
};

#define ROL(v, n) ((n) == 0 ? (v) : _mm256_or_si256(_mm256_slli_epi64((v), (n)), _mm256_srli_epi64((v), 64 - (n))))

AVX2 static void f1600_x4(quill_mldsa_keccak_x4 *st) {
    __m256i a[25], b[25], c[5], d[5];
    for (unsigned i = 0; i < 25; i++)
        a[i] = _mm256_load_si256((const __m256i *)st->s[i]);
    for (unsigned round = 0; round < 24; round++) {
        /* theta */
        UNROLL5 for (unsigned x = 0; x < 5; x++)
            c[x] = _mm256_xor_si256(_mm256_xor_si256(a[x], a[x + 5]),
                                    _mm256_xor_si256(_mm256_xor_si256(a[x + 10], a[x + 15]), a[x + 20]));
        UNROLL5 for (unsigned x = 0; x < 5; x++)
            d[x] = _mm256_xor_si256(c[(x + 4) % 5], ROL(c[(x + 1) % 5], 1));
        UNROLL25 for (unsigned i = 0; i < 25; i++)
            a[i] = _mm256_xor_si256(a[i], d[i % 5]);
        /* rho and pi: B[y, 2x + 3y] = ROT(A[x, y], r[x, y]) */
    b[0] = ROL(a[0], 0);
    b[16] = ROL(a[5], 36);
    b[7] = ROL(a[10], 3);
    b[23] = ROL(a[15], 41);
    b[14] = ROL(a[20], 18);
    b[10] = ROL(a[1], 1);
    b[1] = ROL(a[6], 44);
    b[17] = ROL(a[11], 10);
    b[8] = ROL(a[16], 45);
    b[24] = ROL(a[21], 2);
    b[20] = ROL(a[2], 62);
    b[11] = ROL(a[7], 6);
    b[2] = ROL(a[12], 43);
    b[18] = ROL(a[17], 15);
    b[9] = ROL(a[22], 61);
    b[5] = ROL(a[3], 28);
    b[21] = ROL(a[8], 55);
    b[12] = ROL(a[13], 25);
    b[3] = ROL(a[18], 21);
    b[19] = ROL(a[23], 56);
    b[15] = ROL(a[4], 27);
    b[6] = ROL(a[9], 20);
    b[22] = ROL(a[14], 39);
    b[13] = ROL(a[19], 8);
    b[4] = ROL(a[24], 14);
        /* chi */
        for (unsigned y = 0; y < 25; y += 5)
            UNROLL5 for (unsigned x = 0; x < 5; x++)
                a[y + x] = _mm256_xor_si256(b[y + x], _mm256_andnot_si256(b[y + (x + 1) % 5], b[y + (x + 2) % 5]));
        /* iota */
        a[0] = _mm256_xor_si256(a[0], _mm256_set1_epi64x((long long)rc[round]));
    }
    for (unsigned i = 0; i < 25; i++)
        _mm256_store_si256((__m256i *)st->s[i], a[i]);
}

/* The same rounds with AVX-512VL on 256-bit registers: 32 registers (no
 * spills), vprolq for the rotations and vpternlogq for the three-input
 * XORs of theta and for chi (0x96: a ^ b ^ c; 0xd2: a ^ (~b & c)). */
#define AVX512VL __attribute__((target("avx2,avx512f,avx512vl")))

AVX512VL static void f1600_x4_avx512vl(quill_mldsa_keccak_x4 *st) {
    __m256i a[25], b[25], c[5], d[5];
    for (unsigned i = 0; i < 25; i++)
        a[i] = _mm256_load_si256((const __m256i *)st->s[i]);
    for (unsigned round = 0; round < 24; round++) {
        UNROLL5 for (unsigned x = 0; x < 5; x++)
            c[x] = _mm256_ternarylogic_epi64(_mm256_ternarylogic_epi64(a[x], a[x + 5], a[x + 10], 0x96),
                                             a[x + 15], a[x + 20], 0x96);
        UNROLL5 for (unsigned x = 0; x < 5; x++)
            d[x] = _mm256_xor_si256(c[(x + 4) % 5], _mm256_rol_epi64(c[(x + 1) % 5], 1));
        UNROLL25 for (unsigned i = 0; i < 25; i++)
            a[i] = _mm256_xor_si256(a[i], d[i % 5]);
        b[0] = a[0];
        b[16] = _mm256_rol_epi64(a[5], 36);
        b[7] = _mm256_rol_epi64(a[10], 3);
        b[23] = _mm256_rol_epi64(a[15], 41);
        b[14] = _mm256_rol_epi64(a[20], 18);
        b[10] = _mm256_rol_epi64(a[1], 1);
        b[1] = _mm256_rol_epi64(a[6], 44);
        b[17] = _mm256_rol_epi64(a[11], 10);
        b[8] = _mm256_rol_epi64(a[16], 45);
        b[24] = _mm256_rol_epi64(a[21], 2);
        b[20] = _mm256_rol_epi64(a[2], 62);
        b[11] = _mm256_rol_epi64(a[7], 6);
        b[2] = _mm256_rol_epi64(a[12], 43);
        b[18] = _mm256_rol_epi64(a[17], 15);
        b[9] = _mm256_rol_epi64(a[22], 61);
        b[5] = _mm256_rol_epi64(a[3], 28);
        b[21] = _mm256_rol_epi64(a[8], 55);
        b[12] = _mm256_rol_epi64(a[13], 25);
        b[3] = _mm256_rol_epi64(a[18], 21);
        b[19] = _mm256_rol_epi64(a[23], 56);
        b[15] = _mm256_rol_epi64(a[4], 27);
        b[6] = _mm256_rol_epi64(a[9], 20);
        b[22] = _mm256_rol_epi64(a[14], 39);
        b[13] = _mm256_rol_epi64(a[19], 8);
        b[4] = _mm256_rol_epi64(a[24], 14);
        for (unsigned y = 0; y < 25; y += 5)
            UNROLL5 for (unsigned x = 0; x < 5; x++)
                a[y + x] = _mm256_ternarylogic_epi64(b[y + x], b[y + (x + 1) % 5], b[y + (x + 2) % 5], 0xd2);
        a[0] = _mm256_xor_si256(a[0], _mm256_set1_epi64x((long long)rc[round]));
    }
    for (unsigned i = 0; i < 25; i++)
        _mm256_store_si256((__m256i *)st->s[i], a[i]);
}

/* cpu.h has no AVX-512 bit yet: AVX-512F/VL are asked of the compiler's
 * CPU model (which checks the OS saves the state), and only on top of the
 * AVX2 bit, so QUILL_CPU_MASK still turns the four-way path off. */
static int avx512vl_capable(void) {
    return quill_cpu_has(QUILL_CPU_X86_AVX2) && __builtin_cpu_supports("avx512f") &&
           __builtin_cpu_supports("avx512vl");
}

int quill_mldsa_keccak_x4_capable(void) {
    return quill_cpu_has(QUILL_CPU_X86_AVX2);
}

void quill_mldsa_keccak_f1600_x4(quill_mldsa_keccak_x4 *st) {
    if (avx512vl_capable())
        f1600_x4_avx512vl(st);
    else
        f1600_x4(st);
}
#else
int quill_mldsa_keccak_x4_capable(void) {
    return 0;
}

/* Never called without the capability; kept correct anyway. */
void quill_mldsa_keccak_f1600_x4(quill_mldsa_keccak_x4 *st) {
    uint64_t one[25];
    for (unsigned j = 0; j < 4; j++) {
        UNROLL25 for (unsigned i = 0; i < 25; i++)
            one[i] = st->s[i][j];
        quill_keccak_f1600(one);
        UNROLL25 for (unsigned i = 0; i < 25; i++)
            st->s[i][j] = one[i];
    }
}
#endif

void quill_mldsa_shake_x4_absorb(quill_mldsa_keccak_x4 *st, unsigned rate,
                                 const uint8_t *const in[4], size_t len) {
    memset(st, 0, sizeof(*st));
    for (unsigned j = 0; j < 4; j++) {
        for (size_t p = 0; p < len; p++)
            st->s[p / 8][j] ^= (uint64_t)in[j][p] << (8 * (p % 8));
        st->s[len / 8][j] ^= (uint64_t)0x1f << (8 * (len % 8)); /* SHAKE domain + pad */
        st->s[(rate - 1) / 8][j] ^= (uint64_t)0x80 << (8 * ((rate - 1) % 8));
    }
}

void quill_mldsa_shake_x4_squeeze_blocks(quill_mldsa_keccak_x4 *st, unsigned rate,
                                         uint8_t *const out[4], size_t nblocks) {
    for (size_t blk = 0; blk < nblocks; blk++) {
        quill_mldsa_keccak_f1600_x4(st);
        for (unsigned j = 0; j < 4; j++) {
            uint8_t *o = out[j] + blk * rate;
            for (unsigned i = 0; i < rate / 8; i++) {
                uint64_t v = st->s[i][j];
                for (unsigned b = 0; b < 8; b++)
                    o[8 * i + b] = (uint8_t)(v >> (8 * b));
            }
        }
    }
}
