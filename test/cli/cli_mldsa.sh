#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Copyright quill authors.
#
# cli_mldsa: the stock openssl 3.0 command line with quill activated through
# openssl.cnf.example, for ML-DSA-44/65/87 (which OpenSSL 3.0 itself does not
# have): genpkey, pkey -pubout / -text, pkeyutl -sign / -verify -rawin (with
# and without a context string), dgst -sign / -verify with no digest, a
# self-signed certificate from req -x509 checked by verify -check_ss_sig,
# x509 -text, an encrypted PKCS#8 key (pkcs8 -topk8) reloaded.  Signatures
# made by the CLI are verified through EVP (mldsa_clitool) and EVP's through
# the CLI.  quill's counters (QUILL_STATS: mldsa-sign, mldsa-verify,
# mldsa-keygen) must move with each command, and RSA and EC keys must keep
# loading and signing under the same configuration.
#
# Environment (set by CTest, test/evp_mldsa.cmake): QUILL_SOURCE_DIR,
# QUILL_BUILD_DIR, MLDSA_CLITOOL (the mldsa_clitool program), optional
# QUILL_SANITIZE=1 with QUILL_CC.  Exit 77 (skipped) without an openssl
# binary.
#
# "A && ok || bad" is safe because ok always succeeds.
# shellcheck disable=SC2015
CLI_NAME=cli-mldsa
CLI_COUNTERS="mldsa-sign mldsa-verify mldsa-keygen"
. "${QUILL_SOURCE_DIR:?}/test/cli/cli_lib.sh"
tool=${MLDSA_CLITOOL:?}

# quill is active and offers ML-DSA.
if ! ossl list -key-managers 2>/dev/null | grep -i "ML-DSA-65" | grep -q "@ quill"; then
    bad "quill ML-DSA-65 key manager not listed"
fi
if run "list signatures" ossl list -signature-algorithms; then
    for n in 44 65 87; do
        grep -i "ML-DSA-$n" "$work/out" | grep -q "@ quill" && ok || bad "ML-DSA-$n signature not listed"
    done
fi

# expect_fail DESC CMD...: the command must fail.
expect_fail() {
    desc=$1
    shift
    if "$@" >"$work/out" 2>&1; then bad "$desc: succeeded"; else ok; fi
}

