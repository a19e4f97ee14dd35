#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Copyright quill authors.
#
# tools/gen_bn_mont_a64.py: prints asm/aarch64/bn_mont.S, the aarch64
# Montgomery multiplication (python3 tools/gen_bn_mont_a64.py >
# asm/aarch64/bn_mont.S; the test bn_mont_a64_generated checks that the
# two match).  The algorithm, registers and frame are described in the header
# printed below (HEADER).  Each block of four columns is printed as straight
# code by block(): the row sets (four rows of one multiplier group) of the
# pass, each row with the words of A it really has (a word known to lie
# outside A gets no product; the ADCS chains run through its column with
# XZR so that the carries reach the top word).

W = ['x15', 'x16', 'x17', 'x19']     # the block's four columns
Y = ['x3', 'x4', 'x5', 'x6']         # the four multipliers of a row set
CA = ['x11', 'x12', 'x13', 'x14']    # carry words of the rows of a b
CM = ['x25', 'x26', 'x27', 'x28']    # carry words of the rows of m u

# frame offsets (bytes from sp, below the saved registers)
# (above the 96 bytes of saved registers at sp)
SAVE = 96
OFF = dict((k, SAVE + v) for k, v in dict(
    R=0, B=8, BLAST=16, M=24, A=32, N0=40, N=48, BIT=56, TB=64, TLAST=72,
    BG=80, U=112, UN=144, RC=176, A4=208, T=240).items())
FRAME_WORDS_T = 2 * 256             # T[0 .. 2n - 1], n <= QUILL_BN_MAX_LIMBS
FRAME = OFF['T'] + 8 * FRAME_WORDS_T  # 4464, saved registers included
FRAME_HI, FRAME_LO = 4096, FRAME - 4096

