/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * quill-limits: the harness (sampling, filters), the clock and the port
 * probes; see limits.h.  Usage:
 *   quill-limits [--quick | --long] [FILTER...]   measure (FILTER: substrings
 *                                                 of the result names)
 *   quill-limits --count OP N                     run OP N times, nothing else
 * Not a timed test: bench_limits_smoke (bench/CMakeLists.txt) only checks
 * that it runs and prints sane figures. */
#define _POSIX_C_SOURCE 200809L
#include "limits.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/cpu.h"

#if defined(__x86_64__)
#include <x86intrin.h>
#define LIMITS_TSC 1
#endif

static double g_scale = 1.0;
static int g_nfilters;
static char **g_filters;

static uint64_t ticks(void) {
#ifdef LIMITS_TSC
    _mm_lfence();
    uint64_t t = __rdtsc();
    _mm_lfence();
    return t;
#else
    return 0;
#endif
}

int limits_wanted(const char *name) {
    if (g_nfilters == 0)
        return 1;
    for (int i = 0; i < g_nfilters; i++)
        if (strstr(name, g_filters[i]) != NULL)
            return 1;
    return 0;
}

int limits_wanted_group(const char *prefix) {
    if (g_nfilters == 0)
        return 1;
    for (int i = 0; i < g_nfilters; i++)
        if (strstr(prefix, g_filters[i]) != NULL ||
            strncmp(g_filters[i], prefix, strlen(prefix)) == 0)
            return 1;
    return 0;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double limits_measure(const char *name, const char *unit, const char *note, limits_fn fn,
                      void *ctx, unsigned batch, unsigned samples, double units) {
    if (!limits_wanted(name))
        return 0;
    limits_ports_sample(LIMITS_PASS_ROUNDS);
    unsigned n = (unsigned)(samples * g_scale);
    if (n < 3)
        n = 3;
    double *t = malloc(n * sizeof(double));
    if (t == NULL)
        abort();
    fn(ctx, batch); /* warm caches, tables and branch predictors */
    for (unsigned s = 0; s < n; s++) {
        uint64_t t0 = ticks();
        fn(ctx, batch);
        t[s] = (double)(ticks() - t0) / ((double)batch * units);
    }
    qsort(t, n, sizeof(double), cmp_double);
    double best = t[0];
    printf("%s\t%.1f\t%.1f\t%s\t%s (%u samples of %u)\n", name, best, t[n / 2], unit, note, n,
           batch);
    fflush(stdout);
    free(t);
    return best;
}

double limits_measure_set(const char *name, const char *unit, const char *note,
                          limits_item_fn fn, void *ctx, unsigned count, unsigned rounds) {
    if (!limits_wanted(name))
        return 0;
    limits_ports_sample(LIMITS_PASS_ROUNDS);
    unsigned n = (unsigned)(rounds * g_scale);
    if (n < 3)
        n = 3;
    double *best = malloc(count * sizeof(double)), *mean = malloc(n * sizeof(double));
    if (best == NULL || mean == NULL)
        abort();
    for (unsigned i = 0; i < count; i++) {
        fn(ctx, i); /* warm */
        best[i] = 1e300;
    }
    for (unsigned r = 0; r < n; r++) {
        double sum = 0;
        for (unsigned i = 0; i < count; i++) {
            uint64_t t0 = ticks();
            fn(ctx, i);
            double t = (double)(ticks() - t0);
            sum += t;
            if (t < best[i])
                best[i] = t;
        }
        mean[r] = sum / count;
    }
    double avg = 0;
    for (unsigned i = 0; i < count; i++)
        avg += best[i] / count;
    qsort(mean, n, sizeof(double), cmp_double);
    printf("%s\t%.1f\t%.1f\t%s\t%s (mean of per-item minima over %u rounds of %u items)\n",
           name, avg, mean[n / 2], unit, note, n, count);
    fflush(stdout);
    free(best);
    free(mean);
    return avg;
}

#ifdef LIMITS_TSC
/* One probe: `rounds` rounds of 500 iterations of a block of 12 independent
 * instructions (12 accumulators, so that latency up to 12 cycles is hidden
 * at one instruction per cycle); best ticks per instruction over the
 * rounds. */
#define PROBE(name, code, ...)                                                          \
    static double probe_##name(int rounds) {                                                \
        double best = 1e30;                                                                 \
        for (int round = 0; round < rounds; round++) {                                      \
            uint64_t t0 = ticks();                                                          \
            for (unsigned i = 0; i < 500; i++)                                              \
                __asm__ volatile(code ::: __VA_ARGS__);                                 \
            double per = (double)(ticks() - t0) / (500.0 * 12);                             \
            if (per < best)                                                                 \
                best = per;                                                                 \
        }                                                                                   \
        return best;                                                                        \
    }
