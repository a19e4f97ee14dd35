/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Keccak-f[1600] (FIPS 202, Section 3.3 and Algorithm 7) in portable C.
 *
 * Lane A[x, y] of the state is s[x + 5y] and lives in a local variable
 * during the permutation; the round itself (theta, rho, pi, chi and iota
 * per output row, with the derivation of its constants) is in
 * keccak_round.h, shared with the four-way permutation.  Two rounds
 * alternate between the a-lanes and the e-lanes, so no copying is needed;
 * the loop body is two rounds (a full unroll measured slower).
 *
 * Baseline x86-64 lacks an and-not instruction, so there
 * quill_keccak_f1600_c holds six lanes complemented during the permutation
 * (KECCAK_ROUND_LC, keccak_round.h): chi then needs 5 NOTs per round instead
 * of 25, about 9% faster (790 -> 720 TSC ticks per permutation on Zen 4 with
 * gcc 12 -O3).  Where the ISA has and-not (AArch64 and 32-bit Arm BIC,
 * POWER ANDC, x86 with BMI1 ANDN, RISC-V Zbb ANDN) chi is already two
 * instructions per lane and the complemented round would only add its NOTs
 * (measured with BMI1: 666 ticks plain, 722 complemented), so the plain
 * round runs there (KECCAK_C_COMPLEMENT).
 *
 * iota (Algorithms 5 and 6): RC[i] has bit 2^j - 1 equal to rc(j + 7i) for
 * j = 0..6, rc being the LFSR x^8 + x^6 + x^5 + x^4 + 1 (quill_keccak_rc).
 *
 * No branch or address depends on the state: it is safe on secrets.
 *
 * Backends (keccak.h): quill_keccak_f1600_c is this code as compiled for
 * the baseline ISA; quill_keccak_f1600_bmi is the same source compiled for
 * BMI1 (x86-64 only, not with QUILL_NO_ASM); quill_keccak_f1600_avx512vl
 * (keccak_avx512vl.c) runs the round on vector registers, 1.15x to 1.4x
 * faster than BMI1 on Zen 4, and on x86-64 ELF its generated assembly twin
 * quill_keccak_f1600_avx512vl_asm (asm/x86_64/keccak_x4_avx512vl.S) runs
 * instead, ~501 against ~581 TSC ticks (quill-limits keccak.x1 lines); on aarch64 with the ARMv8.2-A SHA-3
 * instructions, quill_keccak_f1600_neon_sha3 (asm/aarch64/keccak_sha3.S)
 * runs it on the low halves of NEON registers; an aarch64 CPU without them
 * runs quill_keccak_f1600_c, since scalar assembly would not gain: by
 * llvm-mca-16's model behind -mcpu=neoverse-n1 (Cortex-A57's tables),
 * gcc 12 -O3's code of it takes 1521 cycles per permutation and OpenSSL
 * 3.0's hand-written armv8 KeccakF1600 1530 (Cyclone's tables behind
 * -mcpu=apple-m1: 3040 and 3034);
 * quill_keccak_f1600 picks one per call from the CPU bits probed once. */
#include "sha3/keccak.h"

#include "common/compiler.h"
#include "common/cpu.h"
#include "sha3/sha3.h"

#define ROL64(x, r) (((x) << (r)) | ((x) >> ((64 - (r)) & 63)))

const uint64_t quill_keccak_rc[24] = {
    0x0000000000000001, 0x0000000000008082, 0x800000000000808a, 0x8000000080008000,
    0x000000000000808b, 0x0000000080000001, 0x8000000080008081, 0x8000000000008009,
    0x000000000000008a, 0x0000000000000088, 0x0000000080008009, 0x000000008000000a,
    0x000000008000808b, 0x800000000000008b, 0x8000000000008089, 0x8000000000008003,
    0x8000000000008002, 0x8000000000000080, 0x000000000000800a, 0x800000008000000a,
    0x8000000080008081, 0x8000000000008080, 0x0000000080000001, 0x8000000080008008,
};

#define KT uint64_t
#define KXOR(a, b) ((a) ^ (b))
#define KXOR5(a, b, c, d, e) ((a) ^ (b) ^ (c) ^ (d) ^ (e))
#define KANDN(a, b) (~(a) & (b))
#define KROL(a, r) ROL64(a, r)
#define KRC(c) (c)
#define KNOT(a) (~(a))
#define KAND(a, b) ((a) & (b))
#define KOR(a, b) ((a) | (b))
#include "sha3/keccak_round.h"

/* KECCAK_C_COMPLEMENT is 1 when the portable build's target has no and-not
 * instruction (see above). */
#if defined(__aarch64__) || defined(__arm__) || defined(__powerpc__) || defined(__BMI__) || \
    defined(__riscv_zbb)
#define KECCAK_C_COMPLEMENT 0
#else
#define KECCAK_C_COMPLEMENT 1
#endif

/* keccak_f1600_body permutes s; with complement set it runs the
 * lane-complemented round (a constant after inlining). */
#define LOAD(i) s[i]
#define STORE(i, v) s[i] = (v)

QUILL_INLINE void keccak_f1600_body(uint64_t s[25], int complement) {
    if (complement)
        KECCAK_PERMUTE(LOAD, STORE, KECCAK_ROUND_LC, KECCAK_LC_FLIP, KECCAK_LC_FLIP);
    else
        KECCAK_PERMUTE(LOAD, STORE, KECCAK_ROUND, KECCAK_NOTHING, KECCAK_NOTHING);
}

void quill_keccak_f1600_c(uint64_t s[25]) {
    keccak_f1600_body(s, KECCAK_C_COMPLEMENT);
}

#if QUILL_KECCAK_HAVE_BMI
/* The same code compiled for BMI1, whose ANDN computes ~b1 & b2 in one
 * instruction: chi then costs two instructions per lane, without lane
 * complementing. */
__attribute__((target("bmi"))) void quill_keccak_f1600_bmi(uint64_t s[25]) {
    keccak_f1600_body(s, 0);
}

int quill_keccak_f1600_bmi_capable(void) {
    return quill_cpu_has(QUILL_CPU_X86_BMI1);
}
#endif

#if QUILL_KECCAK_HAVE_A64
int quill_keccak_f1600_neon_sha3_capable(void) {
    return quill_cpu_has(QUILL_CPU_ARM_NEON | QUILL_CPU_ARM_SHA3);
}
#endif

void quill_keccak_f1600(uint64_t s[25]) {
#if QUILL_KECCAK_HAVE_A64
    if (quill_keccak_f1600_neon_sha3_capable()) {
        quill_keccak_f1600_neon_sha3(s);
        return;
    }
#endif
#if QUILL_KECCAK_HAVE_AVX2
    if (quill_keccak_f1600_avx512vl_capable()) {
#if QUILL_KECCAK_HAVE_AVX512_ASM
        quill_keccak_f1600_avx512vl_asm(s);
#else
        quill_keccak_f1600_avx512vl(s);
#endif
        return;
    }
#endif
#if QUILL_KECCAK_HAVE_BMI
    if (quill_keccak_f1600_bmi_capable()) {
        quill_keccak_f1600_bmi(s);
        return;
    }
#endif
    quill_keccak_f1600_c(s);
}
