#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Copyright quill authors.
"""Writes a small seed corpus per libFuzzer harness (test/fuzz/).

    make_corpus.py OUTDIR [HARNESS...]

creates OUTDIR/<harness>/ for each harness named (default: all it knows)
and fills it with seed inputs in that harness's input format (described at
the top of each harness's source):

  fuzz_rsa_verify    every fixed key x padding x operation with a few
                     digests and PSS salt lengths, signed by the default
                     provider and by quill itself (the harness makes the
                     signature at run time: quill's own output), and
                     Wycheproof's RSA PKCS#1 v1.5 and PSS verification
                     tests (public key, message and signature in the input)
  fuzz_ecdsa_verify  each key mode x operation x digest x DER variant,
                     signed by either provider, and Wycheproof's ECDSA
                     P-256 (DER) tests with their public points
  fuzz_mldsa_*       the valid starting points of each parameter set

A harness it does not know gets an empty directory (libFuzzer starts from
nothing).  Vectors come from $QUILL_VECTORS_DIR, else ../shared/vectors
beside the source tree; without them only the generated seeds are written.
Nothing here is copied into git: the corpus is generated at run time into
the build directory.  Only the Python standard library is used."""

import hashlib
import json
import os
import struct
import sys

SRC = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def vectors_dir():
    d = os.environ.get("QUILL_VECTORS_DIR") or os.path.join(SRC, "..", "shared", "vectors")
    d = os.path.join(d, "wycheproof")
    return d if os.path.isdir(d) else None


def u16(n):
    return struct.pack(">H", n)


# fuzz_rsa_verify: md_names[] of the harness
RSA_MD = {"SHA-1": 0, "SHA-224": 1, "SHA-256": 2, "SHA-384": 3, "SHA-512": 4,
          "SHA-512/224": 5, "SHA-512/256": 6, "SHA3-224": 7, "SHA3-256": 8,
          "SHA3-384": 9, "SHA3-512": 10}


