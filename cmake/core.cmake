# SPDX-License-Identifier: Apache-2.0
# Copyright quill authors.
#
# core/ as modules, and quill_add_core(), which builds a variant of the core
# from them.  Included by the top-level CMakeLists.txt and by the standalone
# constant-time sub-build (test/ct/CMakeLists.txt).
#
# A module is one directory of core/ with the assembly it calls, from
# asm/x86_64 or asm/aarch64 by the target's architecture (unless
# QUILL_NO_ASM):
#   common  CPU features, constant-time helpers, zeroize, errors
#   bn      fixed-width bignums; asm/<arch>/bn_*.S
#   rsa     RSA (over bn)
#   ec      P-256 and ECDSA; asm/<arch>/p256_*.S
#   mldsa   ML-DSA (over sha3); asm/<arch>/mldsa_*.S
#   sha3    Keccak-f[1600], SHA-3, SHAKE; asm/<arch>/keccak_*.S
# QUILL_CORE_<module>_SOURCES lists a module's C and assembly sources, and
# QUILL_CORE_<module>_ASM its assembly alone.  The C files come from one
# CONFIGURE_DEPENDS glob per directory, so a new file is built without
# re-running cmake by hand; an assembly file that no module claims stops
# the configuration.
#
# The variants, all made by quill_add_core:
#   quill_core           the core of quill.so (top-level CMakeLists.txt),
#                        also in the sanitizer (QUILL_SANITIZE) and fuzz
#                        (test/fuzz.cmake) configurations, whose flags apply
#                        to the whole build
#   quill_core_portable  the core of quill_portable.so, without the CPU
#                        probe (top-level CMakeLists.txt)
#   quill_core_ct, quill_core_ct_o3   the constant-time validation copies
#                        (test/ct/targets.cmake, also in the standalone
#                        sub-build test/ct/CMakeLists.txt)
#   quill_core_fault     quill_core with the allocation test hook
#                        (ALLOC_HOOK), for the fault suites only
#                        (test/fault.cmake); never in quill.so

get_filename_component(QUILL_ROOT ${CMAKE_CURRENT_LIST_DIR}/.. ABSOLUTE)
set(QUILL_CORE_MODULES common bn rsa ec mldsa sha3)
# Which assembly belongs to which module, by file name prefix.
set(QUILL_CORE_ASM_PREFIX_bn bn_)
set(QUILL_CORE_ASM_PREFIX_ec p256_)
set(QUILL_CORE_ASM_PREFIX_mldsa mldsa_)
set(QUILL_CORE_ASM_PREFIX_sha3 keccak_)

# The assembly directory of the target architecture (asm/x86_64 or
# asm/aarch64), unless QUILL_NO_ASM; QUILL_ASM_ARCH names it ("" for none).
set(QUILL_ASM_ARCH "")
if(NOT QUILL_NO_ASM)
  if(CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64)$")
    set(QUILL_ASM_ARCH x86_64)
  elseif(CMAKE_SYSTEM_PROCESSOR MATCHES "^(aarch64|arm64|ARM64)$")
    set(QUILL_ASM_ARCH aarch64)
  endif()