HEADER = r'''/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * Montgomery multiplication on aarch64 with MUL/UMULH and ADCS chains.
 * Printed by tools/gen_bn_mont_a64.py (do not edit by hand: change the
 * generator and regenerate).  C prototype (core/bn/mont_arm64.h):
 *
 *   void quill_mont_mul_arm64(quill_limb *r, const quill_limb *a,
 *                             const quill_limb *b, const quill_limb *m,
 *                             quill_limb n0, size_t n);
 *
 * r = a b R^-1 mod m, R = 2^(64 n), for n a multiple of 4 with
 * 4 <= n <= QUILL_BN_MAX_LIMBS (256); a, b < m, m odd, n0 = -m^-1 mod
 * 2^64.  r may alias a or b (it is written only at the end); m must not
 * overlap r.  (Squaring: the dedicated quill_mont_sqr_arm64 in
 * bn_mont_sqr.S.)
 *
 * Inputs: r, a, b, m (pointers, public), n (public); the words of a, b, m
 * and n0 may all be secret (a, b and, for the CRT halves, m and n0).
 *
 * Algorithm: CIOS Montgomery multiplication (Koc, Acar and Kaliski, IEEE
 * Micro 1996) by groups of four rows, skewed by one group.  Group g
 * (g = 0 .. n/4 - 1) takes B_g = b_{4g} + 2^64 b_{4g+1} + 2^128 b_{4g+2} +
 * 2^192 b_{4g+3} and U_g = u_{4g} + .. + 2^192 u_{4g+3}; with T_{-1} = 0,
 *   T_g = (T_{g-1} + a B_g + m U_g) / 2^256,
 * u_{4g+r} = (column 4g + r of T_{g-1} + a B_g + m (u_{4g} + .. +
 * 2^(64 (r-1)) u_{4g+r-1})) n0 mod 2^64, so that the division is exact; by
 * a, b < m and T_{g-1} < 2m, T_g <= (2m - 1 + (2m - 1)(2^256 - 1)) / 2^256
 * < 2m.  T lives in the frame with absolute columns (column c of the whole
 * sum at T[c]; 2n words).
 * Pass g (g = -1 .. n/4 - 1) adds, over the columns 4g + 4 .. 4g + n + 7 in
 * blocks of four columns whose words stay in registers (x15, x16, x17,
 * x19):
 *   - the rows of m U_g that remain after its first block (none in pass -1),
 *   - the rows of a B_{g+1} (none in the last pass),
 *   - and the first block of m U_{g+1} (columns 4g + 4 .. 4g + 7, complete
 *     once the two row sets above have gone into the pass's first block),
 *     where the four multipliers u_{4g+4} .. u_{4g+7} are computed (not in
 *     the last pass).
 * The multipliers of a pass are thus known before it starts; the latency
 * chain through the four new u (each a MUL by n0 of a column that needs
 * the previous u's products) is the only serial part, and nothing else in
 * the pass depends on it.  For n >= 16 it is spread so that an out-of-order
 * core overlaps it with independent products: u_{4g+4} and its row in the
 * first block (columns in registers), the rows of u_{4g+5} and u_{4g+6}
 * after the second block and that of u_{4g+7} after the third (the four
 * columns reloaded from T and stored back; zeros after the last row).  For
 * n < 16 all four rows go in the first block.
 * A row set is four rows r = 0..3 with multipliers y_r (b or u words, read
 * from the frame into x3-x6 when the row set before used the other
 * group); in the block of columns c .. c + 3 row r adds y_r A_{c - s - r ..
 * c - s - r + 3} (A = a or m, s the group's first column, the seven words
 * A_{c - s - 3 .. c - s + 3} loaded once per row set): each row by two
 * ADCS chains (the low words; then its carry word and the high words one
 * column up) and one carry word (x11-x14 for a b, x25-x28 for m u) into
 * the next block; a carry word never overflows (four words plus one word
 * times four words plus a word is below 2^320).  The generator keeps an
 * upper bound of each column across a row set's rows: a chain stops where
 * no carry can go on and sets the flags only where one can come out (this
 * shortens the rows of the fresh top blocks, where only the last row's
 * carry word can be nonzero).  Words of A outside
 * 0 .. n - 1 get no product.  The row of u_r in the first block skips the
 * product m_0 u_r: its low word is -(column) mod 2^64 by the choice of u_r,
 * so only its carry (the column is not zero) goes up, by SUBS XZR, column,
 * #1.  The top block of a pass (columns 4g + n + 4 .. + 7) is fresh: its
 * column 4g + n + 4 starts as the carry bit out of the previous pass plus
 * the m rows' carry words (single bits there, their last products being
 * inside the block below), the others as zero (read as XZR, as are all
 * columns of pass -1); the pass's carry out of its top column is 0 or 1
 * (its window plus pending carries is below 2m + 2m 2^256 <
 * 2^(64 (n + 4) + 1)) and waits in the frame.  After the last pass
 * T[n .. 2n - 1] + 2^(64 n) top = T_{n/4 - 1} < 2m.
 *
 * Scheduling (for out-of-order cores whose multiplier is the bottleneck):
 * the call loads a_0 .. a_3 and b_0 .. b_3 before it saves registers and
 * starts on the first rows before the rest of its prologue; a_0 .. a_3 wait
 * in the frame and each pass's top block loads the b words of the next
 * pass's a rows into x25-x28, so that the first products of a pass need
 * one load from sp at most.
 *
 * Final subtraction: the last pass writes r = T - m block by block as its
 * columns become final (an SBCS chain whose borrow waits in x11 between
 * blocks as 1 - borrow: CSET HS, then CMP #1 restores it) and stores
 * T[n .. 2n - 5]; the last block keeps T and T - m in registers, CCMP
 * turns the borrow and top into one flag (eq: T < m, keep T), CSEL selects
 * that block and then, from the top down, the blocks below (no instruction
 * of that loop sets the flags), overwriting T[n .. 2n - 1] with zeros.
 *
 * Constant time: every loop bound, branch and address depends only on n,
 * the block and pass indices and the pointers (public); the data enter
 * only MUL, UMULH, ADDS/ADCS/ADC, SUBS/SBCS, ADD, CSET, CMP, CCMP and CSEL;
 * no branch tests data.  The frame's secrets (T, a_0 .. a_3, the u and b
 * words, the carry words and bit, n0) are zero on return: T[0 .. n - 1] by
 * the stores of the u rows, T[n .. 2n - 1] by the final selection, the
 * spill slots explicitly (after the last pass's loop; the carry bit at the
 * end).
 *
 * Calling convention: AAPCS64, x0 = r, x1 = a, x2 = b, x3 = m, x4 = n0,
 * x5 = n.  Saves and restores x19-x30; no calls; no SIMD registers.  Stack:
 * a fixed frame of 4464 bytes: the saved registers (bytes 0 .. 95), spills
 * (r, next b pointer, last b group, m, a, n0, n, carry bit, &T of the
 * pass, &T[n]), the b words of the pass's a rows, the u words of the m
 * rows and those of the next pass, the carry words of the next pass's m
 * rows, a_0 .. a_3 (bytes 96 .. 335), then T[0 .. 2n - 1].
 * Registers in a pass: x0 = &a[c - s], x1 = &m[c - s] of the current block
 * (the last pass: x0 = r), x2 = &T[c], x3-x6 the row set's multipliers,
 * x7-x10 and x22-x24 the row set's words of A (A_{c-s .. c-s+3},
 * A_{c-s-3 .. c-s-1}), x11-x14 the carry words of the a rows (the last
 * pass: x11 1 - borrow, x12 and x22-x24 the difference, x14 the top;
 * the selection: x3-x10 and x13 blocks left), x15/x16/x17/x19 the block's
 * columns, x20 the high word of a row's top product, x21/x30 the other
 * products, x25-x28 the carry words of the m rows (the top block: the
 * next pass's b words), x29 blocks left; the rows of the new u: x24 = u,
 * x23 = n0, x22 its carry word.
 * Required CPU features: ARMv8.0-A. */

#if defined(__aarch64__) && defined(__ELF__)

#include "callee_saved.inc"

        .text
'''


class Out:
    def __init__(self):
        self.lines = []

    def __call__(self, s):
        self.lines.append('        ' + s)

    def raw(self, s):
        self.lines.append(s)


