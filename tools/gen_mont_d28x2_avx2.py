#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Copyright quill authors.
"""Writes core/bn/mont_d28x2_avx2.c: the two-way 1024-bit Montgomery product
and squaring in radix 2^28 with AVX2 VPMULUDQ (issue 24; see the header
comment of the generated file and docs/limits.md).

    python3 tools/gen_mont_d28x2_avx2.py [KB] > core/bn/mont_d28x2_avx2.c
    python3 tools/gen_mont_d28x2_avx2.py big [KB]     (1536-bit, radix 2^27: the
        straight-line kernels of bench/mont_d27x2_ab.c, generated at build time)

KB (default 6, even for the 1024-bit kernels) is the number of output
columns whose accumulators stay in registers while the pairs of digits t
run (the column block).  The 1024-bit kernels carry the column sums at the
end of the blocks that form them (a block's KB columns are KB / 2 digit
pairs), so that only T's columns from 35, U's digits and T mod R's digits
are stored (branch h28s2k; the timing variants of branch h26avx2,
product-only, redc-only and fused, were of the earlier form, in which
every column went through the stack).
"""
import sys

BIG = len(sys.argv) > 1 and sys.argv[1] == "big"
if BIG:
    del sys.argv[1]
KB = int(sys.argv[1]) if len(sys.argv) > 1 else 6
P = 19          # vectors per operand (pairs of digits); digit 37 is zero
ND = 37         # digits of 28 bits: R = 2^1036
NC = 74         # product columns 0..73
if BIG:
    P = 29      # radix 2^27, 57 digits: R = 2^1539 (1536-bit moduli)
    ND = 57
    NC = 114
elif KB % 2:
    sys.exit("KB must be even: the blocks end on digit pairs")

# The 1024-bit kernels read some operands where they are used instead of
# from a copy on the stack (source): Br[2s+1] is b's vector s, and the
# squaring's As, Ae and Av (each used once) are formed from a's vector.
IN_PLACE = None


def source(x):
    """The expression that loads the operand named x (e.g. "Br[5]")."""
    if IN_PLACE is None:
        return x
    name, i = x[:x.index('[')], int(x[x.index('[') + 1:x.index(']')])
    if name == "Br" and i % 2 == 1:
        return f"_mm256_loadu_si256((const __m256i *)b + {i // 2})"
    if IN_PLACE == "sqr":
        ld = f"_mm256_loadu_si256((const __m256i *)a + {i})"
        if name == "Av":
            return ld
        if name == "Ae":
            return f"_mm256_and_si256({ld}, _mm256_set_epi64x(0, -1, 0, -1))"
        if name == "As":
            return f"_mm256_shuffle_epi32({ld}, 0x4E)"
    return x


def block_phase(out, name, terms, klo, khi, init_from_c, arr="C", sink=None):
    """terms: list of (k, aexpr, bexpr). Emits the column blocks for k in
    [klo, khi]: accumulators c0..c{KB-1} in registers, stored to arr[k]
    except the columns that sink(out, ks), called at the end of each block
    with its columns ks, consumes (it returns them)."""
    out.append(f"    /* {name}: columns {klo}..{khi} */")
    bycol = {}
    for k, a, b in terms:
        bycol.setdefault(k, []).append((a, b))
    for k0 in range(klo, khi + 1, KB):
        ks = [k for k in range(k0, min(k0 + KB, khi + 1))]
        out.append("    {")
        out.append("        D28_BARRIER();")
        for q, k in enumerate(ks):
            init = f"{arr}[{k}]" if init_from_c else "_mm256_setzero_si256()"
            out.append(f"        __m256i c{q} = {init};")
        # order: by the multiplier operand (a), so that one a serves the
        # block; each operand is loaded once per block into an opaque
        # register (D28_LOAD), so that the b window slides by two vectors
        # per a instead of reloading every product's b
        order = []
        for q, k in enumerate(ks):
            for a, b in bycol.get(k, []):
                order.append((a, q, b))
        def num(x):
            return int(x[x.index('[') + 1:x.index(']')])
        order.sort(key=lambda x: (num(x[0]), x[0], x[1]))
        live = {}
        nvar = [0]
        def var(x):
            if x not in live:
                v = f"v{nvar[0]}"
                nvar[0] += 1
                live[x] = v
                out.append(f"        __m256i {v} = {source(x)}; D28_OPAQUE({v});")
            return live[x]
        for i, (a, q, b) in enumerate(order):
            va = var(a)
            vb = var(b)
            out.append(f"        D28_ACC(c{q}, {va}, {vb});")
        consumed = sink(out, ks) if sink else set()
        for q, k in enumerate(ks):
            if k not in consumed:
                out.append(f"        {arr}[{k}] = c{q};")
        out.append("    }")
    return sum(len(bycol.get(k, [])) for k in range(klo, khi + 1))


