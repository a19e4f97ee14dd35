/* SPDX-License-Identifier: Apache-2.0 */
/* Copyright quill authors.
 *
 * quill_mldsa_keygen_lanes (key.h): ML-DSA.KeyGen_internal past (rho, rho',
 * K) (FIPS 204, Algorithm 6, lines 3 to 9: ExpandA, ExpandS when given
 * rho', t = NTT^-1(A-hat o NTT(s1)) + s2, Power2Round, pkEncode, the
 * s1/s2/t0 parts of skEncode, tr = H(pk, 64)) with every Keccak
 * permutation but a few at the end run on the four lanes of the four-way
 * permutation (sha3_x4.h).
 *
 * Why.  tr = H(pk) is one serial SHAKE256 sponge over the whole public key
 * (11, 15 and 20 permutations for ML-DSA-44/65/87), which on its own costs
 * as much per permutation as four lanes of ExpandA's SHAKE128 streams.  But
 * pk is rho followed by the rows of t1, and row i of t needs only row i of
 * A-hat: so A-hat is sampled row by row, each row of t is computed and
 * packed as soon as its row of A-hat is complete (for ML-DSA-65 and -87,
 * rows 0 and 1, 2 and 3 (and 4 and 5) in pairs: row_pairs_next), and
 * each 136-byte block of pk is absorbed into H's sponge, in whichever lane
 * is free, as soon as it is written.  Only the blocks of the last row (and the padding) are
 * absorbed after the lanes have run dry, by the scalar sponge.  For
 * ML-DSA-65 that is 3 scalar permutations instead of 15, for about one more
 * four-way call (about 11 fewer permutations in all, each ~560 TSC ticks
 * on Zen 4 with AVX-512VL).
 *
 * The lanes.  Each of the four lanes runs one job at a time: a RejNTTPoly
 * stream (SHAKE128(rho || s || r), entries of A-hat in row-major order, five
 * blocks and then one at a time while fewer than 256 values were kept), a
 * RejBoundedPoly stream of ExpandS (SHAKE256(rho' || r), one block at a
 * time, one or two in all; secret), or one block of H's sponge, whose
 * state lives in a scalar quill_keccak between bursts of blocks (copied
 * into a lane with the block xored in, left there while H's next block
 * follows in the next call, copied back otherwise).  A lane with nothing
 * to do is permuted idle.  The order of the jobs is in queue_job; the
 * schedule depends only on public data (A-hat's rejections, ExpandS's
 * block counts, which sample.h declassifies, and the length of pk); the
 * secret values (s1, s2, rows of t) go through the same constant-time
 * routines as elsewhere (sample.h's parsers, poly.h, rounding.h, pack.h),
 * and the lanes' states and buffers that saw ExpandS are wiped.
 *
 * Used where the four-way permutation is wide (quill_keccak_f1600_x4_wide:
 * AVX2 or AVX-512VL); elsewhere keygen.c samples A-hat whole and hashes pk
 * with the scalar sponge, which gives the same bytes (test_mldsa_wycheproof
 * runs both, test_mldsa_sign compares them on random seeds). */
#include <assert.h>
#include <string.h>

#include "common/ct.h"
#include "common/endian.h"
#include "common/zeroize.h"
#include "key.h"
#include "ntt.h"
#include "pack.h"
#include "sample.h"
#include "sha3/sha3_x4.h"

/* Five SHAKE128 blocks give 280 candidates, enough for 256 unless more
 * than 24 are rejected (sample.c). */
#define LANE_A_BLOCKS 5

/* The jobs a lane can run (see "The lanes" above). */
enum { LANE_IDLE, LANE_A, LANE_H, LANE_S };

typedef struct lane {
    unsigned kind;  /* LANE_* */
    unsigned job;   /* LANE_A: the entry of A-hat, r * l + s; LANE_S: r of ExpandS */
    unsigned nblk;  /* LANE_A: blocks squeezed so far */
    unsigned n;     /* LANE_A (after the fifth block), LANE_S: values kept so far */
    unsigned first; /* LANE_A: chunks written in place (quill_mldsa_rej_ntt_chunks) */
    int32_t c[QUILL_MLDSA_N];
    uint8_t buf[LANE_A_BLOCKS * QUILL_SHAKE128_RATE];
} lane;

