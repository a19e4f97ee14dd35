#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Copyright quill authors.
"""The measured column and the cycle budgets of docs/limits.md.

Usage (from the repository root, after
  cmake --build build -j2 --target quill-limits):
  python3 tools/limits.py [--build build] [--quick | --long] [--no-count]
                          [--raw FILE] [--check]

What it does:
 1. Runs build/quill-limits, which prints rdtsc ticks per kernel and per
    core operation (minimum and median over many samples), the TSC ticks
    per core cycle and the measured reciprocal throughput of the bounding
    instructions (VPMADD52LUQ, MULX, the Keccak and NTT vector instructions;
    each the fastest of 82 passes spread over the run).
 2. Counts, per operation, the kernel calls the budget multiplies:
    - ML-DSA: Keccak-f[1600] four-way and single permutations, NTTs and
      inverse NTTs, from callgrind's call counts of `quill-limits --count OP N`
      (two runs, N = 1 and 2, differenced so that the set-up drops out), at
      QUILL_CPU_MASK=0x30 since valgrind cannot run AVX-512: the call
      structure is that of the AVX2 level, the same as the AVX-512 one
      (quill_keccak_f1600_x4_wide() holds on both);
    - P-256: point operations and the nonce's SHA-256 calls the same way;
    - RSA: from the code (core/bn/exp_ifma.c): windows of 5 bits, squarings
      and products per exponentiation, VPMADD52 per product.
 3. Reads the instruction mix of the kernels from `objdump -d` of the
    binary (VPMADD52 per squaring, MULX per point operation, the Keccak
    round's vector instructions).
 4. Prints the Markdown table of docs/limits.md: measured ticks per
    operation, the kernel sum (counts x measured kernel ticks), the port
    floor (counts x instructions x measured reciprocal throughput) and the
    ratios.

--check (the bench smoke test) asserts that every figure is positive and
that every measured operation costs at least its port floor; the exit
status is 1 otherwise.  Figures move with the load on a shared machine:
compare minima, and rerun after a merge (the commit is printed).
"""
import argparse
import collections
import math
import os
import re
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# --------------------------------------------------------------------------
# running quill-limits


def run_limits(binary, mode, env):
    args = [binary]
    if mode:
        args.append(mode)
    out = subprocess.run(args, env=env, check=True, capture_output=True, text=True).stdout
    res = {}
    for line in out.splitlines():
        if line.startswith("#"):
            if "FAILED" in line:
                raise SystemExit("quill-limits: " + line)
            continue
        f = line.split("\t")
        if len(f) < 4:
            continue
        res[f[0]] = {"min": float(f[1]), "med": float(f[2]), "unit": f[3],
                     "note": f[4] if len(f) > 4 else ""}
    return res, out


def callgrind_calls(binary, op, n, env):
    """(calls per callee name, self Ir per function name) over one
    `--count op n` run under callgrind."""
    out = "/tmp/quill-limits.cg.%d" % os.getpid()
    e = dict(env)
    e["QUILL_CPU_MASK"] = "0x30"
    subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out,
                    binary, "--count", op, str(n)], env=e, check=True,
                   capture_output=True, text=True)
    names, calls, self_ir = {}, collections.Counter(), collections.Counter()
    cur_fn = cur_cfn = None
    skip_next = False
    with open(out) as f:
        for line in f:
            m = re.match(r"(c?fn)=\((\d+)\)(?: (.*))?", line)
            if m:
                if m.group(3):
                    names[m.group(2)] = m.group(3).strip()
                if m.group(1) == "cfn":
                    cur_cfn = names.get(m.group(2))
                else:
                    cur_fn = names.get(m.group(2))
                continue
            if line.startswith("calls="):
                if cur_cfn:
                    calls[cur_cfn] += int(line.split()[0][6:])
                skip_next = True  # the next cost line is the call's inclusive cost
                continue
            if line[:1] in "0123456789+-*":
                if skip_next:
                    skip_next = False
                elif cur_fn:
                    parts = line.split()
                    if len(parts) >= 2:
                        self_ir[cur_fn] += int(parts[1])
    os.unlink(out)
    return calls, self_ir