def mul_terms(aname, bname, kmax=None, kmin=0, skip_top=True):
    t_ = []
    for t in range(P):
        for j in range(0, 2 * P):
            k = 2 * t + j
            if kmax is not None and k > kmax:
                continue
            if k < kmin:
                continue
            if skip_top and t == P - 1 and j == 2 * P - 1:
                continue  # a_37 b_36 and a_36 b_37: both zero
            t_.append((k, f"{aname}[{t}]", f"{bname}[{j}]"))
    return t_


def sqr_terms():
    t_ = []
    for t in range(P):
        t_.append((4 * t, f"Ae[{t}]", f"Av[{t}]"))            # a_2t^2 (lane 0)
        for j in range(2 * t + 1, 2 * P):
            if t == P - 1 and j == 2 * P - 1:
                continue
            if j == 2 * t + 1:
                t_.append((2 * t + j, f"As[{t}]", f"Br[{j}]"))   # 2 a_2t a_2t+1 over both lanes
            elif j == 2 * t + 2:
                t_.append((2 * t + j, f"Am[{t}]", f"Br[{j}]"))   # a_2t+1^2, 2 a_2t a_2t+2
            else:
                t_.append((2 * t + j, f"Ad[{t}]", f"Br[{j}]"))   # doubled cross products
    return t_


def low_sink(dst, keep):
    """A block_phase sink that carries the columns 0..36 of each block into
    dst (the multiplier form, D28_CARRY_STEP's LOW) with the pass's state
    pm, ph, and stores of them only the columns in keep."""
    def sink(out, ks):
        done = set()
        for q, k in enumerate(ks):
            if k % 2 == 0 and k <= 34:
                assert k + 1 in ks
                out.append(f"        D28_CARRY_STEP(LOW, {dst}[{k // 2}], c{q + 1}, c{q}, pm, ph);")
                done |= {k, k + 1}
            elif k == 36:
                out.append(f"        D28_CARRY_STEP(LOW, {dst}[18], _mm256_setzero_si256(), c{q}, pm, ph);")
                out.append(f"        {dst}[18] = _mm256_and_si256({dst}[18], top);")
                done.add(k)
        return done - set(keep)
    return sink


def high_sink(out, ks):
    """The sink of T + U m's blocks: the carry out of the columns 35 and
    36, then the columns from 37 carried into r (the pass in the d28x2
    form), the carry added to r's first vector."""
    done = set()
    for q, k in enumerate(ks):
        if k == 35:
            assert ks[q + 1] == 36
            out.append(f"        carry = d28_carry37(c{q}, c{q + 1});")
            done |= {35, 36}
        elif k >= 37 and k % 2 == 1:
            s = (k - 37) // 2
            assert k + 1 in ks or k == 73
            hi = f"c{q + 1}" if k + 1 in ks else "_mm256_setzero_si256()"
            out.append(f"        {{ __m256i x; D28_CARRY_STEP(HIGH, x, c{q}, {hi}, pm, ph);")
            if s == 0:
                out.append("          x = d28_add_carry(x, carry);")
            out.append(f"          _mm256_storeu_si256((__m256i *)r + {s}, x); }}")
            done |= {k, k + 1}
    return done


