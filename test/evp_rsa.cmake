# SPDX-License-Identifier: Apache-2.0
# EVP-level RSA suites: quill loaded by a stock OpenSSL through plain EVP
# calls (test/evp_rsa/), with the helpers of quill_evptest
# (test/common/qt_evp.c and qt_json.c).

quill_add_test(rsa_wycheproof evp_rsa/rsa_wycheproof.c LIBS quill_evptest LABELS evp rsa TIMEOUT 600)
quill_add_test(rsa_interop evp_rsa/rsa_interop.c evp_rsa/rsa_interop_ops.c LIBS quill_evptest
               LABELS evp rsa TIMEOUT 600)
quill_add_test(rsa_threads evp_rsa/rsa_threads.c LIBS quill_evptest Threads::Threads
               LABELS evp rsa TIMEOUT 600)
quill_add_test(rsa_badinput evp_rsa/rsa_badinput.c LIBS quill_evptest LABELS evp rsa TIMEOUT 300)
quill_add_test(rsa_fallback evp_rsa/rsa_fallback.c LIBS quill_evptest LABELS evp rsa TIMEOUT 300)
quill_add_test(rsa_gaps evp_rsa/rsa_gaps.c LIBS quill_evptest LABELS evp rsa TIMEOUT 300)
quill_add_test(rsa_sigalg evp_rsa/rsa_sigalg.c LIBS quill_evptest LABELS evp rsa TIMEOUT 300)

# The vectors, the interoperability checks and the threads again at the
# lower CPU levels where RSA's code differs (test/CMakeLists.txt,
# quill_add_levels): the MULX/ADX kernels without IFMA, C kernels with the
# ADC/SBB loops, portable C.
foreach(suite rsa_wycheproof rsa_interop rsa_threads)
  quill_add_levels(${suite} LEVELS avx2 x86_64 portable)
endforeach()