/* The queue of sampling jobs, in the order lanes take them.  With ExpandS
 * in the lanes: s1's l streams first (every row of t needs all of NTT(s1)),
 * then for each row r its l entries of A-hat with s2[r]'s stream (one or
 * two blocks; row r needs it) among them, after the first s2_at entries.
 * Without: the entries of A-hat alone.  Job q's kind (LANE_A or LANE_S) is
 * returned, its index in *job. */
static unsigned queue_job(unsigned q, unsigned l, unsigned s2_at, int with_s, unsigned *job) {
    if (!with_s) {
        *job = q;
        return LANE_A;
    }
    if (q < l) {
        *job = q;
        return LANE_S;
    }
    q -= l;
    unsigned r = q / (l + 1), m = q % (l + 1);
    if (m == s2_at) {
        *job = l + r;
        return LANE_S;
    }
    *job = r * l + m - (m > s2_at);
    return LANE_A;
}

/* Where s2[r] goes among row r's entries, and how many jobs at the end of
 * the queue H's blocks never delay (below): chosen by a simulation of this
 * schedule with random rejections (1,000 keys per set), 29.9 / 50.0 / 85.4
 * permutations per key on average for ML-DSA-44/65/87, counting H(xi) and
 * the scalar ones at the end, against 30.5 / 51.0 / 85.4 with s2[r] after
 * the row and 4 jobs, and 32 / 52 / 88 with ExpandS outside the lanes. */
#define LANE_H_YIELD 6
static unsigned s2_position(unsigned l) {
    return l == 4 ? 1 : l == 5 ? 2 : 3;
}

/* row_finish ends row i of t from its dot product acc (A-hat's row i o
 * NTT(s1), secret; t0 in its place after) and s2_i: writes t1_i into pk
 * (through t1, scratch for a public polynomial) and t0_i into the private
 * key's encoding. */
static void row_finish(quill_mldsa_key *key, unsigned i, quill_mldsa_poly *acc,
                       const quill_mldsa_poly *s2_i, quill_mldsa_poly *t1) {
    const quill_mldsa_params *p = key->p;
    /* NTT^-1, + s2, freeze and Power2Round in one pass: t0 in acc */
    quill_mldsa_invntt_power2round(t1->c, acc->c, s2_i->c);
    QUILL_CT_DECLASSIFY(t1, sizeof(*t1)); /* t1 is public */
    quill_mldsa_poly_pack_t1(key->pub + 32 + i * QUILL_MLDSA_T1_BYTES, t1);
    quill_mldsa_poly_pack_t0(key->priv + QUILL_MLDSA_SK_T0_OFFSET(p) + i * QUILL_MLDSA_T0_BYTES,
                             acc);
}

/* rows_done computes rows i .. i + n - 1 (n = 1 or 2) of t from their rows
 * of A-hat, NTT(s1) and s2 (two rows in one quill_mldsa_dot_mont_x2,
 * which loads NTT(s1) once for both); t is scratch for three polynomials,
 * t[0] and t[1] secret, t[2] public. */
static void rows_done(quill_mldsa_key *key, unsigned i, unsigned n, const quill_mldsa_poly *s1_hat,
                      const quill_mldsa_poly *s2, quill_mldsa_poly t[3]) {
    const quill_mldsa_params *p = key->p;
    if (n == 2)
        quill_mldsa_dot_mont_x2(t[0].c, t[1].c, key->a_hat[i * p->l].c,
                                key->a_hat[(i + 1) * p->l].c, s1_hat[0].c, p->l);
    else
        quill_mldsa_poly_matvec_mont(&t[0], &key->a_hat[i * p->l], s1_hat, p->l);
    for (unsigned r = 0; r < n; r++)
        row_finish(key, i + r, &t[r], &s2[i + r], &t[2]);
}

/* Whether row i waits for row i + 1 to be computed with it: rows are
 * paired from the first, but never with the last row, whose blocks of pk
 * are H's serial tail (waiting for it would lengthen that tail; an
 * earlier row's blocks are absorbed in the lanes while sampling goes on),
 * and not for ML-DSA-44 (k = 4), where the one pair, rows 0 and 1, held
 * H back enough to cost more than it saved (16 fixed seeds, callgrind:
 * 25.19 four-way + 5.06 single permutations per key -> 24.56 + 6.62,
 * quill-limits 0.6-2% slower).  ML-DSA-65 and -87 keep their counts
 * (46 + 4, 80.44 + 5 -> 80.56 + 5) and gain (quill-limits minima, three
 * alternating runs: 42.70-42.84k -> 42.15-42.59k and 68.18-68.42k ->
 * 67.39-67.79k TSC ticks). */
