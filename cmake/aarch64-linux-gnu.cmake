# SPDX-License-Identifier: Apache-2.0
# Copyright quill authors.
#
# Cross-compiling quill for 64-bit Arm Linux on a Debian x86-64 machine, and
# running its tests there under user-mode qemu:
#
#   dpkg --add-architecture arm64 && apt-get update
#   apt-get install gcc-aarch64-linux-gnu libc6-dev-arm64-cross \
#       libssl-dev:arm64 libcjson-dev:arm64 qemu-user
#   cmake -B build-arm64 -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake
#   cmake --build build-arm64 -j2 && ctest --test-dir build-arm64 -j2 -L aarch64ci
#
# (-L aarch64ci: the subset .ci/run runs, test/CMakeLists.txt; -L aarch64:
# the aarch64-only suites.)  Suites that need the host's valgrind, openssl,
# nginx, curl, python3 or node to run or load aarch64 code are not
# registered in a cross build.
#
# CMAKE_CROSSCOMPILING_EMULATOR makes ctest run every test executable as
# `qemu-aarch64 <test>` (below); shell-script tests get it as QUILL_EMULATOR
# in their environment and run their programs through it.
# QEMU_CPU picks the CPU model qemu emulates (test/CMakeLists.txt sets it per
# level); unset, qemu-aarch64 emulates its "max" CPU (every extension).
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(QUILL_CROSS_TRIPLET aarch64-linux-gnu)

set(CMAKE_C_COMPILER ${QUILL_CROSS_TRIPLET}-gcc)
set(CMAKE_ASM_COMPILER ${QUILL_CROSS_TRIPLET}-gcc)

# Debian's multiarch layout: the arm64 libraries (libssl-dev:arm64,
# libcjson-dev:arm64) live in /usr/lib/aarch64-linux-gnu, their headers in
# /usr/include (shared with the host's) and /usr/include/aarch64-linux-gnu.
set(CMAKE_FIND_ROOT_PATH /usr/${QUILL_CROSS_TRIPLET})
set(CMAKE_LIBRARY_ARCHITECTURE ${QUILL_CROSS_TRIPLET})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE BOTH)
set(OPENSSL_ROOT_DIR /usr)
set(OPENSSL_CRYPTO_LIBRARY /usr/lib/${QUILL_CROSS_TRIPLET}/libcrypto.so)
set(OPENSSL_SSL_LIBRARY /usr/lib/${QUILL_CROSS_TRIPLET}/libssl.so)
set(OPENSSL_INCLUDE_DIR /usr/include)
# pkg-config (libcjson) looks in the arm64 directories only.
set(ENV{PKG_CONFIG_LIBDIR} /usr/lib/${QUILL_CROSS_TRIPLET}/pkgconfig:/usr/share/pkgconfig)

# The programs' loader and C library must come from one glibc build: they
# share private structures (GLIBC_PRIVATE) that Debian's point releases
# change.  The programs load the libc.so.6 of libc6:arm64 (which
# libssl-dev:arm64 brings: /lib/aarch64-linux-gnu, through ld.so.cache), so
# qemu starts them with that package's loader, /lib/ld-linux-aarch64.so.1,
# and not the cross toolchain's (-L /usr/aarch64-linux-gnu: libc6-arm64-cross,
# which may be another version).  With the cross loader 2.36-8cross1 and
# libc 2.36-9+deb12u14, every first pthread_create looped forever (its
# stack-cache list read at the wrong offset of the loader's state), so the
# thread suites never finished under qemu.  -L only where libc6:arm64 is
# absent (the cross C library is then the one the programs find).
find_program(QUILL_QEMU_AARCH64 qemu-aarch64)
if(QUILL_QEMU_AARCH64)
  if(EXISTS /lib/ld-linux-aarch64.so.1)
    set(CMAKE_CROSSCOMPILING_EMULATOR ${QUILL_QEMU_AARCH64})
  else()
    set(CMAKE_CROSSCOMPILING_EMULATOR ${QUILL_QEMU_AARCH64} -L /usr/${QUILL_CROSS_TRIPLET})
  endif()
endif()