def load_words(o, base, offs):
    """Load reg = word at base + off for each (reg, off) in offs (a list in
    ascending offsets); neighbouring words by LDP."""
    i = 0
    while i < len(offs):
        r, off = offs[i]
        if i + 1 < len(offs) and offs[i + 1][1] == off + 8:
            o('ldp     %s, %s, [%s, #%d]' % (r, offs[i + 1][0], base, off))
            i += 2
        else:
            o('ldr     %s, [%s, #%d]' % (r, base, off))
            i += 1


# the window of A words of a row set: WIN[j] = A_{c - s + j}, j = -3 .. 3
WIN = {-3: 'x22', -2: 'x23', -1: 'x24', 0: 'x7', 1: 'x8', 2: 'x9', 3: 'x10'}
TMP = ['x21', 'x30']                 # products, alternating
HI3 = 'x20'


FULL = (1 << 64) - 1                 # the largest word
HMAX = FULL - 1                      # the largest high word of a product


class Cols:
    """What is known of the block's four columns: an upper bound of each
    (FULL: nothing known) and which registers hold them (a column never
    written is zero and is read as XZR)."""
    def __init__(self, fresh=(), init=None):
        self.max = [0 if c in fresh else FULL for c in range(4)]
        self.written = set(c for c in range(4) if c not in fresh)
        if init is not None:
            for c, m in init.items():
                self.max[c] = m
                self.written.add(c)


def plan_chain(cols, adds, first, skip=None):
    """One ADDS/ADCS chain from column first up: adds[c] = (register,
    bound) added into column c (contiguous from first, or from first + 1
    if skip = first: the SUBS XZR, W, #1 of a skipped low product).  The
    chain stops where no carry can go further and sets flags only where a
    carry can come out (the bounds in cols say where).  Returns the
    instructions (each with the register of the product it consumes, or
    None) and whether a carry can leave column 3."""
    ops = []
    carry = 0
    for c in range(first, 4):
        if c == skip:
            ops.append(('subs    xzr, %s, #1' % W[c], None))
            carry = 1 if cols.max[c] >= 1 else 0
            cols.max[c] = 0
            continue
        src, smax = adds.get(c, (None, 0))
        if src is None and not carry:
            break
        total = cols.max[c] + smax + carry
        out = total > FULL
        rn = W[c] if c in cols.written else 'xzr'
        sr = src or 'xzr'
        if not carry:
            if rn == 'xzr':
                ins = '%s %s, %s, #0' % ('adds   ' if out else 'add    ', W[c], sr)
            else:
                ins = '%s %s, %s, %s' % ('adds   ' if out else 'add    ', W[c], rn, sr)
        elif rn == 'xzr' and sr == 'xzr':
            ins = 'cset    %s, hs' % W[c]
        else:
            ins = '%s %s, %s, %s' % ('adcs   ' if out else 'adc    ', W[c], rn, sr)
        ops.append((ins, src))
        cols.max[c] = min(total, FULL)
        cols.written.add(c)
        carry = 1 if out else 0
    return ops, bool(carry)


def row(o, y, word, valid, cin, cout, skip_lo=None, fresh=(), cols=None,
        cin_max=FULL):
    """One row: W += y * word(t) (t in valid, contiguous, word(t) the
    register holding the A word of column t) + cin (column 0); the carry
    word out into cout.  skip_lo: a column whose low product is not
    computed (the u column of a first-block m row: SUBS XZR, W, #1 gives its
    carry).  fresh: columns known to be zero before the row (read as XZR:
    they need no MOV first); cols (Cols) instead: the bounds of the
    columns, kept up to date across the rows of a row set, so that chains
    stop where no carry can go on.  Returns the bound of the carry word
    (0: cout is zero and not written)."""
    if cols is None:
        cols = Cols(fresh)
    valid = sorted(valid)
    his = [t for t in valid if t < 3]
    hreg = HI3
    if cin is None or cin != cout:
        if cout != y and cout not in [word(t) for t in valid]:
            hreg = cout
    # chain A: the low words into columns t0 .. 3, products two ahead
    los = [t for t in valid if t != skip_lo]
    if valid:
        t0 = valid[0]
        adds = dict((t, ('lo%d' % t, FULL)) for t in los)
        opsA, carryA = plan_chain(cols, adds, t0, skip=skip_lo)
    else:
        opsA, carryA = [], False
    has_umulh = bool(valid) and valid[-1] == 3
    # chain B: cin into column 0, the high word of t into column t + 1
    addsB = dict((t + 1, ('hi%d' % t, HMAX)) for t in his)
    if cin is not None:
        addsB[0] = (cin, cin_max)
        startB = 0
    else:
        startB = valid[0] + 1 if his else 4
    opsB, carryB = plan_chain(cols, addsB, startB) if startB < 4 else ([], False)

    if has_umulh:
        o('umulh   %s, %s, %s' % (hreg, word(3), y))
    slot = {}

    def emit(names, i, kind):
        if i < len(names):
            t = names[i]
            reg = TMP[i % 2]
            slot['%s%d' % (kind, t)] = reg
            o('%s %s, %s, %s' % ('mul    ' if kind == 'lo' else 'umulh  ', reg, word(t), y))

    def run(ops, names, kind):
        emit(names, 0, kind)
        emit(names, 1, kind)
        k = 0
        for ins, src in ops:
            if src is not None and src.startswith(kind) and src[len(kind):].isdigit():
                ins = ins.replace(src, slot[src])
                o(ins)
                k += 1
                emit(names, k + 1, kind)
            else:
                o(ins)
        assert k == len(names), (ops, names)
    run(opsA, los, 'lo')
    hmax = HMAX if has_umulh else 0
    if carryA:
        if has_umulh:
            o('adc     %s, %s, xzr' % (hreg, hreg))
        else:
            o('cset    %s, hs' % hreg)
        hmax += 1
    run(opsB, his, 'hi')
    if carryB:
        if hmax:
            o('adc     %s, %s, xzr' % (cout, hreg))
        else:
            o('cset    %s, hs' % cout)
        return hmax + 1
    if hmax and hreg != cout:
        o('add     %s, %s, #0' % (cout, hreg))
    return hmax


