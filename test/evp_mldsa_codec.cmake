# SPDX-License-Identifier: Apache-2.0
# mldsa_codec (test/evp_mldsa/mldsa_codec.c): quill's ML-DSA encoders and
# decoders through OpenSSL's public API: DER / PEM / encrypted round trips
# of every set, the three private key forms and ml-dsa.output_formats,
# Wycheproof's privateKeyPkcs8 / publicKeyDer byte for byte, tampered DER
# refused, RSA and EC keys still loading, and the text output.

quill_add_test(mldsa_codec evp_mldsa/mldsa_codec.c LIBS quill_evptest LABELS evp mldsa TIMEOUT 600)
