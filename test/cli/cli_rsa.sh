#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Copyright quill authors.
#
# cli_rsa: the stock openssl command line with quill activated through
# openssl.cnf.example.  After each command, quill's own counters (written to
# $QUILL_STATS by every process that loaded it, one line per teardown:
# "pid=N rsa-sign=N rsa-verify=N rsa-keygen=N ...") must have gone up, and
# every signature quill made is checked again by OpenSSL without quill.
#
# Environment (set by CTest, test/cli.cmake): QUILL_SOURCE_DIR,
# QUILL_BUILD_DIR (where quill.so is), optional QUILL_SANITIZE=1 with QUILL_CC
# (the compiler, to find the sanitizer runtimes the stock binary must
# preload).  Exit 77 (skipped) only if there is no openssl binary.
#
# $opts and $triple are split into words on purpose; "A && ok || bad" is
# safe because ok always succeeds.
# shellcheck disable=SC2086,SC2015
CLI_NAME=cli
CLI_COUNTERS="rsa-sign rsa-verify rsa-keygen"
. "${QUILL_SOURCE_DIR:?}/test/cli/cli_lib.sh"

# quill is active and offers RSA signatures.
if run "list providers" ossl list -providers; then
    grep -q "quill" "$work/out" && ok || bad "quill not listed"
fi
if run "list signatures" ossl list -signature-algorithms; then
    grep -i "rsa" "$work/out" | grep -q "@ quill" && ok || bad "quill RSA signature not listed"
fi

# genpkey with quill's key generation.
snap
run "genpkey -propquery provider=quill" ossl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 \
    -propquery provider=quill -out key.pem
expect "genpkey" - - 1
run "pkey -pubout" ossl pkey -in key.pem -pubout -out pub.pem
run "pkey -check (default provider)" plain pkey -in key.pem -check -noout

# dgst -sign / -verify, PKCS#1 v1.5 and PSS.
for mode in pkcs1 pss; do
    case $mode in
    pkcs1) opts="" ;;
    pss) opts="-sigopt rsa_padding_mode:pss -sigopt rsa_pss_saltlen:digest" ;;
    esac
    snap
    run "dgst -sign $mode" ossl dgst -sha256 -sign key.pem $opts -out "sig.$mode" msg
    expect "dgst -sign $mode" 1 - -
    snap
    run "dgst -verify $mode" ossl dgst -sha256 -verify pub.pem $opts -signature "sig.$mode" msg
    expect "dgst -verify $mode" - 1 -
    run "dgst -verify $mode without quill" plain dgst -sha256 -verify pub.pem $opts \
        -signature "sig.$mode" msg
    # A corrupted message must be rejected by quill.
    cp msg msg.bad && printf 'x' >>msg.bad
    if ossl dgst -sha256 -verify pub.pem $opts -signature "sig.$mode" msg.bad >"$work/out" 2>&1; then
        bad "dgst -verify $mode accepted a modified message"
    else
        ok
    fi
done
snap
run "dgst -verify pss saltlen auto" ossl dgst -sha256 -verify pub.pem -sigopt rsa_padding_mode:pss \
    -sigopt rsa_pss_saltlen:auto -signature sig.pss msg
run "dgst -sign pss sha512 saltlen max" ossl dgst -sha512 -sign key.pem -sigopt rsa_padding_mode:pss \
    -sigopt rsa_pss_saltlen:max -sigopt rsa_mgf1_md:sha256 -out sig.pss512 msg
run "dgst -verify pss sha512 without quill" plain dgst -sha512 -verify pub.pem \
    -sigopt rsa_padding_mode:pss -sigopt rsa_pss_saltlen:max -sigopt rsa_mgf1_md:sha256 \
    -signature sig.pss512 msg
expect "dgst pss auto/max" 1 1 -

# pkeyutl on a precomputed digest, and verify-recover.
plain dgst -sha256 -binary -out dgst.bin msg
snap
run "pkeyutl -sign" ossl pkeyutl -sign -inkey key.pem -in dgst.bin -out sig.pk -pkeyopt digest:sha256
expect "pkeyutl -sign" 1 - -
snap
run "pkeyutl -verify" ossl pkeyutl -verify -pubin -inkey pub.pem -in dgst.bin -sigfile sig.pk \
    -pkeyopt digest:sha256
run "pkeyutl -verifyrecover" ossl pkeyutl -verifyrecover -pubin -inkey pub.pem -in sig.pk \
    -pkeyopt digest:sha256 -out rec.bin
cmp -s rec.bin dgst.bin && ok || bad "pkeyutl -verifyrecover returned a different digest"
expect "pkeyutl -verify/-verifyrecover" - 1 -
cmp -s sig.pk sig.pkcs1 && ok || bad "pkeyutl and dgst PKCS#1 signatures differ"
run "pkeyutl -verify without quill" plain pkeyutl -verify -pubin -inkey pub.pem -in dgst.bin \
    -sigfile sig.pk -pkeyopt digest:sha256