def rowset(o, kind, mode, base, koff, fresh=(), ys=None, preloaded=False, cols=None):
    """Four rows.  kind: 'a' (A = a, carries CA) or 'm' (A = m, carries
    CM).  mode: 'full' (all words: row r has A_{koff - r + t} from base),
    'first' (row r has A_{t - r}, t >= r; no carry in), 'last' (row r has
    A_{t - r} from base = &A[n], t < r)."""
    C = CA if kind == 'a' else CM
    o('/* %s rows, %s */' % ('a b' if kind == 'a' else 'm u', mode))
    ys = ys or Y
    js = {'full': range(-3, 4), 'first': range(0, 4), 'last': range(-3, 0)}[mode]
    if not preloaded:
        load_words(o, base, [(WIN[j], 8 * (koff + j)) for j in js])
    if cols is None:
        cols = Cols(fresh)
    outs = []
    for r in range(4):
        word = lambda t, r=r: WIN[t - r]
        if mode == 'full':
            outs.append(row(o, ys[r], word, range(4), C[r], C[r], cols=cols))
        elif mode == 'first':
            outs.append(row(o, ys[r], word, range(r, 4), None, C[r], cols=cols))
        else:
            outs.append(row(o, ys[r], word, range(r), C[r], C[r], cols=cols))
    return outs


def load_y(o, slot):
    o('ldp     x3, x4, [sp, #%d]' % OFF[slot])
    o('ldp     x5, x6, [sp, #%d]' % (OFF[slot] + 16))


def load_w(o):
    o('ldp     x15, x16, [x2]')
    o('ldp     x17, x19, [x2, #16]')


def store_w(o):
    o('stp     x15, x16, [x2]')
    o('stp     x17, x19, [x2, #16]')


def top_w(o, with_m):
    """The fresh top block: column 0 = the carry bit of the pass before
    plus the m rows' carry words (with_m; else zero: pass -1), the others
    zero.  Returns the columns' Cols (the zero ones are read as XZR; column
    0 is below 1 + 4 * 2: the carry bit and four carry words of rows whose
    products end in the block below)."""
    if with_m:
        o('ldr     x15, [sp, #%d]' % OFF['BIT'])
        o('add     x20, x25, x26')
        o('add     x21, x27, x28')
        o('add     x15, x15, x20')
        o('add     x15, x15, x21')
        return Cols(fresh=(1, 2, 3), init={0: 9})
    return Cols(fresh=(0, 1, 2, 3))


def sum_ca_bit(o, outs):
    """The carry bit out of the pass: the sum of the a rows' carry words of
    the top block (those that can be nonzero), to the frame."""
    regs = [CA[r] for r in range(4) if outs[r]]
    if not regs:
        o('str     xzr, [sp, #%d]' % OFF['BIT'])
        return
    acc = regs[0]
    if len(regs) > 1:
        o('add     x20, %s, %s' % (regs[0], regs[1]))
        acc = 'x20'
    if len(regs) > 2:
        o('add     x21, %s, %s' % tuple(regs[2:4]) if len(regs) == 4 else 'add     x21, %s, xzr' % regs[2])
        o('add     x20, x20, x21')
    o('str     %s, [sp, #%d]' % (acc, OFF['BIT']))


def store_w_top(o, cols):
    """store_w for the top block: columns never written are zero."""
    r = [W[c] if c in cols.written else 'xzr' for c in range(4)]
    o('stp     %s, %s, [x2]' % (r[0], r[1]))
    o('stp     %s, %s, [x2, #16]' % (r[2], r[3]))


def advance(o, regs):
    for r in regs:
        o('add     %s, %s, #32' % (r, r))