def redc(out):
    """The Montgomery reduction shared by both kernels (one copy of its
    code: the two kernels together otherwise exceed the 32 KiB L1I)."""
    out.append("/* r = (T + U m) / R for T = X + R C' where X holds the digits of T mod R")
    out.append(" * (the multiplier form, carried) and C[35..73] T's columns 35..73 (C' their")
    out.append(" * sum from 37, with 35 and 36 reaching past R), U = (T mod R) N' mod R.")
    out.append(" * C[35..73] are overwritten.  Aligned to 64 bytes: where the link put")
    out.append(" * it, which moved with any file added to core/bn, RSA-2048 signing at")
    out.append(" * the AVX2 level took 457 us at 0 mod 64 and 506 us at 48 (the kernels")
    out.append(" * before their column stores went; rsa_sign_count time, AMD EPYC). */")
    out.append("__attribute__((target(\"avx2\"), noinline, unused, aligned(64))) static void")
    out.append("d28_redc(uint64_t *r, __m256i *C, const __m256i *X, const quill_d28x2_mod *md) {")
    # PAD: 256 bytes more frame; with it the squaring of branch h26avx2
    # measured 809-817 ticks per pair, without it 812-868 depending on the
    # build (a layout effect of the stack addresses, not understood; with
    # the column stores of that form gone it measured the same either way)
    out.append("    __m256i XU[19], PAD[8];")
    out.append("    D28_ESCAPE(PAD);")
    out.append("    const __m256i *Mr = (const __m256i *)md->m, *Nr = (const __m256i *)md->np;")
    out.append("    const __m256i m28 = _mm256_set1_epi64x((1 << 28) - 1);")
    out.append("    const __m256i top = _mm256_set_epi64x((1 << 28) - 1, 0, (1 << 28) - 1, 0);")
    out.append("    __m256i pm = _mm256_setzero_si256(), ph = _mm256_setzero_si256(), carry;")
    out.append("    D28_ESCAPE(C); D28_ESCAPE(X); D28_ESCAPE(XU);")
    n = block_phase(out, "U = T N' mod R, carried into XU", mul_terms("X", "Nr", kmax=36), 0, 36,
                    False, "XU", sink=low_sink("XU", ()))
    out.append("    pm = _mm256_setzero_si256();")
    out.append("    ph = _mm256_setzero_si256();")
    n += block_phase(out, "T + U m, the columns from 35, carried into r",
                     mul_terms("XU", "Mr", kmin=35), 35, 73, True, sink=high_sink)
    out.append("}")
    out.append("")
    return n


def kernel(out, sqr):
    """The product (sqr False) or squaring kernel: the operands, T's
    columns (those below 35 carried into X at the ends of their blocks),
    the shared reduction."""
    global IN_PLACE
    fname = "quill_mont_sqr_d28x2_avx2" if sqr else "quill_mont_mul_d28x2_avx2"
    out.append(f"QUILL_D28_TARGET void {fname}(uint64_t *r, const uint64_t *a,")
    if sqr:
        out.append("                                                 const quill_d28x2_mod *md) {")
        out.append("    __m256i Br[38], Ad[19], Am[19], C[74], X[19];")
        out.append("    D28_ESCAPE(Br); D28_ESCAPE(Ad); D28_ESCAPE(Am); D28_ESCAPE(C); D28_ESCAPE(X);")
        out.append("    const uint64_t *b = a;")
        out.append("    d28_sqr_operands(Ad, Am, Br, a);")
    else:
        out.append("                                                 const uint64_t *b, const quill_d28x2_mod *md) {")
        out.append("    __m256i As[19], Br[38], C[74], X[19];")
        out.append("    D28_ESCAPE(As); D28_ESCAPE(Br); D28_ESCAPE(C); D28_ESCAPE(X);")
        out.append("    d28_operands(As, Br, a, b);")
    out.append("    const __m256i m28 = _mm256_set1_epi64x((1 << 28) - 1);")
    out.append("    const __m256i top = _mm256_set_epi64x((1 << 28) - 1, 0, (1 << 28) - 1, 0);")
    out.append("    __m256i pm = _mm256_setzero_si256(), ph = _mm256_setzero_si256();")
    IN_PLACE = "sqr" if sqr else "mul"
    terms = sqr_terms() if sqr else mul_terms("As", "Br")
    n = block_phase(out, "a^2" if sqr else "a * b", terms, 0, 73, False,
                    sink=low_sink("X", range(35, 74)))
    IN_PLACE = None
    out.append("    d28_redc(r, C, X, md);")
    out.append("}")
    out.append("")
    return n


