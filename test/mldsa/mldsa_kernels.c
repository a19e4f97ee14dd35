/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * mldsa_kernels: TSC ticks per call of the kernels that signing and
 * verification are made of, at the CPU level the process runs at
 * (QUILL_CPU_MASK applies), for the per-operation budget (README,
 * "Limits").  Timing tool, not a test.  Each kernel runs in batches of 64
 * calls on the same data; the figure is the smallest batch mean of 200
 * batches (other jobs on the core only add time).  Usage: mldsa_kernels. */
#include <stdio.h>
#include <string.h>
#if defined(__x86_64__)
#include <x86intrin.h>
#endif

#include "mldsa/mldsa.h"
#include "mldsa/ntt.h"
#include "mldsa/ntt16.h"
#include "mldsa/pack.h"
#include "mldsa/params.h"
#include "mldsa/poly.h"
#include "mldsa/rounding.h"
#include "mldsa/sample.h"
#include "mldsa/sign_row.h"
#include "sha3/sha3.h"
#include "sha3/sha3_x4.h"
#include "mldsa_ref.h"
#include "test_util.h"

#if defined(__x86_64__)
static quill_mldsa_poly pa[8], pb[8], pr[8];
static quill_mldsa_pair16 pair;
static quill_mldsa_chal16 chal;
static uint64_t st4[100], st1[25];
static uint8_t buf[4096];

#define BATCH 64
#define TIME(label, stmt)                                                                       \
    do {                                                                                        \
        uint64_t best = ~(uint64_t)0;                                                           \
        for (int r_ = 0; r_ < 200; r_++) {                                                      \
            uint64_t t0_ = __rdtsc();                                                           \
            for (int i_ = 0; i_ < BATCH; i_++) {                                                \
                stmt;                                                                           \
                __asm__ volatile("" ::: "memory");                                              \
            }                                                                                   \
            uint64_t t_ = __rdtsc() - t0_;                                                      \
            if (t_ < best)                                                                      \
                best = t_;                                                                      \
        }                                                                                       \
        printf("%-34s %8.0f\n", label, (double)best / BATCH);                                 \
    } while (0)

static void fill(void) {
    for (unsigned j = 0; j < 8; j++)
        for (unsigned i = 0; i < QUILL_MLDSA_N; i++) {
            pa[j].c[i] = (int32_t)(qt_rng_u64() % QUILL_MLDSA_Q);
            pb[j].c[i] = (int32_t)(qt_rng_u64() % (2 * 131072)) - 131072;
        }
}

/* The pieces of key generation outside Keccak (keygen.c, keygen_lanes.c):
 * the parsers on one stream's worth of bytes, the reordering into the
 * NTT order, packing and Power2Round, and one whole key from a seed. */
static int g_bad;

/* The ExpandS parser this CPU runs (as sample.c picks it) on len bytes of
 * buf; quill_mldsa_rej_eta_avx2 exists only where QUILL_MLDSA_HAVE_AVX2
 * (not in the portable build). */
static unsigned rej_eta(int32_t a[QUILL_MLDSA_N], size_t len, unsigned eta) {
#if QUILL_MLDSA_HAVE_AVX2
    if (quill_mldsa_rej_eta_avx512vl_capable())
        return quill_mldsa_rej_eta_avx512vl(a, 0, buf, len, eta);
    if (quill_mldsa_rej_eta_avx2_capable())
        return quill_mldsa_rej_eta_avx2(a, 0, buf, len, eta);
#endif
    return quill_mldsa_rej_eta_c(a, 0, buf, len, eta);
}