def loop(o, label, body):
    """x29 iterations (may be zero) of body."""
    o('cbz     x29, %sf' % (label + 1))
    o.raw('%d:' % label)
    body()
    o('sub     x29, x29, #1')
    o('cbnz    x29, %db' % label)
    o.raw('%d:' % (label + 1))


class YState:
    """Which multipliers x3-x6 hold: 'U' (u words), 'BG' (b words) or
    None; use() loads them only when they change."""
    def __init__(self, o):
        self.o, self.cur = o, None

    def use(self, slot):
        if self.cur != slot:
            load_y(self.o, slot)
            self.cur = slot


# rows 1-3 of a pass's first block of m U_{g+1}: after which blocks
SPLIT = [[1, 2], [3]]


def red_rows(o, rows, toff, last=True, mbase='x1', n0=None):
    """Rows `rows` of the first block of m U_{g+1} on its columns, in
    registers (toff None) or reloaded from &T[c] = x2 + toff (the block's
    m words from x1 + toff as well: both pointers moved by the same
    amount since).  u_r = W_r n0 into x24 (n0 in x23), the carry word into
    x22; both to the frame.  Reloaded columns are stored back as zeros
    after row 3 (they are all zero then), else as they are."""
    off = 0 if toff is None else toff
    if toff is not None:
        o('ldp     x15, x16, [x2, #%d]' % toff)
        o('ldp     x17, x19, [x2, #%d]' % (toff + 16))
    load_words(o, mbase, [(WIN[j], off + 8 * j) for j in range(4 - rows[0])])
    if n0 is None:
        o('ldr     x23, [sp, #%d]' % OFF['N0'])
        n0 = 'x23'
    for r in rows:
        o('/* u_{4g+4+%d} and its row */' % r)
        o('mul     x24, %s, %s' % (W[r], n0))
        row(o, 'x24', lambda t, r=r: WIN[t - r], range(r, 4), None, 'x22', skip_lo=r)
        o('str     x22, [sp, #%d]' % (OFF['RC'] + 8 * r))
        o('str     x24, [sp, #%d]' % (OFF['UN'] + 8 * r))
    if toff is not None:
        if last:
            o('stp     xzr, xzr, [x2, #%d]' % toff)
            o('stp     xzr, xzr, [x2, #%d]' % (toff + 16))
        else:
            o('stp     x15, x16, [x2, #%d]' % toff)
            o('stp     x17, x19, [x2, #%d]' % (toff + 16))


def first_pass(p, spread):
    """Pass -1: a B_0 over columns 0 .. n + 3 (W fresh: no loads), the
    first block of m U_0.  spread (n >= 16): u_0 and its row in block 0,
    rows 1-3 after block 1; else the whole first block in block 0.  The
    prologue has loaded a_0 .. a_3 (the window) and b_0 .. b_3 into
    x11-x14 (the first rows' multipliers: row r overwrites its own with
    its carry word) and x3-x6."""
    y = YState(p)
    y.cur = 'BG'                          # loaded by the prologue
    rowset(p, 'a', 'first', 'x0', 0, fresh=(0, 1, 2, 3), ys=CA, preloaded=True)
    p('stp     x7, x8, [sp, #%d]' % OFF['A4'])
    p('stp     x9, x10, [sp, #%d]' % (OFF['A4'] + 16))
    p('/* m and n0 still in x3 and x4 */')
    if spread:
        red_rows(p, [0], None, mbase='x3', n0='x4')
        prologue_rest(p)
        store_w(p)
    else:
        red_rows(p, [0, 1, 2, 3], None, mbase='x3', n0='x4')
        prologue_rest(p)
        p('stp     xzr, xzr, [x2]')
        p('stp     xzr, xzr, [x2, #16]')
    advance(p, ['x0', 'x2'])

    def first_mid():
        rowset(p, 'a', 'full', 'x0', 0, fresh=(0, 1, 2, 3))
        store_w(p)
        advance(p, ['x0', 'x2'])
    if spread:
        first_mid()
        p('/* rows 1-3 of the first block of m U_0 */')
        red_rows_first(p)
        p('ldr     x29, [sp, #%d]' % OFF['N'])
        p('lsr     x29, x29, #2')
        p('sub     x29, x29, #2')
    else:
        p('ldr     x29, [sp, #%d]' % OFF['N'])
        p('lsr     x29, x29, #2')
        p('sub     x29, x29, #1')
    loop(p, 1, first_mid)
    p('/* top block: a_{n-3..n-1} */')
    cols = top_w(p, False)
    prefetch_b(p)
    outs = rowset(p, 'a', 'last', 'x0', 0, cols=cols)
    store_w_top(p, cols)
    sum_ca_bit(p, outs)


