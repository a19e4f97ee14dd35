// SPDX-License-Identifier: Apache-2.0
// Copyright quill authors.
//
// node_speed: Node.js 24 (OpenSSL 3.5 inside) with and without quill.
//   sh test/node/run_node.sh test/node build/node bench/node_speed.mjs \
//       [--rounds N] [--seconds S] [--json] [--check-served] [FILTER...]
// (run_node.sh installs the pinned node into build/node and gives this
// script its environment: QUILL_NODE, QUILL_NODE_CNF, QUILL_BUILD_DIR.)
// Two worker processes of the same node run the same operations on the
// same keys: "quill" (node --openssl-config with quill, as a user would
// set it up) and "default" (no configuration: OpenSSL 3.5's default
// provider).  Each operation runs N rounds (default 5) of S seconds
// (default 0.5) in each worker, the workers taking turns (the one that
// goes first alternates per round); the table gives each side's median
// ops/s and their ratio.  Operations (64-byte message, one-shot
// crypto.sign/verify, SHA-256 for RSA PKCS#1 v1.5 and ECDSA):
// mldsa65-keygen, mldsa65-sign, mldsa65-verify, rsa2048-sign,
// rsa2048-verify, p256-sign, p256-verify.  FILTERs are substrings an
// operation's name must contain.  The "served" column says which provider
// did the work in the quill worker, from quill's counters (a statistics
// directory of its own): "quill" when quill counted every operation of the
// quill worker's rounds, "default" when it counted none (ML-DSA key
// generation today: openssl.cnf.example prefers quill for signatures
// only), "mixed" otherwise.  The default worker must count nothing.  Exit
// status 1 if a worker fails or the default worker counts anything, and
// with --check-served (the CTest smoke test, node_speed_smoke) also if an
// operation is not served where expected: every signature and
// verification by quill, ML-DSA key generation by quill too
// (MLDSA_KEYGEN_ON_QUILL in test/node/lib.mjs).

import crypto from 'node:crypto';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { MLDSA_KEYGEN_ON_QUILL, counters, diff, isQuill, needHost, startNode, tmp } from '../test/node/lib.mjs';

const self = fileURLToPath(import.meta.url);
// ML-DSA key generation: on quill under openssl.cnf.example (lib.mjs).
const MLDSA_KEYGEN_SERVED = MLDSA_KEYGEN_ON_QUILL ? 'quill' : 'default';
const OPS = ['mldsa65-keygen', 'mldsa65-sign', 'mldsa65-verify', 'rsa2048-sign', 'rsa2048-verify', 'p256-sign', 'p256-verify'];
const COUNTER = { 'mldsa65-keygen': 'mldsa-keygen', 'mldsa65-sign': 'mldsa-sign', 'mldsa65-verify': 'mldsa-verify',
  'rsa2048-sign': 'rsa-sign', 'rsa2048-verify': 'rsa-verify', 'p256-sign': 'ecdsa-sign', 'p256-verify': 'ecdsa-verify' };

// ---- worker: one JSON request per line on stdin, one answer per line ----

function worker() {
  let fns = null;
  const stats = process.env.QUILL_STATS;
  const rl = readline.createInterface({ input: process.stdin });
  rl.on('line', (line) => {
    const req = JSON.parse(line);
    if (req.keys) {
      const msg = Buffer.from(req.msg, 'base64');
      const k = Object.fromEntries(Object.entries(req.keys).map(([n, pem]) => [n, crypto.createPrivateKey(pem)]));
      const p = Object.fromEntries(Object.entries(k).map(([n, key]) => [n, crypto.createPublicKey(key)]));
      const ms = crypto.sign(null, msg, k.mldsa), rs = crypto.sign('sha256', msg, k.rsa), es = crypto.sign('sha256', msg, k.ec);
      fns = {
        'mldsa65-keygen': () => crypto.generateKeyPairSync('ml-dsa-65'),
        'mldsa65-sign': () => crypto.sign(null, msg, k.mldsa),
        'mldsa65-verify': () => { if (!crypto.verify(null, msg, p.mldsa, ms)) throw new Error('ML-DSA verify failed'); },
        'rsa2048-sign': () => crypto.sign('sha256', msg, k.rsa),
        'rsa2048-verify': () => { if (!crypto.verify('sha256', msg, p.rsa, rs)) throw new Error('RSA verify failed'); },
        'p256-sign': () => crypto.sign('sha256', msg, k.ec),
        'p256-verify': () => { if (!crypto.verify('sha256', msg, p.ec, es)) throw new Error('ECDSA verify failed'); },
      };
      process.stdout.write(`${JSON.stringify({ ready: true, quill: isQuill() })}\n`);
      return;
    }
    const fn = fns[req.op];
    const before = counters(stats);
    const limit = BigInt(Math.round(req.seconds * 1e9));
    const t0 = process.hrtime.bigint();
    let n = 0, t;
    do {
      fn();
      n++;
      t = process.hrtime.bigint() - t0;
    } while (t < limit);
    const d = diff(before, counters(stats));
    process.stdout.write(`${JSON.stringify({ n, ns: Number(t), counted: d[COUNTER[req.op]] || 0, other: d })}\n`);
  });
}