# The macros both kernels' files open with (the 1024-bit file and big's).
MACROS = r'''#define QUILL_D28_TARGET __attribute__((target("avx2")))
#define QUILL_D28_INLINE __attribute__((target("avx2"), always_inline)) static inline
/* The column blocks must run in order, each with its accumulators in
 * registers: gcc 12 otherwise hoists the products of later blocks and
 * spills them (13 KB frame, 1,472 moves per squaring).  The arrays are made
 * to escape so that a memory clobber orders their loads. */
#define D28_ESCAPE(p) __asm__ volatile("" : : "r"(p) : "memory")
#define D28_BARRIER() __asm__ volatile("" : : : "memory")
/* c += a b, the sum kept as a chain (gcc 12's reassociation otherwise
 * computes a block's products first and spills them). */
#define D28_ACC(c, a, b)                                                             \
    do {                                                                             \
        c = _mm256_add_epi64(c, _mm256_mul_epu32(a, b));                             \
        __asm__("" : "+x"(c));                                                       \
    } while (0)
#define D28_OPAQUE(v) __asm__("" : "+x"(v))
#define ADD _mm256_add_epi64
'''

HEAD = r'''/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Generated by tools/gen_mont_d28x2_avx2.py (KB = %(KB)d); do not edit.
 *
 * Two-way 1024-bit Montgomery product and squaring in radix 2^28 with AVX2
 * VPMULUDQ (mont_d28x2_avx2.h; issue 24, measured against the MULX/ADX
 * kernels in docs/limits.md).  Numbers have 37 digits of 28 bits (R =
 * 2^1036), padded to 38; a vector holds two digits of each lane:
 *   X[s] = (x_2s, x_2s+1, x'_2s, x'_2s+1)      s = 0..18
 * Product columns are summed in 64-bit lanes without carries:
 *   C[k] += As[t] * Br[j],  k = 2t + j,
 *   As[t] = (a_2t+1, a_2t),  Br[j] = (b_j-1, b_j)
 * so both lanes of C[k] hold parts of column k (added at the end).  The
 * Montgomery reduction is not digit-serial: U = (T mod R) N' mod R with
 * N' = -m^-1 mod R (a low half product), then only the columns of U m from
 * 35 up; T + U m = 0 mod R, and its carry into column 37 is
 *   ceil((w_36 2^28 + w_35) / 2^56)
 * since columns 0..34, each below 2^63.8 (bounds below), add less than
 * 2^63.8 2^(28 34) / (1 - 2^-28) < 2^1016 = R 2^-20.  Carries
 * are propagated by one parallel pass that splits each 64-bit digit into
 * three 28-bit parts for the digit and its next two, leaving digits below
 * 2^29 + 2^8 (U's top digit is masked to 28 bits: U is only needed mod R).
 * The pass runs at the end of each column block, on the block's
 * accumulators (a block of KB columns is KB / 2 digit pairs), for T mod R
 * (into X, the multiplier form (x_2s+1, x_2s)), for U (likewise) and for
 * T + U m from column 37 (into r), so that of the columns only T's from 35
 * go through the stack.
 * Bounds: digits < 2^29 + 2^8, so a product of T is < 2^58.01 and a column
 * of T (at most 37 products) < 2^63.21; U m adds at most 37 products of
 * (2^29 + 2^8) 2^28, < 2^62.21: columns < 2^63.8.  a, b < 2m and
 * U < (1 + 2^-26) R give r < 4 m^2 / R + (1 + 2^-26) m < 2m (m < 2^1024 =
 * R 2^-12).
 *
 * Constant time: straight-line code, no branch or address depends on the
 * data. */
#include "bn/mont_d28x2_avx2.h"

#if QUILL_BN_HAVE_D28X2
#include <immintrin.h>

%(macros)s
/* (c0 lane 0 + lane 1, c1 lane 0 + lane 1) in each 128-bit half. */
QUILL_D28_INLINE __m256i d28_pairsum(__m256i c0, __m256i c1) {
    return ADD(_mm256_unpacklo_epi64(c0, c1), _mm256_unpackhi_epi64(c0, c1));
}

/* One vector of the carry pass, at the end of a column block: dst = the
 * columns c0 and c1 summed (c0's in lane 0 of each half), x = lo + 2^28 mid
 * + 2^56 hi going to their digit and its next two; pm and ph hold the
 * previous vector's mid and hi parts (zero before the first), m28 = 2^28 - 1
 * comes from the scope.  The hi parts line up with the previous vector's
 * lanes; the mid parts move up one lane, which the form (HIGH or LOW)
 * decides:
 *   HIGH, the d28x2 form (x_2s, x_2s+1), c0 x_2s's column: lane 0's mid
 *     to lane 1, the previous vector's lane 1's to lane 0;
 *   LOW, the multiplier form (x_2s+1, x_2s), c0 x_2s+1's column: lane 1's
 *     (x_2s's) to lane 0, the previous vector's lane 0's to lane 1.
 * Digits leave below 2^29 + 2^8. */
#define D28_CARRY_STEP(form, dst, c0, c1, pm, ph)                                    \
    do {                                                                             \
        __m256i x_ = d28_pairsum(c0, c1);                                            \
        __m256i mid_ = _mm256_and_si256(_mm256_srli_epi64(x_, 28), m28);             \
        dst = ADD(ADD(_mm256_and_si256(x_, m28), D28_MID_UP_##form(mid_, pm)), ph);  \
        pm = mid_;                                                                   \
        ph = _mm256_srli_epi64(x_, 56);                                              \
    } while (0)
#define D28_MID_UP_HIGH(mid, pm) _mm256_alignr_epi8(mid, pm, 8)
#define D28_MID_UP_LOW(mid, pm) _mm256_alignr_epi8(pm, mid, 8)

/* The carry of T + U m into column 37, ceil((w_36 2^28 + w_35) / 2^56), in
 * lane 0 of each half (below 2^36), from the columns 35 and 36. */
QUILL_D28_INLINE __m256i d28_carry37(__m256i c35, __m256i c36) {
    const __m256i m28 = _mm256_set1_epi64x((1 << 28) - 1);
    const __m256i one = _mm256_set1_epi64x(1);
    __m256i z = d28_pairsum(c35, c36); /* (w35, w36) */
    __m256i y = ADD(z, _mm256_slli_si256(_mm256_srli_epi64(z, 28), 8));
    __m256i g = _mm256_and_si256(y, m28);
    __m256i nz = _mm256_or_si256(g, _mm256_slli_si256(g, 8));
    __m256i inc = ADD(one, _mm256_cmpeq_epi64(nz, _mm256_setzero_si256()));
    return _mm256_srli_si256(ADD(_mm256_srli_epi64(y, 28), inc), 8);
}

/* x + carry for r's first vector after its pass, the carry's low 28 bits
 * to digit 0 (below 2^28 there: nothing comes from below) and the rest
 * (< 2^8 + 1) to digit 1 (below 2^29 - 1): both stay within the bound.
 * The carries out of digit 37 of the pass are dropped: they are zero
 * (r < 2m). */
QUILL_D28_INLINE __m256i d28_add_carry(__m256i x, __m256i carry) {
    const __m256i m28 = _mm256_set1_epi64x((1 << 28) - 1);
    return ADD(ADD(x, _mm256_and_si256(carry, m28)),
               _mm256_slli_si256(_mm256_srli_epi64(carry, 28), 8));
}

/* As[s] = (a_2s+1, a_2s), Br[2s] = (b_2s-1, b_2s); Br[2s+1] = (b_2s, b_2s+1)
 * is b's vector s, read in place (no copy). */
QUILL_D28_INLINE void d28_operands(__m256i As[19], __m256i Br[38], const uint64_t *a,
                                   const uint64_t *b) {
    __m256i prev = _mm256_setzero_si256();
    for (int s = 0; s < 19; s++) {
        __m256i x = _mm256_loadu_si256((const __m256i *)a + s);
        __m256i y = _mm256_loadu_si256((const __m256i *)b + s);
        As[s] = _mm256_shuffle_epi32(x, 0x4E);
        Br[2 * s] = _mm256_alignr_epi8(y, prev, 8);
        prev = y;
    }
}

/* The squaring's multipliers kept on the stack, Ad = 2 (a_2s+1, a_2s) and
 * Am = (a_2s+1, 2 a_2s), and Br[2s] as above; the others, As, Ae =
 * (a_2s, 0) and Av = (a_2s, a_2s+1) (each used once) and Br[2s+1], are
 * formed from a's vectors where they are used. */
QUILL_D28_INLINE void d28_sqr_operands(__m256i Ad[19], __m256i Am[19], __m256i Br[38],
                                       const uint64_t *a) {
    const __m256i hi = _mm256_set_epi64x(-1, 0, -1, 0);
    __m256i prev = _mm256_setzero_si256();
    for (int s = 0; s < 19; s++) {
        __m256i x = _mm256_loadu_si256((const __m256i *)a + s);
        __m256i as = _mm256_shuffle_epi32(x, 0x4E);
        Br[2 * s] = _mm256_alignr_epi8(x, prev, 8);
        Ad[s] = ADD(as, as);
        Am[s] = ADD(as, _mm256_and_si256(as, hi));
        prev = x;
    }
}

'''