def counts_per_op(binary, op, batch, env, n1=1, n2=2):
    """Callee call counts and self Ir per operation: (run with n2 - run with
    n1) / (batch (n2 - n1)), so that the set-up drops out."""
    c1, i1 = callgrind_calls(binary, op, n1, env)
    c2, i2 = callgrind_calls(binary, op, n2, env)
    d = batch * (n2 - n1)
    calls = {k: (c2[k] - c1.get(k, 0)) / d for k in c2}
    calls["__self_ir__"] = {k: (i2[k] - i1.get(k, 0)) / d for k in i2}
    return calls


def pick(counts, pattern):
    return sum(v for k, v in counts.items() if k != "__self_ir__" and re.fullmatch(pattern, k))


def ir_shares(counts, top=6):
    """The functions with the largest self instruction counts per operation,
    as 'name NN%' (callgrind, AVX2 level)."""
    ir = counts.get("__self_ir__", {})
    total = sum(v for v in ir.values() if v > 0)
    if not total:
        return ""
    best = sorted(ir.items(), key=lambda kv: -kv[1])[:top]
    def label(k):
        k = k.split(" ")[0].split("'")[0]
        return "(libcrypto)" if k.startswith("0x") else re.sub(r"^quill_", "", k)
    return ", ".join("%s %.0f%%" % (label(k), 100 * v / total) for k, v in best)


# --------------------------------------------------------------------------
# instruction mix from objdump


def objdump_mix(binary):
    dis = subprocess.run(["objdump", "-d", "--no-show-raw-insn", binary], check=True,
                         capture_output=True, text=True).stdout
    funcs, cur = {}, None
    for line in dis.splitlines():
        m = re.match(r"^[0-9a-f]+ <(.+)>:", line)
        if m:
            cur = funcs.setdefault(m.group(1), collections.Counter())
            continue
        m = re.match(r"^\s+[0-9a-f]+:\s+(\S+)", line)
        if m and cur is not None:
            cur[m.group(1)] += 1
    return funcs


def count_ops(mix, func, regex):
    c = mix.get(func)
    if c is None:
        return None
    return sum(v for k, v in c.items() if re.fullmatch(regex, k))


# --------------------------------------------------------------------------
# budgets


def d52_digits(limbs):
    return (64 * limbs + 51) // 52