# req -x509 -new then verify (PKCS#1 and PSS certificates).  OpenSSL does
# not check a trust anchor's own signature unless asked (-check_ss_sig), so
# a leaf certificate issued by it is verified too.
for mode in pkcs1 pss; do
    case $mode in
    pkcs1) opts="" ;;
    pss) opts="-sigopt rsa_padding_mode:pss -sigopt rsa_pss_saltlen:digest" ;;
    esac
    snap
    run "req -x509 $mode" ossl req -x509 -new -key key.pem -sha256 $opts -subj "/CN=quill $mode" \
        -days 1 -out "cert.$mode.pem"
    expect "req -x509 $mode" 1 - -
    snap
    run "verify -check_ss_sig $mode" ossl verify -check_ss_sig -CAfile "cert.$mode.pem" \
        "cert.$mode.pem"
    expect "verify -check_ss_sig $mode" - 1 -
    run "verify $mode without quill" plain verify -check_ss_sig -CAfile "cert.$mode.pem" \
        "cert.$mode.pem"
    # A leaf: CSR signed by a default-provider key (quill signs it, RSA being
    # preferred), then issued by the quill CA key (quill checks the CSR and signs).
    snap
    run "req -new leaf $mode" ossl req -new -newkey rsa:2048 -nodes -keyout "leaf.$mode.key" \
        -sha256 $opts -subj "/CN=leaf $mode" -out "leaf.$mode.csr"
    run "x509 -req $mode" ossl x509 -req -in "leaf.$mode.csr" -CA "cert.$mode.pem" -CAkey key.pem \
        -CAcreateserial -sha256 $opts -days 1 -out "leaf.$mode.pem"
    expect "req -new + x509 -req $mode" 1 1 -
    snap
    run "verify leaf $mode" ossl verify -CAfile "cert.$mode.pem" "leaf.$mode.pem"
    expect "verify leaf $mode" - 1 -
    run "verify leaf $mode without quill" plain verify -CAfile "cert.$mode.pem" "leaf.$mode.pem"
done
if run "x509 -text pss" plain x509 -in cert.pss.pem -noout -text; then
    grep -q "rsassaPss" "$work/out" && ok || bad "PSS certificate lacks rsassaPss"
fi

# pkeyutl with PSS and dgst with SHA3-256.
snap
run "pkeyutl -sign pss" ossl pkeyutl -sign -inkey key.pem -in dgst.bin -out sig.pkpss \
    -pkeyopt digest:sha256 -pkeyopt rsa_padding_mode:pss -pkeyopt rsa_pss_saltlen:digest
run "pkeyutl -verify pss without quill" plain pkeyutl -verify -pubin -inkey pub.pem -in dgst.bin \
    -sigfile sig.pkpss -pkeyopt digest:sha256 -pkeyopt rsa_padding_mode:pss \
    -pkeyopt rsa_pss_saltlen:digest
run "dgst -sha3-256 -sign" ossl dgst -sha3-256 -sign key.pem -out sig.sha3 msg
run "dgst -sha3-256 -verify without quill" plain dgst -sha3-256 -verify pub.pem -signature sig.sha3 msg
expect "pkeyutl pss + dgst sha3-256" 1 - -

# What the default provider signs with and quill must therefore take too
# (OpenSSL does not fall back once quill's context refuses a parameter):
# the legacy digests, MD5-SHA1 (TLS 1.0/1.1), X9.31 and no padding.
# Deterministic signatures must equal the default provider's byte for byte.
for md in md5 ripemd160 sha1 md5-sha1; do
    snap
    run "dgst -$md -sign" ossl dgst -$md -sign key.pem -out "sig.$md" msg
    expect "dgst -$md -sign" 1 - -
    run "dgst -$md -sign without quill" plain dgst -$md -sign key.pem -out "sig.$md.plain" msg
    cmp -s "sig.$md" "sig.$md.plain" && ok || bad "dgst -$md: quill and default signatures differ"
    run "dgst -$md -verify without quill" plain dgst -$md -verify pub.pem -signature "sig.$md" msg
    snap
    run "dgst -$md -verify" ossl dgst -$md -verify pub.pem -signature "sig.$md.plain" msg
    expect "dgst -$md -verify" - 1 -
done
for md in sha1 sha256 sha384 sha512; do
    opts="-sigopt rsa_padding_mode:x931"
    snap
    run "dgst -$md -sign x931" ossl dgst -$md -sign key.pem $opts -out "sig.x931.$md" msg
    expect "dgst -$md -sign x931" 1 - -
    run "dgst -$md -sign x931 without quill" plain dgst -$md -sign key.pem $opts \
        -out "sig.x931.$md.plain" msg
    cmp -s "sig.x931.$md" "sig.x931.$md.plain" && ok || bad "x931 $md: signatures differ"
    run "dgst -$md -verify x931 without quill" plain dgst -$md -verify pub.pem $opts \
        -signature "sig.x931.$md" msg
    snap
    run "dgst -$md -verify x931" ossl dgst -$md -verify pub.pem $opts -signature "sig.x931.$md" msg
    expect "dgst -$md -verify x931" - 1 -