#define X12(op, src)                                                                        \
    op " " src "0\n\t" op " " src "1\n\t" op " " src "2\n\t" op " " src "3\n\t" op " " src   \
       "4\n\t" op " " src "5\n\t" op " " src "6\n\t" op " " src "7\n\t" op " " src "8\n\t"   \
       op " " src "9\n\t" op " " src "10\n\t" op " " src "11\n\t"
#define ZCLOB "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", \
              "xmm10", "xmm11"
PROBE(vpmadd52_zmm, X12("vpmadd52luq %%zmm14, %%zmm15, ", "%%zmm"), ZCLOB)
PROBE(vpmadd52_ymm, X12("vpmadd52luq %%ymm14, %%ymm15, ", "%%ymm"), ZCLOB)
PROBE(vpternlogq_ymm, X12("vpternlogq $0x96, %%ymm14, %%ymm15, ", "%%ymm"), ZCLOB)
PROBE(vprolq_ymm, X12("vprolq $7, %%ymm14, ", "%%ymm"), ZCLOB)
PROBE(vpxor_ymm, X12("vpxor %%ymm14, %%ymm15, ", "%%ymm"), ZCLOB)
PROBE(vpsllq_ymm, X12("vpsllq $7, %%ymm14, ", "%%ymm"), ZCLOB)
PROBE(vpmuldq_ymm, X12("vpmuldq %%ymm14, %%ymm15, ", "%%ymm"), ZCLOB)
PROBE(vpmuldq_zmm, X12("vpmuldq %%zmm14, %%zmm15, ", "%%zmm"), ZCLOB)
/* Pairs: does VPMADD52 share its pipes with the shuffles and adds of the
 * exponentiation (6 of each per block)? */
#define X6PAIR(op1, op2, r)                                                                 \
    op1 r "0\n\t" op2 r "1\n\t" op1 r "2\n\t" op2 r "3\n\t" op1 r "4\n\t" op2 r "5\n\t" \
    op1 r "6\n\t" op2 r "7\n\t" op1 r "8\n\t" op2 r "9\n\t" op1 r "10\n\t" op2 r "11\n\t"
PROBE(madd_valignq_zmm,
      X6PAIR("vpmadd52luq %%zmm14, %%zmm15, ", "valignq $1, %%zmm14, %%zmm15, ", "%%zmm"), ZCLOB)
PROBE(madd_vpaddq_zmm,
      X6PAIR("vpmadd52luq %%zmm14, %%zmm15, ", "vpaddq %%zmm14, %%zmm15, ", "%%zmm"), ZCLOB)
PROBE(valignq_zmm, X12("valignq $1, %%zmm14, %%zmm15, ", "%%zmm"), ZCLOB)
PROBE(vpaddq_zmm, X12("vpaddq %%zmm14, %%zmm15, ", "%%zmm"), ZCLOB)
PROBE(vprolq_vpternlogq_ymm,
      X6PAIR("vprolq $7, %%ymm14, ", "vpternlogq $0x96, %%ymm14, %%ymm15, ", "%%ymm"), ZCLOB)
/* MULX writes two registers: the block cycles over r8..r11 pairs. */
PROBE(mulx,
      "mulx %%rax, %%r8, %%r9\n\tmulx %%rax, %%r10, %%r11\n\tmulx %%rax, %%r8, %%r9\n\t"
      "mulx %%rax, %%r10, %%r11\n\tmulx %%rax, %%r8, %%r9\n\tmulx %%rax, %%r10, %%r11\n\t"
      "mulx %%rax, %%r8, %%r9\n\tmulx %%rax, %%r10, %%r11\n\tmulx %%rax, %%r8, %%r9\n\t"
      "mulx %%rax, %%r10, %%r11\n\tmulx %%rax, %%r8, %%r9\n\tmulx %%rax, %%r10, %%r11\n\t",
      "rax", "rdx", "r8", "r9", "r10", "r11")
