# Bignum core (core/bn): differential tests against OpenSSL's BN, and the
# bn_speed timing tool (not a test).
set(QUILL_BN_TEST_COMMON bn/bn_test_common.c)
foreach(t bn_basic bn_mont bn_exp bn_inv)
  quill_add_test(test_${t} bn/test_${t}.c ${QUILL_BN_TEST_COMMON}
                 LIBS quill_core_bn quill_core_common LABELS bn unit TIMEOUT 300)
  target_include_directories(test_${t} PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/bn)
endforeach()

add_executable(bn_speed bn/bn_speed.c)
target_link_libraries(bn_speed PRIVATE quill_core_bn quill_core_common OpenSSL::Crypto)
