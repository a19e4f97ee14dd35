#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Copyright quill authors.
"""aarch64 speed by machine model: llvm-mca-16 on exact dynamic traces.

Usage (from the repository root, after an aarch64 cross build):
  cmake -B build-arm64 -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake \\
        -DCMAKE_BUILD_TYPE=Release
  cmake --build build-arm64 -j2 --target quill
  python3 bench/aarch64_model.py --build build-arm64 [--ops rsa2048-sign,...]
         [--mask HEX] [--label NAME] [--validate] [--list-callees OP]

Time under qemu means nothing, so this script estimates speed with LLVM's
machine models and never measures a time.

METHOD (chosen over "one hot-loop iteration x trip count"): every figure is
llvm-mca run on the exact dynamic instruction stream of one call.
 1. bench/aarch64_model/op_driver.c does a whole operation through EVP
    (quill.so, or OpenSSL's default provider with its armv8 assembly) twice
    untraced, then once between two calls of a marker function.
 2. It runs under `qemu-aarch64 -d in_asm,exec,nochain`: in_asm logs each
    translation block's instruction words once, exec (with chaining off)
    logs every execution of a block, so the log between the markers replays
    the operation's exact instruction stream: loops unrolled with their real
    trip counts, calls followed, no address guessed.  qemu's block logging
    is streamed into this script and never stored.
 3. Kernels (bench/aarch64_model/kernels.txt) are recognised by their entry
    address: quill's by ELF symbol, OpenSSL's (stripped libcrypto) by their
    first instruction words.  Each call is cut from its entry to the return
    to its caller; calls are grouped by (routine, dynamic length) - constant-
    time kernels give one length per operand size - and one stream per group
    is kept.  The same log gives the call counts per operation (item 2 of
    issue 22: "counted ... under qemu").
 4. Each kept stream is disassembled (llvm-mc-16) and fed to llvm-mca-16,
    -mtriple=aarch64, for two CPU models.  Streams of under 20000
    instructions are repeated (-iterations) to 20000 so that the figure is
    the steady back-to-back cost rather than one cold pipeline fill.
    Branches are plain instructions to llvm-mca: no misprediction, no cache
    miss, a perfect front end - an optimistic model for every side alike.
 5. A whole operation = sum over groups (modelled cycles x calls) for the
    kernels, plus the rest ("glue": C between kernels, hashing, EVP,
    allocation) as its qemu instruction count x the modelled cycles per
    instruction of an evenly spaced sample of that glue stream (chunks of
    2000 consecutive instructions, at most 60 chunks).  Glue is labelled
    separately in the table.

Known limits: a call's stream includes what the kernel itself calls
(libc's memset for a scratch wipe, a dispatcher's call into the assembly);
calls become ADR X30 for llvm-mca (see mca_text); an ML-DSA signature is one
random sample of the rejection loop (its attempt count varies per run, so
compare signing only as per-attempt costs); keys are made before the marks
(quill keeps ML-DSA's expanded matrix with the key); instructions a CPU
model lacks get stand-ins (stand_in) and are listed under the table.

CPU models: llvm-mca-16 (Debian 12's newest) has no scheduling model of its
own for these cores: -mcpu=neoverse-n1 uses the Cortex-A57 tables
(resources A57Unit*), -mcpu=apple-m1 uses the Apple Cyclone tables
(CyUnit*).  Every figure names its -mcpu and those tables.  The trace for
neoverse-n1 is taken under QEMU_CPU=cortex-a72 (NEON, no SHA-3 extension,
as on N1; OpenSSL's armv8 code also reads the MIDR and takes its NEON
Montgomery path for moduli over 2048 bits on Cortex-A72 and Neoverse N1, as
it would on an N1) and the one for apple-m1 under QEMU_CPU=max (SHA-3
present, as on M1).

VALIDATION (--validate ROUTINE:OP:CPU): the trace method against the
hot-loop method on a routine with one loop (quill's portable ML-DSA
pointwise product, quill_mldsa_pointwise_mont_c): static disassembly, loop
body found by its backward branch, llvm-mca on the body for the trip count
(read from the traced call's length) plus llvm-mca on the rest, against
llvm-mca on the traced call; one cold call and back to back.
"""
import argparse
import collections
import hashlib
import json
import os
import re
import shutil
import struct
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SYSROOT = "/usr/aarch64-linux-gnu"
LIBCRYPTO = "/usr/lib/aarch64-linux-gnu/libcrypto.so.3"
MC = "llvm-mc-16"
MCA = "llvm-mca-16"
MATTR = "+v8.4a,+sha3,+crypto,+pauth"
# column -> (qemu CPU for the trace, llvm-mca -mcpu, the tables llvm-16 uses)
CPUS = collections.OrderedDict([
    ("n1", ("cortex-a72", "neoverse-n1", "Cortex-A57 tables")),
    ("m1", ("max", "apple-m1", "Cyclone tables")),
])
MIN_STREAM = 20000
GLUE_CHUNK, GLUE_MAX_CHUNKS = 2000, 60