def prologue_rest(p):
    """The rest of the prologue, after the first row set and the first
    reduction row (which need only the first words and the arguments):
    the spills, x0 = a, x1 = m, x3-x6 = b_0 .. b_3 (also to BG), x2 =
    &T[0]."""
    p('str     x0, [sp, #%d]' % OFF['R'])
    p('str     x1, [sp, #%d]' % OFF['A'])
    p('str     x3, [sp, #%d]' % OFF['M'])
    p('str     x4, [sp, #%d]' % OFF['N0'])
    p('str     x5, [sp, #%d]' % OFF['N'])
    p('add     x6, x2, x5, lsl #3')
    p('sub     x6, x6, #32')
    p('str     x6, [sp, #%d]' % OFF['BLAST'])
    p('add     x20, x2, #32')
    p('str     x20, [sp, #%d]' % OFF['B'])
    p('add     x21, sp, #OFF_T')
    p('add     x22, x21, x5, lsl #3')
    p('str     x22, [sp, #%d]' % OFF['TLAST'])
    p('add     x0, x1, #0')
    p('add     x1, x3, #0')
    p('ldp     x3, x4, [x2]')
    p('ldp     x5, x6, [x2, #16]')
    p('stp     x3, x4, [sp, #%d]' % OFF['BG'])
    p('stp     x5, x6, [sp, #%d]' % (OFF['BG'] + 16))
    p('add     x2, x21, #0')
    p('add     x20, x21, #32')
    p('str     x20, [sp, #%d]' % OFF['TB'])


def red_rows_first(p):
    """Pass -1's rows 1-3 of the first block of m U_0, after block 1: the
    columns at x2 - 64, m at x1 (= m)."""
    p('ldp     x15, x16, [x2, #-64]')
    p('ldp     x17, x19, [x2, #-48]')
    load_words(p, 'x1', [(WIN[j], 8 * j) for j in range(3)])
    p('ldr     x23, [sp, #%d]' % OFF['N0'])
    for r in (1, 2, 3):
        p('/* u_%d and its row */' % r)
        p('mul     x24, %s, x23' % W[r])
        row(p, 'x24', lambda t, r=r: WIN[t - r], range(r, 4), None, 'x22', skip_lo=r)
        p('str     x22, [sp, #%d]' % (OFF['RC'] + 8 * r))
        p('str     x24, [sp, #%d]' % (OFF['UN'] + 8 * r))
    p('stp     xzr, xzr, [x2, #-64]')
    p('stp     xzr, xzr, [x2, #-48]')


def block(p, y, parts):
    """One block: load W, the row sets of parts in an order that starts
    with the multipliers already in x3-x6, store W (the caller
    advances the pointers)."""
    load_w(p)
    order = sorted(parts, key=lambda q: 0 if q[0] == y.cur else 1)
    for slot, kind, mode, base, koff in order:
        if mode == 'last' and kind == 'm':
            p('add     x1, x1, #32')
        y.use(slot)
        rowset(p, kind, mode, base, koff)
    store_w(p)


M_FULL = ('U', 'm', 'full', 'x1', 4)
A_FULL = ('BG', 'a', 'full', 'x0', 0)


def prefetch_b(p):
    """In a pass's top block (x7-x10, x25-x29 free): the b words of the
    next pass's a rows into x25-x28 (its first row set's multipliers), the
    b pointer advanced; past the end of b (the next pass is the last) the
    last group is read instead, so that nothing outside b is read.  Uses
    x7 and the flags (between row sets)."""
    p('/* the next pass\'s b words (the last ones again past the end of b) */')
    p('ldr     x29, [sp, #%d]' % OFF['B'])
    p('ldr     x7, [sp, #%d]' % OFF['BLAST'])
    p('cmp     x29, x7')
    p('csel    x7, x29, x7, lo')
    p('add     x29, x29, #32')
    p('str     x29, [sp, #%d]' % OFF['B'])
    p('ldp     x25, x26, [x7]')
    p('ldp     x27, x28, [x7, #16]')


def main_pass_head(p, label):
    """The check for the last pass, then the first block of pass g up to
    its reduction rows: a B_{g+1}'s rows (multipliers in x25-x28, loaded
    by the top block of the pass before; the window a_0 .. a_3 from A4 in
    the frame), then those of m U_g (U_g from UN; copied to U for the
    later blocks)."""
    p.raw('%s:' % label)
    p('ldr     x2, [sp, #%d]' % OFF['TB'])
    p('ldr     x20, [sp, #%d]' % OFF['TLAST'])
    p('ldr     x1, [sp, #%d]' % OFF['M'])
    p('cmp     x2, x20')
    p('b.eq    .Llast')
    p('/* first block: columns 4g + 4 .. 4g + 7 */')
    p('ldp     x7, x8, [sp, #%d]' % OFF['A4'])
    p('ldp     x9, x10, [sp, #%d]' % (OFF['A4'] + 16))
    load_w(p)
    p('add     x21, x2, #32')
    p('str     x21, [sp, #%d]' % OFF['TB'])
    p('ldr     x0, [sp, #%d]' % OFF['A'])
    rowset(p, 'a', 'first', 'x0', 0, ys=CM, preloaded=True)
    p('stp     x25, x26, [sp, #%d]' % OFF['BG'])
    p('stp     x27, x28, [sp, #%d]' % (OFF['BG'] + 16))
    load_y(p, 'UN')
    p('stp     x3, x4, [sp, #%d]' % OFF['U'])
    p('stp     x5, x6, [sp, #%d]' % (OFF['U'] + 16))
    p('ldp     x25, x26, [sp, #%d]' % OFF['RC'])
    p('ldp     x27, x28, [sp, #%d]' % (OFF['RC'] + 16))
    rowset(p, 'm', 'full', 'x1', 4)


