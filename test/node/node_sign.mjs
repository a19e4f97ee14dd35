// SPDX-License-Identifier: Apache-2.0
// Copyright quill authors.
//
// node_sign: signatures through node's crypto API on OpenSSL 3.5, with and
// without quill.  The driver runs this script twice as a child: with quill
// (node --openssl-config, a statistics directory of its own) and plain (no
// configuration: OpenSSL 3.5's default provider).  Each child makes its keys
// and runs every operation below, and after each one reads quill's live
// counters: with quill each signature and each successful verification must
// be counted once, as the operation it is (rsa-sign, ecdsa-verify,
// mldsa-sign, ...); plain, nothing may be counted and no statistics file
// may appear.  Results are checked the same way on both sides (a signature
// verifies, a changed message or context does not, encodings and lengths).
//   RSA-2048: PKCS#1 v1.5 and PSS (salt 32, digest length, node's default
//             = maximum, checked by verifying with the explicit length),
//             crypto.sign/verify (also asynchronous), createSign/createVerify,
//             webcrypto RSASSA-PKCS1-v1_5 and RSA-PSS;
//   P-256:    ECDSA in DER and ieee-p1363, crypto.sign/verify,
//             createSign/createVerify, webcrypto ECDSA;
//   ML-DSA-44/65/87: crypto.sign/verify (also asynchronous) with and without
//             a context string (node 24 takes `context` for ML-DSA),
//             webcrypto with and without `context`; createSign refuses ML-DSA
//             in node (ERR_CRYPTO_UNSUPPORTED_OPERATION) on both sides, which
//             is checked too.
// The driver also checks the other way to load quill into node: the
// unchanged openssl.cnf.example with --openssl-shared-config.
// Key generation (crypto.generateKeyPairSync and subtle.generateKey) is
// checked to run where openssl.cnf.example puts it: RSA and EC on the
// default provider (the config prefers quill for signatures only; RSA and
// EC keys also serve decryption and ECDH), ML-DSA on quill, whose ML-DSA
// key managers carry quill.sig=yes (MLDSA_KEYGEN_ON_QUILL in lib.mjs).

import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUILD, Checks, MLDSA_KEYGEN_ON_QUILL, NODE, SRC, childEnv, counters, diff, isQuill, needHost, runNode, tmp } from './lib.mjs';

const self = fileURLToPath(import.meta.url);

