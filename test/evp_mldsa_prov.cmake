# SPDX-License-Identifier: Apache-2.0
# ML-DSA provider glue (test/evp_mldsa/mldsa_provider.c): quill's ML-DSA-44/65/87
# key managers and signatures through OpenSSL 3.0's EVP (key generation,
# parameters, pure / raw M' / mu signing, context strings, streaming and
# copies mid-stream, import/export, match and validation, OID and sigid
# registration, X.509 signing, bad input, stats counters).

quill_add_test(mldsa_provider evp_mldsa/mldsa_provider.c LABELS evp mldsa provider TIMEOUT 300)
