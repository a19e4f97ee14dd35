# SPDX-License-Identifier: Apache-2.0
# Copyright quill authors.
# test_cpu_probe_a64 (test/aarch64/test_cpu_probe_a64.c): the aarch64 CPU
# probe (core/common/cpu.c) against getauxval(AT_HWCAP) and QUILL_CPU_MASK;
# aarch64 builds with the assembly only.  Under qemu-aarch64 (a cross build:
# QUILL_EMULATOR in the test's environment) the CPU model must show through:
#   test_cpu_probe_a64           QEMU_CPU unset (qemu's "max"): NEON, SHA-3
#   test_cpu_probe_a64_a72       QEMU_CPU=cortex-a72: NEON, no SHA-3
#   test_cpu_probe_a64_portable  QUILL_CPU_MASK=0xffffffff: no bit left
#   test_cpu_probe_a64_nosha3    QUILL_CPU_MASK=0x400 on "max": SHA-3
#                                cleared, NEON kept
# (_a72 and _portable are quill_add_levels' copies, test/CMakeLists.txt, as
# the suites get them).  On Arm hardware only the agreement with getauxval
# and the masks is checked.
if(QUILL_ASM_ARCH STREQUAL "aarch64")
  quill_add_test(test_cpu_probe_a64 aarch64/test_cpu_probe_a64.c CORE LIBS quill_core_common
                 LABELS aarch64 unit TIMEOUT 60)
  quill_add_levels(test_cpu_probe_a64 LEVELS avx2 portable)
  add_test(NAME test_cpu_probe_a64_nosha3 COMMAND test_cpu_probe_a64)
  set_tests_properties(test_cpu_probe_a64_nosha3 PROPERTIES
                       ENVIRONMENT "${QUILL_TEST_ENV};QUILL_CPU_MASK=0x400"
                       SKIP_RETURN_CODE 77 TIMEOUT 60 LABELS "aarch64;unit")
endif()