/* Latency of VPMADD52LUQ: one chain of 12. */
PROBE(vpmadd52_zmm_lat,
      "vpmadd52luq %%zmm14, %%zmm15, %%zmm0\n\tvpmadd52luq %%zmm14, %%zmm15, %%zmm0\n\t"
      "vpmadd52luq %%zmm14, %%zmm15, %%zmm0\n\tvpmadd52luq %%zmm14, %%zmm15, %%zmm0\n\t"
      "vpmadd52luq %%zmm14, %%zmm15, %%zmm0\n\tvpmadd52luq %%zmm14, %%zmm15, %%zmm0\n\t"
      "vpmadd52luq %%zmm14, %%zmm15, %%zmm0\n\tvpmadd52luq %%zmm14, %%zmm15, %%zmm0\n\t"
      "vpmadd52luq %%zmm14, %%zmm15, %%zmm0\n\tvpmadd52luq %%zmm14, %%zmm15, %%zmm0\n\t"
      "vpmadd52luq %%zmm14, %%zmm15, %%zmm0\n\tvpmadd52luq %%zmm14, %%zmm15, %%zmm0\n\t",
      "xmm0")

/* The probes, in the order they print.  A probe that runs at four
 * instructions per cycle needs the core's whole issue width: on the shared
 * VM it now and then reads up to 1.9x slow for a stretch of passes (load
 * from outside the guest, presumably on the core's other hardware thread:
 * load on the guest's other vCPU does not do it), and one probe's 200
 * rounds last a few milliseconds.  So the probes are not timed once but in
 * passes spread over the whole run (limits_ports_sample, before every
 * measured line), and each prints its fastest pass. */
typedef struct {
    const char *name, *note;
    uint32_t need; /* CPU feature bits */
    double (*fn)(int rounds);
} port_probe;

#define IFMA_VL (QUILL_CPU_X86_AVX512VL | QUILL_CPU_X86_AVX512IFMA)
static const port_probe g_probes[] = {
    {"port.vpmadd52luq.zmm", "reciprocal throughput", IFMA_VL, probe_vpmadd52_zmm},
    {"port.vpmadd52luq.zmm.latency", "latency", IFMA_VL, probe_vpmadd52_zmm_lat},
    {"port.vpmadd52luq.ymm", "reciprocal throughput", IFMA_VL, probe_vpmadd52_ymm},
    {"port.valignq.zmm", "reciprocal throughput", IFMA_VL, probe_valignq_zmm},
    {"port.vpaddq.zmm", "reciprocal throughput", IFMA_VL, probe_vpaddq_zmm},
    {"port.mix.vpmadd52+valignq.zmm",
     "per instruction, alternating (0.5 = both fully overlapped)", IFMA_VL,
     probe_madd_valignq_zmm},
    {"port.mix.vpmadd52+vpaddq.zmm", "per instruction, alternating", IFMA_VL,
     probe_madd_vpaddq_zmm},
    {"port.vpternlogq.ymm", "reciprocal throughput", QUILL_CPU_X86_AVX512VL,
     probe_vpternlogq_ymm},
    {"port.vprolq.ymm", "reciprocal throughput", QUILL_CPU_X86_AVX512VL, probe_vprolq_ymm},
    {"port.mix.vprolq+vpternlogq.ymm", "per instruction, alternating", QUILL_CPU_X86_AVX512VL,
     probe_vprolq_vpternlogq_ymm},
    {"port.vpmuldq.zmm", "reciprocal throughput", QUILL_CPU_X86_AVX512VL, probe_vpmuldq_zmm},
    {"port.vpxor.ymm", "reciprocal throughput", QUILL_CPU_X86_AVX2, probe_vpxor_ymm},
    {"port.vpsllq.ymm", "reciprocal throughput", QUILL_CPU_X86_AVX2, probe_vpsllq_ymm},
    {"port.vpmuldq.ymm", "reciprocal throughput", QUILL_CPU_X86_AVX2, probe_vpmuldq_ymm},
    {"port.mulx", "reciprocal throughput", QUILL_CPU_X86_BMI2, probe_mulx},
};
#define NPROBES (sizeof(g_probes) / sizeof(g_probes[0]))
#define MAX_PASSES 256

/* Per probe: the best ticks per instruction of each pass so far; per pass,
 * the best ticks per core cycle. */
static double g_pass[NPROBES][MAX_PASSES];
static double g_clock[MAX_PASSES];
static unsigned g_npass;