def main_pass_tail(p, variant):
    """Pass g (0 <= g <= n/4 - 2) after main_pass_head: the first block's
    reduction rows, then the remaining blocks of m U_g and a B_{g+1}.
    variant 'spread' (n >= 16): u_{4g+4} and its row in block 0, rows 1-3
    after blocks 1 and 2; 'small' (n <= 12): the whole first block in
    block 0."""
    y = YState(p)
    y.cur = 'U'
    if variant == 'small':
        red_rows(p, [0, 1, 2, 3], None)
        p('stp     xzr, xzr, [x2]')
        p('stp     xzr, xzr, [x2, #16]')
    else:
        red_rows(p, [0], None)
        store_w(p)
    advance(p, ['x0', 'x1', 'x2'])
    p('ldr     x29, [sp, #%d]' % OFF['N'])
    p('lsr     x29, x29, #2')
    if variant == 'spread':
        for i, rows in enumerate(SPLIT):
            p('/* block %d, then rows %s of the first block of the next group */'
              % (i + 1, ', '.join(map(str, rows))))
            block(p, y, [M_FULL, A_FULL])
            advance(p, ['x0', 'x1', 'x2'])
            red_rows(p, rows, -32 * (i + 2), last=(rows[-1] == 3))
        p('sub     x29, x29, #%d' % (2 + len(SPLIT)))
    else:
        p('sub     x29, x29, #2')
    # the remaining full blocks, two per iteration (y back where it was)
    start = y.cur
    p('/* the remaining full blocks: one if their count is odd, then pairs */')
    p('tbz     x29, #0, 1f')
    block(p, y, [M_FULL, A_FULL])
    y.use(start)
    advance(p, ['x0', 'x1', 'x2'])
    p.raw('1:')
    p('lsr     x29, x29, #1')

    def pair():
        block(p, y, [M_FULL, A_FULL])
        advance(p, ['x0', 'x1', 'x2'])
        block(p, y, [M_FULL, A_FULL])
        advance(p, ['x0', 'x1', 'x2'])
        assert y.cur == start
    loop(p, 3, pair)
    p('/* columns 4g + n .. 4g + n + 3: m_{n-3..n-1} u, a full */')
    block(p, y, [('U', 'm', 'last', 'x1', 0), A_FULL])
    advance(p, ['x0', 'x2'])
    p('/* top block */')
    cols = top_w(p, True)
    y.use('BG')
    prefetch_b(p)
    outs = rowset(p, 'a', 'last', 'x0', 0, cols=cols)
    store_w_top(p, cols)
    sum_ca_bit(p, outs)


def save_regs(p):
    """x29, x30 and (SAVE_X19_X28, callee_saved.inc) x19-x28 at the bottom
    of the frame."""
    p('stp     x29, x30, [sp]')
    p('.cfi_rel_offset x29, 0')
    p('.cfi_rel_offset x30, 8')
    p('SAVE_X19_X28 16')


def restore_regs(p):
    p('RESTORE_X19_X28 16')
    p('ldp     x29, x30, [sp]')
    p('.cfi_restore x29')
    p('.cfi_restore x30')


