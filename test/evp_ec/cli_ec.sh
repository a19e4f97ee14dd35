#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Copyright quill authors.
#
# cli_ec: the stock openssl command line with quill activated through
# openssl.cnf.example, for ECDSA P-256.  After each command quill's own
# counters (written to $QUILL_STATS by every process that loaded it, one line
# per teardown: "pid=N rsa-sign=N rsa-verify=N rsa-keygen=N ecdsa-sign=N
# ecdsa-verify=N ec-keygen=N") must have gone up, and every signature quill
# made is checked again by OpenSSL without quill.  A P-384 key must keep
# working (served by the default provider: quill's counters stay put).
#
# Environment (set by CTest, test/evp_ec.cmake): QUILL_SOURCE_DIR,
# QUILL_BUILD_DIR (where quill.so is), optional QUILL_SANITIZE=1 with QUILL_CC
# (the compiler, to find the sanitizer runtimes the stock binary must
# preload).  Exit 77 (skipped) only if there is no openssl binary.
#
# $triple is split into words on purpose; "A && ok || bad" is safe because ok
# always succeeds.
# shellcheck disable=SC2086,SC2015
CLI_NAME=cli-ec
CLI_COUNTERS="ecdsa-sign ecdsa-verify ec-keygen"
. "${QUILL_SOURCE_DIR:?}/test/cli/cli_lib.sh"

# quill is active and offers ECDSA.
if run "list signatures" ossl list -signature-algorithms; then
    grep -i "ecdsa" "$work/out" | grep -q "@ quill" && ok || bad "quill ECDSA signature not listed"
fi
if run "list key managers" ossl list -key-managers; then
    grep -i "id-ecPublicKey" "$work/out" | grep -q "@ quill" && ok || bad "quill EC key manager not listed"
fi

# genpkey with quill's key generation (P-256), and checks without quill.
snap
run "genpkey -propquery provider=quill" ossl genpkey -algorithm EC \
    -pkeyopt ec_paramgen_curve:P-256 -propquery provider=quill -out key.pem
expect "genpkey" - - 1
run "pkey -pubout" ossl pkey -in key.pem -pubout -out pub.pem
run "pkey -check (default provider)" plain pkey -in key.pem -check -noout
if run "pkey -text (default provider)" plain pkey -in key.pem -noout -text; then
    grep -q "prime256v1" "$work/out" && ok || bad "generated key is not on prime256v1"
fi

# dgst -sign / -verify with several digests.
for md in sha256 sha384 sha512 sha3-256; do
    snap
    run "dgst -$md -sign" ossl dgst -$md -sign key.pem -out "sig.$md" msg
    expect "dgst -$md -sign" 1 - -
    snap
    run "dgst -$md -verify" ossl dgst -$md -verify pub.pem -signature "sig.$md" msg
    expect "dgst -$md -verify" - 1 -
    run "dgst -$md -verify without quill" plain dgst -$md -verify pub.pem -signature "sig.$md" msg
    plain dgst -$md -sign key.pem -out "sig.plain.$md" msg
    snap
    run "dgst -$md -verify of a default-provider signature" ossl dgst -$md -verify pub.pem \
        -signature "sig.plain.$md" msg
    expect "dgst -$md -verify (default signature)" - 1 -
    cp msg msg.bad && printf 'x' >>msg.bad
    if ossl dgst -$md -verify pub.pem -signature "sig.$md" msg.bad >"$work/out" 2>&1; then
        bad "dgst -$md -verify accepted a modified message"
    else
        ok
    fi
done

# pkeyutl on a precomputed digest (and on a raw 20-byte input).
plain dgst -sha256 -binary -out dgst.bin msg
snap
run "pkeyutl -sign" ossl pkeyutl -sign -inkey key.pem -in dgst.bin -out sig.pk -pkeyopt digest:sha256
expect "pkeyutl -sign" 1 - -
snap
run "pkeyutl -verify" ossl pkeyutl -verify -pubin -inkey pub.pem -in dgst.bin -sigfile sig.pk \
    -pkeyopt digest:sha256