TAIL = r'''#endif
'''


def redc_big(out):
    """The shared reduction of the 1536-bit kernels (big)."""
    out.append("__attribute__((target(\"avx2\"), noinline)) static void d27_redc(uint64_t *r, __m256i *C,")
    out.append("                                                       const quill_d27x2_mod *md) {")
    out.append(f"    __m256i CU[{ND}], X[{P}];")
    out.append("    const __m256i *Mr = (const __m256i *)md->m, *Nr = (const __m256i *)md->np;")
    out.append("    D28_ESCAPE(C); D28_ESCAPE(CU); D28_ESCAPE(X);")
    out.append("    d27_low(X, C);")
    n = block_phase(out, "U = T N' mod R", mul_terms("X", "Nr", kmax=ND - 1), 0, ND - 1, False, "CU")
    out.append("    d27_low(X, CU);")
    n += block_phase(out, "T + U m", mul_terms("X", "Mr", kmin=ND - 2), ND - 2, NC - 1, True)
    out.append("    d27_high(r, C);")
    out.append("}")
    out.append("")
    return n


def kernel_big(out, sqr):
    fname = "d27_bench_sqr_straight" if sqr else "d27_bench_mul_straight"
    if sqr:
        out.append(f"QUILL_D28_TARGET void {fname}(uint64_t *r, const uint64_t *a,")
        out.append("                               const quill_d27x2_mod *md) {")
    else:
        out.append(f"QUILL_D28_TARGET void {fname}(uint64_t *r, const uint64_t *a,")
        out.append("                               const uint64_t *b, const quill_d27x2_mod *md) {")
    out.append(f"    __m256i As[{P}], Br[{2 * P}], C[{NC + 1}];")
    if sqr:
        out.append(f"    __m256i Ad[{P}], Am[{P}], Ae[{P}], Av[{P}];")
    out.append("    D28_ESCAPE(As); D28_ESCAPE(Br); D28_ESCAPE(C);")
    if sqr:
        out.append("    D28_ESCAPE(Ad); D28_ESCAPE(Am); D28_ESCAPE(Ae); D28_ESCAPE(Av);")
    out.append("    d27_operands(As, Br, a, " + ("a" if sqr else "b") + ");")
    if sqr:
        out.append("    d27_sqr_operands(Ad, Am, Ae, Av, As, a);")
    terms = sqr_terms() if sqr else mul_terms("As", "Br")
    n = block_phase(out, "a * b" if not sqr else "a^2", terms, 0, NC - 1, False)
    out.append(f"    C[{NC}] = _mm256_setzero_si256();")
    out.append("    d27_redc(r, C, md);")
    out.append("}")
    out.append("")
    return n


