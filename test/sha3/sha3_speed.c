/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * sha3_speed [N]: times about N (default 1000000) Keccak-f[1600]
 * permutations per backend and SHAKE128 squeezing, printing nanoseconds,
 * time-stamp-counter ticks and estimated core cycles per permutation
 * (x86-64; the TSC runs at the nominal frequency, which differs from the
 * core clock under boost, so the core clock is estimated separately).
 * Work is split into rounds of a fraction of a millisecond and the fastest
 * round is kept, so that other processes on the machine (which only ever
 * slow a round down) barely disturb the figures. */
#include <stdlib.h>

#include "sha3/keccak.h"
#include "sha3/sha3.h"
#include "sha3/sha3_x4.h"
#include "test_util.h"

#if defined(__x86_64__)
#include <x86intrin.h>
#define HAVE_TSC 1
#endif

/* core_ghz estimates the core clock: a chain of dependent 64-bit adds runs
 * at one per cycle, so adds per nanosecond is GHz (best of 300 short rounds).  The
 * TSC ticks at the nominal frequency instead, which boost exceeds. */
static double core_ghz(void) {
#ifdef HAVE_TSC
    double best = 1e30;
    const unsigned long n = 100000;
    for (int round = 0; round < 300; round++) {
        uint64_t x = 0;
        double w0 = qt_now();
        for (unsigned long i = 0; i < n; i++)
            __asm__ volatile("add $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\t"
                             "add $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\tadd $1, %0"
                             : "+r"(x));
        double w = qt_now() - w0;
        if (w < best)
            best = w;
    }
    return (double)n * 8 / best / 1e9;
#else
    return 0.0;
#endif
}

static double ghz;

/* time_perm prints the best time and TSC ticks per state permuted: |width|
 * states (1, or 4 interleaved) per call of |f|. */
static void time_perm(const char *name, void (*f)(uint64_t *), unsigned width, unsigned long n) {
    _Alignas(32) uint64_t s[100] = {0};
    double best = 1e30, best_ticks = 0;
    /* Many short rounds, keeping the fastest: other processes on the
     * machine only ever make a round slower. */
    /* Rounds of about 0.3 ms, shorter than a scheduler slice. */
    unsigned long per = 1000 / width, rounds = n / width / per + 1;
    for (unsigned long round = 0; round < rounds; round++) {
#ifdef HAVE_TSC
        uint64_t t0 = __rdtsc();
#endif
        double w0 = qt_now();
        for (unsigned long i = 0; i < per; i++)
            f(s);
        double w = qt_now() - w0;
#ifdef HAVE_TSC
        uint64_t ticks = __rdtsc() - t0;
#else
        uint64_t ticks = 0;
#endif
        if (w < best) {
            best = w;
            best_ticks = (double)ticks;
        }
    }
    double states = (double)per * width, ns = best * 1e9 / states;
    printf("keccak-f1600 %-9s %6.1f ns/permutation, %4.0f TSC ticks, ~%4.0f core cycles "
           "(best of %lu x %lu calls of %u; state %02x)\n",
           name, ns, best_ticks / states, ns * ghz, rounds, per, width, (unsigned)(s[0] & 0xff));
}

int main(int argc, char **argv) {
    unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 0) : 1000000;

    ghz = core_ghz();
    printf("core clock ~%.2f GHz (dependent adds); core cycles below = ns x that\n", ghz);
    time_perm("c", quill_keccak_f1600_c, 1, n);
#if QUILL_KECCAK_HAVE_BMI
    if (quill_keccak_f1600_bmi_capable())
        time_perm("bmi", quill_keccak_f1600_bmi, 1, n);
#endif
#if QUILL_KECCAK_HAVE_AVX2
    if (quill_keccak_f1600_avx512vl_capable())
        time_perm("avx512", quill_keccak_f1600_avx512vl, 1, n);
#endif
    time_perm("(default)", quill_keccak_f1600, 1, n);
    time_perm("x4_c", quill_keccak_f1600_x4_c, 4, n);
#if QUILL_KECCAK_HAVE_AVX2
    if (quill_keccak_f1600_x4_avx2_capable())
        time_perm("x4_avx2", quill_keccak_f1600_x4_avx2, 4, n);
    if (quill_keccak_f1600_x4_avx512vl_capable())
        time_perm("x4_avx512", quill_keccak_f1600_x4_avx512vl, 4, n);
#endif

    /* SHAKE128 stream: 168-byte blocks via squeeze_blocks, as matrix
     * expansion uses it. */
    uint8_t buf[5 * QUILL_SHAKE128_RATE];
    quill_keccak k;
    quill_shake128_init(&k);
    quill_keccak_absorb(&k, (const uint8_t *)"seed", 4);
    unsigned long blocks = 200, rounds = n / 1000 + 1;
    double best = 1e30;
    for (unsigned long round = 0; round < rounds; round++) {
        double w0 = qt_now();
        for (unsigned long i = 0; i < blocks; i++)
            quill_keccak_squeeze_blocks(&k, buf, 5);
        double w = qt_now() - w0;
        if (w < best)
            best = w;
    }
    double bytes = (double)blocks * sizeof(buf);
    printf("shake128 squeeze: %.2f ns/byte (%.0f MB/s, best of %lu rounds; output %02x)\n",
           best * 1e9 / bytes, bytes / best / 1e6, rounds, buf[0]);
    return 0;
}