expect "pkeyutl -verify" - 1 -
run "pkeyutl -verify without quill" plain pkeyutl -verify -pubin -inkey pub.pem -in dgst.bin \
    -sigfile sig.pk -pkeyopt digest:sha256
head -c 20 msg >raw20
snap
run "pkeyutl -sign (20 raw bytes)" ossl pkeyutl -sign -inkey key.pem -in raw20 -out sig.raw
expect "pkeyutl -sign raw" 1 - -
run "pkeyutl -verify raw without quill" plain pkeyutl -verify -pubin -inkey pub.pem -in raw20 \
    -sigfile sig.raw

# req -x509 -new with the EC key, then verify (with the self-signature
# checked), and a leaf issued by it.
snap
run "req -x509" ossl req -x509 -new -key key.pem -sha256 -subj "/CN=quill ec" -days 1 -out cert.pem
expect "req -x509" 1 - -
snap
run "verify -check_ss_sig" ossl verify -check_ss_sig -CAfile cert.pem cert.pem
expect "verify -check_ss_sig" - 1 -
run "verify without quill" plain verify -check_ss_sig -CAfile cert.pem cert.pem
if run "x509 -text" plain x509 -in cert.pem -noout -text; then
    grep -q "ecdsa-with-SHA256" "$work/out" && ok || bad "certificate lacks ecdsa-with-SHA256"
fi
snap
run "req -new leaf" ossl req -new -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
    -keyout leaf.key -sha256 -subj "/CN=leaf" -out leaf.csr
run "x509 -req" ossl x509 -req -in leaf.csr -CA cert.pem -CAkey key.pem -CAcreateserial -sha256 \
    -days 1 -out leaf.pem
expect "req -new + x509 -req" 1 1 -
snap
run "verify leaf" ossl verify -CAfile cert.pem leaf.pem
expect "verify leaf" - 1 -
run "verify leaf without quill" plain verify -CAfile cert.pem leaf.pem

# TLS 1.3 with the EC certificate: s_server signs with the quill-held key.
snap
tls_handshake "TLS 1.3 handshake with the EC certificate" cert.pem key.pem -tls1_3
expect "TLS 1.3" 1 1 -

# openssl speed (raw ECDSA signing of 20 bytes, as the tool does it).
# OpenSSL 3.0's speed leaks its ECDSA keys, so quill is never torn down:
# the line comes from quill's exit handler (provider/stats.h).
snap
run "speed ecdsap256" ossl speed -seconds 1 ecdsap256
if grep -q "256 bits ecdsa (nistp256)" "$work/out"; then ok; else bad "speed printed no nistp256 result"; fi
grep "nistp256" "$work/out" | tail -1
expect "speed ecdsap256" 1 1 -

# P-384 keeps working, served by the default provider (quill's counters
# stay put).
snap
run "genpkey P-384" ossl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-384 -out key384.pem
run "pkey -pubout P-384" ossl pkey -in key384.pem -pubout -out pub384.pem
run "dgst -sign P-384" ossl dgst -sha384 -sign key384.pem -out sig384 msg
run "dgst -verify P-384" ossl dgst -sha384 -verify pub384.pem -signature sig384 msg
run "dgst -verify P-384 without quill" plain dgst -sha384 -verify pub384.pem -signature sig384 msg
expect "P-384" 0 0 0

# The RSA fields stay first in the stats line, then the EC ones; later
# algorithms append theirs.
if [ -f "$stats" ]; then
    grep -qv '^pid=[0-9]* rsa-sign=[0-9]* rsa-verify=[0-9]* rsa-keygen=[0-9]* ecdsa-sign=[0-9]* ecdsa-verify=[0-9]* ec-keygen=[0-9]*\( [a-z0-9-]*=[0-9]*\)*$' "$stats" \
        && bad "unexpected stats line format" || ok
fi

echo "stats file:"
sed 's/^/    /' "$stats" 2>/dev/null | tail -5
echo "cli_ec: $((passed + failed)) checks"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