async function child() {
  const quill = isQuill();
  const stats = process.env.QUILL_STATS;
  const t = new Checks(`node_sign (${quill ? 'quill' : 'plain'})`);
  const C = crypto.constants;
  const { subtle } = crypto.webcrypto;
  const msg = crypto.randomBytes(1000);
  const other = Buffer.concat([msg, Buffer.from([0])]);

  // op(desc, expected, fn): runs fn (sync or async), checks its result is
  // truthy and that the counters moved by `expected` (with quill) or not at
  // all (plain).
  async function op(desc, expected, fn) {
    const before = counters(stats);
    let r;
    try {
      r = await fn();
    } catch (e) {
      t.bad(`${desc}: threw ${e.code || ''} ${e.message}`);
      return undefined;
    }
    const d = diff(before, counters(stats));
    const want = quill ? expected : {};
    t.check(`${desc}: result`, r !== false && r !== undefined && r !== null);
    t.eq(`${desc}: quill counted`, want, d);
    return r;
  }
  const sigLen = (n) => (s) => s.length === n ? s : false;

  // ---- RSA-2048 ----
  const rsa = await op('RSA-2048 generateKeyPairSync (default provider)', {},
    () => crypto.generateKeyPairSync('rsa', { modulusLength: 2048 }));
  const rpriv = rsa.privateKey, rpub = rsa.publicKey;
  let s = await op('RSA PKCS#1 v1.5 crypto.sign sha256', { 'rsa-sign': 1 },
    () => sigLen(256)(crypto.sign('sha256', msg, rpriv)));
  await op('RSA PKCS#1 v1.5 crypto.verify', { 'rsa-verify': 1 }, () => crypto.verify('sha256', msg, rpub, s));
  await op('RSA PKCS#1 v1.5 crypto.verify, other message: false', {},
    () => crypto.verify('sha256', other, rpub, s) === false);
  await op('RSA PKCS#1 v1.5 sha384 sign+verify', { 'rsa-sign': 1, 'rsa-verify': 1 },
    () => crypto.verify('sha384', msg, rpub, crypto.sign('sha384', msg, rpriv)));
  s = await op('RSA PKCS#1 v1.5 createSign RSA-SHA256', { 'rsa-sign': 1 },
    () => crypto.createSign('RSA-SHA256').update(msg.subarray(0, 300)).update(msg.subarray(300)).sign(rpriv));
  await op('RSA PKCS#1 v1.5 createVerify', { 'rsa-verify': 1 },
    () => crypto.createVerify('RSA-SHA256').update(msg).verify(rpub, s));
  s = await op('RSA PKCS#1 v1.5 crypto.sign async', { 'rsa-sign': 1 },
    () => new Promise((res, rej) => crypto.sign('sha256', msg, rpriv, (e, x) => (e ? rej(e) : res(x)))));
  await op('RSA PKCS#1 v1.5 crypto.verify async', { 'rsa-verify': 1 },
    () => new Promise((res, rej) => crypto.verify('sha256', msg, rpub, s, (e, x) => (e ? rej(e) : res(x)))));
  const pss = (saltLength) => ({ key: rpriv, padding: C.RSA_PKCS1_PSS_PADDING, ...(saltLength === undefined ? {} : { saltLength }) });
  const pssv = (saltLength) => ({ key: rpub, padding: C.RSA_PKCS1_PSS_PADDING, ...(saltLength === undefined ? {} : { saltLength }) });
  s = await op('RSA-PSS crypto.sign salt 32', { 'rsa-sign': 1 }, () => sigLen(256)(crypto.sign('sha256', msg, pss(32))));
  await op('RSA-PSS crypto.verify salt 32', { 'rsa-verify': 1 }, () => crypto.verify('sha256', msg, pssv(32), s));
  await op('RSA-PSS crypto.verify salt 20 of a salt-32 signature: false', {},
    () => crypto.verify('sha256', msg, pssv(20), s) === false);
  s = await op('RSA-PSS crypto.sign salt = digest length', { 'rsa-sign': 1 },
    () => crypto.sign('sha256', msg, pss(C.RSA_PSS_SALTLEN_DIGEST)));
  await op('RSA-PSS verify it with salt 32', { 'rsa-verify': 1 }, () => crypto.verify('sha256', msg, pssv(32), s));
  s = await op('RSA-PSS crypto.sign node\'s default salt', { 'rsa-sign': 1 }, () => crypto.sign('sha256', msg, pss()));
  await op('RSA-PSS node\'s default salt is the maximum (222): verify with 222', { 'rsa-verify': 1 },
    () => crypto.verify('sha256', msg, pssv(256 - 32 - 2), s));
  await op('RSA-PSS verify with node\'s default (auto)', { 'rsa-verify': 1 }, () => crypto.verify('sha256', msg, pssv(), s));
  s = await op('RSA-PSS createSign', { 'rsa-sign': 1 },
    () => crypto.createSign('SHA256').update(msg).sign(pss(32)));
  await op('RSA-PSS createVerify', { 'rsa-verify': 1 },
    () => crypto.createVerify('SHA256').update(msg).verify(pssv(32), s));

  // ---- ECDSA P-256 ----
  const ec = await op('P-256 generateKeyPairSync (default provider)', {},
    () => crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' }));
  const epriv = ec.privateKey, epub = ec.publicKey;
  s = await op('ECDSA P-256 crypto.sign DER', { 'ecdsa-sign': 1 },
    () => { const x = crypto.sign('sha256', msg, epriv); return x[0] === 0x30 && x.length <= 72 ? x : false; });
  await op('ECDSA P-256 crypto.verify DER', { 'ecdsa-verify': 1 }, () => crypto.verify('sha256', msg, epub, s));
  await op('ECDSA P-256 crypto.verify DER, other message: false', {},
    () => crypto.verify('sha256', other, epub, s) === false);
  s = await op('ECDSA P-256 crypto.sign ieee-p1363', { 'ecdsa-sign': 1 },
    () => sigLen(64)(crypto.sign('sha256', msg, { key: epriv, dsaEncoding: 'ieee-p1363' })));
  await op('ECDSA P-256 crypto.verify ieee-p1363', { 'ecdsa-verify': 1 },
    () => crypto.verify('sha256', msg, { key: epub, dsaEncoding: 'ieee-p1363' }, s));
  await op('ECDSA P-256 a p1363 signature read as DER: false', {},
    () => crypto.verify('sha256', msg, epub, s) === false);
  s = await op('ECDSA P-256 createSign', { 'ecdsa-sign': 1 },
    () => crypto.createSign('SHA256').update(msg).sign(epriv));
  await op('ECDSA P-256 createVerify', { 'ecdsa-verify': 1 }, () => crypto.createVerify('SHA256').update(msg).verify(epub, s));
  s = await op('ECDSA P-256 createSign ieee-p1363', { 'ecdsa-sign': 1 },
    () => sigLen(64)(crypto.createSign('SHA384').update(msg).sign({ key: epriv, dsaEncoding: 'ieee-p1363' })));
  await op('ECDSA P-256 createVerify ieee-p1363', { 'ecdsa-verify': 1 },
    () => crypto.createVerify('SHA384').update(msg).verify({ key: epub, dsaEncoding: 'ieee-p1363' }, s));

  // ---- ML-DSA ----
  const kg = MLDSA_KEYGEN_ON_QUILL ? { 'mldsa-keygen': 1 } : {};
  const sizes = { 'ml-dsa-44': 2420, 'ml-dsa-65': 3309, 'ml-dsa-87': 4627 };
  for (const alg of Object.keys(sizes)) {
    const kp = await op(`${alg} generateKeyPairSync${MLDSA_KEYGEN_ON_QUILL ? '' : ' (stays on the default provider: issue 21)'}`,
      kg, () => crypto.generateKeyPairSync(alg));
    const { privateKey, publicKey } = kp;
    s = await op(`${alg} crypto.sign`, { 'mldsa-sign': 1 }, () => sigLen(sizes[alg])(crypto.sign(null, msg, privateKey)));
    await op(`${alg} crypto.verify`, { 'mldsa-verify': 1 }, () => crypto.verify(null, msg, publicKey, s));
    await op(`${alg} crypto.verify, other message: false`, {}, () => crypto.verify(null, other, publicKey, s) === false);
    const ctx = crypto.randomBytes(255);
    s = await op(`${alg} crypto.sign context (255 bytes)`, { 'mldsa-sign': 1 },
      () => crypto.sign(null, msg, { key: privateKey, context: ctx }));
    await op(`${alg} crypto.verify context`, { 'mldsa-verify': 1 },
      () => crypto.verify(null, msg, { key: publicKey, context: ctx }, s));
    await op(`${alg} crypto.verify without the context: false`, {}, () => crypto.verify(null, msg, publicKey, s) === false);
    await op(`${alg} crypto.sign with a 256-byte context: refused`, {}, () => {
      try { crypto.sign(null, msg, { key: privateKey, context: Buffer.alloc(256) }); return false; } catch { return true; }
    });
    s = await op(`${alg} crypto.sign async`, { 'mldsa-sign': 1 },
      () => new Promise((res, rej) => crypto.sign(null, msg, privateKey, (e, x) => (e ? rej(e) : res(x)))));
    await op(`${alg} crypto.verify async`, { 'mldsa-verify': 1 },
      () => new Promise((res, rej) => crypto.verify(null, msg, publicKey, s, (e, x) => (e ? rej(e) : res(x)))));
    await op(`${alg} createSign: node refuses ML-DSA (ERR_CRYPTO_UNSUPPORTED_OPERATION)`, {}, () => {
      try { crypto.createSign('SHA256').update(msg).sign(privateKey); return false; } catch (e) { return e.code === 'ERR_CRYPTO_UNSUPPORTED_OPERATION'; }
    });
  }

  // ---- webcrypto.subtle ----
  const rsaw = await op('subtle RSASSA-PKCS1-v1_5 generateKey (default provider)', {},
    () => subtle.generateKey({ name: 'RSASSA-PKCS1-v1_5', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' }, true, ['sign', 'verify']));
  s = await op('subtle RSASSA-PKCS1-v1_5 sign', { 'rsa-sign': 1 }, () => subtle.sign('RSASSA-PKCS1-v1_5', rsaw.privateKey, msg));
  await op('subtle RSASSA-PKCS1-v1_5 verify', { 'rsa-verify': 1 }, () => subtle.verify('RSASSA-PKCS1-v1_5', rsaw.publicKey, s, msg));
  const pssw = await op('subtle RSA-PSS generateKey (default provider)', {},
    () => subtle.generateKey({ name: 'RSA-PSS', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' }, true, ['sign', 'verify']));
  s = await op('subtle RSA-PSS sign saltLength 32', { 'rsa-sign': 1 }, () => subtle.sign({ name: 'RSA-PSS', saltLength: 32 }, pssw.privateKey, msg));
  await op('subtle RSA-PSS verify saltLength 32', { 'rsa-verify': 1 }, () => subtle.verify({ name: 'RSA-PSS', saltLength: 32 }, pssw.publicKey, s, msg));
  await op('subtle RSA-PSS verify saltLength 0 of it: false', {},
    async () => (await subtle.verify({ name: 'RSA-PSS', saltLength: 0 }, pssw.publicKey, s, msg)) === false);
  const ecw = await op('subtle ECDSA P-256 generateKey (default provider)', {},
    () => subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify']));
  s = await op('subtle ECDSA P-256 sign', { 'ecdsa-sign': 1 }, async () => {
    const x = await subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, ecw.privateKey, msg); return x.byteLength === 64 ? x : false;
  });
  await op('subtle ECDSA P-256 verify', { 'ecdsa-verify': 1 }, () => subtle.verify({ name: 'ECDSA', hash: 'SHA-256' }, ecw.publicKey, s, msg));
  await op('subtle ECDSA signature checked by crypto.verify ieee-p1363', { 'ecdsa-verify': 1 }, async () =>
    crypto.verify('sha256', msg, { key: crypto.KeyObject.from(ecw.publicKey), dsaEncoding: 'ieee-p1363' }, Buffer.from(s)));
  for (const name of ['ML-DSA-44', 'ML-DSA-65', 'ML-DSA-87']) {
    const kp = await op(`subtle ${name} generateKey${MLDSA_KEYGEN_ON_QUILL ? '' : ' (stays on the default provider: issue 21)'}`,
      kg, () => subtle.generateKey({ name }, true, ['sign', 'verify']));
    s = await op(`subtle ${name} sign`, { 'mldsa-sign': 1 }, () => subtle.sign({ name }, kp.privateKey, msg));
    await op(`subtle ${name} verify`, { 'mldsa-verify': 1 }, () => subtle.verify({ name }, kp.publicKey, s, msg));
    const context = new Uint8Array([1, 2, 3, 4, 5]);
    s = await op(`subtle ${name} sign context`, { 'mldsa-sign': 1 }, () => subtle.sign({ name, context }, kp.privateKey, msg));
    await op(`subtle ${name} verify context`, { 'mldsa-verify': 1 }, () => subtle.verify({ name, context }, kp.publicKey, s, msg));
    await op(`subtle ${name} verify without the context: false`, {},
      async () => (await subtle.verify({ name }, kp.publicKey, s, msg)) === false);
    await op(`subtle ${name} signature checked by crypto.verify with the context`, { 'mldsa-verify': 1 },
      () => crypto.verify(null, msg, { key: crypto.KeyObject.from(kp.publicKey), context }, Buffer.from(s)));
  }

  const end = counters(stats);
  // (every child this process forks, such as quill-info, gets a file of its
  // own in the directory too: README, "Live counters")
  if (quill) t.check(`statistics files present (${end.files})`, end.files >= 1);
  else t.eq('plain: no statistics file (quill not loaded)', 0, end.files);
  t.finish();
}

// openssl.cnf.example itself, unchanged, with OPENSSL_MODULES naming the
// build: node reads the section that nodejs_conf names (the example has
// nodejs_conf = openssl_init), or with --openssl-shared-config the one
// openssl_conf names; quill must serve either way.
function sharedConfig(dir) {
  const script = 'const c = require("node:crypto"); const k = c.generateKeyPairSync("ml-dsa-65");' +
    'process.stdout.write(String(c.verify(null, Buffer.from("m"), k.publicKey, c.sign(null, Buffer.from("m"), k.privateKey))));';
  const run = (flags, stats) => {
    fs.mkdirSync(stats);
    const env = { ...childEnv(true, stats), OPENSSL_MODULES: BUILD };
    const r = spawnSync(NODE, [...flags, `--openssl-config=${path.join(SRC, 'openssl.cnf.example')}`, '-e', script], { env, encoding: 'utf8' });
    return { out: r.stdout, status: r.status, c: counters(stats) };
  };
  let failed = 0;
  const a = run(['--openssl-shared-config'], path.join(dir, 'shared'));
  const ok = a.status === 0 && a.out === 'true' && a.c['mldsa-sign'] === 1 && a.c['mldsa-verify'] === 1;
  console.log(`${ok ? 'ok' : 'FAIL'}: --openssl-shared-config --openssl-config=openssl.cnf.example: quill signed and verified (${a.c['mldsa-sign']}, ${a.c['mldsa-verify']})`);
  if (!ok) failed++;
  const b = run([], path.join(dir, 'unshared'));
  const okb = b.status === 0 && b.out === 'true' && b.c['mldsa-sign'] === 1 && b.c['mldsa-verify'] === 1;
  console.log(`${okb ? 'ok' : 'FAIL'}: --openssl-config=openssl.cnf.example (nodejs_conf): quill signed and verified (${b.c['mldsa-sign']}, ${b.c['mldsa-verify']})`);
  if (!okb) failed++;
  return failed;
}

function driver() {
  needHost();
  const dir = tmp('node_sign');
  let failed = sharedConfig(dir);
  for (const quill of [true, false]) {
    const r = runNode({ quill, stats: path.join(dir, quill ? 'q' : 'p'), script: self, args: ['child'] });
    process.stdout.write(r.stdout);
    if (r.stderr) process.stdout.write(r.stderr.replace(/^/gm, '    stderr: '));
    if (r.status !== 0) {
      failed++;
      console.log(`FAIL: the ${quill ? 'quill' : 'plain'} child exited with ${r.status ?? r.signal}`);
    }
  }
  console.log(failed ? 'node_sign: FAILED' : 'node_sign: both children passed');
  process.exitCode = failed ? 1 : 0;
}

if (process.argv[2] === 'child') await child();
else driver();
