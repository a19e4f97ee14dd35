# SPDX-License-Identifier: Apache-2.0
# Bignum core (core/bn): differential tests against OpenSSL's BN, and the
# bn_speed timing tool (not a test).
foreach(t bn_basic bn_mont bn_exp bn_inv bn_x2 bn_d28x2 bn_d28x2_edge bn_d27x2 bn_d27)
  quill_add_test(test_${t} bn/test_${t}.c bn/bn_test_common.c CORE
                 LIBS quill_core_bn quill_core_common LABELS bn unit TIMEOUT 300)
  target_include_directories(test_${t} PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/bn)
endforeach()
# test_bn_x2_avx2: the two-way exponentiation at the AVX2 level, where
# 16-limb moduli take the radix-2^28 AVX2 kernels (core/bn/exp_d28x2.c)
# and 24-limb ones the radix-2^27 kernels (core/bn/exp_d27x2.c) instead of
# IFMA.
quill_add_levels(test_bn_x2 LEVELS avx2)
# test_bn_d28x2_edge_avx2: its exponentiation cases on the radix-2^28 path.
quill_add_levels(test_bn_d28x2_edge LEVELS avx2)
# test_bn_d27x2_avx2: the radix-2^27 kernels (1536-bit halves) and their
# exponentiation cases on that path (at the default level the CPU's IFMA
# exponentiation takes them).
quill_add_levels(test_bn_d27x2 LEVELS avx2)
# test_bn_d27x2_32 (+ _avx2): the same for the 2048-bit kernels.
quill_add_test(test_bn_d27x2_32 bn/test_bn_d27x2.c bn/bn_test_common.c CORE
               LIBS quill_core_bn quill_core_common LABELS bn unit TIMEOUT 300)
target_include_directories(test_bn_d27x2_32 PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/bn)
target_compile_definitions(test_bn_d27x2_32 PRIVATE QUILL_D27_TEST_32=1)
quill_add_levels(test_bn_d27x2_32 LEVELS avx2)
# test_bn_d27_avx2: quill_mont_exp_public for e = 2^k + 1 on the one-lane
# radix-2^27 squaring (32-, 48- and 64-limb public moduli,
# core/bn/mont_d27_avx2.c).
# Its threads part races on the lazy build of the d27 form.
target_link_libraries(test_bn_d27 PRIVATE Threads::Threads)
quill_add_levels(test_bn_d27 LEVELS avx2)
# memcheck_bn_d27: test_bn_d27 --memcheck under valgrind's memcheck (a few
# calls of each kernel per size): a result that depends on scratch the
# kernel did not write is reported even where only zero lanes meet it.
# Where valgrind is present, x86-64 with the assembly, not in the
# sanitizer build (ASan and valgrind do not mix).
find_program(QUILL_D27_VALGRIND valgrind)
if(NOT QUILL_SANITIZE AND NOT CMAKE_CROSSCOMPILING AND QUILL_D27_VALGRIND
   AND QUILL_ASM_ARCH STREQUAL "x86_64" AND NOT QUILL_NO_ASM)
  add_test(NAME memcheck_bn_d27
           COMMAND ${QUILL_D27_VALGRIND} --error-exitcode=1 -q $<TARGET_FILE:test_bn_d27>
                   --memcheck)
  set_tests_properties(memcheck_bn_d27 PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600
                       LABELS "bn;unit")
endif()

add_executable(bn_speed bn/bn_speed.c)
target_link_libraries(bn_speed PRIVATE quill_core_bn quill_core_common OpenSSL::Crypto)

# test_bn_ct: the constant-time validation program of the bignum core, run
# here as a functional test; ct_bn (test/ct.cmake) runs it under valgrind
# memcheck over the validation copy of the core, with its secrets marked.
quill_add_test(test_bn_ct bn/test_bn_ct.c bn/bn_test_common.c CORE
               LIBS quill_core_bn quill_core_common LABELS bn unit TIMEOUT 600)
target_include_directories(test_bn_ct PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/bn)