def gen():
    o = Out()
    o.raw(HEADER.rstrip('\n'))
    o.raw('')
    o.raw('#define OFF_T %d' % OFF['T'])
    o.raw('')
    o.raw('        .globl  quill_mont_mul_arm64')
    o.raw('        .hidden quill_mont_mul_arm64')
    o.raw('        .type   quill_mont_mul_arm64, %function')
    o.raw('        .p2align 4')
    o.raw('quill_mont_mul_arm64:')
    p = o
    p('.cfi_startproc')
    p('/* the first rows\' words first: a_0 .. a_3 (window), b_0 .. b_3 */')
    p('ldp     x7, x8, [x1]')
    p('ldp     x9, x10, [x1, #16]')
    p('ldp     x11, x12, [x2]')
    p('ldp     x13, x14, [x2, #16]')
    p('sub     sp, sp, #%d' % FRAME_HI)
    p('.cfi_def_cfa_offset %d' % FRAME_HI)
    p('sub     sp, sp, #%d' % FRAME_LO)
    p('.cfi_def_cfa_offset %d' % FRAME)
    save_regs(p)
    p('cmp     x5, #16')
    p('b.lo    .Lfirst_small')
    first_pass(p, spread=True)
    p('b       .Lpass')
    p.raw('.Lfirst_small:')
    first_pass(p, spread=False)
    p('b       .Lpass_small')

    p('/* passes g = 0 .. n/4 - 2: m U_g after its first block, a B_{g+1},')
    p('   the first block of m U_{g+1} (n >= 16; then n <= 12) */')
    main_pass_head(p, '.Lpass')
    main_pass_tail(p, 'spread')
    p('b       .Lpass')
    main_pass_head(p, '.Lpass_small')
    main_pass_tail(p, 'small')
    p('b       .Lpass_small')

    p.raw('.Llast:')
    p('/* last pass: m U_{n/4-1} after its first block, columns n .. 2n + 3 */')
    load_y(p, 'UN')
    p('ldp     x25, x26, [sp, #%d]' % OFF['RC'])
    p('ldp     x27, x28, [sp, #%d]' % (OFF['RC'] + 16))
    p('ldr     x29, [sp, #%d]' % OFF['N'])
    p('lsr     x29, x29, #2')
    p('sub     x29, x29, #1')

    p('ldr     x0, [sp, #%d]' % OFF['R'])
    p('mov     x11, #1')                  # no borrow yet

    def sub_m(moff):
        """r[4k ..] = W - m[4k ..] - borrow (x11 = 1 - borrow); the borrow
        back to x11; m[4k + 1 .. 4k + 3] are the row set's x22-x24, m[4k]
        at x1 + moff."""
        p('ldr     x12, [x1, #%d]' % moff)
        p('cmp     x11, #1')              # C = no borrow
        p('sbcs    x12, x15, x12')
        p('sbcs    x22, x16, x22')
        p('sbcs    x23, x17, x23')
        p('sbcs    x24, x19, x24')

    def last_mid():
        load_w(p)
        rowset(p, 'm', 'full', 'x1', 4)
        sub_m(0)
        p('cset    x11, hs')
        p('stp     x12, x22, [x0]')
        p('stp     x23, x24, [x0, #16]')
        p('add     x0, x0, #32')
        store_w(p)
        advance(p, ['x1', 'x2'])
    loop(p, 5, last_mid)
    p('/* the secret spills are dead (the carry bit waits): wipe */')
    p('str     xzr, [sp, #%d]' % OFF['N0'])
    for off in range(OFF['BG'], OFF['A4'] + 32, 16):
        p('stp     xzr, xzr, [sp, #%d]' % off)
    p('/* the last block: T[2n - 4 ..] stays in x15-x19 (its old words wiped) */')
    load_w(p)
    p('stp     xzr, xzr, [x2]')
    p('stp     xzr, xzr, [x2, #16]')
    p('add     x1, x1, #32')
    rowset(p, 'm', 'last', 'x1', 0)
    p('/* top: the carry bit plus the m rows\' carry bits (T < 2m: 0 or 1) */')
    p('ldr     x14, [sp, #%d]' % OFF['BIT'])
    p('add     x20, x25, x26')
    p('add     x14, x14, x27')
    p('add     x14, x14, x20')
    p('add     x14, x14, x28')
    sub_m(-32)
    p('/* eq: T < m (a borrow and top = 0): keep T, else r = T - m */')
    p('ccmp    x14, #0, #0, lo')
    p('csel    x12, x15, x12, eq')
    p('csel    x22, x16, x22, eq')
    p('csel    x23, x17, x23, eq')
    p('csel    x24, x19, x24, eq')
    p('stp     x12, x22, [x0]')
    p('stp     x23, x24, [x0, #16]')
    p('/* the blocks below, from the top down: r = T or T - m (flags kept:')
    p('   no instruction of the loop sets them), T wiped */')
    p('ldr     x13, [sp, #%d]' % OFF['N'])
    p('lsr     x13, x13, #2')
    p('sub     x13, x13, #1')
    p('cbz     x13, 7f')
    p.raw('6:')
    p('sub     x2, x2, #32')
    p('sub     x0, x0, #32')
    p('ldp     x3, x4, [x2]')
    p('ldp     x5, x6, [x2, #16]')
    p('ldp     x7, x8, [x0]')
    p('ldp     x9, x10, [x0, #16]')
    p('stp     xzr, xzr, [x2]')
    p('stp     xzr, xzr, [x2, #16]')
    p('csel    x7, x3, x7, eq')
    p('csel    x8, x4, x8, eq')
    p('csel    x9, x5, x9, eq')
    p('csel    x10, x6, x10, eq')
    p('stp     x7, x8, [x0]')
    p('stp     x9, x10, [x0, #16]')
    p('sub     x13, x13, #1')
    p('cbnz    x13, 6b')
    p.raw('7:')
    p('str     xzr, [sp, #%d]' % OFF['BIT'])
    restore_regs(p)
    p('add     sp, sp, #%d' % FRAME_LO)
    p('.cfi_def_cfa_offset %d' % FRAME_HI)
    p('add     sp, sp, #%d' % FRAME_HI)
    p('.cfi_def_cfa_offset 0')
    p('ret')
    p('.cfi_endproc')
    p('.size   quill_mont_mul_arm64, .-quill_mont_mul_arm64')
    o.raw('')
    o.raw('#endif')
    o.raw('')
    o.raw('        .section .note.GNU-stack, "", %progbits')
    return '\n'.join(o.lines) + '\n'


if __name__ == '__main__':
    import sys
    sys.stdout.write(gen())