# Operation name -> (op_driver OP, key argument (file under keys/ or name), providers)
OPS = collections.OrderedDict()
for _b in (2048, 3072, 4096):
    for _o in ("sign", "verify"):
        OPS["rsa%d-%s" % (_b, _o)] = (_o, "rsa%d.pem" % _b, ("quill", "openssl"))
for _o in ("keygen", "sign", "verify"):
    OPS["p256-%s" % _o] = (_o, "P-256", ("quill", "openssl"))
for _l in (44, 65, 87):
    for _o in ("keygen", "sign", "verify"):
        OPS["mldsa%d-%s" % (_l, _o)] = (_o, "ML-DSA-%d" % _l, ("quill",))
# Kernel-only runs for OpenSSL's Keccak (OpenSSL 3.0 has no ML-DSA).
OPS["sha3-256"] = ("digest", "SHA3-256", ("openssl",))


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, stdout=subprocess.PIPE, universal_newlines=True, **kw).stdout


# ---------------------------------------------------------------- ELF helpers
def elf_exec_segments(path):
    """[(vaddr, file offset, size)] of the executable PT_LOAD segments."""
    with open(path, "rb") as f:
        data = f.read()
    phoff, = struct.unpack_from("<Q", data, 0x20)
    phentsize, phnum = struct.unpack_from("<HH", data, 0x36)
    segs = []
    for i in range(phnum):
        p_type, p_flags, p_offset, p_vaddr, _, p_filesz = struct.unpack_from(
            "<IIQQQQ", data, phoff + i * phentsize)
        if p_type == 1 and p_flags & 1:
            segs.append((p_vaddr, p_offset, p_filesz))
    return data, segs


def find_signature(path, words):
    data, segs = elf_exec_segments(path)
    pat = b"".join(struct.pack("<I", w) for w in words)
    hits = []
    for vaddr, off, size in segs:
        start = off
        while True:
            i = data.find(pat, start, off + size)
            if i < 0:
                break
            if (i - off) % 4 == 0:
                hits.append(vaddr + i - off)
            start = i + 1
    return hits


def symbols(path):
    """name -> (address, size) of the function symbols (nm -S)."""
    out = run(["llvm-nm-16", "-S", "--defined-only", path])
    syms = {}
    for line in out.splitlines():
        f = line.split()
        if len(f) == 4 and f[2] in "tTwW":
            syms[f[3]] = (int(f[0], 16), int(f[1], 16))
    return syms


# ---------------------------------------------------------------- manifest
def read_manifest(path):
    rows = []
    with open(path) as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            fam, side, match = line.split(None, 2)
            rows.append((fam, side, match))
    return rows


def kernel_entries(manifest, quill_so, warn):
    """Kernel routines as (side, family, name, link-time address, size or None)."""
    out = []
    qsyms = symbols(quill_so) if quill_so else {}
    for fam, side, match in manifest:
        if side == "quill":
            rx = re.compile(match[3:])
            for name, (addr, size) in sorted(qsyms.items()):
                if rx.search(name) and size > 0:
                    out.append(("quill", fam, name, addr, size))
        elif side == "openssl":
            _, name, words = match.split(":", 2)
            if words == "TBD":
                warn("manifest: %s has no signature yet" % name)
                continue
            wl = words.split(",")
            skip = 4 * next((i for i, w in enumerate(wl) if w.startswith(">")), 0)
            hits = [h + skip for h in find_signature(LIBCRYPTO, [int(w.lstrip(">"), 16) for w in wl])]
            if len(hits) != 1:
                warn("manifest: signature of %s found %d times in %s: skipped" % (name, len(hits), LIBCRYPTO))
                continue
            out.append(("openssl", fam, name, hits[0], None))
    return out


# ---------------------------------------------------------------- tracing
def is_call(w):
    return (w & 0xFC000000) == 0x94000000 or (w & 0xFFFFFC1F) == 0xD63F0000 or \
        (w & 0xFEFFF800) == 0xD63F0800  # BL, BLR, BLRAA/BLRAB(Z)