/* The clock: 8 dependent adds per iteration, one per core cycle on every
 * x86-64 core of the last decade, so ticks / adds = ticks per core cycle;
 * best over `rounds` rounds of 20000 iterations. */
static double clock_rounds(int rounds) {
    double best = 1e30;
    const unsigned long n = 20000;
    for (int round = 0; round < rounds; round++) {
        uint64_t x = 0, t0 = ticks();
        for (unsigned long i = 0; i < n; i++)
            __asm__ volatile("add $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\t"
                             "add $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\tadd $1, %0"
                             : "+r"(x));
        double per = (double)(ticks() - t0) / (double)(n * 8);
        if (per < best)
            best = per;
    }
    return best;
}

static int probe_on(size_t i) {
    return quill_cpu_has(g_probes[i].need) && limits_wanted(g_probes[i].name);
}
#endif

unsigned limits_ports_sample(int rounds) {
#ifdef LIMITS_TSC
    if (g_npass == MAX_PASSES)
        return g_npass;
    g_clock[g_npass] = clock_rounds(rounds);
    for (size_t i = 0; i < NPROBES; i++)
        g_pass[i][g_npass] = probe_on(i) ? g_probes[i].fn(rounds) : 0;
    return ++g_npass;
#else
    (void)rounds;
    return 0;
#endif
}

double limits_clock(void) {
#ifdef LIMITS_TSC
    double best = 1e30;
    for (unsigned p = 0; p < g_npass; p++)
        if (g_clock[p] < best)
            best = g_clock[p];
    if (g_npass == 0)
        best = clock_rounds(400);
    printf("clock\t%.4f\t%.4f\tticks/cycle\tTSC ticks per core cycle (dependent adds; fastest "
           "of %u passes over the run)\n",
           best, best, g_npass);
    return best;
#else
    printf("clock\t0\t0\tticks/cycle\tno TSC on this architecture\n");
    return 0;
#endif
}

void limits_ports(double tpc) {
#ifdef LIMITS_TSC
    double t[MAX_PASSES];
    for (size_t i = 0; i < NPROBES; i++) {
        if (!probe_on(i) || g_npass == 0)
            continue;
        for (unsigned p = 0; p < g_npass; p++)
            t[p] = g_pass[i][p];
        qsort(t, g_npass, sizeof(double), cmp_double);
        double c = tpc > 0 ? 1 / tpc : 0;
        printf("%s\t%.4f\t%.4f\tcycles/instr\t%s (%.4f ticks; fastest of %u passes over the "
               "run, median %.3f, slowest %.3f cycles)\n",
               g_probes[i].name, t[0] * c, t[g_npass / 2] * c, g_probes[i].note, t[0], g_npass,
               t[g_npass / 2] * c, t[g_npass - 1] * c);
    }
    fflush(stdout);
#else
    (void)tpc;
#endif
}

static void usage(void) {
    fprintf(stderr, "usage: quill-limits [--quick | --long] [FILTER...]\n"
                    "       quill-limits --count OP N\n");
}

int main(int argc, char **argv) {
    if (argc >= 2 && strcmp(argv[1], "--count") == 0) {
        if (argc != 4) {
            usage();
            return 2;
        }
        long n = strtol(argv[3], NULL, 10);
        if (n < 1 || n > 100000) {
            fprintf(stderr, "quill-limits: --count N must be 1..100000\n");
            return 2;
        }
        return limits_count(argv[2], (unsigned)n);
    }
    int i = 1;
    for (; i < argc && argv[i][0] == '-'; i++) {
        if (strcmp(argv[i], "--quick") == 0) {
            g_scale = 0.05;
        } else if (strcmp(argv[i], "--long") == 0) {
            g_scale = 4.0;
        } else {
            usage();
            return 2;
        }
    }
    g_filters = argv + i;
    g_nfilters = argc - i;
    printf("# quill-limits: name, min, median, unit, note (ticks = rdtsc ticks)\n");
    printf("# cpu features 0x%x (QUILL_CPU_MASK applies)\n", (unsigned)quill_cpu_features());
    limits_ports_sample(200);
    limits_kernels();
    limits_ops();
    limits_rsa_parts();
    limits_evp();
    unsigned passes = limits_ports_sample(200);
    while (passes > 0 && passes < 16) /* a filtered run: spread over some ms at least */
        passes = limits_ports_sample(LIMITS_PASS_ROUNDS);
    limits_ports(limits_clock());
    return 0;
}
