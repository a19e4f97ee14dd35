/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * quill-mont-probe: core cycles per 64x64 product of the building blocks of
 * the MULX/ADCX/ADOX Montgomery kernels (bench/mont_adx_probe.S) and of the
 * dispatched Montgomery product and squaring at 16 and 32 limbs, so that a
 * kernel structure can be judged against the sequences it is made of
 * (docs/limits.md, "RSA signing at the MULX/ADX level").  Not a test.
 *
 *   quill-mont-probe [ROUNDS]     (default 31 rounds; medians printed)
 *
 * Each figure is the median over ROUNDS of a timed loop (rdtsc), converted
 * to core cycles by a chain of dependent ADDs timed in the same rounds (one
 * cycle each), so that the TSC rate and frequency changes between rounds
 * cancel.  On a shared machine run it twice: medians move by a few percent.
 * Run it with QUILL_CPU_MASK=0x30 to time the MULX/ADX kernels on a CPU
 * with IFMA (the dispatched product would otherwise still be MULX/ADX: the
 * IFMA code is the exponentiation's, not the single product's). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <x86intrin.h>

#include "bench_fill.h"
#include "probe_frame.h"
#include "bn/bn.h"
#include "common/cpu.h"

probe_fn quill_probe_add_chain, quill_probe_mulx, quill_probe_row_reg, quill_probe_row_mem,
    quill_probe_col_bare, quill_probe_col_tail, quill_probe_col_kernel, quill_probe_col_rorx2,
    quill_probe_col_rorx6;

static _Alignas(64) uint64_t g_buf[96];

typedef struct {
    const char *name;
    probe_fn *f;
    double products; /* per iteration */
} probe;

static const probe g_probes[] = {
    {"mulx, 32 independent (per MULX)", quill_probe_mulx, 32},
    {"row, chains never restart, window in registers", quill_probe_row_reg, 32},
    {"row, chains never restart, t in memory", quill_probe_row_mem, 32},
    {"band column of 8, bare (no head, tail, load, store)", quill_probe_col_bare, 18 * 8},
    {"band column of 8 + tail (adcx of the last CF)", quill_probe_col_tail, 18 * 8},
    {"band column of 8 as in the kernels (head, tail, load, store)", quill_probe_col_kernel, 18 * 8},
    {"band column of 8, bare + 2 RORX", quill_probe_col_rorx2, 18 * 8},
    {"band column of 8, bare + 6 RORX", quill_probe_col_rorx6, 18 * 8},
};
#define N_PROBES (sizeof(g_probes) / sizeof(g_probes[0]))

/* The dispatched kernels at n limbs: products per call as counted in
 * docs/limits.md (n^2 + n^2 for a product, n(n+1)/2 + n^2 for a squaring;
 * the n digit computations u_i = t_i n0 not counted). */
typedef struct {
    size_t n;
    int sqr;
} kernel;

static const kernel g_kernels[] = {{16, 0}, {16, 1}, {32, 0}, {32, 1}};
#define N_KERNELS (sizeof(g_kernels) / sizeof(g_kernels[0]))

static int run(int rounds) {
    quill_limb m[2][32], a[32], b[32];
    quill_mont *mont[2] = {NULL, NULL};
    for (size_t i = 0; i < 32; i++) {
        m[0][i] = m[1][i] = bench_next64();
        a[i] = bench_next64();
        b[i] = bench_next64();
    }
    m[0][0] |= 1;
    m[1][0] |= 1;
    m[0][15] |= (quill_limb)1 << 63;
    m[1][31] |= (quill_limb)1 << 63;
    mont[0] = quill_mont_new_public(m[0], 16);
    mont[1] = quill_mont_new_public(m[1], 32);
    if (mont[0] == NULL || mont[1] == NULL) {
        fprintf(stderr, "quill-mont-probe: cannot make the Montgomery contexts\n");
        quill_mont_free(mont[0]);
        quill_mont_free(mont[1]);
        return 1;
    }
    a[15] &= ~((quill_limb)1 << 63); /* a, b < m */
    b[15] &= ~((quill_limb)1 << 63);
    a[31] = b[31] = 0;
    for (size_t i = 0; i < 96; i++)
        g_buf[i] = bench_next64();

    static double cal[PROBE_MAX_ROUNDS], pr[N_PROBES][PROBE_MAX_ROUNDS],
        kr[N_KERNELS][PROBE_MAX_ROUNDS];
    enum { KERNEL_CALLS = 200 };
    quill_limb r[32];
    memcpy(r, a, sizeof(r));
    for (int k = 0; k < rounds; k++) {
        cal[k] = probe_ticks(quill_probe_add_chain, g_buf) / 32;
        for (size_t p = 0; p < N_PROBES; p++)
            pr[p][k] = probe_ticks(g_probes[p].f, g_buf);
        for (size_t j = 0; j < N_KERNELS; j++) {
            const quill_mont *mt = mont[g_kernels[j].n == 32];
            uint64_t t0 = __rdtsc();
            for (int i = 0; i < KERNEL_CALLS; i++) {
                if (g_kernels[j].sqr)
                    quill_mont_sqr(r, r, mt);
                else
                    quill_mont_mul(r, r, b, mt);
            }
            kr[j][k] = (double)(__rdtsc() - t0) / KERNEL_CALLS;
        }
    }
    double tick = median(cal, rounds); /* ticks per core cycle */
    printf("core cycles per TSC tick: %.3f (median of %d rounds)\n", 1.0 / tick, rounds);
    printf("MULX/ADX backend: %s\n",
           quill_cpu_has(QUILL_CPU_X86_BMI2 | QUILL_CPU_X86_ADX) ? "on" : "off (portable C)");
    for (size_t p = 0; p < N_PROBES; p++) {
        double c = median(pr[p], rounds) / tick;
        printf("%-62s %7.3f cycles per product\n", g_probes[p].name, c / g_probes[p].products);
    }
    for (size_t j = 0; j < N_KERNELS; j++) {
        size_t n = g_kernels[j].n;
        double prods = g_kernels[j].sqr ? (double)(n * (n + 1) / 2 + n * n) : (double)(2 * n * n);
        double ticks = median(kr[j], rounds);
        printf("quill_mont_%s, %2zu limbs: %7.1f ticks, %7.1f cycles, %5.3f cycles per product\n",
               g_kernels[j].sqr ? "sqr" : "mul", n, ticks, ticks / tick, ticks / tick / prods);
    }
    g_buf[0] ^= r[0]; /* keep r live */
    quill_mont_free(mont[0]);
    quill_mont_free(mont[1]);
    return 0;
}

int main(int argc, char **argv) {
    return probe_main(argc, argv, "quill-mont-probe", run);
}
