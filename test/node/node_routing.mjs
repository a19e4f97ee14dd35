// SPDX-License-Identifier: Apache-2.0
// Copyright quill authors.
//
// node_routing: where node's other operations land once quill has signed in
// the process, and the defaults node leaves to the provider.  One child
// with quill and one plain (OpenSSL 3.5's default provider) run the same
// steps in the same order; each step's result must be the same on both
// sides (a value, or an error on both), and quill's counters must move
// only as listed:
//   - after an RSA and an ECDSA signature on quill: RSA key generation
//     (2048, 1024, three primes), OAEP and PKCS#1 v1.5 decryption, P-256
//     key generation, ECDH (crypto.diffieHellman, createECDH), P-384 key
//     generation and signatures (the default provider's), X25519 and
//     Ed25519 all work and are not counted: they stay with the default
//     provider;
//   - P-256 and RSA keys imported from PEM (and JWK) after that: ECDH with
//     a peer key and OAEP decryption of a ciphertext, both from the
//     driver, give the same bytes on both sides and are not counted; their
//     PKCS#8, SEC1, PKCS#1, JWK and SPKI exports are equal on both sides;
//   - ML-DSA key generation is counted as mldsa-keygen (on quill:
//     MLDSA_KEYGEN_ON_QUILL in lib.mjs);
//   - ML-DSA keys imported from a raw seed (webcrypto 'raw-seed') and from
//     a JWK give the same public key on both sides (the seed comes from
//     the driver);
//   - RSA-PSS keys: restricted (sha256, salt 32) sign on quill, refuse a
//     smaller salt and another digest on both sides; unrestricted, node
//     sets no salt length, so the provider's default decides: the digest
//     length (32), on quill as on OpenSSL 3.5's default provider ("auto-
//     digestmax", 3.1+; quill follows the core's version);
//   - ML-DSA refuses a digest name on both sides; encrypted PKCS#8
//     export/import of an ML-DSA key works on both.
// Error texts are printed side by side.

import crypto from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Checks, MLDSA_KEYGEN_ON_QUILL, counters, diff, needHost, runNode, tmp } from './lib.mjs';

const self = fileURLToPath(import.meta.url);

