# SHA-3 core (core/sha3): known answers and a seeded differential against
# OpenSSL's EVP SHA3-256/512 and SHAKE128/256 (test/sha3/test_sha3.c), and the
# sha3_speed timing tool (not a test): cycles per Keccak-f[1600] permutation.
quill_add_test(test_sha3 sha3/test_sha3.c CORE
               LIBS quill_core_sha3 quill_core_common LABELS sha3 unit TIMEOUT 300)

add_executable(sha3_speed sha3/sha3_speed.c)
target_link_libraries(sha3_speed PRIVATE quill_testutil quill_core_sha3 quill_core_common)

# The same suite with every CPU feature masked: the sponge runs on the
# portable permutation.
add_test(NAME test_sha3_nohw COMMAND test_sha3)
set_tests_properties(test_sha3_nohw PROPERTIES
  ENVIRONMENT "${QUILL_TEST_ENV};QUILL_CPU_MASK=0xffffffff"
  SKIP_RETURN_CODE 77 TIMEOUT 300 LABELS "sha3;unit")

# The four-way Keccak and SHAKE (core/sha3/sha3_x4.h) against the scalar
# ones, with the CPU's vector backend and with every feature masked.
quill_add_test(test_sha3_x4 sha3/test_sha3_x4.c CORE
               LIBS quill_core_sha3 quill_core_common LABELS sha3 unit TIMEOUT 300)
add_test(NAME test_sha3_x4_nohw COMMAND test_sha3_x4)
set_tests_properties(test_sha3_x4_nohw PROPERTIES
  ENVIRONMENT "${QUILL_TEST_ENV};QUILL_CPU_MASK=0xffffffff"
  SKIP_RETURN_CODE 77 TIMEOUT 300 LABELS "sha3;unit")
