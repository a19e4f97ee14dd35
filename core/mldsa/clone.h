/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Baseline and AVX2 builds of one C body, for the coefficient-wise loops
 * (the compiler vectorises them 8 lanes wide with AVX2, 4 with the
 * baseline): QUILL_MLDSA_CLONE(ret, name, params, args) defines static
 * name_c and name_avx2, both returning name_body args (an always-inline
 * function); QUILL_MLDSA_PICK(name) is the one to call, chosen on
 * quill_mldsa_avx2_capable() (so QUILL_CPU_MASK forces the baseline).
 * Without the AVX2 backend (QUILL_NO_ASM, other CPUs) only name_c exists. */
#ifndef QUILL_MLDSA_CLONE_H
#define QUILL_MLDSA_CLONE_H

#include "ntt.h"

#if QUILL_MLDSA_HAVE_AVX2
#define QUILL_MLDSA_CLONE(ret, name, params, args)                                             \
    static ret name##_c params { return name##_body args; }                                  \
    __attribute__((target("avx2"))) static ret name##_avx2 params { return name##_body args; }
#define QUILL_MLDSA_PICK(name) (quill_mldsa_avx2_capable() ? name##_avx2 : name##_c)
#else
#define QUILL_MLDSA_CLONE(ret, name, params, args) \
    static ret name##_c params { return name##_body args; }
#define QUILL_MLDSA_PICK(name) (name##_c)
#endif

#endif