endif()
set(_quill_asm)
if(QUILL_ASM_ARCH)
  file(GLOB _quill_asm CONFIGURE_DEPENDS ${QUILL_ROOT}/asm/${QUILL_ASM_ARCH}/*.S)
endif()
foreach(m ${QUILL_CORE_MODULES})
  file(GLOB QUILL_CORE_${m}_SOURCES CONFIGURE_DEPENDS ${QUILL_ROOT}/core/${m}/*.c)
  set(QUILL_CORE_${m}_ASM)
  if(DEFINED QUILL_CORE_ASM_PREFIX_${m})
    set(QUILL_CORE_${m}_ASM ${_quill_asm})
    list(FILTER QUILL_CORE_${m}_ASM INCLUDE REGEX "/${QUILL_CORE_ASM_PREFIX_${m}}[^/]*$")
    list(REMOVE_ITEM _quill_asm ${QUILL_CORE_${m}_ASM})
    list(APPEND QUILL_CORE_${m}_SOURCES ${QUILL_CORE_${m}_ASM})
  endif()
endforeach()
if(_quill_asm)
  message(FATAL_ERROR "cmake/core.cmake: assembly of no module: ${_quill_asm}")
endif()

# core/bn/exp_ifma.c and exp_ifma_x1.c (the two-way and one-lane AVX-512
# IFMA exponentiations) are scheduled by GCC for an IFMA-capable Intel core:
# GCC 12 has no Zen 4 model, and on Zen 4 its generic order ran the
# RSA-2048 window 2% slower (2,555-2,562 against 2,505-2,512 ticks,
# docs/limits.md "IFMA: y in the vector unit, and other counts") and
# RSA-2048 / 4096 verification 1% / 3% slower.  -mtune changes the order
# of the instructions, never the instruction set: the files' portable code
# runs on every x86-64 as before.  (As a target("tune=") attribute on the kernels GCC spilled the
# accumulators: 3,745 ticks.)  A source property holds for the targets of
# this directory (quill_core and its object libraries, hence the provider,
# quill-limits and the unit tests); the ct variants under test/ compile the
# file with their own flags.  Worth measuring again with a GCC that has a
# Zen 4 model (13 or later: -mtune=znver4).
if(CMAKE_C_COMPILER_ID STREQUAL "GNU" AND QUILL_ASM_ARCH STREQUAL "x86_64")
  set_property(SOURCE ${QUILL_ROOT}/core/bn/exp_ifma.c ${QUILL_ROOT}/core/bn/exp_ifma_x1.c
               APPEND PROPERTY COMPILE_OPTIONS -mtune=icelake-server)
endif()

# quill_add_core(NAME [MODULES module...] [DEFINITIONS def...]
#                [OPTIONS opt...] [INCLUDES dir...] [NO_PROBE | ALLOC_HOOK]
#                [REUSE base])
# builds one variant of the core: for each module an object library
# NAME_<module> (core unit tests link the ones they exercise, e.g.
# quill_core_bn quill_core_common) and the static library NAME with all of
# them.
#   MODULES      the modules to build (default: all of them)
#   DEFINITIONS, OPTIONS, INCLUDES   compile definitions, compile options and
#                system include directories of every source of the variant
#   NO_PROBE     core/common/cpu.c compiled with QUILL_NO_ASM (its only
#                effect there: no CPU probe, every quill_cpu_has() false), as
#                the object library NAME_cpu; every other source as usual
#   ALLOC_HOOK   core/common/alloc.c compiled with QUILL_ALLOC_TEST_HOOK
#                (common/alloc.h: a test can make any core allocation fail),
#                as the object library NAME_alloc; every other source as usual
#   REUSE base   (with NO_PROBE or ALLOC_HOOK) the modules other than common
#                are the objects of the variant base, which compiles them the
#                same (common's other files are compiled again, as in base)
function(quill_add_core name)
  cmake_parse_arguments(C "NO_PROBE;ALLOC_HOOK" "REUSE" "MODULES;DEFINITIONS;OPTIONS;INCLUDES" ${ARGN})
  if(NOT C_MODULES)
    set(C_MODULES ${QUILL_CORE_MODULES})
  endif()
  if(C_REUSE AND NOT (C_NO_PROBE OR C_ALLOC_HOOK))
    message(FATAL_ERROR "quill_add_core(${name}): REUSE only with NO_PROBE or ALLOC_HOOK")
  endif()
  set(objects)
  foreach(m ${C_MODULES})
    set(src ${QUILL_CORE_${m}_SOURCES})
    if(m STREQUAL "common" AND C_NO_PROBE)
      list(REMOVE_ITEM src ${QUILL_ROOT}/core/common/cpu.c)
      _quill_core_objects(${name}_cpu ${QUILL_ROOT}/core/common/cpu.c)
      target_compile_definitions(${name}_cpu PRIVATE QUILL_NO_ASM=1)
      list(APPEND objects $<TARGET_OBJECTS:${name}_cpu>)
    endif()
    if(m STREQUAL "common" AND C_ALLOC_HOOK)
      list(REMOVE_ITEM src ${QUILL_ROOT}/core/common/alloc.c)
      _quill_core_objects(${name}_alloc ${QUILL_ROOT}/core/common/alloc.c)
      target_compile_definitions(${name}_alloc PRIVATE QUILL_ALLOC_TEST_HOOK=1)
      list(APPEND objects $<TARGET_OBJECTS:${name}_alloc>)
    elseif(NOT m STREQUAL "common" AND C_REUSE)
      list(APPEND objects $<TARGET_OBJECTS:${C_REUSE}_${m}>)
      continue()
    endif()
    _quill_core_objects(${name}_${m} ${src})
    list(APPEND objects $<TARGET_OBJECTS:${name}_${m}>)
  endforeach()
  add_library(${name} STATIC ${objects})
  set_target_properties(${name} PROPERTIES LINKER_LANGUAGE C)
  target_include_directories(${name} PUBLIC ${QUILL_ROOT}/core)
endfunction()

# One object library of a variant (C_* from quill_add_core's scope).
macro(_quill_core_objects target)
  add_library(${target} OBJECT ${ARGN})
  target_include_directories(${target} PUBLIC ${QUILL_ROOT}/core)
  target_include_directories(${target} SYSTEM PRIVATE ${C_INCLUDES})
  target_compile_definitions(${target} PRIVATE ${C_DEFINITIONS})
  target_compile_options(${target} PRIVATE ${C_OPTIONS})
endmacro()