async function child(input) {
  const I = JSON.parse(input);
  const stats = process.env.QUILL_STATS;
  const m = Buffer.from('routing');
  const C = crypto.constants;
  const out = [];
  const g = {};
  async function step(name, fn) {
    const before = counters(stats);
    let r;
    try {
      const v = await fn();
      r = { outcome: 'value', value: v };
    } catch (e) {
      r = { outcome: 'error', message: `${e.code || e.name || ''} ${e.message}`.trim() };
    }
    r.d = diff(before, counters(stats));
    out.push({ name, ...r });
  }
  const spkiHash = (k) => crypto.createHash('sha256').update(crypto.createPublicKey(k).export({ type: 'spki', format: 'der' })).digest('hex');
  await step('RSA-2048 key generation', () => { g.rsa = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 }); return 'ok'; });
  await step('RSA-2048 signature', () => crypto.verify('sha256', m, g.rsa.publicKey, crypto.sign('sha256', m, g.rsa.privateKey)));
  await step('RSA-2048 key generation after a quill signature', () => { g.rsa = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 }); return 'ok'; });
  await step('RSA-1024 key generation', () => crypto.generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.asymmetricKeyDetails.modulusLength);
  await step('RSA-2048 three-prime key generation', () => crypto.generateKeyPairSync('rsa', { modulusLength: 2048, primes: 3 }).privateKey.asymmetricKeyType);
  await step('RSA OAEP encryption and decryption', () => crypto.privateDecrypt(g.rsa.privateKey, crypto.publicEncrypt(g.rsa.publicKey, m)).toString());
  await step('RSA PKCS#1 v1.5 encryption and decryption', () => crypto.privateDecrypt({ key: g.rsa.privateKey, padding: C.RSA_PKCS1_PADDING },
    crypto.publicEncrypt({ key: g.rsa.publicKey, padding: C.RSA_PKCS1_PADDING }, m)).toString());
  await step('P-256 key generation', () => { g.ec = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' }); return 'ok'; });
  await step('P-256 ECDSA signature', () => crypto.verify('sha256', m, g.ec.publicKey, crypto.sign('sha256', m, g.ec.privateKey)));
  await step('P-256 key generation after a quill signature', () => { g.ec2 = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' }); return 'ok'; });
  await step('P-256 ECDH (diffieHellman)', () => crypto.diffieHellman({ privateKey: g.ec.privateKey, publicKey: g.ec2.publicKey })
    .equals(crypto.diffieHellman({ privateKey: g.ec2.privateKey, publicKey: g.ec.publicKey })));
  await step('P-256 ECDH (createECDH)', () => {
    const a = crypto.createECDH('prime256v1'), b = crypto.createECDH('prime256v1');
    a.generateKeys(); b.generateKeys();
    return a.computeSecret(b.getPublicKey()).equals(b.computeSecret(a.getPublicKey()));
  });
  await step('P-384 key generation, ECDSA and ECDH', () => {
    const a = crypto.generateKeyPairSync('ec', { namedCurve: 'P-384' }), b = crypto.generateKeyPairSync('ec', { namedCurve: 'P-384' });
    return crypto.verify('sha384', m, a.publicKey, crypto.sign('sha384', m, a.privateKey)) &&
      crypto.diffieHellman({ privateKey: a.privateKey, publicKey: b.publicKey }).length === 48;
  });
  await step('X25519 and Ed25519', () => {
    const a = crypto.generateKeyPairSync('x25519'), b = crypto.generateKeyPairSync('x25519'), e = crypto.generateKeyPairSync('ed25519');
    return crypto.diffieHellman({ privateKey: a.privateKey, publicKey: b.publicKey }).length === 32 &&
      crypto.verify(null, m, e.publicKey, crypto.sign(null, m, e.privateKey));
  });
  // keys imported from PEM (made by the driver), after quill's signatures
  const h = (b) => crypto.createHash('sha256').update(b).digest('hex');
  await step('imported P-256 and RSA keys sign', () => {
    g.iec = crypto.createPrivateKey(I.ec); g.irsa = crypto.createPrivateKey(I.rsa);
    return crypto.sign('sha256', m, g.iec).length > 0 && crypto.sign('sha256', m, g.irsa).length === 256;
  });
  await step('imported P-256 key: ECDH with the driver\'s peer key', () => h(crypto.diffieHellman({ privateKey: g.iec, publicKey: crypto.createPublicKey(I.peer) })));
  await step('imported P-256 key from its JWK: ECDH', () =>
    h(crypto.diffieHellman({ privateKey: crypto.createPrivateKey({ key: g.iec.export({ format: 'jwk' }), format: 'jwk' }), publicKey: crypto.createPublicKey(I.peer) })));
  await step('imported RSA key: OAEP decryption of the driver\'s ciphertext', () => crypto.privateDecrypt(g.irsa, Buffer.from(I.oaep, 'base64')).toString());
  await step('imported keys: PKCS#8, SEC1, PKCS#1, JWK and SPKI exports', () => h([g.iec.export({ type: 'pkcs8', format: 'pem' }),
    g.iec.export({ type: 'sec1', format: 'der' }), JSON.stringify(g.iec.export({ format: 'jwk' })), g.irsa.export({ type: 'pkcs1', format: 'pem' }),
    JSON.stringify(g.irsa.export({ format: 'jwk' })), crypto.createPublicKey(g.iec).export({ type: 'spki', format: 'pem' }),
    crypto.createPublicKey(g.irsa).export({ type: 'spki', format: 'pem' })].join('|')));
  await step('ML-DSA-65 key generation', () => { g.ml = crypto.generateKeyPairSync('ml-dsa-65'); return 'ok'; });
  await step('ML-DSA-65 key from a raw seed (webcrypto raw-seed): public key', async () =>
    spkiHash(crypto.KeyObject.from(await crypto.webcrypto.subtle.importKey('raw-seed', Buffer.from(I.seed, 'base64'), { name: 'ML-DSA-65' }, true, ['sign']))));
  await step('ML-DSA-65 key from a JWK: public key', () => spkiHash(crypto.createPrivateKey({ key: I.jwk, format: 'jwk' })));
  await step('ML-DSA-65 with a digest name: refused', () => crypto.sign('sha256', m, g.ml.privateKey).length);
  await step('ML-DSA-65 encrypted PKCS#8 export and import', () => {
    const e = g.ml.privateKey.export({ type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase: 'pw' });
    return crypto.createPrivateKey({ key: e, passphrase: 'pw' }).equals(g.ml.privateKey);
  });
  await step('RSA-PSS restricted key (sha256, salt 32) generation', () => {
    g.pss = crypto.generateKeyPairSync('rsa-pss', { modulusLength: 2048, hashAlgorithm: 'sha256', mgf1HashAlgorithm: 'sha256', saltLength: 32 });
    return 'ok';
  });
  await step('RSA-PSS restricted key signs, verifies with salt 32', () => crypto.verify('sha256', m, { key: g.pss.publicKey, saltLength: 32 },
    crypto.sign('sha256', m, g.pss.privateKey)));
  await step('RSA-PSS restricted key, salt 20: refused', () => crypto.sign('sha256', m, { key: g.pss.privateKey, saltLength: 20 }).length);
  await step('RSA-PSS restricted key, SHA-384: refused', () => crypto.sign('sha384', m, g.pss.privateKey).length);
  await step('RSA-PSS unrestricted key generation', () => { g.pssu = crypto.generateKeyPairSync('rsa-pss', { modulusLength: 2048 }); return 'ok'; });
  await step('RSA-PSS unrestricted key, no salt length given: the salt length signed with', () => {
    const s = crypto.sign('sha256', m, g.pssu.privateKey);
    for (const sl of [0, 20, 32, 64, 222]) if (crypto.verify('sha256', m, { key: g.pssu.publicKey, saltLength: sl }, s)) return sl;
    return 'none of 0, 20, 32, 64, 222';
  });
  process.stdout.write(JSON.stringify(out));
}

// The counters each step moves with quill (none elsewhere; plain: none).
const COUNTED = {
  'RSA-2048 signature': { 'rsa-sign': 1, 'rsa-verify': 1 },
  'P-256 ECDSA signature': { 'ecdsa-sign': 1, 'ecdsa-verify': 1 },
  'imported P-256 and RSA keys sign': { 'ecdsa-sign': 1, 'rsa-sign': 1 },
  'ML-DSA-65 key generation': MLDSA_KEYGEN_ON_QUILL ? { 'mldsa-keygen': 1 } : {},
  'RSA-PSS restricted key signs, verifies with salt 32': { 'rsa-sign': 1, 'rsa-verify': 1 },
  'RSA-PSS unrestricted key, no salt length given: the salt length signed with': { 'rsa-sign': 1, 'rsa-verify': 1 },
};
// Steps whose value is asserted too (the same on both sides).
const EXPECTED = {
  'RSA-PSS unrestricted key, no salt length given: the salt length signed with': 32,
};
const REFUSED = /refused/;

function driver() {
  needHost();
  const t = new Checks('node_routing');
  const dir = tmp('node_routing');
  const kp = crypto.generateKeyPairSync('ml-dsa-65');
  const ec = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' }), peer = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const rsa = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
  const pem = (k) => k.export({ type: 'pkcs8', format: 'pem' });
  const input = JSON.stringify({ seed: crypto.randomBytes(32).toString('base64'), jwk: kp.privateKey.export({ format: 'jwk' }),
    ec: pem(ec.privateKey), rsa: pem(rsa.privateKey), peer: peer.publicKey.export({ type: 'spki', format: 'pem' }),
    oaep: crypto.publicEncrypt(rsa.publicKey, Buffer.from('from the driver')).toString('base64') });
  const res = {};
  for (const side of ['quill', 'plain']) {
    const stats = path.join(dir, side);
    const r = runNode({ quill: side === 'quill', stats, script: self, args: ['child'], input });
    t.check(`${side} child ran every step`, r.status === 0, `exit ${r.status ?? r.signal}: ${r.stderr.slice(-2000)}`);
    res[side] = r.status === 0 ? JSON.parse(r.stdout) : [];
    if (side === 'plain') t.eq('plain: no statistics file (quill not loaded)', 0, counters(stats).files);
  }
  res.quill.forEach((q, i) => {
    const p = res.plain[i], name = q.name;
    const show = (x) => (x.outcome === 'error' ? `error (${x.message})` : JSON.stringify(x.value));
    console.log(`  ${name}: quill ${show(q)}; plain ${show(p)}`);
    if (REFUSED.test(name)) t.eq(`${name}: both refuse`, ['error', 'error'], [q.outcome, p.outcome]);
    else if (name in EXPECTED) t.eq(`${name}: quill, plain`, [EXPECTED[name], EXPECTED[name]], [q.value, p.value]);
    else t.check(`${name}: same result on both sides`, q.outcome === 'value' && p.outcome === 'value' &&
      JSON.stringify(q.value) === JSON.stringify(p.value) && q.value !== false, `${show(q)} / ${show(p)}`);
    t.eq(`${name}: quill counted`, COUNTED[name] || {}, q.d);
    t.eq(`${name}: plain counted`, {}, p.d);
  });
  t.finish();
}

if (process.argv[2] === 'child') {
  let input = '';
  for await (const chunk of process.stdin) input += chunk;
  await child(input);
} else {
  driver();
}