static void keygen_kernels(const quill_mldsa_params *p44, const quill_mldsa_params *p65) {
    static int32_t stage[QUILL_MLDSA_N];
    static quill_mldsa_poly s12[QUILL_MLDSA_L_MAX + QUILL_MLDSA_K_MAX];
    const quill_mldsa_params *p87 = quill_mldsa_params_get(QUILL_MLDSA_87);
    const quill_mldsa_rej_ntt_fn rej_ntt = quill_mldsa_rej_ntt_pick();
    for (unsigned i = 0; i < QUILL_MLDSA_N; i++) {
        pr[2].c[i] = (int32_t)(qt_rng_u64() % 5) - 2;
        pr[3].c[i] = (int32_t)(qt_rng_u64() % 9) - 4;
        pr[4].c[i] = (int32_t)(qt_rng_u64() % (1u << 10));
        pr[5].c[i] = (int32_t)(qt_rng_u64() % (1u << 13)) - 4095;
    }
    TIME("keygen: rej_ntt (5 blocks, 840 bytes)", (void)rej_ntt(stage, 0, buf, 840));
    TIME("keygen: rej_ntt_order", quill_mldsa_rej_ntt_order(&pr[6], stage, 0));
    TIME("keygen: rej_ntt_chunks (840 bytes)",
         (void)quill_mldsa_rej_ntt_chunks(&pr[6], buf, 840));
    TIME("keygen: rej_eta eta 2 (2 blocks)", (void)rej_eta(pr[7].c, 272, 2));
    TIME("keygen: rej_eta eta 4 (2 blocks)", (void)rej_eta(pr[7].c, 272, 4));
    {
        const quill_mldsa_rej_eta_fn eta_fn = quill_mldsa_rej_eta_pick();
        TIME("keygen: rej_eta eta 4 (block by block)",
             (void)eta_fn(pr[7].c, eta_fn(pr[7].c, 0, buf, 136, 4), buf + 136, 136, 4));
        TIME("keygen: rej_eta eta 2 (block by block)",
             (void)eta_fn(pr[7].c, eta_fn(pr[7].c, 0, buf, 136, 2), buf + 136, 136, 2));
    }
#if QUILL_MLDSA_HAVE_AVX2
    if (quill_mldsa_rej_eta_avx2_capable()) {
        TIME("keygen: rej_eta_avx2 eta 2 (2 blocks)",
             (void)quill_mldsa_rej_eta_avx2(pr[7].c, 0, buf, 272, 2));
        TIME("keygen: rej_eta_avx2 eta 4 (2 blocks)",
             (void)quill_mldsa_rej_eta_avx2(pr[7].c, 0, buf, 272, 4));
        TIME("keygen: rej_ntt_avx2 (5 blocks, 840 bytes)",
             (void)quill_mldsa_rej_ntt_avx2(stage, 0, buf, 840));
    }
#endif
    TIME("keygen: pack_eta eta 2", quill_mldsa_poly_pack_eta(buf + 2048, &pr[2], p44));
    TIME("keygen: pack_eta eta 4", quill_mldsa_poly_pack_eta(buf + 2048, &pr[3], p65));
    TIME("keygen: power2round", mdt_poly_power2round(&pr[6], &pr[7], &pa[0]));
    TIME("keygen: row end, unfused",
         (pr[0] = pa[1], quill_mldsa_invntt_tomont(pr[0].c),
          quill_mldsa_poly_add(&pr[0], &pr[0], &pr[3]), quill_mldsa_poly_freeze(&pr[0]),
          mdt_poly_power2round(&pr[6], &pr[0], &pr[0])));
    TIME("keygen: row end, invntt_power2round",
         (pr[0] = pa[1], quill_mldsa_invntt_power2round(pr[6].c, pr[0].c, pr[3].c)));
    TIME("keygen: pack_t1", quill_mldsa_poly_pack_t1(buf + 2048, &pr[4]));
    TIME("keygen: pack_t0", quill_mldsa_poly_pack_t0(buf + 2048, &pr[5]));
    TIME("keygen: expand_s ML-DSA-44", quill_mldsa_expand_s(s12, s12 + 4, buf, p44));
    TIME("keygen: expand_s ML-DSA-65", quill_mldsa_expand_s(s12, s12 + 5, buf, p65));
    static const quill_mldsa_params *ps[3];
    ps[0] = p44;
    ps[1] = p65;
    ps[2] = p87;
    for (int s = 0; s < 3; s++) {
        char label[64];
        snprintf(label, sizeof(label), "keygen: key_from_seed + free %d",
                 s == 0 ? 44 : s == 1 ? 65 : 87);
        quill_mldsa_key *key = NULL;
        TIME(label, (g_bad |= quill_mldsa_key_from_seed(&key, ps[s]->set, buf) != QUILL_OK,
                     quill_mldsa_key_free(key)));
    }
}