def rsa_salt(v):
    """The harness's salt byte for a salt length or a special value."""
    special = {"digest": 0xf0, "auto": 0xf1, "max": 0xf2, "auto-digestmax": 0xf3}
    if v in special:
        return special[v]
    return v if v < 0xf0 else 0xf4 + min(11, (v - 240) // 40)


def rsa_seeds():
    seeds = []
    msg = b"quill fuzz seed message"
    for key in range(4):
        for pad in range(4):
            for op in range(4):
                mds = [2, 4] if pad != 3 else [15, 2]
                if pad == 0 and op in (0, 3):
                    mds.append(15)  # raw PKCS#1 without a digest
                for md in mds:
                    salts = [(32, 32), ("digest", "auto"), ("max", "max")] if pad == 1 else [(0, 0)]
                    for ss, vs in salts:
                        for signer in (0, 0x10):
                            b0 = key | signer
                            b1 = pad | (op << 2)
                            b2 = md
                            seeds.append(bytes([b0, b1, b2, rsa_salt(ss), rsa_salt(vs), 7])
                                         + u16(len(msg)) + msg)
    # PSS with other MGF1 digests, a long message streamed, cross keys
    seeds.append(bytes([0, 1 | (1 << 2), 4 | ((0 + 1) << 4), 20, 20, 3]) + u16(len(msg)) + msg)
    long_msg = bytes(range(256)) * 4
    seeds.append(bytes([3 | 8, 2 << 2, 3, 0, 0, 99]) + u16(len(long_msg)) + long_msg)
    seeds.append(bytes([1 | 8 | 0x10, 1 | (2 << 2), 2, 0xf1, 0xf1, 5]) + u16(len(msg)) + msg)
    # the two known divergences (fuzz_rsa_verify.c, known1 and known2)
    seeds.append(bytes([0x10, 1, 2, 0xf0, 0xf3, 7]) + u16(len(msg)) + msg)
    seeds.append(bytes([0, 0, 0x0f]))
    return seeds


def rsa_wycheproof(vdir, per_file=8):
    seeds = []
    if vdir is None:
        return seeds
    for name in sorted(os.listdir(vdir)):
        if not name.endswith(".json") or not name.startswith("rsa_"):
            continue
        with open(os.path.join(vdir, name)) as f:
            doc = json.load(f)
        schema = doc.get("schema", "")
        if schema == "rsassa_pkcs1_verify_schema_v1.json":
            pad = 0
        elif schema == "rsassa_pss_verify_schema_v1.json":
            pad = 1
        else:
            continue  # generation tests, PSS parameters in the key (RSA-PSS SPKI)
        picked = []
        for g in doc["testGroups"]:
            if g.get("sha") not in RSA_MD:
                continue
            md = RSA_MD[g["sha"]]
            mgf = RSA_MD.get(g.get("mgfSha"), md) if pad == 1 else md
            salt = g.get("sLen", 0)
            if salt > 680:
                continue
            pk = g.get("publicKey", {})
            n = bytes.fromhex(pk.get("modulus", "")).lstrip(b"\0")
            e = bytes.fromhex(pk.get("publicExponent", ""))
            if not n or len(n) > 512 or len(e) > 8:
                continue
            for t in g["tests"]:
                msg = bytes.fromhex(t["msg"])[:2048]
                sig = bytes.fromhex(t["sig"])[:576]
                b0 = 4 | 0x20  # key and signature in the input
                b1 = pad | (1 << 2)  # EVP_DigestVerify, one-shot
                b2 = md | ((mgf + 1) << 4)
                s = rsa_salt(salt)
                picked.append(bytes([b0, b1, b2, s, s, 1]) + u16(len(msg)) + msg
                              + u16(len(n)) + n + bytes([len(e)]) + e + u16(len(sig)) + sig)
        # an even spread over the file: valid and invalid cases alike
        step = max(1, len(picked) // per_file)
        seeds.extend(picked[::step][:per_file])
    return seeds


def ecdsa_seeds():
    seeds = []
    msg = b"quill fuzz seed message"
    variants = [(0, 0), (1, 0), (2, 0), (4, 0), (8, 0), (0x10, 0), (0x20, 0), (0x40, 0),
                (0x80, 0), (0, 1), (0, 2), (0, 4), (0, 8), (0, 0x10), (0, 0x20), (0, 0x40),
                (0, 0x80)]
    for mode in (0, 1, 3):
        for op in range(4):
            for md in (0, 3):
                for signer in (0, 4):
                    seeds.append(bytes([mode | signer | (op << 4), md, 0, 0, 5])
                                 + u16(len(msg)) + msg)
    for b2, b3 in variants:
        seeds.append(bytes([0, 0, b2, b3, 0]) + u16(len(msg)) + msg)
    long_msg = bytes(range(256)) * 3
    seeds.append(bytes([1 | (2 << 4), 4, 0, 0, 77]) + u16(len(long_msg)) + long_msg)
    return seeds


def ecdsa_wycheproof(vdir, limit=160):
    seeds = []
    if vdir is None:
        return seeds
    path = os.path.join(vdir, "ecdsa_secp256r1_sha256_test.json")
    if not os.path.exists(path):
        return seeds
    with open(path) as f:
        doc = json.load(f)
    for g in doc["testGroups"]:
        point = bytes.fromhex(g["publicKey"]["uncompressed"])
        for t in g["tests"]:
            if len(seeds) >= limit:
                return seeds
            msg = bytes.fromhex(t["msg"])[:1024]
            sig = bytes.fromhex(t["sig"])[:255]
            b0 = 2 | 8 | (1 << 4)  # point and signature in the input, one-shot
            seeds.append(bytes([b0, 0, 0, 0, 3]) + u16(len(msg)) + msg
                         + bytes([len(point)]) + point + bytes([len(sig)]) + sig)
    return seeds


def mldsa_verify_seeds():
    return [bytes([s, m]) for s in range(3) for m in (0, 2)]


def mldsa_priv_seeds():
    return [bytes([s, 0]) for s in range(3)]


def mldsa_decoder_seeds():
    return [bytes([s, f]) for s in range(3) for f in range(4)]


def generators(vdir):
    return {
        "fuzz_rsa_verify": lambda: rsa_seeds() + rsa_wycheproof(vdir),
        "fuzz_ecdsa_verify": lambda: ecdsa_seeds() + ecdsa_wycheproof(vdir),
        "fuzz_mldsa_verify": mldsa_verify_seeds,
        "fuzz_mldsa_priv": mldsa_priv_seeds,
        "fuzz_mldsa_decoder": mldsa_decoder_seeds,
    }


def main(argv):
    if len(argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    out = argv[1]
    vdir = vectors_dir()
    gens = generators(vdir)
    names = argv[2:] or sorted(gens)
    for name in names:
        d = os.path.join(out, name)
        os.makedirs(d, exist_ok=True)
        seeds = gens[name]() if name in gens else []
        for s in seeds:
            # libFuzzer's own naming: the SHA-1 of the content
            with open(os.path.join(d, hashlib.sha1(s).hexdigest()), "wb") as f:
                f.write(s)
        print("%s: %d seeds in %s%s" % (name, len(seeds), d,
                                        "" if name in gens else " (no generator: empty)"))
    if vdir is None:
        print("make_corpus.py: no Wycheproof vectors (QUILL_VECTORS_DIR or ../shared/vectors): "
              "generated seeds only", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
