// SPDX-License-Identifier: Apache-2.0
// Copyright quill authors.
//
// lib.mjs: what the node suite's scripts (test/node/node_*.mjs) and the node
// benchmark share.  They run under the pinned Node.js 24 that run_node.sh
// installs, with its environment:
//   QUILL_NODE       the pinned node (OpenSSL 3.5 inside)
//   QUILL_NODE_CNF   openssl.cnf.example with quill.so's path and
//                    nodejs_conf = openssl_init
//   QUILL_BUILD_DIR  quill.so, quill-info
//   QUILL_SOURCE_DIR openssl.cnf.example (for the openssl CLI)
// A script is a driver: it starts itself (or a peer script) as child
// processes "with quill" (node --openssl-config=QUILL_NODE_CNF, QUILL_STATS
// naming a statistics directory of the child's own) or "plain" (the same
// node without any OpenSSL configuration: OpenSSL 3.5's default provider),
// and checks what they report.  quill's counters are read with quill-info
// --stats (live, while the process runs; provider/stats_dir.h).

import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const NODE = process.env.QUILL_NODE || process.execPath;
export const CNF = process.env.QUILL_NODE_CNF || '';
export const BUILD = process.env.QUILL_BUILD_DIR || '';
export const SRC = process.env.QUILL_SOURCE_DIR || '';
// ML-DSA key generation (crypto.generateKeyPairSync, subtle.generateKey)
// with openssl.cnf.example runs on quill (counted as mldsa-keygen): quill's
// ML-DSA key managers carry quill.sig=yes, so ?quill.sig=yes picks them over
// OpenSSL 3.5's default provider's (issue 21).  node_sign, node_interop,
// node_routing and bench/node_speed.mjs follow this flag.
export const MLDSA_KEYGEN_ON_QUILL = true;

export const COUNTERS = ['rsa-sign', 'rsa-verify', 'rsa-keygen', 'ecdsa-sign', 'ecdsa-verify',
  'ec-keygen', 'mldsa-keygen', 'mldsa-sign', 'mldsa-verify'];

// canon(v): JSON text with every object's keys sorted.
export function canon(v) {
  return JSON.stringify(v, (k, x) => (x && typeof x === 'object' && !Array.isArray(x) && !Buffer.isBuffer(x)
    ? Object.fromEntries(Object.keys(x).sort().map((n) => [n, x[n]])) : x));
}

// A pass/fail tally; every check prints one line.
export class Checks {
  constructor(name) { this.name = name; this.passed = 0; this.failed = 0; }
  ok(desc) { this.passed++; console.log(`ok: ${desc}`); }
  bad(desc) { this.failed++; console.log(`FAIL: ${desc}`); }
  check(desc, cond, detail = '') { if (cond) this.ok(desc); else this.bad(detail ? `${desc}: ${detail}` : desc); return !!cond; }
  // eq: equal as JSON, objects' keys in any order.
  eq(desc, expected, actual) {
    const e = canon(expected), a = canon(actual);
    return this.check(`${desc} = ${a}`, e === a, `expected ${e}`);
  }
  // finish: the verdict as the exit status.
  finish() {
    console.log(`${this.name}: ${this.passed} passed, ${this.failed} failed`);
    process.exitCode = this.failed === 0 && this.passed > 0 ? 0 : 1;
  }
}

// tmp(name): a fresh directory removed at exit.
export function tmp(name) {
  const d = fs.mkdtempSync(path.join(process.env.TMPDIR || os.tmpdir(), `quill-${name}.`));
  process.on('exit', () => fs.rmSync(d, { recursive: true, force: true }));
  return d;
}

// counters(dir): quill's counters summed over the statistics files in dir
// (every counter 0 when there is none), {files, live} besides.
export function counters(dir) {
  // quill-info loads quill.so itself: not with QUILL_STATS, or it would
  // count as a process of its own there
  const env = { ...process.env };
  delete env.QUILL_STATS;
  const r = spawnSync(path.join(BUILD, 'quill-info'), ['--stats', dir], { encoding: 'utf8', env });
  const c = { files: 0 };
  for (const k of COUNTERS) c[k] = 0;
  if (r.status === 2) return c;
  if (r.status !== 0) throw new Error(`quill-info --stats ${dir}: ${r.stderr.trim()}`);
  const head = /: (\d+) process/.exec(r.stdout);
  c.files = head ? Number(head[1]) : NaN;
  const total = r.stdout.split('\n').find((l) => l.startsWith('total'));
  if (!total) throw new Error(`quill-info --stats ${dir}: no total line`);
  for (const k of COUNTERS) {
    const m = new RegExp(` ${k}=(\\d+)`).exec(total);
    if (!m) throw new Error(`quill-info --stats ${dir}: no ${k}`);
    c[k] = Number(m[1]);
  }
  return c;
}