// ---- driver ----

function start(quill, dir) {
  const w = startNode({ quill, stats: path.join(dir, quill ? 'quill' : 'default'), script: self, args: ['worker'] });
  const lines = readline.createInterface({ input: w.stdout });
  const waiting = [];
  lines.on('line', (l) => waiting.shift()?.resolve(JSON.parse(l)));
  let err = '';
  w.stderr.on('data', (d) => { err += d; });
  w.on('exit', (c) => { for (const p of waiting.splice(0)) p.reject(new Error(`worker exited (${c}): ${err}`)); });
  return {
    ask(req) {
      return new Promise((resolve, reject) => { waiting.push({ resolve, reject }); w.stdin.write(`${JSON.stringify(req)}\n`); });
    },
    stop() { w.stdin.end(); },
  };
}

const median = (a) => { const s = [...a].sort((x, y) => x - y); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };

async function driver(argv) {
  needHost();
  let rounds = 5, seconds = 0.5, json = false, checkServed = false;
  const filters = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--rounds') rounds = Number(argv[++i]);
    else if (argv[i] === '--seconds') seconds = Number(argv[++i]);
    else if (argv[i] === '--json') json = true;
    else if (argv[i] === '--check-served') checkServed = true;
    else filters.push(argv[i]);
  }
  if (!(rounds >= 1) || !(seconds > 0)) throw new Error('--rounds N (>= 1) --seconds S (> 0)');
  const ops = OPS.filter((o) => filters.every((f) => o.includes(f)));
  const dir = tmp('node_speed');
  const keys = {
    mldsa: crypto.generateKeyPairSync('ml-dsa-65').privateKey.export({ format: 'pem', type: 'pkcs8' }),
    rsa: crypto.generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'pem', type: 'pkcs8' }),
    ec: crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'pem', type: 'pkcs8' }),
  };
  const msg = crypto.randomBytes(64).toString('base64');
  const side = { quill: start(true, dir), default: start(false, dir) };
  try {
    for (const s of Object.values(side)) await s.ask({ keys, msg });
    const res = Object.fromEntries(ops.map((o) => [o, { quill: [], default: [], counted: 0, ran: 0, defaultCounted: 0 }]));
    for (let r = 0; r < rounds; r++) {
      for (const op of ops) {
        const order = (r % 2) ? ['default', 'quill'] : ['quill', 'default'];
        for (const name of order) {
          const a = await side[name].ask({ op, seconds });
          res[op][name].push(a.n / (a.ns / 1e9));
          if (name === 'quill') { res[op].counted += a.counted; res[op].ran += a.n; }
          else res[op].defaultCounted += Object.values(a.other).reduce((x, y) => x + y, 0);
        }
      }
    }
    const rows = ops.map((op) => {
      const x = res[op], q = median(x.quill), d = median(x.default);
      const served = x.counted === x.ran ? 'quill' : x.counted === 0 ? 'default' : 'mixed';
      return { op, default: d, quill: q, ratio: q / d, served, defaultCounted: x.defaultCounted };
    });
    const fmt = (v) => v >= 100 ? v.toFixed(0) : v.toFixed(1);
    const out = json ? console.error : console.log;
    out(`node ${process.version}, OpenSSL ${process.versions.openssl}; ${rounds} rounds of ${seconds} s per side, medians`);
    out(`${'operation'.padEnd(16)}${'default ops/s'.padStart(14)}${'quill ops/s'.padStart(14)}${'ratio'.padStart(9)}  served`);
    for (const w of rows)
      out(`${w.op.padEnd(16)}${fmt(w.default).padStart(14)}${fmt(w.quill).padStart(14)}${`${w.ratio.toFixed(2)}x`.padStart(9)}  ${w.served}`);
    if (json) console.log(JSON.stringify({ node: process.version, openssl: process.versions.openssl, rounds, seconds, rows }, null, 1));
    if (checkServed) {
      for (const w of rows) {
        const want = w.op === 'mldsa65-keygen' ? MLDSA_KEYGEN_SERVED : 'quill';
        if (w.served !== want) {
          console.log(`FAIL: ${w.op} served by ${w.served} in the quill worker, expected ${want}`);
          process.exitCode = 1;
        }
      }
    }
    const leaked = rows.filter((w) => w.defaultCounted !== 0);
    if (leaked.length) {
      console.log(`FAIL: quill counted operations in the default worker: ${leaked.map((w) => w.op).join(', ')}`);
      process.exitCode = 1;
    }
  } finally {
    for (const s of Object.values(side)) s.stop();
  }
}

if (process.argv[2] === 'worker') worker();
else await driver(process.argv.slice(2));
