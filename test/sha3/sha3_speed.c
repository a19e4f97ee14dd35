/* Copyright quill authors.
 *
 * sha3_speed [N]: times N (default 1000000) Keccak-f[1600] permutations and
 * SHAKE128 squeezing, printing nanoseconds and time-stamp-counter ticks per
 * permutation (x86-64; the TSC runs at the nominal frequency, which differs
 * from the core clock under boost, so ns are the primary figure). */
#include <stdlib.h>

#include "sha3/keccak.h"
#include "sha3/sha3.h"
#include "sha3/sha3_x4.h"
#include "test_util.h"

#if defined(__x86_64__)
#include <x86intrin.h>
#define HAVE_TSC 1
#endif

/* time_perm prints the best time and TSC ticks per state permuted: |width|
 * states (1, or 4 interleaved) per call of |f|. */
static void time_perm(const char *name, void (*f)(uint64_t *), unsigned width, unsigned long n) {
    _Alignas(32) uint64_t s[100] = {0};
    double best = 1e30, best_ticks = 0;
    /* Many short rounds, keeping the fastest: other processes on the
     * machine only ever make a round slower. */
    unsigned long per = n / 100 + 1;
    for (int round = 0; round < 100; round++) {
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
    double states = (double)per * width;
    printf("keccak-f1600 %-9s %6.1f ns/permutation, %4.0f TSC ticks/permutation "
           "(best of 100 x %lu calls of %u; state %02x)\n",
           name, best * 1e9 / states, best_ticks / states, per, width, (unsigned)(s[0] & 0xff));
}

int main(int argc, char **argv) {
    unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 0) : 1000000;

    time_perm("c", quill_keccak_f1600_c, 1, n);
#if QUILL_KECCAK_HAVE_BMI
    if (quill_keccak_f1600_bmi_capable())
        time_perm("bmi", quill_keccak_f1600_bmi, 1, n);
#endif
    time_perm("(default)", quill_keccak_f1600, 1, n);
    time_perm("x4_c", quill_keccak_f1600_x4_c, 4, n / 4);
#if QUILL_KECCAK_HAVE_AVX2
    if (quill_keccak_f1600_x4_avx2_capable())
        time_perm("x4_avx2", quill_keccak_f1600_x4_avx2, 4, n / 4);
    if (quill_keccak_f1600_x4_avx512vl_capable())
        time_perm("x4_avx512", quill_keccak_f1600_x4_avx512vl, 4, n / 4);
#endif

    /* SHAKE128 stream: 168-byte blocks via squeeze_blocks, as matrix
     * expansion uses it. */
    uint8_t buf[5 * QUILL_SHAKE128_RATE];
    quill_keccak k;
    quill_shake128_init(&k);
    quill_keccak_absorb(&k, (const uint8_t *)"seed", 4);
    unsigned long blocks = n / 5 / 20 + 1;
    double best = 1e30;
    for (int round = 0; round < 20; round++) {
        double w0 = qt_now();
        for (unsigned long i = 0; i < blocks; i++)
            quill_keccak_squeeze_blocks(&k, buf, 5);
        double w = qt_now() - w0;
        if (w < best)
            best = w;
    }
    double bytes = (double)blocks * sizeof(buf);
    printf("shake128 squeeze: %.2f ns/byte (%.0f MB/s, best of 20; output %02x)\n",
           best * 1e9 / bytes, bytes / best / 1e6, buf[0]);
    return 0;
}