for n in 44 65 87; do
    alg=ML-DSA-$n
    snap
    run "$alg genpkey" ossl genpkey -algorithm "$alg" -out "key$n.pem"
    expect "$alg genpkey" 0 0 1
    grep -q "BEGIN PRIVATE KEY" "key$n.pem" && ok || bad "$alg key is not a PKCS#8 PEM"
    run "$alg pkey -pubout" ossl pkey -in "key$n.pem" -pubout -out "pub$n.pem"
    grep -q "BEGIN PUBLIC KEY" "pub$n.pem" && ok || bad "$alg public key is not an SPKI PEM"
    if run "$alg pkey -text" ossl pkey -in "key$n.pem" -noout -text; then
        grep -q "$alg" "$work/out" && ok || bad "$alg pkey -text does not name $alg"
        grep -qi "pub" "$work/out" && ok || bad "$alg pkey -text shows no public key"
    fi
    if run "$alg pkey -text_pub" ossl pkey -pubin -in "pub$n.pem" -noout -text_pub; then
        grep -q "$alg" "$work/out" && ok || bad "$alg pkey -text_pub does not name $alg"
    fi

    # pkeyutl on the raw message, with and without a context string.
    snap
    run "$alg pkeyutl -sign -rawin" ossl pkeyutl -sign -rawin -inkey "key$n.pem" -in msg \
        -out "sig$n.pk"
    expect "$alg pkeyutl -sign" 1 0 0
    snap
    run "$alg pkeyutl -verify -rawin" ossl pkeyutl -verify -rawin -pubin -inkey "pub$n.pem" \
        -in msg -sigfile "sig$n.pk"
    expect "$alg pkeyutl -verify" 0 1 0
    cp msg msg.bad && printf 'x' >>msg.bad
    expect_fail "$alg pkeyutl -verify of a changed message" ossl pkeyutl -verify -rawin -pubin \
        -inkey "pub$n.pem" -in msg.bad -sigfile "sig$n.pk"
    run "$alg EVP verifies the pkeyutl signature" "$tool" verify "pub$n.pem" msg "sig$n.pk"
    run "$alg pkeyutl -sign with a context" ossl pkeyutl -sign -rawin -inkey "key$n.pem" -in msg \
        -out "sig$n.ctx" -pkeyopt hexcontext-string:7175696c6c
    run "$alg EVP verifies it with the context" "$tool" verify "pub$n.pem" msg "sig$n.ctx" \
        7175696c6c
    expect_fail "$alg EVP verify without the context" "$tool" verify "pub$n.pem" msg "sig$n.ctx"
    run "$alg pkeyutl -verify with the context" ossl pkeyutl -verify -rawin -pubin \
        -inkey "pub$n.pem" -in msg -sigfile "sig$n.ctx" -pkeyopt hexcontext-string:7175696c6c
    expect_fail "$alg pkeyutl -verify with another context" ossl pkeyutl -verify -rawin -pubin \
        -inkey "pub$n.pem" -in msg -sigfile "sig$n.ctx" -pkeyopt hexcontext-string:7175696c6d

    # dgst with no digest (ML-DSA hashes internally).
    snap
    run "$alg dgst -sign" ossl dgst -sign "key$n.pem" -out "sig$n.dgst" msg
    expect "$alg dgst -sign" 1 0 0
    snap
    run "$alg dgst -verify" ossl dgst -verify "pub$n.pem" -signature "sig$n.dgst" msg
    expect "$alg dgst -verify" 0 1 0
    expect_fail "$alg dgst -verify of a changed message" ossl dgst -verify "pub$n.pem" \
        -signature "sig$n.dgst" msg.bad
    run "$alg EVP verifies the dgst signature" "$tool" verify "pub$n.pem" msg "sig$n.dgst"

    # EVP signs, the CLI verifies.
    run "$alg EVP sign" "$tool" sign "key$n.pem" msg "sig$n.evp"
    snap
    run "$alg pkeyutl verifies the EVP signature" ossl pkeyutl -verify -rawin -pubin \
        -inkey "pub$n.pem" -in msg -sigfile "sig$n.evp"
    run "$alg dgst verifies the EVP signature" ossl dgst -verify "pub$n.pem" \
        -signature "sig$n.evp" msg
    expect "$alg CLI verify of EVP signatures" 0 1 0

    # A self-signed certificate, verified with its self-signature checked.
    snap
    run "$alg req -x509" ossl req -x509 -new -key "key$n.pem" -subj "/CN=quill $alg" -days 1 \
        -out "cert$n.pem"
    expect "$alg req -x509" 1 0 0
    snap
    run "$alg verify -check_ss_sig" ossl verify -check_ss_sig -CAfile "cert$n.pem" "cert$n.pem"
    expect "$alg verify -check_ss_sig" 0 1 0
    if run "$alg x509 -text" ossl x509 -in "cert$n.pem" -noout -text; then
        grep -q "Signature Algorithm: *$alg\|Signature Algorithm: *id-ml-dsa-$n" "$work/out" && ok ||
            bad "$alg certificate does not show its signature algorithm"
        grep -q "Public Key Algorithm: *$alg\|Public Key Algorithm: *id-ml-dsa-$n" "$work/out" && ok ||
            bad "$alg certificate does not show its key algorithm"
    fi
    # A leaf signed by the ML-DSA certificate.
    run "$alg leaf key" ossl genpkey -algorithm "$alg" -out "leaf$n.key"
    run "$alg req -new" ossl req -new -key "leaf$n.key" -subj "/CN=leaf $alg" -out "leaf$n.csr"
    run "$alg x509 -req" ossl x509 -req -in "leaf$n.csr" -CA "cert$n.pem" -CAkey "key$n.pem" \
        -CAcreateserial -days 1 -out "leaf$n.pem"
    run "$alg verify leaf" ossl verify -CAfile "cert$n.pem" "leaf$n.pem"

    # An encrypted PKCS#8 key, reloaded.
    run "$alg pkcs8 -topk8 encrypted" ossl pkcs8 -topk8 -in "key$n.pem" -v2 aes-256-cbc \
        -passout pass:quill-test -out "enc$n.pem"
    grep -q "BEGIN ENCRYPTED PRIVATE KEY" "enc$n.pem" && ok || bad "$alg pkcs8 output not encrypted"
    run "$alg encrypted key reloaded" ossl pkey -in "enc$n.pem" -passin pass:quill-test -pubout \
        -out "pub$n.enc.pem"
    cmp -s "pub$n.pem" "pub$n.enc.pem" && ok || bad "$alg encrypted key has another public key"
    expect_fail "$alg encrypted key with a wrong passphrase" ossl pkey -in "enc$n.pem" \
        -passin pass:wrong -noout
    run "$alg pkcs8 decrypts" ossl pkcs8 -in "enc$n.pem" \
        -passin pass:quill-test -out "dec$n.pem"
    run "$alg EVP sign (decrypted key)" "$tool" sign "dec$n.pem" msg "sig$n.dec"
    run "$alg CLI verifies it" ossl pkeyutl -verify -rawin -pubin -inkey "pub$n.pem" -in msg \
        -sigfile "sig$n.dec"