def rsa_rows(r, mix, tpc, ifma_rt):
    """RSA-B sign and verify on the IFMA path (core/bn/exp_ifma.c,
    exp_ifma_x1.c)."""
    rows = []
    for bits in (2048, 3072, 4096):
        half = bits // 2
        n = half // 64                       # limbs of p and q (and of dp, dq)
        L = d52_digits(n)                    # 52-bit digits per half
        W = math.ceil(2 * L / 8)             # zmm vectors for two lanes
        windows = math.ceil(64 * n / 5)      # 5-bit windows of dp, dq
        sqr = 5 * (windows - 1)
        amm = (windows - 1) + 2 + 30 + 1     # window products, a R', one, table, exit
        amm_madd = 4 * W * L                 # d52_products: 4 VPMADD52 per vector per digit
        sq = count_ops(mix, "sqr_x2_%d" % L, r"vpmadd52[lh]uq")
        sqr_madd = sq if sq else amm_madd    # L = 40 squares with amm_x2_40
        L1 = d52_digits(bits // 64)          # one lane of the whole modulus
        W1 = math.ceil(L1 / 8)
        f4_products = 16 + 1 + 2             # 65537: 16 squarings, 1 product, in and out
        f4_madd = f4_products * 4 * W1 * L1
        sign_madd = sqr * sqr_madd + amm * amm_madd + f4_madd
        exp = r.get("bn.exp_x2.%d" % half, {}).get("min")
        f4 = r.get("bn.exp_f4.%d" % bits, {}).get("min")
        win = r.get("bn.exp_x2_window.%d" % half, {}).get("min")
        sign_floor = sign_madd * ifma_rt * tpc
        verify_floor = f4_madd * ifma_rt * tpc
        rows.append({
            "op": "RSA-%d sign" % bits, "measured": r.get("rsa%d.sign" % bits, {}).get("min"),
            "kernels": (exp + f4) if exp and f4 else None, "floor": sign_floor,
            "counts": "2 x %d-bit CRT halves, 5-bit windows: %d two-way squarings x %d "
                      "VPMADD52 + %d two-way products x %d; check with e: %d one-lane "
                      "products x %d" % (half, sqr, sqr_madd, amm, amm_madd, f4_products,
                                          4 * W1 * L1),
            "window": win, "window_floor": (5 * sqr_madd + amm_madd) * ifma_rt * tpc,
            "madd": sign_madd,
        })
        rows.append({
            "op": "RSA-%d verify" % bits, "measured": r.get("rsa%d.verify" % bits, {}).get("min"),
            "kernels": f4, "floor": verify_floor,
            "counts": "%d one-lane products (L = %d digits) x %d VPMADD52" %
                      (f4_products, L1, 4 * W1 * L1),
            "madd": f4_madd,
        })
    return rows


KECCAK_ROUND_OPS = 96   # vector instructions per round on AVX-512VL (see docs/limits.md)
KECCAK_ROUND_ROT = 29   # of which rotations (VPROLQ)
NTT_VECTOR_OPS = 128 * 13  # 128 vectors of 8 butterflies x (11 Montgomery + add + sub)
NTT_MULS = 128 * 5


def logic_rate(r):
    """Cycles per instruction on the four vector ALU pipes: the fastest of
    the VPTERNLOGQ, VPXOR and mixed VPROLQ+VPTERNLOGQ probes.  Each probe
    is itself the fastest of quill-limits' passes spread over its whole run
    (a probe at four instructions per cycle now and then reads up to 1.9x
    slow on the shared VM for a stretch of passes, and one pass lasts
    milliseconds: timed once, it moved the ML-DSA floors by 11%);
    taking the fastest of three probes as well keeps one unlucky probe out
    (a single probe once gave 0.43 cycles per VPTERNLOGQ while the kernel
    itself ran its round faster than that allows)."""
    probes = [r.get(k, {}).get("min") for k in
              ("port.vpternlogq.ymm", "port.vpxor.ymm", "port.mix.vprolq+vpternlogq.ymm")]
    probes = [v for v in probes if v]
    return min(probes) if probes else 0.25


def keccak_floor_cycles(r, mix):
    """Port floor of one Keccak-f[1600] call on AVX-512VL (one or four
    states: the same instructions on xmm or ymm)."""
    logic = logic_rate(r)
    rot = r.get("port.vprolq.ymm", {}).get("min") or 0.5
    ops, rots = KECCAK_ROUND_OPS, KECCAK_ROUND_ROT
    body = "quill_keccak_f1600_x4_avx512vl"
    alu = count_ops(mix, body, r"vpternlogq|vprolq|vprorq|vpxorq?|vpandn")
    rr = count_ops(mix, body, r"vprolq|vprorq")
    if alu and rr:
        # the loop body holds two rounds (12 iterations)
        ops, rots = alu / 2, rr / 2
    per_round = max(ops * logic, rots * rot)
    return 24 * per_round, ops, rots


def mldsa_rows(r, counts, tpc, mix):
    rows = []
    kfloor, kops, krots = keccak_floor_cycles(r, mix)
    mul_rt = r.get("port.vpmuldq.ymm", {}).get("min") or 0.5
    logic = logic_rate(r)
    ntt_floor = max(NTT_VECTOR_OPS * logic, NTT_MULS * mul_rt)
    x4 = r.get("keccak.x4", {}).get("min")
    x1 = r.get("keccak.x1", {}).get("min")
    ntt = r.get("mldsa.ntt", {}).get("min")
    intt = r.get("mldsa.invntt", {}).get("min")
    ntt_lazy = r.get("mldsa.ntt_lazy", {}).get("min")
    ells = {"44": 4, "65": 5, "87": 7}
    for s in ("44", "65", "87"):
        ell = ells[s]
        dot = r.get("mldsa.dot_mont.%d" % ell, {}).get("min")
        # a row of A y on 32 vectors of 8 coefficients: per polynomial 2
        # VPMULDQ (even and odd lanes), 2 64-bit adds and 1 shuffle; about 10
        # instructions (3 of them multiplications) for the reduction
        dot_floor = max((5 * ell + 10) * 32 * logic, (2 * ell + 3) * 32 * mul_rt)
        for op in ("keygen", "sign", "verify"):
            name = "mldsa%s.%s" % (s, op)
            c = counts.get(name)
            row = {"op": "ML-DSA-%s %s" % (s, op), "measured": r.get(name, {}).get("min")}
            if c is None:
                row.update(kernels=None, floor=None, counts="(no counts: valgrind absent)")
                rows.append(row)
                continue
            n4 = pick(c, r"quill_keccak_f1600_x4_(avx2|avx512vl|c)")
            n1 = pick(c, r"quill_keccak_f1600_(bmi|avx512vl|c)")
            # ntt_from: the NTT of a copy (signing's y); the inverse NTT's
            # fused forms: freeze_highbits (verification), power2round (key
            # generation's rows of t); dot_mont_x2 and its _tail form (c t1
            # as one more pair, verification): two rows of A y per call
            # ntt_lazy_from: key generation's NTT(s1) with Shoup's products
            # (timed as mldsa.ntt_lazy)
            nl = pick(c, r"quill_mldsa_ntt_lazy_from")
            nn = pick(c, r"quill_mldsa_ntt(_from)?") + nl
            ni = pick(c, r"quill_mldsa_invntt_(tomont(_freeze)?|freeze_highbits|power2round)")
            nd = pick(c, r"quill_mldsa_dot_mont") + 2 * pick(c, r"quill_mldsa_dot_mont_x2(_tail)?")
            row["kernels"] = (n4 * x4 + n1 * x1 + (nn - nl) * ntt + nl * (ntt_lazy or ntt)
                              + ni * intt + nd * (dot or 0) if x4 and ntt else None)
            row["floor"] = ((n4 + n1) * kfloor + (nn + ni) * ntt_floor + nd * dot_floor) * tpc
            row["keccak_share"] = (n4 * x4 + n1 * x1) / row["measured"] if row["measured"] else 0
            row["counts"] = ("%.1f four-way + %.1f single Keccak-f[1600], %.1f NTT + %.1f "
                             "inverse NTT, %.1f rows of A y" % (n4, n1, nn, ni, nd))
            row["ir"] = ir_shares(c)
            row["n4"], row["n1"], row["nn"], row["ni"] = n4, n1, nn, ni
            rows.append(row)
    return rows, kfloor, kops, krots, ntt_floor


def p256_rows(r, counts, tpc, mix, mulx_rt):
    rows = []
    madd_mulx = count_ops(mix, "quill_p256_point_add_mixed_adx", r"mulx") or 0
    dbl_mulx = count_ops(mix, "quill_p256_point_double_n_adx", r"mulx") or 0
    vmadd_mulx = count_ops(mix, "quill_p256_point_madd_vartime_adx", r"mulx") or 0
    vcache_mulx = count_ops(mix, "quill_p256_point_add_cached_vartime_adx", r"mulx") or 0
    mb = r.get("p256.mul_base", {}).get("min")
    finv = r.get("p256.fe_inv", {}).get("min")
    sinv = r.get("p256.scalar_inv", {}).get("min")
    pair = r.get("p256.inv_pair", {}).get("min")
    madd = r.get("p256.madd_vt", {}).get("min")
    dbl = r.get("p256.dbl_vt", {}).get("min")
    # k G on the native path (x86-64 with ADX and AVX2, core/ec/p256_base.c):
    # signed 8-bit windows of n - k or k (below 2^255), 32 windows, 31 mixed
    # additions, each scanning the next window's 128-entry row
    base_adds = 31
    base_floor = base_adds * madd_mulx * mulx_rt * tpc
    for op in ("keygen", "sign", "verify_cached"):
        name = "p256." + op
        c = counts.get(name, {})
        row = {"op": "P-256 " + op.replace("_cached", " (same key)"),
               "measured": r.get(name, {}).get("min"), "ir": ir_shares(c)}
        if op == "keygen":
            row["kernels"] = mb + finv if mb and finv else None
            row["floor"] = base_floor + (finv or 0)
            row["counts"] = ("k G: %d mixed additions x %d MULX (+ %d scans of 128 "
                             "entries); 1 inversion mod p" % (base_adds, madd_mulx, base_adds + 1))
        elif op == "sign":
            nh = pick(c, r"sha256_digest") if c else None
            # the two inversions run as one pair (p256.inv_pair) where
            # quill-limits measures it, else as the two single inversions
            inv = pair or ((finv or 0) + (sinv or 0))
            row["kernels"] = mb + inv if mb and inv else None
            row["floor"] = base_floor + inv
            row["counts"] = ("k G as keygen; 1 inversion mod p, 1 mod n%s; nonce (HMAC-DRBG): "
                             "20 SHA-256 compressions with SHA-NI, else %s SHA-256 calls"
                             % (" (paired)" if pair else "",
                                "%.0f" % nh if nh is not None else "?"))
        else:
            nm = pick(c, r"quill_p256_point_madd_vartime_(c|adx)") if c else 0
            na = pick(c, r"quill_p256_point_add_cached_vartime_(c|adx)") if c else 0
            row["kernels"] = (64 * dbl + (nm + na) * madd) if dbl and madd else None
            row["floor"] = (64 * dbl_mulx + nm * vmadd_mulx + na * vcache_mulx) * mulx_rt * tpc
            row["counts"] = ("64 doublings x %d MULX, %.1f mixed + %.1f cached additions "
                             "x %d / %d MULX" % (dbl_mulx, nm, na, vmadd_mulx, vcache_mulx))
        rows.append(row)
    return rows, madd_mulx, dbl_mulx


# --------------------------------------------------------------------------


def fmt(x, digits=0):
    if x is None:
        return "-"
    if digits == 0:
        return "{:,.0f}".format(x)
    return "{:,.{d}f}".format(x, d=digits)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    g = ap.add_mutually_exclusive_group()
    g.add_argument("--quick", action="store_true", help="few samples (smoke test)")
    g.add_argument("--long", action="store_true", help="4x the samples")
    ap.add_argument("--no-count", action="store_true", help="skip the callgrind counts")
    ap.add_argument("--raw", help="also write quill-limits' own output here")
    ap.add_argument("--check", action="store_true",
                    help="fail unless every figure is positive and above its floor")
    a = ap.parse_args()

    binary = os.path.join(a.build, "quill-limits")
    if not os.access(binary, os.X_OK):
        sys.exit("tools/limits.py: %s not built (cmake --build %s --target quill-limits)"
                 % (binary, a.build))
    env = dict(os.environ)
    mode = "--quick" if a.quick else "--long" if a.long else None
    r, raw = run_limits(binary, mode, env)
    if a.raw:
        with open(a.raw, "w") as f:
            f.write(raw)

    tpc = r["clock"]["min"]
    ifma_rt = r.get("port.vpmadd52luq.zmm", {}).get("min")
    mulx_rt = r.get("port.mulx", {}).get("min") or 1.0
    mix = objdump_mix(binary)

    counts = {}
    have_vg = shutil.which("valgrind") is not None and not a.no_count
    if have_vg:
        for s in ("44", "65", "87"):
            counts["mldsa%s.keygen" % s] = counts_per_op(binary, "mldsa%s.keygen" % s, 16, env)
            counts["mldsa%s.sign" % s] = counts_per_op(binary, "mldsa%s.sign" % s, 64, env)
            counts["mldsa%s.verify" % s] = counts_per_op(binary, "mldsa%s.verify" % s, 64, env)
        for op in ("p256.keygen", "p256.sign", "p256.verify_cached"):
            counts[op] = counts_per_op(binary, op, 1, env, 10, 20)

    try:
        commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"],
                                capture_output=True, text=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", ROOT, "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True).stdout.strip()
    except OSError:
        commit, dirty = "?", ""
    try:
        load = open("/proc/loadavg").read().split()[:3]
    except OSError:
        load = ["?"] * 3

    rows = []
    if ifma_rt and "IFMA" in r.get("bn.exp_x2.1024", {}).get("note", ""):
        rows += rsa_rows(r, mix, tpc, ifma_rt)
    else:
        for bits in (2048, 3072, 4096):
            for op in ("sign", "verify"):
                rows.append({"op": "RSA-%d %s" % (bits, op),
                             "measured": r.get("rsa%d.%s" % (bits, op), {}).get("min"),
                             "kernels": None, "floor": None,
                             "counts": "(no IFMA here: MULX/ADX path, floor not modelled)"})
    prow, madd_mulx, dbl_mulx = p256_rows(r, counts, tpc, mix, mulx_rt)
    rows += prow
    mrows, kfloor, kops, krots, ntt_floor = mldsa_rows(r, counts, tpc, mix)
    rows += mrows

    print("commit %s%s, load average %s, TSC %.4f ticks per core cycle (core clock "
          "~%.2fx the TSC)" % (commit, " (modified)" if dirty else "", " ".join(load), tpc,
                               1 / tpc if tpc else 0))
    print("ports (cycles per instruction, reciprocal throughput): " + ", ".join(
        "%s %.2f" % (k[5:], v["min"]) for k, v in r.items() if k.startswith("port.")))
    print("kernels (min ticks per call): " + ", ".join(
        "%s %s" % (k, fmt(v["min"], 1)) for k, v in r.items()
        if not k.startswith(("port.", "clock", "rsa", "mldsa4", "mldsa6", "mldsa8", "evp."))
        and k not in ("p256.keygen", "p256.keygen_lazy", "p256.sign", "p256.verify",
                      "p256.verify_cached")))
    # The provider generates P-256 keys with the public point left in
    # Jacobian form (p256.keygen_lazy): that is the core of its EVP line.
    # evp.mldsaS.keygen_seeded makes the keys of mldsaS.keygen.
    def core_of(k):
        if k.endswith(".keygen_seeded"):
            return k[4:-len("_seeded")]
        return k[4:] + "_lazy" if k[4:] + "_lazy" in r else k[4:]
    evp = ["%s %s (core %s, layer %s)" % (k[4:], fmt(v["min"]), fmt(r[core_of(k)]["min"]),
                                          fmt(v["min"] - r[core_of(k)]["min"]))
           for k, v in r.items() if k.startswith("evp.") and core_of(k) in r]
    if evp:
        print("through EVP on quill.so (min ticks): " + ", ".join(evp))
    print("Keccak-f[1600] AVX-512VL round: %.0f vector instructions, %.0f rotations -> "
          "floor %.0f cycles per call (%.0f per state four-way); NTT floor %.0f cycles"
          % (kops, krots, kfloor, kfloor / 4, ntt_floor))
    print()
    print("| operation | measured ticks/op | kernel sum ticks | port floor ticks | "
          "measured / floor | kernel sum / floor | counts |")
    print("|---|---:|---:|---:|---:|---:|---|")
    bad = []
    for row in rows:
        m, k, f = row.get("measured"), row.get("kernels"), row.get("floor")
        print("| %s | %s | %s | %s | %s | %s | %s |" % (
            row["op"], fmt(m), fmt(k), fmt(f),
            fmt(m / f, 2) + "x" if m and f else "-",
            fmt(k / f, 2) + "x" if k and f else "-", row.get("counts", "")))
        if a.check and (not m or m <= 0 or (f and m < f)):
            bad.append(row["op"])
    for row in rows:
        if row.get("window"):
            print("%s: one 5-bit window (5 two-way squarings + 1 product + gather) %s ticks, "
                  "IFMA floor %s" % (row["op"], fmt(row["window"]), fmt(row["window_floor"])))
    print()
    print("Self instructions per operation by function (callgrind, QUILL_CPU_MASK=0x30):")
    for row in rows:
        if row.get("ir"):
            print("- %s: %s" % (row["op"], row["ir"]))
    if a.check:
        for k, v in r.items():
            if not v["min"] > 0:
                bad.append(k)
        if bad:
            print("tools/limits.py: implausible figures: " + ", ".join(bad), file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
