# SPDX-License-Identifier: Apache-2.0
# AVX-512 IFMA exponentiations (core/bn/exp_ifma.c, exp_ifma_x1.c) against the
# portable path and OpenSSL's BN_mod_exp; skipped on CPUs without IFMA.
quill_add_test(test_bn_ifma bn/test_bn_ifma.c bn/bn_test_common.c CORE
               LIBS quill_core_bn quill_core_common Threads::Threads LABELS bn unit TIMEOUT 300)
target_include_directories(test_bn_ifma PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/bn)
# The one-lane IFMA exponentiation for public exponents (exp_ifma_x1.c),
# likewise against the portable path and BN_mod_exp.
quill_add_test(test_bn_ifma_x1 bn/test_bn_ifma_x1.c bn/bn_test_common.c CORE
               LIBS quill_core_bn quill_core_common LABELS bn unit TIMEOUT 300)
target_include_directories(test_bn_ifma_x1 PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/bn)