static int row_pairs_next(unsigned i, unsigned k) {
    return k > 4 && i % 2 == 0 && i + 2 < k;
}

/* H's state into lane j with the next block of pk xored in, and back
 * after the permutation.  One pointer steps through the lane's words
 * (every fourth of k->s): 4 instructions a word instead of 7. */
static void h_to_lane(quill_keccak_x4 *k, unsigned j, const quill_keccak *h,
                      const uint8_t *block) {
    uint64_t *d = k->s + j;
    unsigned i = 0;
    for (; i < QUILL_SHAKE256_RATE / 8; i++)
        d[4 * i] = h->s[i] ^ quill_load_le64(block + 8 * i);
    for (; i < 25; i++)
        d[4 * i] = h->s[i];
}

static void h_from_lane(quill_keccak *h, const quill_keccak_x4 *k, unsigned j) {
    const uint64_t *d = k->s + j;
    for (unsigned i = 0; i < 25; i++)
        h->s[i] = d[4 * i];
}

/* A new sponge in lane j from a whole first block prepared in tmpl (the
 * seed, SHAKE's padding, zeros): 25 stores, where
 * quill_keccak_x4_inst_start clears the lane and then absorbs byte by
 * word (~175 instructions per start, 41 starts per ML-DSA-65 key). */
static void lane_start(quill_keccak_x4 *k, unsigned j, const uint64_t tmpl[25]) {
    uint64_t *d = k->s + j;
    for (unsigned i = 0; i < 25; i++)
        d[4 * i] = tmpl[i];
}

/* tmpl as the first block of SHAKE(seed) for a seed of len bytes (len a
 * multiple of 8 plus 2, < rate - 1) whose last two bytes vary per job:
 * the fixed words of the seed, then word len / 8 left for set_tail, SHAKE's
 * last pad bit in the block's last byte, zeros (FIPS 202, 5.1 and 6.2). */
static void tmpl_init(uint64_t tmpl[25], const uint8_t *seed, size_t len, unsigned rate) {
    memset(tmpl, 0, 25 * sizeof(uint64_t));
    for (size_t i = 0; i < len / 8; i++)
        tmpl[i] = quill_load_le64(seed + 8 * i);
    tmpl[rate / 8 - 1] = (uint64_t)0x80 << 56;
}

/* The word of tmpl holding the seed's last two bytes (lo, hi) and the
 * first pad byte, SHAKE's domain bits 1111 and pad bit: 0x1f. */
static void tmpl_set_tail(uint64_t tmpl[25], size_t len, unsigned lo, unsigned hi) {
    tmpl[len / 8] = (uint64_t)lo | (uint64_t)hi << 8 | (uint64_t)0x1f << 16;
}