// zeros(): every counter 0.
export function zeros() {
  return Object.fromEntries(COUNTERS.map((k) => [k, 0]));
}

// diff(a, b): the counters that changed from a to b, as {name: delta}.
export function diff(a, b) {
  const d = {};
  for (const k of COUNTERS) if (b[k] !== a[k]) d[k] = b[k] - a[k];
  return d;
}

// childEnv(quill, stats): a child's environment.  With quill: QUILL_STATS
// names its statistics directory.  Plain: no OpenSSL configuration at all,
// QUILL_STATS still set (a quill loaded by mistake would leave a file).
export function childEnv(quill, stats) {
  const env = { ...process.env };
  delete env.OPENSSL_CONF;
  delete env.OPENSSL_MODULES;
  delete env.QUILL_STATS;
  delete env.NODE_OPTIONS;
  if (stats) env.QUILL_STATS = stats;
  env.NODE_NO_WARNINGS = '1'; // the experimental ML-DSA Web Crypto warning
  if (!quill) env.QUILL_NODE_PLAIN = '1';
  return env;
}

// nodeArgs(quill, script, args, cnf): node's command line; cnf, if given,
// is a configuration for a plain child (the default provider alone, with
// its own settings such as ml-dsa.retain_seed).
export function nodeArgs(quill, script, args = [], cnf = '') {
  const c = quill ? CNF : cnf;
  return [...(c ? [`--openssl-config=${c}`] : []), script, ...args];
}

// runNode({quill, stats, script, args, input, timeout, cnf}): runs a child to the
// end; returns spawnSync's result (status, signal, stdout, stderr).
export function runNode({ quill, stats, script, args = [], input, timeout = 120000, cnf = '' }) {
  if (stats) fs.mkdirSync(stats, { recursive: true });
  return spawnSync(NODE, nodeArgs(quill, script, args, cnf), {
    env: childEnv(quill, stats), input, timeout, encoding: 'utf8', maxBuffer: 64 << 20,
  });
}

// startNode(...): the same, started in the background (a ChildProcess).
export function startNode({ quill, stats, script, args = [] }) {
  if (stats) fs.mkdirSync(stats, { recursive: true });
  return spawn(NODE, nodeArgs(quill, script, args), {
    env: childEnv(quill, stats), stdio: ['pipe', 'pipe', 'pipe'],
  });
}

// isQuill(): whether this process was started with quill's configuration.
export function isQuill() {
  return process.execArgv.some((a) => a.startsWith('--openssl-config='));
}

// openssl(args, {quill}): the system's openssl CLI (OpenSSL 3.0 on Debian
// 12), with quill activated through openssl.cnf.example (extra config
// lines appended, e.g. ml-dsa.output_formats) or with its default
// provider only.  Throws on failure; returns stdout.
export function openssl(args, { quill = true, dir, cnfExtra = '' } = {}) {
  const env = { ...process.env };
  delete env.QUILL_STATS;
  if (quill) {
    let cnf = path.join(SRC, 'openssl.cnf.example');
    if (cnfExtra) {
      cnf = path.join(dir, `openssl-${Math.random().toString(36).slice(2)}.cnf`);
      const text = fs.readFileSync(path.join(SRC, 'openssl.cnf.example'), 'utf8')
        .replace(/^\[quill_sect\]$/m, `[quill_sect]\n${cnfExtra}`);
      fs.writeFileSync(cnf, text);
    }
    env.OPENSSL_CONF = cnf;
    env.OPENSSL_MODULES = BUILD;
  } else {
    env.OPENSSL_CONF = '/dev/null';
    delete env.OPENSSL_MODULES;
  }
  const r = spawnSync('openssl', args, { env, cwd: dir, encoding: 'utf8', timeout: 60000 });
  if (r.status !== 0) throw new Error(`openssl ${args.join(' ')}: ${r.status} ${r.stderr}`);
  return r.stdout;
}

// hasOpenssl(): whether an openssl CLI is on PATH.
export function hasOpenssl() {
  return spawnSync('openssl', ['version'], { encoding: 'utf8' }).status === 0;
}

// skip(why): one line, exit 77.
export function skip(why) {
  console.log(`SKIPPED: ${why}`);
  process.exit(77);
}

// needHost(): the environment run_node.sh gives; skip without it.
export function needHost() {
  if (!CNF || !BUILD || !SRC) skip('not started by test/node/run_node.sh (QUILL_NODE_CNF, QUILL_BUILD_DIR, QUILL_SOURCE_DIR)');
}
