/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * One Keccak-f[1600] round (FIPS 202, Section 3.3), written once for the
 * scalar permutation (keccak.c) and the vector ones (keccak_x4.c,
 * keccak_avx512vl.c).  The includer defines the lane type and its
 * operations:
 *   KT             the lane type (uint64_t, or a vector of one, two or four
 *                  lanes)
 *   KXOR(a, b)     a ^ b            KXOR5(a, b, c, d, e)  a ^ b ^ c ^ d ^ e
 *   KANDN(a, b)    ~a & b           KROL(a, r)  a rotated left by the constant r
 *   KRC(c)         the round constant c as a lane
 *   KCHI(a, b, c)  a ^ (~b & c); optional, defaults to KXOR(a, KANDN(b, c))
 * and, for the lane-complemented round KECCAK_ROUND_LC only,
 *   KNOT(a)        ~a               KAND(a, b)  a & b     KOR(a, b)  a | b
 *
 * Lane A[x, y] lives in the variable named A##xy (x first).  One round is
 * written per output row of chi: the five lanes that pi sends to row y are
 * read, theta's column parity D[x] is added and rho rotates them, then chi
 * (and for row 0 iota) produces the row.  The caller alternates two sets of
 * variables, so no copying is needed.
 *
 * Where the constants come from:
 *  - pi (Section 3.2.3) moves A[x, y] to B[y, 2x + 3y mod 5]; hence B[X, Y]
 *    is A[X + 3Y mod 5, X].  Row Y of the output reads A[3Y + X, X] for
 *    X = 0..4.
 *  - rho (Algorithm 2) rotates A[x, y] left by (t + 1)(t + 2) / 2 mod 64
 *    where (x, y) is the t-th point of the walk (1, 0), (y, 2x + 3y), ...;
 *    A[0, 0] is not rotated.  The offsets used below, as r[x][y]:
 *       y=0:  0  1 62 28 27     y=1: 36 44  6 55 20     y=2:  3 10 43 25 39
 *       y=3: 41 45 15 21  8     y=4: 18  2 61 56 14
 * The known-answer tests in test/sha3/ would fail on any wrong constant.
 * Nothing here branches on or indexes by the state. */
#ifndef QUILL_SHA3_KECCAK_ROUND_H
#define QUILL_SHA3_KECCAK_ROUND_H

#ifndef KCHI
#define KCHI(a, b, c) KXOR((a), KANDN((b), (c)))
#endif

/* KECCAK_CHI is chi on one row (Section 3.2.4): o[x] = b[x] ^ (~b[x + 1] &
 * b[x + 2]). */
#define KECCAK_CHI(o0, o1, o2, o3, o4, b0, b1, b2, b3, b4) \
    do {                                                   \
        o0 = KCHI(b0, b1, b2);                             \
        o1 = KCHI(b1, b2, b3);                             \
        o2 = KCHI(b2, b3, b4);                             \
        o3 = KCHI(b3, b4, b0);                             \
        o4 = KCHI(b4, b0, b1);                             \
    } while (0)

/* KECCAK_ROW computes one output row (o0..o4) of chi, with the chi macro
 * CHI, from the five input lanes i0..i4 after theta (xor d0..d4) and rho
 * (rotate by r0..r4). */
#define KECCAK_ROW(CHI, o0, o1, o2, o3, o4, i0, d0, r0, i1, d1, r1, i2, d2, r2, i3, d3, r3, \
                   i4, d4, r4)                                                              \
    do {                                                                                    \
        KT b0 = KXOR(i0, d0), b1 = KXOR(i1, d1), b2 = KXOR(i2, d2);                         \
        KT b3 = KXOR(i3, d3), b4 = KXOR(i4, d4);                                            \
        b0 = KROL(b0, r0);                                                                  \
        b1 = KROL(b1, r1);                                                                  \
        b2 = KROL(b2, r2);                                                                  \
        b3 = KROL(b3, r3);                                                                  \
        b4 = KROL(b4, r4);                                                                  \
        CHI(o0, o1, o2, o3, o4, b0, b1, b2, b3, b4);                                        \
    } while (0)

/* KECCAK_ROUND_CHI reads the lanes named A##xy and writes the lanes E##xy,
 * computing output row y with the chi macro CHIy. */
