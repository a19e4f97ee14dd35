/* Copyright quill authors.
 *
 * Keccak-f[1600] (FIPS 202, Section 3.3 and Algorithm 7) in portable C.
 *
 * Lane A[x, y] of the state is s[x + 5y] and lives in the local variable
 * aXY (x first) during the permutation.  One round is written per output
 * row of chi: the five lanes that pi sends to row y are read, theta's column
 * parity D[x] is added and rho rotates them, then chi and (for row 0) iota
 * produce the row.  Two rounds alternate between the a-lanes and the
 * e-lanes, so no copying is needed; the loop body is two rounds.
 *
 * Where the constants come from:
 *  - pi (Section 3.2.3) moves A[x, y] to B[y, 2x + 3y mod 5]; hence B[X, Y]
 *    is A[X + 3Y mod 5, X].  Row Y of the output reads A[3Y + X, X] for
 *    X = 0..4.
 *  - rho (Algorithm 2) rotates A[x, y] left by (t + 1)(t + 2) / 2 mod 64
 *    where (x, y) is the t-th point of the walk (1, 0), (y, 2x + 3y), ...;
 *    A[0, 0] is not rotated.  The offsets used below, as r[x][y]:
 *       y=0:  0  1 62 28 27     y=1: 36 44  6 55 20     y=2:  3 10 43 25 39
 *       y=3: 41 45 15 21  8     y=4: 18  2 61 56 14
 *  - iota (Algorithms 5 and 6): RC[i] has bit 2^j - 1 equal to rc(j + 7i)
 *    for j = 0..6, rc being the LFSR x^8 + x^6 + x^5 + x^4 + 1.
 * The known-answer tests in test/sha3/ would fail on any wrong constant.
 *
 * No branch or address depends on the state: it is safe on secrets.
 *
 * Backends (keccak.h): quill_keccak_f1600_c is this code as compiled for
 * the baseline ISA; quill_keccak_f1600_bmi is the same source compiled for
 * BMI1 (x86-64 only, not with QUILL_NO_ASM); quill_keccak_f1600 picks one
 * per call from the CPU bits probed once. */
#include "sha3/keccak.h"

#include "common/compiler.h"
#include "common/cpu.h"
#include "sha3/sha3.h"

#define ROL64(x, r) (((x) << (r)) | ((x) >> ((64 - (r)) & 63)))

static const uint64_t keccak_rc[24] = {
    0x0000000000000001, 0x0000000000008082, 0x800000000000808a, 0x8000000080008000,
    0x000000000000808b, 0x0000000080000001, 0x8000000080008081, 0x8000000000008009,
    0x000000000000008a, 0x0000000000000088, 0x0000000080008009, 0x000000008000000a,
    0x000000008000808b, 0x800000000000008b, 0x8000000000008089, 0x8000000000008003,
    0x8000000000008002, 0x8000000000000080, 0x000000000000800a, 0x800000008000000a,
    0x8000000080008081, 0x8000000000008080, 0x0000000080000001, 0x8000000080008008,
};

/* KECCAK_ROW computes one output row (o0..o4) of chi from the five input
 * lanes i0..i4 after theta (xor d0..d4) and rho (rotate by r0..r4). */
#define KECCAK_ROW(o0, o1, o2, o3, o4, i0, d0, r0, i1, d1, r1, i2, d2, r2, i3, d3, r3, i4, \
                   d4, r4)                                                                   \
    do {                                                                                     \
        uint64_t b0 = i0 ^ d0, b1 = i1 ^ d1, b2 = i2 ^ d2, b3 = i3 ^ d3, b4 = i4 ^ d4;       \
        b0 = ROL64(b0, r0);                                                                  \
        b1 = ROL64(b1, r1);                                                                  \
        b2 = ROL64(b2, r2);                                                                  \
        b3 = ROL64(b3, r3);                                                                  \
        b4 = ROL64(b4, r4);                                                                  \
        o0 = b0 ^ (~b1 & b2);                                                                \
        o1 = b1 ^ (~b2 & b3);                                                                \
        o2 = b2 ^ (~b3 & b4);                                                                \
        o3 = b3 ^ (~b4 & b0);                                                                \
        o4 = b4 ^ (~b0 & b1);                                                                \
    } while (0)