done

# Keys of one set are not keys of another.
expect_fail "ML-DSA-44 signature under an ML-DSA-65 key" ossl pkeyutl -verify -rawin -pubin \
    -inkey pub65.pem -in msg -sigfile sig44.pk

# RSA and EC keys keep loading and signing under the same configuration.
plain genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out rsa.pem 2>/dev/null
plain genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out ec.pem 2>/dev/null
for k in rsa ec; do
    run "$k pkey" ossl pkey -in "$k.pem" -pubout -out "$k.pub"
    run "$k dgst -sign" ossl dgst -sha256 -sign "$k.pem" -out "sig.$k" msg
    run "$k dgst -verify without quill" plain dgst -sha256 -verify "$k.pub" -signature "sig.$k" msg
    run "$k pkcs8 -topk8" ossl pkcs8 -topk8 -in "$k.pem" -v2 aes-256-cbc -passout pass:x \
        -out "$k.enc"
    run "$k encrypted reload" ossl pkey -in "$k.enc" -passin pass:x -noout
    run "$k public key reload" ossl pkey -pubin -in "$k.pub" -noout
done
plain rsa -in rsa.pem -traditional -out rsa.trad.pem 2>/dev/null
plain ec -in ec.pem -out ec.trad.pem 2>/dev/null
for k in rsa ec; do
    grep -q "BEGIN $(echo $k | tr a-z A-Z) PRIVATE KEY" "$k.trad.pem" && ok || bad "$k traditional PEM not made"
    run "$k traditional PEM loads and signs" ossl dgst -sha256 -sign "$k.trad.pem" -out "sig.$k.trad" msg
    run "$k traditional signature verifies without quill" plain dgst -sha256 -verify "$k.pub" \
        -signature "sig.$k.trad" msg
done

# The stats line keeps its fields: RSA and EC first, then ML-DSA.
if [ -f "$stats" ]; then
    grep -qv '^pid=[0-9]* rsa-sign=[0-9]* rsa-verify=[0-9]* rsa-keygen=[0-9]* ecdsa-sign=[0-9]* ecdsa-verify=[0-9]* ec-keygen=[0-9]*\( [a-z0-9-]*=[0-9]*\)* mldsa-keygen=[0-9]* mldsa-sign=[0-9]* mldsa-verify=[0-9]*\( [a-z0-9-]*=[0-9]*\)*$' "$stats" \
        && { bad "unexpected stats line format"; head -3 "$stats" >&2; } || ok
else
    bad "no stats file"
fi

echo "stats file:"
sed 's/^/    /' "$stats" 2>/dev/null | tail -3
echo "cli_mldsa: $((passed + failed)) checks"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
