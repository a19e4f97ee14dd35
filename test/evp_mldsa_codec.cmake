# SPDX-License-Identifier: Apache-2.0
# mldsa_codec (test/evp_mldsa/mldsa_codec.c): quill's ML-DSA encoders and
# decoders through OpenSSL's public API: DER / PEM / encrypted round trips
# of every set, the three private key forms and ml-dsa.output_formats,
# Wycheproof's privateKeyPkcs8 / publicKeyDer byte for byte, tampered DER
# refused, RSA and EC keys still loading, and the text output.  Needs
# quill_evptest from test/evp.cmake.  Skipped (77) while the tree has no
# ML-DSA key manager.

if(EXISTS ${PROJECT_SOURCE_DIR}/provider/mldsa_keymgmt.c)
  set(QUILL_TEST_MLDSA_CODEC_EXPECTED 1)
else()
  set(QUILL_TEST_MLDSA_CODEC_EXPECTED 0)
endif()

quill_add_test(mldsa_codec evp_mldsa/mldsa_codec.c LIBS quill_evptest LABELS evp mldsa TIMEOUT 600)
target_compile_definitions(mldsa_codec PRIVATE
  QUILL_TEST_MLDSA_EXPECTED=${QUILL_TEST_MLDSA_CODEC_EXPECTED})
