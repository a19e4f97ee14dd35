/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * mont_adx_ab: same-process A/B of two builds of asm/x86_64/bn_mont_adx.S
 * (bench/mont_adx_ab.sh links them with the prefixes A_ and B_).  For each
 * fixed size (8 .. 64 limbs) it first compares the outputs of A and B on
 * 3,000 random and edge operand sets (m with all-ones words, a = m - 1,
 * a = 0, r aliasing a), then times, in alternating rounds of 200 calls:
 * one dependent chain r = r^2 (r = r b), two independent operands and
 * moduli called in turn (as the CRT pair is), and the exponentiation's
 * pattern (EXPO: five squarings then one product of each half, the halves
 * in turn, so that the squaring's and the product's code alternate).  Medians in TSC ticks and
 * B/A.  Exit status 1 if any output differs.  Not a test; x86-64 with BMI2
 * and ADX only.
 *
 *   mont_adx_ab [ROUNDS [N]]   (ROUNDS 1 .. 201, otherwise 31; N: one size) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <x86intrin.h>

#include "ab_timing.h"
typedef void sqr_fn(uint64_t *, const uint64_t *, const uint64_t *, uint64_t, size_t);
typedef void mul_fn(uint64_t *, const uint64_t *, const uint64_t *, const uint64_t *, uint64_t, size_t);
#define D(P) extern sqr_fn P##quill_mont_sqr_adx_8, P##quill_mont_sqr_adx_16, P##quill_mont_sqr_adx_24, P##quill_mont_sqr_adx_32, P##quill_mont_sqr_adx_48, P##quill_mont_sqr_adx_64; \
 extern mul_fn P##quill_mont_mul_adx_8, P##quill_mont_mul_adx_16, P##quill_mont_mul_adx_24, P##quill_mont_mul_adx_32, P##quill_mont_mul_adx_48, P##quill_mont_mul_adx_64;