/* KECCAK_ROUND reads the lanes named A##xy and writes the lanes E##xy. */
#define KECCAK_ROUND(A, E, rc)                                                               \
    do {                                                                                     \
        uint64_t c0 = A##00 ^ A##01 ^ A##02 ^ A##03 ^ A##04;                                 \
        uint64_t c1 = A##10 ^ A##11 ^ A##12 ^ A##13 ^ A##14;                                 \
        uint64_t c2 = A##20 ^ A##21 ^ A##22 ^ A##23 ^ A##24;                                 \
        uint64_t c3 = A##30 ^ A##31 ^ A##32 ^ A##33 ^ A##34;                                 \
        uint64_t c4 = A##40 ^ A##41 ^ A##42 ^ A##43 ^ A##44;                                 \
        uint64_t d0 = c4 ^ ROL64(c1, 1), d1 = c0 ^ ROL64(c2, 1), d2 = c1 ^ ROL64(c3, 1);     \
        uint64_t d3 = c2 ^ ROL64(c4, 1), d4 = c3 ^ ROL64(c0, 1);                             \
        KECCAK_ROW(E##00, E##10, E##20, E##30, E##40, A##00, d0, 0, A##11, d1, 44, A##22,    \
                   d2, 43, A##33, d3, 21, A##44, d4, 14);                                    \
        E##00 ^= (rc);                                                                       \
        KECCAK_ROW(E##01, E##11, E##21, E##31, E##41, A##30, d3, 28, A##41, d4, 20, A##02,   \
                   d0, 3, A##13, d1, 45, A##24, d2, 61);                                     \
        KECCAK_ROW(E##02, E##12, E##22, E##32, E##42, A##10, d1, 1, A##21, d2, 6, A##32, d3, \
                   25, A##43, d4, 8, A##04, d0, 18);                                         \
        KECCAK_ROW(E##03, E##13, E##23, E##33, E##43, A##40, d4, 27, A##01, d0, 36, A##12,   \
                   d1, 10, A##23, d2, 15, A##34, d3, 56);                                    \
        KECCAK_ROW(E##04, E##14, E##24, E##34, E##44, A##20, d2, 62, A##31, d3, 55, A##42,   \
                   d4, 39, A##03, d0, 41, A##14, d1, 2);                                     \
    } while (0)

QUILL_INLINE void keccak_f1600_body(uint64_t s[25]) {
    uint64_t a00 = s[0], a10 = s[1], a20 = s[2], a30 = s[3], a40 = s[4];
    uint64_t a01 = s[5], a11 = s[6], a21 = s[7], a31 = s[8], a41 = s[9];
    uint64_t a02 = s[10], a12 = s[11], a22 = s[12], a32 = s[13], a42 = s[14];
    uint64_t a03 = s[15], a13 = s[16], a23 = s[17], a33 = s[18], a43 = s[19];
    uint64_t a04 = s[20], a14 = s[21], a24 = s[22], a34 = s[23], a44 = s[24];
    uint64_t e00, e10, e20, e30, e40, e01, e11, e21, e31, e41, e02, e12, e22, e32, e42;
    uint64_t e03, e13, e23, e33, e43, e04, e14, e24, e34, e44;

    for (unsigned i = 0; i < 24; i += 2) {
        KECCAK_ROUND(a, e, keccak_rc[i]);
        KECCAK_ROUND(e, a, keccak_rc[i + 1]);
    }

    s[0] = a00, s[1] = a10, s[2] = a20, s[3] = a30, s[4] = a40;
    s[5] = a01, s[6] = a11, s[7] = a21, s[8] = a31, s[9] = a41;
    s[10] = a02, s[11] = a12, s[12] = a22, s[13] = a32, s[14] = a42;
    s[15] = a03, s[16] = a13, s[17] = a23, s[18] = a33, s[19] = a43;
    s[20] = a04, s[21] = a14, s[22] = a24, s[23] = a34, s[24] = a44;
}

void quill_keccak_f1600_c(uint64_t s[25]) {
    keccak_f1600_body(s);
}

#if QUILL_KECCAK_HAVE_BMI
/* The same code compiled for BMI1, whose ANDN computes ~b1 & b2 in one
 * instruction: chi then costs two instructions per lane instead of four. */
__attribute__((target("bmi"))) void quill_keccak_f1600_bmi(uint64_t s[25]) {
    keccak_f1600_body(s);
}

int quill_keccak_f1600_bmi_capable(void) {
    /* cpu.h has no BMI1 bit; BMI2 stands in for it: every x86-64 CPU with
     * BMI2 (Intel from Haswell, AMD from Excavator) has BMI1. */
    return quill_cpu_has(QUILL_CPU_X86_BMI2);
}
#endif

void quill_keccak_f1600(uint64_t s[25]) {
#if QUILL_KECCAK_HAVE_BMI
    if (quill_keccak_f1600_bmi_capable()) {
        quill_keccak_f1600_bmi(s);
        return;
    }
#endif
    quill_keccak_f1600_c(s);
}