int main(void) {
    qt_rng_seed(5);
    qt_rng_bytes(buf, sizeof(buf));
    fill();
    const quill_mldsa_params *p44 = quill_mldsa_params_get(QUILL_MLDSA_44);
    const quill_mldsa_params *p65 = quill_mldsa_params_get(QUILL_MLDSA_65);
    printf("kernel                             TSC ticks per call\n");
    TIME("keccak_f1600 (single state)", quill_keccak_f1600(st1));
    TIME("keccak_f1600_x4 (four states)", quill_keccak_f1600_x4(st4));
    {
        static quill_keccak_x4 kx;
        uint8_t *outs[4] = {buf, buf + 512, buf + 1024, buf + 1536};
        kx.rate = QUILL_SHAKE128_RATE;
        TIME("keccak_x4_read_block (4 x 168 B)", quill_keccak_x4_read_block(&kx, outs));
        kx.rate = QUILL_SHAKE256_RATE;
        TIME("keccak_x4_read_block (4 x 136 B)", quill_keccak_x4_read_block(&kx, outs));
    }
    TIME("ntt", (pr[0] = pb[0], quill_mldsa_ntt(pr[0].c)));
    TIME("poly copy (1 KiB, for reference)", pr[0] = pb[0]);
    TIME("invntt_tomont_freeze", (pr[0] = pa[0], quill_mldsa_invntt_tomont_freeze(pr[0].c)));
    TIME("invntt_tomont", (pr[0] = pa[0], quill_mldsa_invntt_tomont(pr[0].c)));
    TIME("dot_mont n=4", quill_mldsa_dot_mont(pr[1].c, pa[0].c, pa[0].c, 4));
    TIME("dot_mont n=5", quill_mldsa_dot_mont(pr[1].c, pa[0].c, pa[0].c, 5));
    TIME("dot_mont n=7", quill_mldsa_dot_mont(pr[1].c, pa[0].c, pa[0].c, 7));
    TIME("dot_mont_x2 n=4 (two rows)", quill_mldsa_dot_mont_x2(pr[1].c, pr[2].c, pa[0].c, pa[4].c,
                                                            pa[0].c, 4));
    TIME("dot_mont_x2 n=5 (two rows)", quill_mldsa_dot_mont_x2(pr[1].c, pr[2].c, pa[0].c, pa[3].c,
                                                            pa[0].c, 5));
    TIME("dot_mont_x2 n=7 (two rows)", quill_mldsa_dot_mont_x2(pr[1].c, pr[2].c, pa[0].c, pa[1].c,
                                                            pa[0].c, 7));
    TIME("pointwise_mont", quill_mldsa_pointwise_mont(pr[1].c, pa[0].c, pa[1].c));
    for (unsigned i = 0; i < QUILL_MLDSA_N; i++)
        pr[2].c[i] = (int32_t)(qt_rng_u64() % 3) - 1;
    quill_mldsa_pair16_set(&pair, pr[2].c, pr[2].c);
    quill_mldsa_ntt16(&pair);
    TIME("mulc16_prepare", quill_mldsa_mulc16_prepare(&chal, pr[2].c));
    TIME("mulc16 (two products c a, c b)", quill_mldsa_mulc16(pr[3].c, &chal, &pair, 9));
    {
        /* one row of signing's checks (sign_row.h), with z and without,
         * on the same pair for s and t0 (the cost does not depend on
         * the values) */
        int8_t c8[QUILL_MLDSA_N];
        for (unsigned i = 0; i < QUILL_MLDSA_N; i++)
            c8[i] = (int8_t)pr[2].c[i];
        TIME("mulc16_prepare_i8", quill_mldsa_mulc16_prepare_i8(&chal, c8));
        const quill_mldsa_sign_row_in in_z = {&chal, &pair, &pair, &pb[0], &pb[1], &pb[2]};
        const quill_mldsa_sign_row_in in_noz = {&chal, &pair, &pair, NULL, &pb[1], &pb[2]};
        uint32_t ones = 0;
        quill_word bad = 0;
        TIME("sign_row with z (ML-DSA-44)", bad |= quill_mldsa_sign_row(&pr[6], &pr[7], &in_z,
                                                                         &pr[4], p44, &ones));
        TIME("sign_row without z (ML-DSA-65)", bad |= quill_mldsa_sign_row(NULL, &pr[7], &in_noz,
                                                                            &pr[4], p65, &ones));
        if (bad == 1) /* keeps the calls */
            printf("%u\n", ones);
    }
    TIME("poly_decompose (gamma2 (q-1)/88)", quill_mldsa_poly_decompose(&pr[4], &pr[5], &pa[0],
                                                                        p44->gamma2));
    TIME("poly_decompose (gamma2 (q-1)/32)", quill_mldsa_poly_decompose(&pr[4], &pr[5], &pa[0],
                                                                        p65->gamma2));
    /* the tests' whole-polynomial UseHint (mldsa_ref.h; verification
     * applies the hints at their indices, quill_mldsa_use_hints_public) */
    TIME("poly_use_hint (gamma2 (q-1)/88)",
         mdt_poly_use_hint(&pr[4], &pa[0], &pa[1], p44->gamma2));
    TIME("poly_use_hint (gamma2 (q-1)/32)",
         mdt_poly_use_hint(&pr[4], &pa[0], &pa[1], p65->gamma2));
    TIME("poly_norm_ge_public", (void)quill_mldsa_poly_norm_ge_public(&pb[0], 1 << 20));
    TIME("pack_w1 ML-DSA-44 (k = 4)", (void)quill_mldsa_pack_w1(buf, pr + 4, p44));
    TIME("pack_w1 ML-DSA-65 (k = 6)", (void)quill_mldsa_pack_w1(buf, pr, p65));
    TIME("unpack_z gamma1 2^17", quill_mldsa_poly_unpack_z(&pr[6], buf, p44));
    TIME("unpack_z gamma1 2^19", quill_mldsa_poly_unpack_z(&pr[6], buf, p65));
    TIME("sample_in_ball ML-DSA-44 (SHAKE incl.)", quill_mldsa_sample_in_ball(&pr[7], buf, p44));
    TIME("sample_in_ball ML-DSA-65 (SHAKE incl.)", quill_mldsa_sample_in_ball(&pr[7], buf, p65));
    TIME("sample_in_ball_public ML-DSA-44", quill_mldsa_sample_in_ball_public(&pr[7], buf, p44));
    TIME("shake256 832 bytes -> 64 (7 perms)", quill_shake256(buf + 1024, 64, buf, 832));
    keygen_kernels(p44, p65);
    return g_bad;
}
#else
int main(void) {
    puts("mldsa_kernels: x86-64 only");
    return 77;
}
#endif