D(A_) D(B_)
static sqr_fn *SA[] = {A_quill_mont_sqr_adx_8, A_quill_mont_sqr_adx_16, A_quill_mont_sqr_adx_24, A_quill_mont_sqr_adx_32, A_quill_mont_sqr_adx_48, A_quill_mont_sqr_adx_64};
static sqr_fn *SB[] = {B_quill_mont_sqr_adx_8, B_quill_mont_sqr_adx_16, B_quill_mont_sqr_adx_24, B_quill_mont_sqr_adx_32, B_quill_mont_sqr_adx_48, B_quill_mont_sqr_adx_64};
static mul_fn *MA[] = {A_quill_mont_mul_adx_8, A_quill_mont_mul_adx_16, A_quill_mont_mul_adx_24, A_quill_mont_mul_adx_32, A_quill_mont_mul_adx_48, A_quill_mont_mul_adx_64};
static mul_fn *MB[] = {B_quill_mont_mul_adx_8, B_quill_mont_mul_adx_16, B_quill_mont_mul_adx_24, B_quill_mont_mul_adx_32, B_quill_mont_mul_adx_48, B_quill_mont_mul_adx_64};
static const size_t NS[] = {8, 16, 24, 32, 48, 64};
int main(int argc, char **argv) {
    int rounds = ab_rounds(argc > 1 ? argv[1] : NULL);
    int only = argc > 2 ? atoi(argv[2]) : -1;
    int bad = 0;
    for (int si = 0; si < 6; si++) {
        size_t n = NS[si];
        if (only >= 0 && (size_t)only != n) continue;
        uint64_t m[64], a[64], b[64], ra[64], rb[64];
        /* correctness over many random + edge inputs */
        for (int it = 0; it < 3000; it++) {
            for (size_t i = 0; i < n; i++) m[i] = bench_next64();
            m[0] |= 1;
            if (it % 3 == 0) m[n - 1] |= 1ull << 63;
            if (it % 7 == 1) for (size_t i = 1; i < n; i++) m[i] = ~0ull;
            uint64_t n0 = ab_n0(m[0]);
            /* a, b < m: take a = m - 1 - small variations */
            for (size_t i = 0; i < n; i++) { a[i] = bench_next64(); b[i] = bench_next64(); }
            a[n - 1] = m[n - 1] ? bench_next64() % m[n - 1] : 0;
            b[n - 1] = m[n - 1] ? bench_next64() % m[n - 1] : 0;
            if (it % 5 == 2) { memcpy(a, m, 8 * n); a[0] -= 1; memcpy(b, a, 8 * n); }
            if (it % 11 == 3) { memset(a, 0, 8 * n); }
            SA[si](ra, a, m, n0, n); SB[si](rb, a, m, n0, n);
            if (memcmp(ra, rb, 8 * n)) { bad++; if (bad < 5) printf("sqr %zu mismatch it %d\n", n, it); }
            MA[si](ra, a, b, m, n0, n); MB[si](rb, a, b, m, n0, n);
            if (memcmp(ra, rb, 8 * n)) { bad++; if (bad < 5) printf("mul %zu mismatch it %d\n", n, it); }
            /* alias r = a */
            memcpy(ra, a, 8 * n); memcpy(rb, a, 8 * n);
            SA[si](ra, ra, m, n0, n); SB[si](rb, rb, m, n0, n);
            if (memcmp(ra, rb, 8 * n)) { bad++; if (bad < 5) printf("sqr alias %zu mismatch it %d\n", n, it); }
        }
        /* timing */
        for (size_t i = 0; i < n; i++) m[i] = bench_next64();
        m[0] |= 1; m[n - 1] |= 1ull << 63;
        uint64_t n0 = ab_n0(m[0]);
        for (size_t i = 0; i < n; i++) { a[i] = bench_next64(); b[i] = bench_next64(); }
        a[n - 1] &= ~(1ull << 63); b[n - 1] &= ~(1ull << 63);
        double tsa[AB_MAX_ROUNDS], tsb[AB_MAX_ROUNDS], tma[AB_MAX_ROUNDS], tmb[AB_MAX_ROUNDS];
        int calls = AB_CALLS;
        memcpy(ra, a, 8 * n); memcpy(rb, a, 8 * n);
        for (int r = 0; r < rounds; r++) {
            uint64_t t0 = __rdtsc();
            for (int i = 0; i < calls; i++) SA[si](ra, ra, m, n0, n);
            uint64_t t1 = __rdtsc();
            for (int i = 0; i < calls; i++) SB[si](rb, rb, m, n0, n);
            uint64_t t2 = __rdtsc();
            for (int i = 0; i < calls; i++) MA[si](ra, ra, b, m, n0, n);
            uint64_t t3 = __rdtsc();
            for (int i = 0; i < calls; i++) MB[si](rb, rb, b, m, n0, n);
            uint64_t t4 = __rdtsc();
            tsa[r] = (double)(t1 - t0) / calls; tsb[r] = (double)(t2 - t1) / calls;
            tma[r] = (double)(t3 - t2) / calls; tmb[r] = (double)(t4 - t3) / calls;
        }
        if (memcmp(ra, rb, 8 * n)) { bad++; printf("timing chain %zu mismatch\n", n); }
        {   /* pair mode: two independent operands/moduli, one call each in turn */
            uint64_t m2[64], r2a[64], r2b[64], r1a[64], r1b[64];
            for (size_t i = 0; i < n; i++) m2[i] = bench_next64();
            m2[0] |= 1; m2[n - 1] |= 1ull << 63;
            uint64_t n02 = ab_n0(m2[0]);
            memcpy(r1a, a, 8 * n); memcpy(r1b, a, 8 * n); memcpy(r2a, b, 8 * n); memcpy(r2b, b, 8 * n);
            double pa[AB_MAX_ROUNDS], pb[AB_MAX_ROUNDS], qa[AB_MAX_ROUNDS], qb[AB_MAX_ROUNDS];
            for (int r = 0; r < rounds; r++) {
                uint64_t t0 = __rdtsc();
                for (int i = 0; i < calls; i++) { SA[si](r1a, r1a, m, n0, n); SA[si](r2a, r2a, m2, n02, n); }
                uint64_t t1 = __rdtsc();
                for (int i = 0; i < calls; i++) { SB[si](r1b, r1b, m, n0, n); SB[si](r2b, r2b, m2, n02, n); }
                uint64_t t2 = __rdtsc();
                for (int i = 0; i < calls; i++) { MA[si](r1a, r1a, b, m, n0, n); MA[si](r2a, r2a, a, m2, n02, n); }
                uint64_t t3 = __rdtsc();
                for (int i = 0; i < calls; i++) { MB[si](r1b, r1b, b, m, n0, n); MB[si](r2b, r2b, a, m2, n02, n); }
                uint64_t t4 = __rdtsc();
                pa[r] = (double)(t1 - t0) / calls / 2; pb[r] = (double)(t2 - t1) / calls / 2;
                qa[r] = (double)(t3 - t2) / calls / 2; qb[r] = (double)(t4 - t3) / calls / 2;
            }
            /* exponentiation mode: the CRT pair's window step, five
             * squarings of each half in turn, then one product of each
             * (sqr and mul code alternate as in a signature) */
            double ea[AB_MAX_ROUNDS], eb[AB_MAX_ROUNDS];
            for (int r = 0; r < rounds; r++) {
                uint64_t t0 = __rdtsc();
                for (int i = 0; i < calls / 5; i++) {
                    for (int k = 0; k < 5; k++) { SA[si](r1a, r1a, m, n0, n); SA[si](r2a, r2a, m2, n02, n); }
                    MA[si](r1a, r1a, b, m, n0, n); MA[si](r2a, r2a, a, m2, n02, n);
                }
                uint64_t t1 = __rdtsc();
                for (int i = 0; i < calls / 5; i++) {
                    for (int k = 0; k < 5; k++) { SB[si](r1b, r1b, m, n0, n); SB[si](r2b, r2b, m2, n02, n); }
                    MB[si](r1b, r1b, b, m, n0, n); MB[si](r2b, r2b, a, m2, n02, n);
                }
                uint64_t t2 = __rdtsc();
                ea[r] = (double)(t1 - t0) / (calls / 5) / 12; eb[r] = (double)(t2 - t1) / (calls / 5) / 12;
            }
            if (memcmp(r1a, r1b, 8 * n) || memcmp(r2a, r2b, 8 * n)) { bad++; printf("expo %zu mismatch\n", n); }
            double ta = median(ea, rounds), tb = median(eb, rounds);
            printf("n=%2zu EXPO (5 sqr + 1 mul per half, halves in turn) A %7.1f B %7.1f B/A %.3f per call\n", n, ta, tb, tb / ta);
            double psa = median(pa, rounds), psb = median(pb, rounds), pma = median(qa, rounds), pmb = median(qb, rounds);
            printf("n=%2zu PAIR sqr A %7.1f B %7.1f B/A %.3f | mul A %7.1f B %7.1f B/A %.3f\n", n, psa, psb, psb / psa, pma, pmb, pmb / pma);
        }
        double sa = median(tsa, rounds), sb = median(tsb, rounds), ma = median(tma, rounds), mb = median(tmb, rounds);
        printf("n=%2zu sqr A %7.1f B %7.1f B/A %.3f (min %.3f) | mul A %7.1f B %7.1f B/A %.3f (min %.3f)  [TSC ticks]\n", n, sa, sb, sb / sa, tsb[0] / tsa[0], ma, mb, mb / ma, tmb[0] / tma[0]);
    }
    printf("%s\n", bad ? "MISMATCH" : "outputs identical");
    return bad != 0;
}