void quill_mldsa_keygen_lanes(quill_mldsa_key *key, const uint8_t *rhop, quill_mldsa_poly *s1_hat,
                              quill_mldsa_poly *s2, quill_mldsa_poly t[3]) {
    const quill_mldsa_params *p = key->p;
    const unsigned total = p->k * p->l;
    const int with_s = rhop != NULL;
    const unsigned qlen = with_s ? total + p->l + p->k : total;
    const unsigned s2_at = s2_position(p->l);
    const size_t eta_bytes = 32u * p->eta_bits;
    const quill_mldsa_rej_ntt_fn parse = quill_mldsa_rej_ntt_pick();
    const quill_mldsa_rej_eta_fn parse_eta = quill_mldsa_rej_eta_pick();
    lane ln[4];
    quill_keccak_x4 k;
    quill_keccak h; /* H's sponge between blocks: absorbing, at a block boundary */
    /* idle and sbuf may hold ExpandS output or state (secret): wiped. */
    uint8_t idle[QUILL_SHAKE128_RATE], sbuf[4][QUILL_SHAKE128_RATE];
    /* The first blocks of SHAKE128(rho || s || r) and SHAKE256(rho' || r):
     * s_tmpl holds rho' (secret, wiped). */
    uint64_t a_tmpl[25], s_tmpl[25];
    unsigned rows_full[QUILL_MLDSA_K_MAX] = {0}; /* entries of each row done */
    unsigned char s2_done[QUILL_MLDSA_K_MAX];
    unsigned next = 0, rows = 0, s1_left = with_s ? p->l : 0;
    size_t pk_len = 32, absorbed = 0;

    memset(k.s, 0, sizeof(k.s));
    k.rate = QUILL_SHAKE128_RATE; /* what quill_keccak_x4_read_block copies */
    k.n = 4;
    quill_shake256_init(&h);
    memcpy(key->pub, key->rho, 32);
    tmpl_init(a_tmpl, key->rho, 34, QUILL_SHAKE128_RATE);
    if (with_s)
        tmpl_init(s_tmpl, rhop, 66, QUILL_SHAKE256_RATE);
    memset(s2_done, !with_s, sizeof(s2_done));
    for (unsigned j = 0; j < 4; j++)
        ln[j].kind = LANE_IDLE;

    /* out[j]: where lane j's next block goes (idle for H and idle lanes);
     * nsamp: lanes running a stream of A-hat or ExpandS; h_lane: the lane
     * holding H's state after its last block, or 4 (H's state is in h). */
    uint8_t *out[4] = {idle, idle, idle, idle};
    unsigned nsamp = 0, h_lane = 4;
    for (;;) {
        /* Jobs for the idle lanes: a block of H first (it is the tail of
         * the whole computation), but only while there is sampling left to
         * share the permutation with, and never delaying the start of the
         * last LANE_H_YIELD jobs of the queue (their blocks would then run
         * with idle lanes beside them); then the next job of the queue.
         * H's next block goes into the lane that ran the last one, where
         * its state still is (only the block is xored in); if H does not
         * continue now, its state is copied out first (H runs in bursts of
         * two or three blocks after each row).  (The test of h_go most
         * often false, a whole block of pk waiting, comes first.) */
        const int h_go = pk_len - absorbed >= QUILL_SHAKE256_RATE && (next < qlen || nsamp > 0) &&
                         (qlen - next > LANE_H_YIELD || next == qlen);
        int h_in_lane = 0;
        if (h_lane < 4) {
            if (h_go) {
                uint64_t *d = k.s + h_lane;
                const uint8_t *blk = key->pub + absorbed;
                for (unsigned i = 0; i < QUILL_SHAKE256_RATE / 8; i++)
                    d[4 * i] ^= quill_load_le64(blk + 8 * i);
                absorbed += QUILL_SHAKE256_RATE;
                h_in_lane = 1;
            } else {
                h_from_lane(&h, &k, h_lane);
                ln[h_lane].kind = LANE_IDLE;
                h_lane = 4;
            }
        }
        for (unsigned j = 0; j < 4; j++) {
            if (ln[j].kind != LANE_IDLE)
                continue;
            if (h_go && !h_in_lane) {
                h_to_lane(&k, j, &h, key->pub + absorbed);
                absorbed += QUILL_SHAKE256_RATE;
                h_in_lane = 1;
                h_lane = j;
                ln[j].kind = LANE_H;
            } else if (next < qlen) {
                unsigned job;
                unsigned kind = queue_job(next++, p->l, s2_at, with_s, &job);
                if (kind == LANE_A) {
                    /* rho || IntegerToBytes(s, 1) || IntegerToBytes(r, 1) */
                    tmpl_set_tail(a_tmpl, 34, job % p->l, job / p->l);
                    lane_start(&k, j, a_tmpl);
                    out[j] = ln[j].buf;
                } else {
                    /* rho' || IntegerToBytes(r, 2) (FIPS 204, Algorithm 33) */
                    tmpl_set_tail(s_tmpl, 66, job & 0xff, job >> 8);
                    lane_start(&k, j, s_tmpl);
                    out[j] = sbuf[j];
                }
                ln[j].kind = kind;
                ln[j].job = job;
                ln[j].nblk = 0;
                ln[j].n = 0;
                nsamp++;
            } else {
                break; /* no job left for this or any later idle lane */
            }
        }
        if (nsamp == 0 && !h_in_lane)
            break;

        quill_keccak_f1600_x4(k.s);
        quill_keccak_x4_read_block(&k, out);

        int finished = 0;
        for (unsigned j = 0; j < 4; j++) {
            lane *l = &ln[j];
            if (l->kind == LANE_A) {
                if (++l->nblk < LANE_A_BLOCKS) {
                    out[j] += QUILL_SHAKE128_RATE;
                    continue;
                }
                /* 168 = 3 * 56: blocks hold whole candidates; from the
                 * sixth block on, one block at a time into buf. */
                if (l->nblk == LANE_A_BLOCKS) {
                    /* Whole chunks without a rejection straight into
                     * A-hat (sample.h), the parser from there. */
                    l->first = quill_mldsa_rej_ntt_chunks(&key->a_hat[l->job], l->buf,
                                                          sizeof(l->buf));
                    const size_t used = QUILL_MLDSA_REJ_CHUNK_BYTES * l->first;
                    l->n = l->first == QUILL_MLDSA_N / 64
                               ? QUILL_MLDSA_N
                               : parse(l->c, 64 * l->first, l->buf + used, sizeof(l->buf) - used);
                } else {
                    l->n = parse(l->c, l->n, l->buf, QUILL_SHAKE128_RATE);
                }
                out[j] = l->buf;
                if (l->n == QUILL_MLDSA_N) {
                    quill_mldsa_rej_ntt_order(&key->a_hat[l->job], l->c, l->first);
                    rows_full[l->job / p->l]++;
                    l->kind = LANE_IDLE;
                    out[j] = idle;
                    nsamp--;
                    finished = 1;
                }
            } else if (l->kind == LANE_S) {
                /* RejBoundedPoly one SHAKE256 block at a time, into s1 or
                 * s2 directly; the count is public (sample.h). */
                const unsigned r = l->job;
                quill_mldsa_poly *sp = r < p->l ? &s1_hat[r] : &s2[r - p->l];
                l->n = parse_eta(sp->c, l->n, sbuf[j], QUILL_SHAKE256_RATE, p->eta);
                if (l->n == QUILL_MLDSA_N) {
                    /* skEncode's s1 or s2 part, then NTT(s1) in place, not
                     * reduced, with Shoup's products (|NTT(s1)_i| < 4 +
                     * 16q < 17q, what dot_mont takes: ntt.h; only ever
                     * multiplied by A-hat and reduced, so t is the same). */
                    quill_mldsa_poly_pack_eta(key->priv + 128 + r * eta_bytes, sp, p);
                    if (r < p->l) {
                        quill_mldsa_ntt_lazy_from(sp->c, sp->c);
                        s1_left--;
                    } else {
                        s2_done[r - p->l] = 1;
                    }
                    l->kind = LANE_IDLE;
                    out[j] = idle;
                    nsamp--;
                    finished = 1;
                }
            }
        }
        /* Rows of t in order, each as soon as its row of A-hat, all of
         * NTT(s1) and its s2 are complete, or, where it pairs with the
         * next (row_pairs_next), as soon as both are. */
        while (finished && rows < p->k && rows_full[rows] == p->l && s1_left == 0 &&
               s2_done[rows]) {
            unsigned n = 1;
            if (row_pairs_next(rows, p->k)) {
                if (rows_full[rows + 1] != p->l || !s2_done[rows + 1])
                    break;
                n = 2;
            }
            rows_done(key, rows, n, s1_hat, s2, t);
            rows += n;
            pk_len += n * QUILL_MLDSA_T1_BYTES;
        }
    }
    assert(rows == p->k && pk_len == p->pub_bytes);

    /* The rest of pk (less than one row and a block) and the padding. */
    quill_keccak_absorb(&h, key->pub + absorbed, pk_len - absorbed);
    quill_keccak_squeeze(&h, key->tr, QUILL_MLDSA_TR_BYTES);
    /* h, the lanes' buffers and, without ExpandS, k saw only public data
     * (rho, A-hat, pk): not wiped.  t[0] and t[1] held rows of A-hat o
     * NTT(s1) and t0 (secret): keygen.c relies on this wipe and does not
     * repeat it (both wiped: t[1] is unused only for k = 4, which never
     * pairs rows, row_pairs_next); t[2] held only rows of t1 (public,
     * declassified in row_finish). */
    quill_zeroize(t, 2 * sizeof(t[0]));
    if (with_s) {
        quill_keccak_x4_zeroize(&k);
        quill_zeroize(sbuf, sizeof(sbuf));
        quill_zeroize(idle, sizeof(idle));
        quill_zeroize(s_tmpl, sizeof(s_tmpl));
    }
}