class Trace:
    """Parses qemu's in_asm+exec log between the two marker calls."""

    def __init__(self, mark, entries, callee_stats=False):
        self.mark = mark
        self.entries = entries        # runtime addr -> (key, lo, hi or None)
        self.tbs = {}
        self.state = 0                # 0 before, 1 inside, 2 after
        self.total = 0
        self.stack = []               # return addresses
        self.prev_last = None
        self.prev_pc = None
        self.cap = None               # [key, depth, words]
        self.calls = collections.Counter()        # key -> calls
        self.groups = collections.Counter()       # (key, len) -> calls
        self.streams = {}                         # (key, len) -> words
        self.kernel_insns = 0
        self.glue = 0
        self.glue_chunks = []
        self.glue_stride = 50000
        self.callee = collections.Counter() if callee_stats else None
        self.callee_insns = collections.Counter() if callee_stats else None
        self.open_callees = []

    def feed(self, stream):
        cur = None
        tbs = self.tbs
        for line in stream:
            if line.startswith("Trace "):
                cur = None
                b = line.index("[")
                pc = int(line[b + 1:].split("/", 2)[1], 16)
                self.exec_tb(pc)
                if self.state == 2:
                    # drain the rest of the log without parsing
                    for _ in stream:
                        pass
                    return
            elif line.startswith("IN:"):
                cur = []
            elif cur is not None and line.startswith("0x"):
                colon = line.index(":")
                addr = int(line[:colon], 16)
                word = int(line[colon + 1:].split()[0], 16)
                if not cur:
                    tbs[addr] = cur
                cur.append(word)
            elif cur is not None and not line.strip():
                cur = None

    def exec_tb(self, pc):
        if pc == self.mark:
            self.state += 1
            self.prev_last = None
            return
        if self.state != 1:
            return
        words = self.tbs.get(pc)
        if words is None:
            raise SystemExit("aarch64_model: block 0x%x executed before it was logged" % pc)
        stack = self.stack
        # returns: the block starts at a pending return address
        if stack and pc in stack:
            while stack and stack[-1] != pc:
                self._pop()
            self._pop()
        if self.prev_last is not None and is_call(self.prev_last[1]):
            stack.append(self.prev_last[0] + 4)
            if self.callee is not None:
                self.callee[pc] += 1
                self.open_callees.append((pc, self.total))
        ent = self.entries.get(pc)
        if ent is not None and self.cap is None:
            key, lo, hi = ent
            inside = hi is not None and self.prev_pc is not None and lo <= self.prev_pc < hi
            if not inside:
                self.calls[key] += 1
                self.cap = [key, len(stack), []]
        elif ent is not None:
            key, lo, hi = ent
            if not (hi is not None and self.prev_pc is not None and lo <= self.prev_pc < hi):
                self.calls[key + " (nested)"] += 1
        n = len(words)
        self.total += n
        if self.cap is not None:
            self.cap[2].extend(words)
            self.kernel_insns += n
        else:
            self._glue(words)
        self.prev_last = (pc + 4 * (n - 1), words[-1])
        self.prev_pc = pc

    def _pop(self):
        self.stack.pop()
        if self.callee is not None and self.open_callees:
            cpc, start = self.open_callees.pop()
            self.callee_insns[cpc] += self.total - start
        if self.cap is not None and len(self.stack) < self.cap[1]:
            key, _, words = self.cap
            g = (key, len(words))
            self.groups[g] += 1
            if g not in self.streams:
                self.streams[g] = words
            self.cap = None

    def _glue(self, words):
        pos = self.glue
        self.glue += len(words)
        if pos % self.glue_stride < GLUE_CHUNK:
            if not self.glue_chunks or self.glue_chunks[-1][0] != pos // self.glue_stride:
                self.glue_chunks.append([pos // self.glue_stride, []])
            if len(self.glue_chunks[-1][1]) < GLUE_CHUNK:
                self.glue_chunks[-1][1].extend(words)
            if len(self.glue_chunks) > GLUE_MAX_CHUNKS:
                self.glue_stride *= 2
                self.glue_chunks = [c for c in self.glue_chunks if c[0] % 2 == 0]
                for c in self.glue_chunks:
                    c[0] //= 2


def trace_op(args, work, op, side, cpu, kernels, callee_stats=False):
    drv_op, keyarg, _ = OPS[op]
    if keyarg.endswith(".pem"):
        keyarg = os.path.join(work, "keys", keyarg)
    prov = "default" if side == "openssl" else os.path.abspath(args.build)
    env = dict(os.environ, QEMU_CPU=CPUS[cpu][0])
    # quill's own code is modelled even for the families this build declines
    # on aarch64 (provider/decline.h)
    env["QUILL_DECLINE"] = "none"
    if side == "quill" and args.mask is not None:
        env["QUILL_CPU_MASK"] = args.mask
    drv = os.path.join(work, "op_driver")
    mark = symbols(drv)["quill_model_mark"][0]
    # The guest's load addresses: a first, untraced run prints them (qemu
    # user mode maps the same way each run).
    out = run(["qemu-aarch64", "-L", SYSROOT, drv, prov, drv_op, keyarg], env=env)
    bases = {}
    for line in out.splitlines():
        f = line.split()
        if len(f) >= 6 and f[2] == "00000000" and "r" in f[1]:
            lib = "quill" if f[5].endswith("quill.so") else "openssl"
            bases.setdefault(lib, int(f[0].split("-")[0], 16))
    entries = {}
    for kside, fam, name, addr, size in kernels:
        lib = "quill" if kside == "quill" else "openssl"
        if lib not in bases:
            continue
        base = bases[lib]
        key = "%s|%s|%s" % (kside, fam, name)
        entries[base + addr] = (key, base + addr, None if size is None else base + addr + size)
    t = Trace(mark, entries, callee_stats)
    p = subprocess.Popen(["qemu-aarch64", "-L", SYSROOT, "-d", "in_asm,exec,nochain", drv, prov,
                          drv_op, keyarg], env=env, stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, universal_newlines=True, bufsize=1 << 20)
    t.feed(p.stderr)
    if p.wait() != 0 or t.state < 2:
        raise SystemExit("aarch64_model: %s %s %s: the traced run failed" % (op, side, cpu))
    res = {
        "total": t.total, "kernel_insns": t.kernel_insns, "glue": t.glue,
        "calls": dict(t.calls),
        "groups": [[k, n, c] for (k, n), c in t.groups.items()],
        "streams": {"%s#%d" % g: w for g, w in t.streams.items()},
        "glue_sample": [w for _, c in t.glue_chunks for w in c],
    }
    if callee_stats:
        inv = {}
        for lib, base in bases.items():
            inv[lib] = base
        res["callees"] = sorted(((c, t.callee_insns[pc], describe(pc, bases)) for pc, c in t.callee.items()),
                                key=lambda x: -x[1])[:40]
    return res


def describe(pc, bases):
    best = None
    for lib, base in bases.items():
        if pc >= base and (best is None or base > bases[best]):
            best = lib
    return "%s+0x%x" % (best, pc - bases[best]) if best else "0x%x" % pc


# ---------------------------------------------------------------- llvm-mca
def mca_text(word, text):
    """The line llvm-mca gets for one instruction word.  A call (BL, BLR,
    BLRAA...) becomes ADR X30 (its architectural effect apart from the
    branch, which llvm-mca ignores for every branch): llvm-mca-16 gives a
    call a fixed 100-cycle latency, which would charge every callee's
    prologue (STP X29, X30) with 100 cycles."""
    if is_call(word):
        return "adr\tx30, #4"
    return text


def stand_in(insn):
    """A modelled instruction for one the CPU model lacks: an LSE atomic
    (LDADD/SWP/CAS/LDSET/LDCLR/LDEOR) becomes a load of its destination from
    its address; anything else a NOP."""
    m = re.match(r"(ldadd|ldclr|ldeor|ldset|ldsmax|ldsmin|ldumax|ldumin|swp|cas)\w*\s+"
                 r"([wx]\d+|[wx]zr), ([wx]\d+|[wx]zr)(?:, ([wx]\d+|[wx]zr))?, \[(\w+)\]", insn)
    if m:
        dst = m.group(3) if not m.group(4) else m.group(4)
        if dst.endswith("zr"):
            dst = dst[0] + "16"
        return "ldr\t%s, [%s]" % (dst, m.group(5))
    return "nop"


class Model:
    def __init__(self, cache_dir):
        self.cache_dir = cache_dir
        os.makedirs(cache_dir, exist_ok=True)
        self.text = {}
        self.undecoded = set()
        self.substituted = collections.Counter()

    def disasm(self, words_lists):
        need = sorted({w for ws in words_lists for w in ws} - set(self.text))
        if not need:
            return
        # Each word is followed by a marker (HINT #127) so that a word llvm-mc
        # cannot decode (it prints a warning and nothing) is noticed.
        mark = 0xD5032FFF
        enc = lambda w: "0x%02x 0x%02x 0x%02x 0x%02x" % (w & 255, w >> 8 & 255, w >> 16 & 255, w >> 24)
        src = "\n".join(enc(w) + "\n" + enc(mark) for w in need)
        out = subprocess.run([MC, "--disassemble", "-triple=aarch64", "-mattr=" + MATTR],
                             input=src, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             universal_newlines=True, check=True).stdout
        lines = [l.split("//")[0].strip() for l in out.splitlines()]
        lines = [l for l in lines if l and not l.startswith(".text")]
        i = 0
        for w in need:
            if lines[i] == "hint\t#127" or lines[i] == "hint #127":
                self.text[w] = "nop"   # undecodable word: modelled as a nop
                self.undecoded.add(w)
                i += 1
                continue
            if lines[i + 1].replace("\t", " ") != "hint #127":
                raise SystemExit("aarch64_model: llvm-mc output out of step at 0x%08x: %r" % (w, lines[i:i + 2]))
            self.text[w] = lines[i]
            i += 2

    def cycles(self, words, mcpu):
        """Modelled cycles per pass of the stream."""
        if not words:
            return 0.0
        self.disasm([words])
        body = "\n".join(mca_text(w, self.text[w]) for w in words) + "\n"
        iters = max(1, min(100, MIN_STREAM // len(words)))
        h = hashlib.sha256((mcpu + "|%d|" % iters + body).encode()).hexdigest()[:24]
        cf = os.path.join(self.cache_dir, h + ".json")
        if os.path.exists(cf):
            with open(cf) as f:
                return json.load(f)["cycles"]
        while True:
            out = subprocess.run([MCA, "-mtriple=aarch64", "-mcpu=" + mcpu, "-mattr=" + MATTR,
                                  "-iterations=%d" % iters], input=body, stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, universal_newlines=True)
            m = re.search(r"Total Cycles:\s+(\d+)", out.stdout)
            bad = re.search(r"unsupported instruction.*\nnote: instruction:\s*(.*)", out.stderr)
            if out.returncode != 0 and bad:
                # an instruction the CPU model has no entry for (LSE atomics in
                # the Cyclone tables): a stand-in, counted in the report
                insn = bad.group(1).strip()
                self.substituted[(mcpu, insn)] += body.count("\n" + insn + "\n") + body.startswith(insn + "\n")
                body = ("\n" + body).replace("\n" + insn + "\n", "\n" + stand_in(insn) + "\n")[1:]
                body = body.replace("\n" + insn + "\n", "\n" + stand_in(insn) + "\n")
                continue
            break
        if out.returncode != 0 or not m:
            raise SystemExit("aarch64_model: llvm-mca failed on %s: %s" % (mcpu, out.stderr[-600:]))
        cyc = int(m.group(1)) / iters
        with open(cf, "w") as f:
            json.dump({"cycles": cyc, "insns": len(words)}, f)
        return cyc


# ---------------------------------------------------------------- validation
def mca_total(model, words, mcpu, iterations):
    model.disasm([words])
    body = "\n".join(mca_text(w, model.text[w]) for w in words) + "\n"
    out = subprocess.run([MCA, "-mtriple=aarch64", "-mcpu=" + mcpu, "-mattr=" + MATTR,
                          "-iterations=%d" % iterations], input=body, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, universal_newlines=True, check=True).stdout
    return int(re.search(r"Total Cycles:\s+(\d+)", out).group(1))


def validate(args, work, kernels, model, spec):
    """The trace method against the hot-loop method on one single-loop
    routine: ROUTINE:OP:CPU."""
    routine, op, cpu = spec.split(":")
    mcpu = CPUS[cpu][1]
    quill_so = os.path.join(args.build, "quill.so")
    dis = run(["llvm-objdump-16", "-d", "--disassemble-symbols=" + routine, quill_so])
    insns = []
    for line in dis.splitlines():
        m = re.match(r"\s+([0-9a-f]+):\s+([0-9a-f]{8})\s+(\S+)\s*(.*)", line)
        if m:
            insns.append((int(m.group(1), 16), int(m.group(2), 16), m.group(3), m.group(4)))
    if not insns:
        raise SystemExit("aarch64_model: %s not found in %s" % (routine, quill_so))
    loops = []
    for addr, word, mnem, ops in insns:
        if mnem.startswith("b") and mnem not in ("bl", "blr", "br", "bic", "bics", "bif", "bit", "bsl",
                                                 "bfi", "bfxil", "bcax") or mnem in ("cbz", "cbnz", "tbz", "tbnz"):
            t = re.search(r"0x([0-9a-f]+)", ops)
            if t and insns[0][0] <= int(t.group(1), 16) < addr:
                loops.append((int(t.group(1), 16), addr))
    if len(loops) != 1:
        raise SystemExit("aarch64_model: --validate wants a routine with exactly one loop; %s has %d"
                         % (routine, len(loops)))
    head, tail = loops[0]
    body = [w for a, w, _, _ in insns if head <= a <= tail]
    rest = [w for a, w, mn, _ in insns if not head <= a <= tail]
    r = trace_op(args, work, op, "quill", cpu, kernels)
    streams = [(k, n) for k, n, c in r["groups"] if k.endswith("|" + routine)]
    if not streams:
        raise SystemExit("aarch64_model: %s not called in %s" % (routine, op))
    key, n = streams[0]
    trace = r["streams"]["%s#%d" % (key, n)]
    trips = (n - len(rest) + len(body) // 2) // len(body)
    left = n - len(rest) - trips * len(body)
    print("validation of the trace method on %s (%s, -mcpu=%s, %s)" % (routine, op, mcpu, CPUS[cpu][2]))
    print("  static: %d instructions, loop 0x%x-0x%x of %d instructions; dynamic call: %d instructions"
          " = %d + %d x %d%s" % (len(insns), head, tail, len(body), n, len(rest), trips, len(body),
                                  "" if left == 0 else " (%+d: the loop-free part is not all executed exactly once)" % left))
    a1 = mca_total(model, trace, mcpu, 1)
    a100 = mca_total(model, trace, mcpu, 100) / 100.0
    b_loop = mca_total(model, body, mcpu, trips)
    b_rest = mca_total(model, rest, mcpu, 1)
    b_loop_ss = mca_total(model, body, mcpu, 100 * trips) / 100.0
    b_rest_ss = mca_total(model, rest, mcpu, 100) / 100.0
    print("  one cold call:   trace %d cycles; hot loop x %d trips + rest = %d + %d = %d cycles" %
          (a1, trips, b_loop, b_rest, b_loop + b_rest))
    print("  back to back:    trace %.1f cycles/call; hot loop + rest = %.1f + %.1f = %.1f cycles/call" %
          (a100, b_loop_ss, b_rest_ss, b_loop_ss + b_rest_ss))


# ---------------------------------------------------------------- main
def prepare(args, work):
    os.makedirs(os.path.join(work, "keys"), exist_ok=True)
    drv = os.path.join(work, "op_driver")
    src = os.path.join(HERE, "aarch64_model", "op_driver.c")
    if not os.path.exists(drv) or os.path.getmtime(drv) < os.path.getmtime(src):
        run(["aarch64-linux-gnu-gcc", "-O2", "-no-pie", "-Wall", "-Wextra", "-Werror", src, "-o", drv,
             "-lcrypto"])
    for b in (2048, 3072, 4096):
        k = os.path.join(work, "keys", "rsa%d.pem" % b)
        if not os.path.exists(k):
            run(["openssl", "genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:%d" % b,
                 "-out", k], stderr=subprocess.DEVNULL)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default="build-arm64")
    ap.add_argument("--ops", default=",".join(OPS))
    ap.add_argument("--cpus", default=",".join(CPUS))
    ap.add_argument("--mask", default=None, help="QUILL_CPU_MASK for quill's runs (e.g. 0 = portable)")
    ap.add_argument("--label", default=None, help="tag of this quill build in the cache and table")
    ap.add_argument("--manifest", default=os.path.join(HERE, "aarch64_model", "kernels.txt"))
    ap.add_argument("--list-callees", default=None, metavar="OP:SIDE:CPU",
                    help="print the most expensive callees of one traced operation and exit")
    ap.add_argument("--json", default=None, help="also write the results here")
    ap.add_argument("--work", default=None,
                    help="cache directory (default BUILD/aarch64_model); OpenSSL's traces there serve "
                         "every quill build, quill's are keyed by quill.so's hash and the label")
    ap.add_argument("--compare", default=None, metavar="LABEL=JSON,LABEL=JSON",
                    help="side-by-side tables of quill builds (--json outputs of earlier runs, the "
                         "first one the reference) and OpenSSL; prints and exits")
    ap.add_argument("--validate", default=None, metavar="ROUTINE:OP:CPU",
                    help="compare the trace method with hot loop x trips + rest on a one-loop routine, "
                         "e.g. quill_mldsa_pointwise_mont_c:mldsa44-verify:n1")
    args = ap.parse_args()
    for tool in ("qemu-aarch64", "aarch64-linux-gnu-gcc", MC, MCA, "llvm-nm-16", "openssl"):
        if shutil.which(tool) is None:
            raise SystemExit("aarch64_model: %s is not installed" % tool)
    quill_so = os.path.join(args.build, "quill.so")
    if not os.path.exists(quill_so):
        raise SystemExit("aarch64_model: %s not found: build the quill target first" % quill_so)
    work = args.work or os.path.join(args.build, "aarch64_model")
    prepare(args, work)
    warn = lambda m: print("note: " + m, file=sys.stderr)
    kernels = kernel_entries(read_manifest(args.manifest), quill_so, warn)

    if args.list_callees:
        op, side, cpu = args.list_callees.split(":")
        r = trace_op(args, work, op, side, cpu, kernels, callee_stats=True)
        print("total %d instructions" % r["total"])
        for c, ins, where in r["callees"]:
            print("%8d calls %12d insns  %s" % (c, ins, where))
        return

    if args.compare:
        compare(args)
        return
    if args.validate:
        validate(args, work, kernels, Model(os.path.join(work, "mca-cache")), args.validate)
        return

    label = args.label or ("mask-" + args.mask if args.mask is not None else "default")
    qhash = hashlib.sha256(open(quill_so, "rb").read()).hexdigest()[:12]
    model = Model(os.path.join(work, "mca-cache"))
    results = {}
    for op in args.ops.split(","):
        for side in OPS[op][2]:
            for cpu in args.cpus.split(","):
                tag = qhash + "-" + label if side == "quill" else "openssl"
                cf = os.path.join(work, "trace-%s-%s-%s-%s.json" % (op, side, cpu, tag))
                if os.path.exists(cf):
                    with open(cf) as f:
                        r = json.load(f)
                else:
                    print("tracing %s on %s under QEMU_CPU=%s ..." % (op, side, CPUS[cpu][0]),
                          file=sys.stderr)
                    r = trace_op(args, work, op, side, cpu, kernels)
                    with open(cf, "w") as f:
                        json.dump(r, f)
                mcpu = CPUS[cpu][1]
                kcyc = 0.0
                groups = []
                for key, n, c in r["groups"]:
                    cyc = model.cycles(r["streams"]["%s#%d" % (key, n)], mcpu)
                    groups.append((key, n, c, cyc))
                    kcyc += cyc * c
                gs = r["glue_sample"]
                cpi = model.cycles(gs, mcpu) / len(gs) if gs else 0.0
                results[(op, side, cpu)] = {
                    "total": r["total"], "glue": r["glue"], "kernel_cycles": kcyc,
                    "glue_cycles": cpi * r["glue"], "glue_cpi": cpi, "groups": groups,
                    "calls": r["calls"],
                }
    args.substituted = ", ".join("%s on %s x%d" % (i, c, n) for (c, i), n in sorted(model.substituted.items()))
    report(results, args, label)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"%s|%s|%s" % k: v for k, v in results.items()}, f, indent=1)


def fmt(x):
    if x >= 1e6:
        return "%.2fM" % (x / 1e6)
    if x >= 1e4:
        return "%.0fk" % (x / 1e3)
    return "%.0f" % x


def compare(args):
    runs = []
    for item in args.compare.split(","):
        label, path = item.split("=", 1)
        with open(path) as f:
            runs.append((label, {tuple(k.split("|")): v for k, v in json.load(f).items()}))
    cpus = [c for c in CPUS if any(k[2] == c for _, r in runs for k in r)]
    ops = [op for op in OPS if any(k[0] == op for _, r in runs for k in r)]
    labels = [l for l, _ in runs]
    ossl = runs[0][1]
    for cpu in cpus:
        mcpu, tables = CPUS[cpu][1], CPUS[cpu][2]
        print("\n### Kernels per operation, `-mcpu=%s` (llvm-mca-16, %s): calls x modelled cycles, "
              "kcycles\n" % (mcpu, tables))
        print("| operation | kernel | calls (%s) | %s | OpenSSL | %s |" % (
            labels[0], " | ".join(labels), " | ".join("%s vs %s" % (l, labels[0]) for l in labels[1:])
            + (" | " if len(labels) > 1 else "") + "OpenSSL vs " + labels[0]))
        print("|---|---|---:|" + "---:|" * (2 * len(labels) + 1))
        for op in ops:
            fams = sorted({g[0].split("|")[1] for _, r in runs for sd in ("quill", "openssl")
                           for g in r.get((op, sd, cpu), {"groups": []})["groups"]})
            for fam in fams:
                def tot(r, sd):
                    x = r.get((op, sd, cpu))
                    if x is None:
                        return None, 0
                    gs = [g for g in x["groups"] if g[0].split("|")[1] == fam]
                    return sum(g[2] * g[3] for g in gs), sum(g[2] for g in gs)
                vals = [tot(r, "quill") for _, r in runs]
                o, oc = tot(ossl, "openssl")
                f = lambda v: "-" if v is None or v == 0 else "%.1f" % (v / 1e3)
                rat = lambda a, b: "%.2fx" % (a / b) if a and b else "-"
                cells = [f(v) for v, _ in vals] + [f(o) + (" (%d calls)" % oc if oc else "")]
                cells += [rat(v, vals[0][0]) for v, _ in vals[1:]] + [rat(o, vals[0][0])]
                print("| %s | %s | %d | %s |" % (op, fam, vals[0][1], " | ".join(cells)))
        print("\n### Whole operations, `-mcpu=%s` (llvm-mca-16, %s): estimated kcycles, kernels + glue "
              "(model estimates, not measured times)\n" % (mcpu, tables))
        print("| operation | %s | OpenSSL | %s |" % (" | ".join(labels),
                                                 " | ".join("OpenSSL / %s" % l for l in labels)))
        print("|---|" + "---:|" * (2 * len(labels) + 1))
        for op in ops:
            cell = lambda x: "%.0f (%.0f + %.0f)" % ((x["kernel_cycles"] + x["glue_cycles"]) / 1e3,
                                                     x["kernel_cycles"] / 1e3, x["glue_cycles"] / 1e3)
            tot = lambda x: x["kernel_cycles"] + x["glue_cycles"]
            qs = [r.get((op, "quill", cpu)) for _, r in runs]
            o = ossl.get((op, "openssl", cpu))
            row = [cell(q) if q else "n/a" for q in qs] + [cell(o) if o else "n/a (OpenSSL 3.0)"]
            row += ["%.2f" % (tot(o) / tot(q)) if o and q else "-" for q in qs]
            print("| %s | %s |" % (op, " | ".join(row)))


def buckets(groups):
    """Groups of one routine whose lengths differ by under 1% merged (libc's
    memset/memcpy inside a kernel's scratch wipe varies a few instructions
    with alignment and CPU): (key, mean length) -> (calls, mean cycles)."""
    out = {}
    for key in sorted({g[0] for g in groups}):
        gs = sorted((n, c, cyc) for k, n, c, cyc in groups if k == key)
        cl = []
        for n, c, cyc in gs:
            if cl and n <= cl[-1][0][0] * 1.01:
                cl[-1].append((n, c, cyc))
            else:
                cl.append([(n, c, cyc)])
        for members in cl:
            calls = sum(c for _, c, _ in members)
            mean_n = sum(n * c for n, c, _ in members) / calls
            out[(key, int(round(mean_n)))] = (calls, sum(cyc * c for _, c, cyc in members) / calls)
    return out


def report(results, args, label):
    cpus = args.cpus.split(",")
    ops = args.ops.split(",")
    print("## Kernels: modelled cycles per call (llvm-mca-16 on the traced call)\n")
    print("Model columns: " + "; ".join("`-mcpu=%s` (%s, trace under QEMU_CPU=%s)" %
                                        (CPUS[c][1], CPUS[c][2], CPUS[c][0]) for c in cpus) + ".")
    print("quill build: %s.  Streams llvm-mca-16 had no entry for, with the stand-ins used: %s.\n"
          % (label, args.substituted or "none"))
    print("| kernel | routine | operation | insns/call | calls/op | " +
          " | ".join("cycles/call %s" % CPUS[c][1] for c in cpus) + " |")
    print("|---|---|---|---:|---:|" + "---:|" * len(cpus))
    for op in ops:
        for side in OPS[op][2]:
            per_cpu = {c: buckets(results[(op, side, c)]["groups"]) for c in cpus if (op, side, c) in results}
            # rows: every (routine, length) of the first CPU's trace, then those
            # only another CPU's trace has (e.g. the SHA-3 Keccak under "max")
            rows = []
            for cpu in cpus:
                for (key, n), (c, cyc) in sorted(per_cpu.get(cpu, {}).items()):
                    if not any(k == key and abs(n2 - n) <= 0.02 * n for k, n2, _ in rows):
                        rows.append((key, n, c))
            for key, n, c in rows:
                kside, fam, name = key.split("|")
                cols = []
                for cpu in cpus:
                    m = [v for (k2, n2), v in per_cpu.get(cpu, {}).items() if k2 == key and abs(n2 - n) <= 0.02 * n]
                    cols.append("%.0f" % m[0][1] if m else "-")
                print("| %s | %s %s | %s | %d | %d | %s |" % (fam, kside, name, op, n, c, " | ".join(cols)))
    print("\n## Kernel cycles per operation, by family (sum of calls x modelled cycles), kcycles\n")
    print("| operation | family | " + " | ".join("quill %s | OpenSSL %s | quill/OpenSSL" % ((CPUS[c][1],) * 2)
                                               for c in cpus) + " |")
    print("|---|---|" + "---:|---:|---:|" * len(cpus))
    for op in ops:
        fams = sorted({g[0].split("|")[1] for c in cpus for sd in ("quill", "openssl")
                       for g in results.get((op, sd, c), {"groups": []})["groups"]})
        for fam in fams:
            row = "| %s | %s |" % (op, fam)
            for cpu in cpus:
                v = {}
                for sd in ("quill", "openssl"):
                    r = results.get((op, sd, cpu))
                    v[sd] = None if r is None else sum(c * cyc for k, n, c, cyc in r["groups"]
                                                       if k.split("|")[1] == fam)
                f = lambda x: "-" if x is None else "%.1f" % (x / 1e3)
                ratio = "%.2f" % (v["quill"] / v["openssl"]) if v["quill"] and v["openssl"] else "-"
                row += " %s | %s | %s |" % (f(v["quill"]), f(v["openssl"]), ratio)
            print(row)
    print("\n## Whole operations: estimated kcycles (kernels x calls + glue)\n")
    print("glue = qemu instruction count of everything outside the listed kernels x the modelled "
          "cycles/instruction of a sample of it; these are model estimates, not measured times.\n")
    hdr = "| operation |"
    for cpu in cpus:
        hdr += " quill %s (kern+glue) | OpenSSL %s (kern+glue) | quill/OpenSSL time |" % ((CPUS[cpu][1],) * 2)
    print(hdr)
    print("|---|" + "---:|---:|---:|" * len(cpus))
    for op in ops:
        row = "| %s |" % op
        for cpu in cpus:
            q = results.get((op, "quill", cpu))
            o = results.get((op, "openssl", cpu))
            cell = lambda r: "%s (%s+%s)" % (fmt((r["kernel_cycles"] + r["glue_cycles"]) / 1e3),
                                             fmt(r["kernel_cycles"] / 1e3), fmt(r["glue_cycles"] / 1e3)) \
                if r else "n/a"
            ratio = "%.2f" % ((q["kernel_cycles"] + q["glue_cycles"]) / (o["kernel_cycles"] + o["glue_cycles"])) \
                if q and o else "-"
            row += " %s | %s | %s |" % (cell(q), cell(o), ratio)
        print(row)
    print("\n## Calls per operation and instruction counts (qemu)\n")
    print("| operation | side | CPU | insns total | glue insns | kernel calls |")
    print("|---|---|---|---:|---:|---|")
    for op in ops:
        for side in OPS[op][2]:
            for cpu in cpus:
                r = results.get((op, side, cpu))
                if r:
                    calls = ", ".join("%s %d" % (k.split("|")[-1], c) for k, c in sorted(r["calls"].items()))
                    print("| %s | %s | %s | %d | %d | %s |" % (op, side, CPUS[cpu][0], r["total"], r["glue"],
                                                              calls))


if __name__ == "__main__":
    main()