#define KECCAK_ROUND_CHI(A, E, rc, CHI0, CHI1, CHI2, CHI3, CHI4)                             \
    do {                                                                                     \
        KT c0 = KXOR5(A##00, A##01, A##02, A##03, A##04);                                    \
        KT c1 = KXOR5(A##10, A##11, A##12, A##13, A##14);                                    \
        KT c2 = KXOR5(A##20, A##21, A##22, A##23, A##24);                                    \
        KT c3 = KXOR5(A##30, A##31, A##32, A##33, A##34);                                    \
        KT c4 = KXOR5(A##40, A##41, A##42, A##43, A##44);                                    \
        KT d0 = KXOR(c4, KROL(c1, 1)), d1 = KXOR(c0, KROL(c2, 1));                           \
        KT d2 = KXOR(c1, KROL(c3, 1));                                                       \
        KT d3 = KXOR(c2, KROL(c4, 1)), d4 = KXOR(c3, KROL(c0, 1));                           \
        KECCAK_ROW(CHI0, E##00, E##10, E##20, E##30, E##40, A##00, d0, 0, A##11, d1, 44,     \
                   A##22, d2, 43, A##33, d3, 21, A##44, d4, 14);                             \
        E##00 = KXOR(E##00, KRC(rc));                                                        \
        KECCAK_ROW(CHI1, E##01, E##11, E##21, E##31, E##41, A##30, d3, 28, A##41, d4, 20,    \
                   A##02, d0, 3, A##13, d1, 45, A##24, d2, 61);                              \
        KECCAK_ROW(CHI2, E##02, E##12, E##22, E##32, E##42, A##10, d1, 1, A##21, d2, 6,      \
                   A##32, d3, 25, A##43, d4, 8, A##04, d0, 18);                              \
        KECCAK_ROW(CHI3, E##03, E##13, E##23, E##33, E##43, A##40, d4, 27, A##01, d0, 36,    \
                   A##12, d1, 10, A##23, d2, 15, A##34, d3, 56);                             \
        KECCAK_ROW(CHI4, E##04, E##14, E##24, E##34, E##44, A##20, d2, 62, A##31, d3, 55,    \
                   A##42, d4, 39, A##03, d0, 41, A##14, d1, 2);                              \
    } while (0)

/* KECCAK_ROUND is the round on lanes held as they are. */
#define KECCAK_ROUND(A, E, rc) \
    KECCAK_ROUND_CHI(A, E, rc, KECCAK_CHI, KECCAK_CHI, KECCAK_CHI, KECCAK_CHI, KECCAK_CHI)

/* Lane complementing, for an ISA without and-not (the Keccak team's "Keccak
 * implementation overview", Section 2.2): KECCAK_ROUND_LC is the same round
 * on a state whose six lanes
 *     A[1,0], A[2,0], A[3,1], A[2,2], A[2,3], A[0,4]   (s[1, 2, 8, 12, 17, 20])
 * are held complemented, before and after; KECCAK_LC_FLIP (below) converts.
 * Chi then costs one NOT per row instead of five.
 *
 * Why it works.  Theta, rho and pi are linear, so a complemented input only
 * complements outputs: the stored column parity C[x] is complemented for
 * x = 0..3 (an odd count of complemented lanes) and not for x = 4, so D[x] is
 * complemented for x = 0 and 3, and the inputs b0..b4 of chi (as KECCAK_ROW
 * computes them) arrive complemented as marked by 1 below.  With t' the
 * stored form of t,
 *     b0' ^ (b1' & b2')  is o0' when b1' = ~b1 and b2' = b2: b0' ^ (~b1 & b2)
 *     b0' ^ (b1' | b2')  is ~o0' when b1' = b1 and b2' = ~b2: ~(b0' ^ (~b1 & b2))
 * (De Morgan), so each output is an AND or an OR form of inputs taken as
 * stored or negated once (nb below), chosen so that it comes out
 * complemented exactly when its lane is one of the six.  Trying every set of
 * negated inputs shows that one negation per row suffices:
 *     row  inputs b0..b4 complemented   outputs o0..o4 complemented   nb
 *      0          1 0 1 1 0                    0 1 1 0 0              ~b2
 *      1          1 0 1 0 0                    0 0 0 1 0              ~b4
 *      2          1 0 1 0 0                    0 0 1 0 0              ~b3
 *      3          0 1 0 1 1                    0 0 1 0 0              ~b3
 *      4          1 0 0 1 0                    1 0 0 0 0              ~b1
 * Iota xors a constant into A[0, 0], which is held as it is. */
#define KECCAK_CHI_LC0(o0, o1, o2, o3, o4, b0, b1, b2, b3, b4) \
    do {                                                       \
        KT nb = KNOT(b2);                                      \
        o0 = KXOR(b0, KOR(b1, b2));                            \
        o1 = KXOR(b1, KOR(nb, b3));                            \
        o2 = KXOR(b2, KAND(b3, b4));                           \
        o3 = KXOR(b3, KOR(b4, b0));                            \
        o4 = KXOR(b4, KAND(b0, b1));                           \
    } while (0)
#define KECCAK_CHI_LC1(o0, o1, o2, o3, o4, b0, b1, b2, b3, b4) \
    do {                                                       \
        KT nb = KNOT(b4);                                      \
        o0 = KXOR(b0, KOR(b1, b2));                            \
        o1 = KXOR(b1, KAND(b2, b3));                           \
        o2 = KXOR(b2, KOR(b3, nb));                            \
        o3 = KXOR(b3, KOR(b4, b0));                            \
        o4 = KXOR(b4, KAND(b0, b1));                           \
    } while (0)
#define KECCAK_CHI_LC2(o0, o1, o2, o3, o4, b0, b1, b2, b3, b4) \
    do {                                                       \
        KT nb = KNOT(b3);                                      \
        o0 = KXOR(b0, KOR(b1, b2));                            \
        o1 = KXOR(b1, KAND(b2, b3));                           \
        o2 = KXOR(b2, KAND(nb, b4));                           \
        o3 = KXOR(nb, KOR(b4, b0));                            \
        o4 = KXOR(b4, KAND(b0, b1));                           \
    } while (0)
#define KECCAK_CHI_LC3(o0, o1, o2, o3, o4, b0, b1, b2, b3, b4) \
    do {                                                       \
        KT nb = KNOT(b3);                                      \
        o0 = KXOR(b0, KAND(b1, b2));                           \
        o1 = KXOR(b1, KOR(b2, b3));                            \
        o2 = KXOR(b2, KOR(nb, b4));                            \
        o3 = KXOR(nb, KAND(b4, b0));                           \
        o4 = KXOR(b4, KOR(b0, b1));                            \
    } while (0)
#define KECCAK_CHI_LC4(o0, o1, o2, o3, o4, b0, b1, b2, b3, b4) \
    do {                                                       \
        KT nb = KNOT(b1);                                      \
        o0 = KXOR(b0, KAND(nb, b2));                           \
        o1 = KXOR(nb, KOR(b2, b3));                            \
        o2 = KXOR(b2, KAND(b3, b4));                           \
        o3 = KXOR(b3, KOR(b4, b0));                            \
        o4 = KXOR(b4, KAND(b0, b1));                           \
    } while (0)

#define KECCAK_ROUND_LC(A, E, rc)                                                            \
    KECCAK_ROUND_CHI(A, E, rc, KECCAK_CHI_LC0, KECCAK_CHI_LC1, KECCAK_CHI_LC2, KECCAK_CHI_LC3, \
                     KECCAK_CHI_LC4)

/* KECCAK_LC_FLIP complements the six lanes of KECCAK_ROUND_LC in the lanes
 * named A##xy: on entry and on exit of a lane-complemented permutation. */
#define KECCAK_LC_FLIP(A)                                                                 \
    do {                                                                                  \
        A##10 = KNOT(A##10), A##20 = KNOT(A##20), A##31 = KNOT(A##31);                    \
        A##22 = KNOT(A##22), A##23 = KNOT(A##23), A##04 = KNOT(A##04);                    \
    } while (0)

/* KECCAK_PERMUTE is the whole permutation for the includers: it loads the 25
 * lanes with LOAD(i) (lane A[x, y] is i = x + 5y) into variables of type KT,
 * runs ROUND (KECCAK_ROUND, or KECCAK_ROUND_LC between KECCAK_LC_FLIPs) two
 * rounds per iteration, alternating the a- and e-lanes, and stores them with
 * STORE(i, v).  PRE and POST run on the a-lanes before and after the rounds
 * (KECCAK_NOTHING or KECCAK_LC_FLIP). */
#define KECCAK_NOTHING(A) ((void)0)
#define KECCAK_PERMUTE(LOAD, STORE, ROUND, PRE, POST)                                         \
    do {                                                                                      \
        KT a00 = LOAD(0), a10 = LOAD(1), a20 = LOAD(2), a30 = LOAD(3), a40 = LOAD(4);         \
        KT a01 = LOAD(5), a11 = LOAD(6), a21 = LOAD(7), a31 = LOAD(8), a41 = LOAD(9);         \
        KT a02 = LOAD(10), a12 = LOAD(11), a22 = LOAD(12), a32 = LOAD(13), a42 = LOAD(14);    \
        KT a03 = LOAD(15), a13 = LOAD(16), a23 = LOAD(17), a33 = LOAD(18), a43 = LOAD(19);    \
        KT a04 = LOAD(20), a14 = LOAD(21), a24 = LOAD(22), a34 = LOAD(23), a44 = LOAD(24);    \
        KT e00, e10, e20, e30, e40, e01, e11, e21, e31, e41, e02, e12, e22, e32, e42;         \
        KT e03, e13, e23, e33, e43, e04, e14, e24, e34, e44;                                  \
        PRE(a);                                                                               \
        for (unsigned i_ = 0; i_ < 24; i_ += 2) {                                             \
            ROUND(a, e, quill_keccak_rc[i_]);                                                 \
            ROUND(e, a, quill_keccak_rc[i_ + 1]);                                             \
        }                                                                                     \
        POST(a);                                                                              \
        STORE(0, a00), STORE(1, a10), STORE(2, a20), STORE(3, a30), STORE(4, a40);            \
        STORE(5, a01), STORE(6, a11), STORE(7, a21), STORE(8, a31), STORE(9, a41);            \
        STORE(10, a02), STORE(11, a12), STORE(12, a22), STORE(13, a32), STORE(14, a42);       \
        STORE(15, a03), STORE(16, a13), STORE(17, a23), STORE(18, a33), STORE(19, a43);       \
        STORE(20, a04), STORE(21, a14), STORE(22, a24), STORE(23, a34), STORE(24, a44);       \
    } while (0)

#endif
