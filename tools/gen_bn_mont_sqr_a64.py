#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Copyright quill authors.
#
# tools/gen_bn_mont_sqr_a64.py: prints the four-row block macros QFIRST,
# QFIRST_RED, QMID, QLAST, QFIRST_F and QMID_F of asm/aarch64/bn_mont_sqr.S
# (paste them over the ones there; QLAST_F, PASS4 and PASS4_LAST are
# written by hand; the test bn_mont_sqr_a64_generated checks that the
# printed ones are there verbatim).  The _F blocks are those of step 1's first window,
# whose columns are zero: no loads of T, row 0's low words straight into
# the columns.  Row r of a block multiplies y_r (x3-x6) by
# A_{4k-r .. 4k-r+3}; a word known to be zero (before A_0 in the first
# block, from A_len on in the last) gets no product, and the ADCS chains run
# through it with XZR so that the carries reach the top word.
W = ['x15', 'x16', 'x17', 'x19']
Y = ['x3', 'x4', 'x5', 'x6']
C = ['x25', 'x27', 'x28', 'x30']
CUR = ['x7', 'x8', 'x9', 'x10']
PREV = ['x12', 'x13', 'x14']  # A_{4k-3}, A_{4k-2}, A_{4k-1}
T = ['x20', 'x21', 'x22', 'x23']
TOP = 'x24'

def words(r):
    # row r uses A_{4k-r .. 4k-r+3}
    allw = PREV + CUR  # index 0..6 = A_{4k-3} .. A_{4k+3}
    return [allw[3 - r + j] for j in range(4)]

def row(r, kind, out, fresh=False):
    """Row r of a block; fresh: the block's columns are zero before it (the
    first row of a block of step 1's first window): the low words are the
    columns, by MUL straight into them, and nothing carries out of them."""
    ws = words(r)
    y = Y[r]
    c = C[r]
    if kind == 'first':
        z = [j < r for j in range(4)]
    elif kind == 'last':
        z = [j >= r for j in range(4)]
    else:
        z = [False] * 4
    e = out.append
    if fresh:
        assert not any(z)
        for j in range(4):
            e('mul     %s, %s, %s' % (W[j], ws[j], y))
        e('umulh   %s, %s, %s' % (TOP, ws[3], y))
    else:
        for j in range(4):
            if not z[j]:
                e('mul     %s, %s, %s' % (T[j], ws[j], y))
        if not z[3]:
            e('umulh   %s, %s, %s' % (TOP, ws[3], y))
    # lo chain
    started = fresh
    for j in range(4 if not fresh else 0):
        if not started:
            if z[j]:
                continue
            e('adds    %s, %s, %s' % (W[j], W[j], T[j]))
            started = True
        else:
            e('adcs    %s, %s, %s' % (W[j], W[j], 'xzr' if z[j] else T[j]))
    top = None
    if fresh:
        top = TOP
    elif started:
        if z[3]:
            e('cset    %s, cs' % TOP)
        else:
            e('adc     %s, %s, xzr' % (TOP, TOP))
        top = TOP
    # hi chain: W0 += c (not first), W_{j+1} += hi_j (j = 0..2, not zero)
    for j in range(3):
        if not z[j]:
            e('umulh   %s, %s, %s' % (T[j], ws[j], y))
    started = False
    adds = []
    if kind != 'first':
        adds.append((0, c))
    for j in range(3):
        if not z[j]:
            adds.append((j + 1, T[j]))
    if adds:
        s0 = adds[0][0]
        d = dict(adds)
        for k in range(s0, 4):
            src = d.get(k, 'xzr')
            e('%s    %s, %s, %s' % ('adds' if k == s0 else 'adcs', W[k], W[k], src))
        if top is None:
            e('cset    %s, cs' % c)
        else:
            e('adc     %s, %s, xzr' % (c, top))
    else:
        # no hi adds (first block, row 3): the carry word is the top
        e('mov     %s, %s' % (c, top))
    return

def block(kind, red, fresh=False):
    out = []
    e = out.append
    if kind != 'last':
        e('ldp     x7, x8, [x0, #8]')
        e('ldp     x9, x10, [x0, #24]')
    if kind != 'first':
        e('ldr     x12, [x0, #-16]')
        e('ldp     x13, x14, [x0, #-8]')
    if not fresh:
        e('ldp     x15, x16, [x2]')
        e('ldp     x17, x19, [x2, #16]')
    if kind == 'first' and red:
        e('ldr     x6, [sp, #OFF_N0]')
        e('mul     x3, x15, x6')
    for r in range(4):
        if kind == 'first' and red and r >= 1:
            e('mul     %s, %s, x6' % (Y[r], W[r]))
        if kind == 'last' and r == 0:
            # row 0 has no products: its carry word in, with the carry bit
            # of the pass below as the carry into the chain (C = x26),
            # carried through
            e('subs    xzr, x26, #1')
            e('adcs    x15, x15, x25')
            e('adcs    x16, x16, xzr')
            e('adcs    x17, x17, xzr')
            e('adcs    x19, x19, xzr')
            e('cset    x25, cs')
            continue
        row(r, kind, out, fresh=fresh and r == 0)
    if kind != 'last':
        e('add     x0, x0, #32')
    e('stp     x15, x16, [x2]')
    e('stp     x17, x19, [x2, #16]')
    e('add     x2, x2, #32')
    return out

for kind, red, fresh in (('first', 0, 0), ('first', 1, 0), ('mid', 0, 0), ('last', 0, 0),
                         ('first', 0, 1), ('mid', 0, 1)):
    name = 'Q%s%s%s' % (kind.upper(), '_RED' if red else '', '_F' if fresh else '')
    print('.macro %s' % name)
    for l in block(kind, red, fresh):
        print('        ' + l)
    print('.endm')
    print()
