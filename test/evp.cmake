# SPDX-License-Identifier: Apache-2.0
# EVP-level RSA suites: quill loaded by a stock OpenSSL through plain EVP
# calls (test/evp/), with helpers in test/common/qt_evp.c and qt_json.c.

find_package(PkgConfig REQUIRED)
pkg_check_modules(QUILL_CJSON REQUIRED IMPORTED_TARGET libcjson)
find_package(Threads REQUIRED)

add_library(quill_evptest STATIC common/qt_evp.c common/qt_json.c common/qt_threads.c)
target_link_libraries(quill_evptest PUBLIC quill_testutil PkgConfig::QUILL_CJSON OpenSSL::Crypto m)

quill_add_test(rsa_wycheproof evp/rsa_wycheproof.c LIBS quill_evptest LABELS evp rsa TIMEOUT 600)
quill_add_test(rsa_interop evp/rsa_interop.c evp/rsa_interop_ops.c LIBS quill_evptest LABELS evp rsa TIMEOUT 600)
quill_add_test(rsa_threads evp/rsa_threads.c LIBS quill_evptest Threads::Threads LABELS evp rsa TIMEOUT 600)
quill_add_test(rsa_badinput evp/rsa_badinput.c LIBS quill_evptest LABELS evp rsa TIMEOUT 300)
quill_add_test(rsa_fallback evp/rsa_fallback.c LIBS quill_evptest LABELS evp rsa TIMEOUT 300)

# The vectors, the interoperability checks and the threads again at the
# lower CPU levels where RSA's code differs (test/CMakeLists.txt,
# quill_add_levels): the MULX/ADX kernels without IFMA, C kernels with the
# ADC/SBB loops, portable C.
foreach(suite rsa_wycheproof rsa_interop rsa_threads)
  quill_add_levels(${suite} LEVELS avx2 x86_64 portable)
endforeach()
quill_add_test(rsa_gaps evp/rsa_gaps.c LIBS quill_evptest LABELS evp rsa TIMEOUT 300)
quill_add_test(rsa_sigalg evp/rsa_sigalg.c LIBS quill_evptest LABELS evp rsa TIMEOUT 300)
