/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Helpers shared by the Keccak-f[1600] suites (test_sha3, test_sha3_x4,
 * test_keccak_a64): a native or dispatching permutation against the
 * portable quill_keccak_f1600_c, which test_sha3 checks against known
 * answers and OpenSSL.  States come from the seeded test PRNG. */
#ifndef QUILL_TEST_KECCAK_TEST_COMMON_H
#define QUILL_TEST_KECCAK_TEST_COMMON_H

#include <stdint.h>

/* kt_single_mismatches runs perm and quill_keccak_f1600_c on the all-zero
 * state, the all-ones state and count random states, then on a chain of
 * `chain` permutations from one random state (each fed the previous
 * output: a wrong lane or round constant anywhere spreads to every later
 * state); returns the number of differing outputs. */
unsigned kt_single_mismatches(void (*perm)(uint64_t s[25]), unsigned count, unsigned chain);

/* A permutation of four interleaved states (sha3_x4.h: lane i of state j
 * at s[4 i + j]) that must permute at least the first n of them. */
typedef void (*kt_x4_fn)(uint64_t s[100], unsigned n);

/* kt_x4_mismatches runs perm(s, used) on four interleaved states against
 * four quill_keccak_f1600_c calls, on the fills as above, then (chain > 0)
 * perm(s, 4) along a chain; states below `used` must match, the others
 * must match or be untouched.  Returns the number of differing states. */
unsigned kt_x4_mismatches(kt_x4_fn perm, unsigned used, unsigned count, unsigned chain);

/* kt_x4_full_mismatches is kt_x4_mismatches(perm, 4, count, chain) for a
 * permutation of all four states (quill_keccak_f1600_x4 and its backends).
 * Not reentrant. */
unsigned kt_x4_full_mismatches(void (*perm)(uint64_t s[100]), unsigned count, unsigned chain);

#endif