HEAD_BIG = r'''/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Generated by tools/gen_mont_d28x2_avx2.py big %(KB)d; do not edit.
 *
 * Two-way 1536-bit Montgomery product and squaring in radix 2^27 with AVX2
 * VPMULUDQ, straight-line (the measurement behind core/bn/mont_d27x2_avx2.c,
 * which loops instead): the layout of core/bn/mont_d28x2_avx2.c at P = 29 vectors,
 * 57 digits of 27 bits (R = 2^1539), padded to 58.  Bounds: one carry pass
 * leaves digits below 2^28 + 2^10, so a 64-bit lane of a column holds at
 * most 29 products of T (< 2^60.9) and 29 of U m (< 2^59.9), the two lanes
 * together < 2^62.5.  The carry of T + U m into column 57 is
 * ceil((w_56 2^27 + w_55) / 2^54), the columns 0..54 adding less than
 * R 2^-18.  a, b < 2m, m < 2^1536 = R / 8, give r < 2m.  Constant time:
 * straight-line code.  Experiment of issue 24 (docs/limits.md), built only
 * into the A/B bench. */
#include <stdint.h>
#include <immintrin.h>

#include "bn/mont_d27x2_avx2.h"

#define D27_P %(P)d
#define D27_ND %(ND)d
#define D27_W 27

%(macros)s
void d27_bench_mul_straight(uint64_t *r, const uint64_t *a, const uint64_t *b,
                            const quill_d27x2_mod *md);
void d27_bench_sqr_straight(uint64_t *r, const uint64_t *a, const quill_d27x2_mod *md);

QUILL_D28_INLINE __m256i d27_pairsum(__m256i c0, __m256i c1) {
    return ADD(_mm256_unpacklo_epi64(c0, c1), _mm256_unpackhi_epi64(c0, c1));
}

QUILL_D28_INLINE void d27_norm(__m256i X[D27_P]) {
    const __m256i mw = _mm256_set1_epi64x((1 << D27_W) - 1);
    __m256i pmid = _mm256_setzero_si256(), phi = _mm256_setzero_si256();
    for (int s = 0; s < D27_P; s++) {
        __m256i mid = _mm256_and_si256(_mm256_srli_epi64(X[s], D27_W), mw);
        __m256i hi = _mm256_srli_epi64(X[s], 2 * D27_W);
        X[s] = ADD(ADD(_mm256_and_si256(X[s], mw), _mm256_alignr_epi8(mid, pmid, 8)), phi);
        pmid = mid;
        phi = hi;
    }
}

QUILL_D28_INLINE void d27_low(__m256i X[D27_P], const __m256i *C) {
    const __m256i lo = _mm256_set_epi64x(0, (1 << D27_W) - 1, 0, (1 << D27_W) - 1);
    for (int s = 0; s < D27_P - 1; s++)
        X[s] = d27_pairsum(C[2 * s], C[2 * s + 1]);
    X[D27_P - 1] = d27_pairsum(C[D27_ND - 1], _mm256_setzero_si256());
    d27_norm(X);
    X[D27_P - 1] = _mm256_and_si256(X[D27_P - 1], lo);
    for (int s = 0; s < D27_P; s++)
        X[s] = _mm256_shuffle_epi32(X[s], 0x4E);
}

QUILL_D28_INLINE void d27_high(uint64_t *r, const __m256i *C) {
    const __m256i mw = _mm256_set1_epi64x((1 << D27_W) - 1);
    const __m256i one = _mm256_set1_epi64x(1);
    __m256i X[D27_P];
    __m256i z = d27_pairsum(C[D27_ND - 2], C[D27_ND - 1]);
    __m256i y = ADD(z, _mm256_slli_si256(_mm256_srli_epi64(z, D27_W), 8));
    __m256i g = _mm256_and_si256(y, mw);
    __m256i nz = _mm256_or_si256(g, _mm256_slli_si256(g, 8));
    __m256i inc = ADD(one, _mm256_cmpeq_epi64(nz, _mm256_setzero_si256()));
    __m256i carry = _mm256_srli_si256(ADD(_mm256_srli_epi64(y, D27_W), inc), 8);
    for (int s = 0; s < D27_P; s++)
        X[s] = d27_pairsum(C[D27_ND + 2 * s], C[D27_ND + 1 + 2 * s]);
    X[0] = ADD(X[0], carry);
    d27_norm(X);
    for (int s = 0; s < D27_P; s++)
        _mm256_storeu_si256((__m256i *)r + s, X[s]);
}

QUILL_D28_INLINE void d27_operands(__m256i As[D27_P], __m256i Br[2 * D27_P], const uint64_t *a,
                                   const uint64_t *b) {
    __m256i prev = _mm256_setzero_si256();
    for (int s = 0; s < D27_P; s++) {
        __m256i x = _mm256_loadu_si256((const __m256i *)a + s);
        __m256i y = _mm256_loadu_si256((const __m256i *)b + s);
        As[s] = _mm256_shuffle_epi32(x, 0x4E);
        Br[2 * s] = _mm256_alignr_epi8(y, prev, 8);
        Br[2 * s + 1] = y;
        prev = y;
    }
}

QUILL_D28_INLINE void d27_sqr_operands(__m256i Ad[D27_P], __m256i Am[D27_P], __m256i Ae[D27_P],
                                       __m256i Av[D27_P], const __m256i As[D27_P],
                                       const uint64_t *a) {
    const __m256i lo = _mm256_set_epi64x(0, -1, 0, -1);
    const __m256i hi = _mm256_set_epi64x(-1, 0, -1, 0);
    for (int s = 0; s < D27_P; s++) {
        __m256i x = _mm256_loadu_si256((const __m256i *)a + s);
        Av[s] = x;
        Ae[s] = _mm256_and_si256(x, lo);
        Ad[s] = ADD(As[s], As[s]);
        Am[s] = ADD(As[s], _mm256_and_si256(As[s], hi));
    }
}

'''


def main():
    if BIG:
        body = []
        nr = redc_big(body)
        nm = kernel_big(body, False)
        ns = kernel_big(body, True)
        sys.stdout.write(HEAD_BIG % {"KB": KB, "P": P, "ND": ND, "macros": MACROS})
        sys.stdout.write(f"/* VPMULUDQ: product {nm + nr}, squaring {ns + nr}, of them {nr} in the reduction (KB = {KB}). */\n")
        sys.stdout.write("\n".join(body))
        return
    out = [HEAD % {"KB": KB, "macros": MACROS}]
    body = []
    nr = redc(body)
    nm = kernel(body, False)
    ns = kernel(body, True)
    out.append(f"/* VPMULUDQ: product {nm + nr}, squaring {ns + nr}, of them {nr} in the reduction (KB = {KB}). */\n")
    out.append("\n".join(body))
    out.append(TAIL)
    sys.stdout.write("".join(out))


if __name__ == "__main__":
    main()
