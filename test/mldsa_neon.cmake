# SPDX-License-Identifier: Apache-2.0
# ML-DSA's NEON backend (aarch64 builds with the assembly only):
#   mldsa_neon   asm/aarch64/mldsa_ntt_neon.S, mldsa_ntt16_neon.S and
#                mldsa_unpack_z_neon.S against the portable twins bit for
#                bit (NTT, inverse NTT and its freeze form, pointwise and dot
#                products; the 16-bit NTT, challenge preparation and mulc16
#                at every shift 0..16; BitUnpack of z for both gamma1 between
#                guard pages; random, zero, one, -1 and extreme inputs at
#                every bound, n = 1..8), and every kernel through the ABI
#                checker (quill_abi_a64_call)
# Also at the a72 level (QEMU_CPU=cortex-a72, NEON without SHA-3); no
# portable copy (with every CPU bit masked it would only report skipped:
# the portable arithmetic is covered by test_mldsa_*_portable).
if(QUILL_ASM_ARCH STREQUAL "aarch64")
  quill_add_test(test_mldsa_neon mldsa/test_mldsa_neon.c ${QUILL_ABI_A64_SOURCES} CORE
                 LIBS quill_core_mldsa quill_core_sha3 quill_core_common
                 LABELS mldsa unit TIMEOUT 300)
  quill_add_levels(test_mldsa_neon LEVELS avx2)
endif()