done
# Both refuse X9.31 with a digest it has no identifier for.
if ossl dgst -sha224 -sign key.pem -sigopt rsa_padding_mode:x931 -out sig.bad msg >"$work/out" 2>&1; then
    bad "x931 with sha224 accepted"
else
    ok
fi
snap
run "pkeyutl -sign x931" ossl pkeyutl -sign -inkey key.pem -in dgst.bin -out sig.pkx931 \
    -pkeyopt digest:sha256 -pkeyopt rsa_padding_mode:x931
cmp -s sig.pkx931 sig.x931.sha256 && ok || bad "pkeyutl and dgst X9.31 signatures differ"
run "pkeyutl -verifyrecover x931" ossl pkeyutl -verifyrecover -pubin -inkey pub.pem -in sig.pkx931 \
    -pkeyopt digest:sha256 -pkeyopt rsa_padding_mode:x931 -out rec.x931
cmp -s rec.x931 dgst.bin && ok || bad "pkeyutl -verifyrecover x931 returned a different digest"
expect "pkeyutl x931" 1 1 -
# No padding.  pkeyutl -sign takes at most 64 bytes of input (it expects a
# digest) with either provider, so the k-byte raw private operation comes
# from rsautl -sign -raw (EVP_PKEY_sign with RSA_NO_PADDING); pkeyutl
# -verifyrecover takes the signature.
{ printf '\000'; head -c 255 msg; } >raw.in
snap
run "rsautl -sign -raw" ossl rsautl -sign -raw -inkey key.pem -in raw.in -out sig.none
expect "rsautl -sign -raw" 1 - -
run "rsautl -sign -raw without quill" plain rsautl -sign -raw -inkey key.pem -in raw.in \
    -out sig.none.plain
cmp -s sig.none sig.none.plain && ok || bad "raw signatures differ"
snap
run "pkeyutl -verifyrecover none" ossl pkeyutl -verifyrecover -pubin -inkey pub.pem -in sig.none \
    -pkeyopt rsa_padding_mode:none -out rec.none
cmp -s rec.none raw.in && ok || bad "pkeyutl -verifyrecover none returned another value"
expect "pkeyutl -verifyrecover none" - 1 -

# CMS signing and verification.
snap
run "cms -sign" ossl cms -sign -in msg -signer cert.pkcs1.pem -inkey key.pem -binary \
    -outform DER -out msg.cms
run "cms -verify" ossl cms -verify -in msg.cms -inform DER -CAfile cert.pkcs1.pem -binary \
    -content msg -out /dev/null
expect "cms -sign/-verify" 1 1 -
run "cms -verify without quill" plain cms -verify -in msg.cms -inform DER -CAfile cert.pkcs1.pem \
    -binary -content msg -out /dev/null

# TLS: s_server signs the handshake with the quill-held RSA key, s_client
# checks it (TLS 1.3 rsa_pss_rsae_*, TLS 1.2 PKCS#1 ServerKeyExchange).
snap
tls_handshake "TLS 1.3 handshake" cert.pkcs1.pem key.pem -tls1_3
expect "TLS 1.3" 1 1 -
snap
tls_handshake "TLS 1.2 handshake, PKCS#1 signature" cert.pkcs1.pem key.pem \
    -tls1_2 -sigalgs RSA+SHA256
expect "TLS 1.2" 1 1 -
# TLS 1.1 and 1.0 (security level 0 on both ends): the ServerKeyExchange
# is signed with MD5-SHA1's 36 bytes, no DigestInfo.
tls_server_opts="-cipher DEFAULT:@SECLEVEL=0"
snap
tls_handshake "TLS 1.1 handshake, MD5-SHA1 signature" cert.pkcs1.pem key.pem \
    -tls1_1 -cipher 'DEFAULT:@SECLEVEL=0'
expect "TLS 1.1" 1 1 -
grep -q "Peer signing digest: MD5-SHA1" "$work/out" && ok || bad "TLS 1.1 did not sign MD5-SHA1"
snap
tls_handshake "TLS 1.0 handshake, MD5-SHA1 signature" cert.pkcs1.pem key.pem \
    -tls1 -cipher 'DEFAULT:@SECLEVEL=0'
expect "TLS 1.0" 1 1 -
grep -q "Peer signing digest: MD5-SHA1" "$work/out" && ok || bad "TLS 1.0 did not sign MD5-SHA1"
tls_server_opts=""

# openssl speed (raw PKCS#1 signing of 36 bytes, as the tool does it).
snap
run "speed rsa2048" ossl speed -seconds 1 rsa2048
sed -n '/sign/,$p' "$work/out" | tail -3
expect "speed rsa2048" 1 1 -

echo "stats file:"
sed 's/^/    /' "$stats" 2>/dev/null | tail -5
echo "cli_rsa: $((passed + failed)) checks"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
