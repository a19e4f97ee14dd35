// SPDX-License-Identifier: Apache-2.0
// Copyright quill authors.
//
// The @noble/post-quantum side of the ML-DSA cross-check (run_noble.sh).
//   node noble_check.mjs NOBLE_DIR CASES.json NOBLE.json
// NOBLE_DIR is where `npm ci` installed the pinned package (package.json
// beside this script).  For every case quill wrote (mldsa_noble gen), noble:
//   - derives the key pair from the seed: pk and sk equal quill's, byte for byte;
//   - signs the message with the context deterministically (extraEntropy
//     false): equal to quill's "sig";
//   - signs the message as a raw M' with the internal interface: equal to
//     quill's "sig_raw" (message-encoding 0);
//   - computes mu = SHAKE256(SHAKE256(pk, 64) || M', 64) with its own SHAKE
//     and signs it with externalMu: equal to quill's "sig_mu";
//   - verifies quill's deterministic and hedged signatures (accepted) and
//     the hedged one with a byte changed (rejected).
// It then writes NOBLE.json: a hedged noble signature per case (random
// extraEntropy) for quill to verify (mldsa_noble check).
// Prints "N passed, M failed" and exits 1 on any failure.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [nobleDir, casesPath, outPath] = process.argv.slice(2);
if (!nobleDir || !casesPath || !outPath) {
  console.error('usage: node noble_check.mjs NOBLE_DIR CASES.json NOBLE.json');
  process.exit(2);
}
const pkgDir = join(nobleDir, 'node_modules', '@noble');
const dsa = await import(pathToFileURL(join(pkgDir, 'post-quantum', 'ml-dsa.js')).href);
const sha3 = await import(pathToFileURL(join(pkgDir, 'hashes', 'sha3.js')).href);
const version = JSON.parse(readFileSync(join(pkgDir, 'post-quantum', 'package.json'))).version;
const sets = { 'ML-DSA-44': dsa.ml_dsa44, 'ML-DSA-65': dsa.ml_dsa65, 'ML-DSA-87': dsa.ml_dsa87 };

const hex = (s) => Uint8Array.from(Buffer.from(s, 'hex'));
const toHex = (b) => Buffer.from(b).toString('hex');
const same = (a, b) => a.length === b.length && Buffer.compare(Buffer.from(a), Buffer.from(b)) === 0;

let passed = 0;
let failed = 0;
function check(cond, what) {
  if (cond) passed++;
  else {
    failed++;
    console.error(`FAIL: ${what}`);
  }
}

const cases = JSON.parse(readFileSync(casesPath)).cases;
const out = [];
const perSet = {};
for (const [i, c] of cases.entries()) {
  const alg = sets[c.set];
  const tag = `${c.set} case ${i}`;
  check(alg !== undefined, `${tag}: unknown set`);
  if (alg === undefined) continue;
  perSet[c.set] = (perSet[c.set] || 0) + 1;
  const msg = hex(c.msg);
  const ctx = hex(c.ctx);
  const { publicKey, secretKey } = alg.keygen(hex(c.seed));
  check(toHex(publicKey) === c.pk, `${tag}: public key differs`);
  check(toHex(secretKey) === c.sk, `${tag}: expanded private key differs`);

  const sig = alg.sign(msg, secretKey, { context: ctx, extraEntropy: false });
  check(toHex(sig) === c.sig, `${tag}: deterministic signature differs`);
  const raw = alg.internal.sign(msg, secretKey, { extraEntropy: false });
  check(toHex(raw) === c.sig_raw, `${tag}: raw M' signature differs`);
  // M' = 0 || len(ctx) || ctx || msg (FIPS 204 Algorithm 2), tr = H(pk, 64).
  const mPrime = new Uint8Array(2 + ctx.length + msg.length);
  mPrime.set([0, ctx.length], 0);
  mPrime.set(ctx, 2);
  mPrime.set(msg, 2 + ctx.length);
  const tr = sha3.shake256(publicKey, { dkLen: 64 });
  const mu = sha3.shake256.create({ dkLen: 64 }).update(tr).update(mPrime).digest();
  const muSig = alg.internal.sign(mu, secretKey, { externalMu: true, extraEntropy: false });
  check(toHex(muSig) === c.sig_mu, `${tag}: external-mu signature differs`);
  check(same(muSig, sig), `${tag}: noble's mu and pure signatures differ`);

  const pk = hex(c.pk);
  check(alg.verify(hex(c.sig), msg, pk, { context: ctx }), `${tag}: quill signature rejected`);
  const hedged = hex(c.sig_hedged);
  check(alg.verify(hedged, msg, pk, { context: ctx }), `${tag}: quill hedged signature rejected`);
  hedged[7] ^= 0x01;
  check(!alg.verify(hedged, msg, pk, { context: ctx }), `${tag}: altered quill signature accepted`);

  const nobleSig = alg.sign(msg, secretKey, { context: ctx }); // hedged: fresh randomness
  check(!same(nobleSig, sig), `${tag}: noble's hedged signature equals the deterministic one`);
  out.push({ set: c.set, pk: c.pk, msg: c.msg, ctx: c.ctx, sig: toHex(nobleSig) });
}
check(cases.length > 0, 'no cases');
writeFileSync(outPath, JSON.stringify({ cases: out }));
const counts = Object.entries(perSet).map(([k, v]) => `${k} ${v}`).join(', ');
console.log(`noble_check: @noble/post-quantum ${version}, ${cases.length} cases (${counts})`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
