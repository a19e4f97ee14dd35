/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.  Helpers shared by the Keccak suites. */
#include "keccak_test_common.h"

#include <string.h>

#include "sha3/keccak.h"
#include "test_util.h"

enum fill { FILL_ZERO, FILL_ONES, FILL_RANDOM };
static const enum fill fills[3] = {FILL_ZERO, FILL_ONES, FILL_RANDOM};

static void fill(uint64_t *s, size_t n, enum fill f) {
    if (f == FILL_RANDOM)
        qt_rng_bytes(s, n * sizeof(*s));
    else
        memset(s, f == FILL_ZERO ? 0 : 0xff, n * sizeof(*s));
}

unsigned kt_single_mismatches(void (*perm)(uint64_t s[25]), unsigned count, unsigned chain) {
    unsigned bad = 0;
    uint64_t a[25], b[25];
    for (unsigned f = 0; f < 3; f++) {
        for (unsigned n = 0; n < (fills[f] == FILL_RANDOM ? count : 1); n++) {
            fill(a, 25, fills[f]);
            memcpy(b, a, sizeof(a));
            quill_keccak_f1600_c(a);
            perm(b);
            bad += memcmp(a, b, sizeof(a)) != 0;
        }
    }
    if (chain == 0)
        return bad;
    fill(a, 25, FILL_RANDOM);
    memcpy(b, a, sizeof(a));
    for (unsigned n = 0; n < chain; n++) {
        quill_keccak_f1600_c(a);
        perm(b);
    }
    return bad + (memcmp(a, b, sizeof(a)) != 0);
}

/* x4_compare: of the four states in x4, how many differ from one[] (states
 * from `used` on may instead equal orig[]). */
static unsigned x4_compare(const uint64_t x4[100], uint64_t one[4][25], const uint64_t orig[4][25],
                           unsigned used) {
    unsigned bad = 0;
    for (unsigned j = 0; j < 4; j++) {
        int same = 1, untouched = 1;
        for (unsigned i = 0; i < 25; i++) {
            same &= one[j][i] == x4[4 * i + j];
            untouched &= orig[j][i] == x4[4 * i + j];
        }
        bad += !(same || (j >= used && untouched));
    }
    return bad;
}

unsigned kt_x4_mismatches(kt_x4_fn perm, unsigned used, unsigned count, unsigned chain) {
    unsigned bad = 0;
    _Alignas(32) uint64_t x4[100];
    uint64_t one[4][25], orig[4][25];
    for (unsigned f = 0; f < 3; f++) {
        for (unsigned n = 0; n < (fills[f] == FILL_RANDOM ? count : 1); n++) {
            fill(x4, 100, fills[f]);
            for (unsigned j = 0; j < 4; j++)
                for (unsigned i = 0; i < 25; i++)
                    orig[j][i] = one[j][i] = x4[4 * i + j];
            perm(x4, used);
            for (unsigned j = 0; j < 4; j++)
                quill_keccak_f1600_c(one[j]);
            bad += x4_compare(x4, one, orig, used);
        }
    }
    if (chain == 0)
        return bad;
    fill(x4, 100, FILL_RANDOM);
    for (unsigned j = 0; j < 4; j++)
        for (unsigned i = 0; i < 25; i++)
            one[j][i] = x4[4 * i + j];
    for (unsigned n = 0; n < chain; n++) {
        perm(x4, 4);
        for (unsigned j = 0; j < 4; j++)
            quill_keccak_f1600_c(one[j]);
    }
    return bad + x4_compare(x4, one, one, 4);
}

static void (*full_perm)(uint64_t s[100]);

static void full_as_x4(uint64_t s[100], unsigned n) {
    (void)n;
    full_perm(s);
}

unsigned kt_x4_full_mismatches(void (*perm)(uint64_t s[100]), unsigned count, unsigned chain) {
    full_perm = perm;
    return kt_x4_mismatches(full_as_x4, 4, count, chain);
}
