# SPDX-License-Identifier: Apache-2.0
# Copyright quill authors.
#
# The aarch64 Keccak-f[1600] assembly (asm/aarch64/keccak_neon.S,
# keccak_sha3.S, keccak_hybrid.S; aarch64 builds with the assembly only):
#   test_keccak_a64  each backend the CPU has against the portable
#                    permutation (random, all-zero, all-ones states and
#                    2000-permutation chains), the dispatchers, the backend
#                    name, and the ABI through quill_abi_a64_call
# with its _a72 copy (QEMU_CPU=cortex-a72: NEON without the SHA-3
# instructions, so the two-way NEON code and the portable single
# permutation) and _portable copy (every CPU bit masked).  Under qemu
# (cross builds) each copy is also told which backend it must report
# (QUILL_TEST_KECCAK_BACKEND): qemu's default CPU has the SHA-3 extension.
#   keccak_sha3_generated  (every architecture, label lint) the checked-in
#                    asm/aarch64/keccak_sha3.S is its generator's output
#                    (tools/gen_keccak_sha3_a64.py)
#   keccak_hybrid_generated  likewise asm/aarch64/keccak_hybrid.S
#                    (tools/gen_keccak_hybrid_a64.py)
foreach(g sha3 hybrid)
  add_test(NAME keccak_${g}_generated
           COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/lint/generated_matches.sh keccak_${g}_generated
                   ${PROJECT_SOURCE_DIR} tools/gen_keccak_${g}_a64.py asm/aarch64/keccak_${g}.S)
  set_tests_properties(keccak_${g}_generated PROPERTIES LABELS "lint;sha3" SKIP_RETURN_CODE 77)
endforeach()
if(QUILL_ASM_ARCH STREQUAL "aarch64")
  quill_add_test(test_keccak_a64 sha3/test_keccak_a64.c sha3/keccak_test_common.c
                 ${QUILL_ABI_A64_SOURCES} CORE
                 LIBS quill_core_sha3 quill_core_common LABELS sha3 unit TIMEOUT 300)
  target_include_directories(test_keccak_a64 PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/common)
  quill_add_levels(test_keccak_a64 LEVELS avx2 portable)
  set_property(TEST test_keccak_a64_portable APPEND PROPERTY ENVIRONMENT
               "QUILL_TEST_KECCAK_BACKEND=portable")
  if(CMAKE_CROSSCOMPILING_EMULATOR MATCHES "qemu")
    set_property(TEST test_keccak_a64 APPEND PROPERTY ENVIRONMENT
                 "QUILL_TEST_KECCAK_BACKEND=neon-sha3")
    set_property(TEST test_keccak_a64_a72 APPEND PROPERTY ENVIRONMENT
                 "QUILL_TEST_KECCAK_BACKEND=neon")
  endif()
endif()
