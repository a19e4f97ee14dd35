// SPDX-License-Identifier: Apache-2.0
// Copyright quill authors.
//
// node_interop: ML-DSA-44/65/87 keys, signatures and X.509 certificates
// made on one side and checked on the other, both ways, between quill on
// OpenSSL 3.5 (node --openssl-config with quill) and OpenSSL 3.5's own
// default provider (the same node without configuration: "plain"):
//   keys      made by quill (the openssl CLI, OpenSSL 3.0 + quill:
//             genpkey, then pkey with quill's ml-dsa.output_formats
//             seed-only and priv-only) and by the default provider (plain
//             node; the expanded form exported by a plain node whose
//             default provider has ml-dsa.retain_seed = no), in each of
//             RFC 9881's private-key forms (seed-only, expanded-only, both;
//             quill's encodings must equal the forms written by der.mjs
//             byte for byte) and as SPKI.  Each side imports every key, the
//             public key it derives must equal the SPKI, its PKCS#8 export
//             must equal the other side's, and it signs with and without a
//             context string;
//   signatures each side verifies every signature of both sides (and its
//             own); with a context, without it (false);
//   RSA and ECDSA  signatures with RSA-2048, RSA-3072 (e = 3) and RSA-4096
//             keys (PKCS#1 v1.5 and PSS, several digests and salt lengths)
//             and P-256 (DER and ieee-p1363, SHA-1 to SHA-512 and
//             SHA3-256) made on each side and verified on the other;
//   certificates  a CA (self-signed) and a leaf it issues, per parameter
//             set, made by the openssl CLI with quill (req -x509, x509
//             -req), by plain node and by node with quill (der.mjs writes
//             the TBSCertificate, crypto.sign signs it); each side checks
//             every pair with crypto.X509Certificate (verify with the
//             issuer's key, checkIssued, a tampered signature fails, the
//             leaf does not verify with its own key), and `openssl verify`
//             (3.0 + quill) checks the pairs node made.
// quill's counters must show each signature and each successful
// verification on the quill side, and nothing on the plain side.

import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Checks, MLDSA_KEYGEN_ON_QUILL, counters, diff, hasOpenssl, isQuill, needHost, openssl, runNode, skip, tmp, zeros } from './lib.mjs';
import { certificate, mldsaParsePkcs8, mldsaPkcs8, pem } from './der.mjs';

const self = fileURLToPath(import.meta.url);
const SETS = ['ml-dsa-44', 'ml-dsa-65', 'ml-dsa-87'];
const b64 = (b) => Buffer.from(b).toString('base64');
// RSA and ECDSA signatures checked across sides too: keys (made by the
// driver, plain) x digests x paddings or encodings.
const CLASSIC = (() => {
  const P = crypto.constants;
  const out = [];
  for (const key of ['rsa2048', 'rsa3072e3', 'rsa4096']) {
    for (const digest of ['sha1', 'sha256', 'sha384', 'sha512', 'sha3-256'])
      out.push({ id: `${key} PKCS#1 v1.5 ${digest}`, key, digest, opts: {}, vopts: {} });
    for (const [digest, salt] of [['sha256', P.RSA_PSS_SALTLEN_DIGEST], ['sha256', P.RSA_PSS_SALTLEN_MAX_SIGN], ['sha384', 0],
      ['sha512', 64], ['sha1', 20]]) {
      const o = { padding: P.RSA_PKCS1_PSS_PADDING, saltLength: salt };
      out.push({ id: `${key} PSS ${digest} salt ${salt}`, key, digest, opts: o,
        vopts: { padding: P.RSA_PKCS1_PSS_PADDING, saltLength: salt === P.RSA_PSS_SALTLEN_MAX_SIGN ? P.RSA_PSS_SALTLEN_AUTO : salt } });
    }
  }
  for (const digest of ['sha1', 'sha224', 'sha256', 'sha384', 'sha512', 'sha3-256'])
    for (const dsaEncoding of ['der', 'ieee-p1363'])
      out.push({ id: `p256 ECDSA ${digest} ${dsaEncoding}`, key: 'p256', digest, opts: { dsaEncoding }, vopts: { dsaEncoding } });
  return out;
})();
const unb64 = (s) => Buffer.from(s, 'base64');

// ---- children: read JSON on stdin, write JSON on stdout ----

const modes = {
  // gen {sets}: the default provider's keys: seed-only PKCS#8 (node's
  // export) and SPKI.
  gen({ sets }) {
    const out = {};
    for (const alg of sets) {
      const { privateKey, publicKey } = crypto.generateKeyPairSync(alg);
      out[alg] = { pkcs8: b64(privateKey.export({ format: 'der', type: 'pkcs8' })),
        spki: b64(publicKey.export({ format: 'der', type: 'spki' })) };
    }
    return out;
  },
  // reexport {keys: {id: pkcs8}}: each key imported and exported again.
  reexport({ keys }) {
    const out = {};
    for (const [id, k] of Object.entries(keys))
      out[id] = b64(crypto.createPrivateKey({ key: unb64(k), format: 'der', type: 'pkcs8' }).export({ format: 'der', type: 'pkcs8' }));
    return out;
  },
  // sign {keys: [{id, pkcs8, spki}], msg, ctx}: imports each, derives its
  // public key, re-exports, signs msg without and with ctx.
  sign({ keys, msg, ctx }) {
    return keys.map(({ id, pkcs8, spki }) => {
      try {
        const priv = crypto.createPrivateKey({ key: unb64(pkcs8), format: 'der', type: 'pkcs8' });
        const pub = crypto.createPublicKey(priv).export({ format: 'der', type: 'spki' });
        const spkiIn = crypto.createPublicKey({ key: unb64(spki), format: 'der', type: 'spki' }).export({ format: 'der', type: 'spki' });
        return { id, type: priv.asymmetricKeyType, pub: b64(pub), spkiRoundTrip: b64(spkiIn),
          export: b64(priv.export({ format: 'der', type: 'pkcs8' })),
          sig: b64(crypto.sign(null, unb64(msg), priv)),
          sigCtx: b64(crypto.sign(null, unb64(msg), { key: priv, context: unb64(ctx) })) };
      } catch (e) {
        return { id, err: `${e.code || ''} ${e.message}` };
      }
    });
  },
  // verify {items: [{id, spki, msg, sig, ctx}]}: crypto.verify of each.
  verify({ items }) {
    return items.map(({ id, spki, msg, sig, ctx }) => {
      try {
        const key = crypto.createPublicKey({ key: unb64(spki), format: 'der', type: 'spki' });
        return { id, ok: crypto.verify(null, unb64(msg), ctx ? { key, context: unb64(ctx) } : key, unb64(sig)) };
      } catch (e) {
        return { id, err: `${e.code || ''} ${e.message}` };
      }
    });
  },
  // mkcerts {sets}: per set a CA (self-signed) and a leaf it issues, made
  // and signed here.
  mkcerts({ sets, tag }) {
    const out = {};
    for (const alg of sets) {
      const ca = crypto.generateKeyPairSync(alg), leaf = crypto.generateKeyPairSync(alg);
      const caSpki = ca.publicKey.export({ format: 'der', type: 'spki' });
      out[alg] = {
        ca: pem(certificate({ alg, subject: `${tag} CA ${alg}`, issuer: `${tag} CA ${alg}`, spki: caSpki, key: ca.privateKey, ca: true })),
        leaf: pem(certificate({ alg, subject: `${tag} leaf ${alg}`, issuer: `${tag} CA ${alg}`,
          spki: leaf.publicKey.export({ format: 'der', type: 'spki' }), key: ca.privateKey, ca: false })),
      };
    }
    return out;
  },
  // csign {keys: {name: pem}, msg}: RSA and ECDSA signatures with every
  // combination in CLASSIC.
  csign({ keys, msg }) {
    return CLASSIC.map((c) => {
      const key = crypto.createPrivateKey(keys[c.key]);
      return { id: c.id, sig: b64(crypto.sign(c.digest, unb64(msg), { key, ...c.opts })) };
    });
  },
  // cverify {keys, msg, sigs: [{id, sig}]}: each checked with the public key.
  cverify({ keys, msg, sigs }) {
    const by = Object.fromEntries(CLASSIC.map((c) => [c.id, c]));
    return sigs.map(({ id, sig }) => {
      const c = by[id];
      const key = crypto.createPublicKey(keys[c.key]);
      return { id, ok: crypto.verify(c.digest, unb64(msg), { key, ...c.vopts }, unb64(sig)) };
    });
  },
  // certs {pairs: [{id, alg, ca, leaf}]}: X509Certificate checks of each.
  certs({ pairs }) {
    return pairs.map(({ id, alg, ca, leaf }) => {
      try {
        const c = new crypto.X509Certificate(ca), l = new crypto.X509Certificate(leaf);
        const der = Buffer.from(l.raw);
        der[der.length - 1] ^= 1; // the last byte of the signature
        const bent = new crypto.X509Certificate(der);
        return { id, caType: c.publicKey.asymmetricKeyType, leafType: l.publicKey.asymmetricKeyType,
          caSelf: c.verify(c.publicKey), issued: l.checkIssued(c), leafOk: l.verify(c.publicKey),
          leafOwn: l.verify(l.publicKey), bent: bent.verify(c.publicKey), ca: c.ca, leafCa: l.ca, expect: alg };
      } catch (e) {
        return { id, err: `${e.code || ''} ${e.message}` };
      }
    });
  },
};

async function child(mode) {
  let input = '';
  for await (const chunk of process.stdin) input += chunk;
  process.stdout.write(JSON.stringify(modes[mode](JSON.parse(input))));
}

// ---- driver ----

function driver() {
  needHost();
  if (!hasOpenssl()) skip('no openssl CLI: quill\'s ML-DSA keys and certificates are made with it');
  const t = new Checks('node_interop');
  const dir = tmp('node_interop');
  let n = 0;
  // call(side, mode, data): runs a child (side: 'quill', 'plain' or
  // 'dropseed'), returns its output and quill's counter changes there.
  function call(side, mode, data) {
    const stats = path.join(dir, `stats-${n++}`);
    const quill = side === 'quill';
    const cnf = side === 'dropseed' ? path.join(dir, 'dropseed.cnf') : '';
    const r = runNode({ quill, stats, cnf, script: self, args: [mode], input: JSON.stringify(data) });
    if (r.status !== 0) throw new Error(`${side} ${mode}: exit ${r.status ?? r.signal}: ${r.stderr}`);
    const c = counters(stats);
    if (!quill && c.files !== 0) t.bad(`${side} ${mode}: a statistics file appeared (quill loaded without its configuration?)`);
    return { out: JSON.parse(r.stdout), d: diff(zeros(), c) };
  }
  // The plain side with ml-dsa.retain_seed = no: the default provider
  // drops the seed at import, so node exports the expanded key.
  fs.writeFileSync(path.join(dir, 'dropseed.cnf'), 'nodejs_conf = openssl_init\n[openssl_init]\nproviders = provider_sect\n' +
    '[provider_sect]\ndefault = default_sect\n[default_sect]\nml-dsa.retain_seed = no\nactivate = 1\n');

  // Keys made by quill: openssl 3.0 + quill.
  const keys = [];
  for (const alg of SETS) {
    const f = (x) => path.join(dir, `q-${alg}-${x}`);
    openssl(['genpkey', '-algorithm', alg.toUpperCase(), '-outform', 'DER', '-out', f('both.der')], { dir });
    openssl(['pkey', '-inform', 'DER', '-in', f('both.der'), '-outform', 'DER', '-out', f('seed.der')],
      { dir, cnfExtra: 'ml-dsa.output_formats = seed-only' });
    openssl(['pkey', '-inform', 'DER', '-in', f('both.der'), '-outform', 'DER', '-out', f('expanded.der')],
      { dir, cnfExtra: 'ml-dsa.output_formats = priv-only' });
    openssl(['pkey', '-inform', 'DER', '-in', f('both.der'), '-pubout', '-outform', 'DER', '-out', f('spki.der')], { dir });
    const both = fs.readFileSync(f('both.der'));
    const p = mldsaParsePkcs8(both);
    t.eq(`quill ${alg}: genpkey writes the form`, 'both', p.form);
    const spki = b64(fs.readFileSync(f('spki.der')));
    for (const form of ['seed', 'expanded', 'both']) {
      const mine = mldsaPkcs8(alg, { seed: form !== 'expanded' ? p.seed : null, expanded: form !== 'seed' ? p.expanded : null });
      t.check(`quill ${alg} ${form}: openssl's encoding is RFC 9881's ${form} form`,
        mine.equals(fs.readFileSync(f(`${form}.der`))));
      keys.push({ id: `quill ${alg} ${form}`, alg, form, maker: 'quill', pkcs8: b64(mine), spki });
    }
  }
  // Keys made by the default provider (plain node).
  const gen = call('plain', 'gen', { sets: SETS }); // no counts: plain
  const seeds = Object.fromEntries(SETS.map((alg) => [alg, gen.out[alg].pkcs8]));
  const exp = call('dropseed', 'reexport', { keys: seeds });
  for (const alg of SETS) {
    const s = mldsaParsePkcs8(unb64(gen.out[alg].pkcs8)), e = mldsaParsePkcs8(unb64(exp.out[alg]));
    t.eq(`default ${alg}: node exports the form`, 'seed', s.form);
    t.eq(`default ${alg}, ml-dsa.retain_seed = no: node exports the form`, 'expanded', e.form);
    for (const form of ['seed', 'expanded', 'both'])
      keys.push({ id: `default ${alg} ${form}`, alg, form, maker: 'default',
        pkcs8: b64(mldsaPkcs8(alg, { seed: form !== 'expanded' ? s.seed : null, expanded: form !== 'seed' ? e.expanded : null })),
        spki: gen.out[alg].spki });
  }

  // Import and sign on both sides.
  const msg = b64(crypto.randomBytes(777)), ctx = b64(crypto.randomBytes(17));
  const signed = {};
  for (const side of ['quill', 'plain']) {
    const { out, d } = call(side, 'sign', { keys, msg, ctx });
    signed[side] = Object.fromEntries(out.map((r) => [r.id, r]));
    t.eq(`${side}: keys signed with, twice each, counted`, side === 'quill' ? { 'mldsa-sign': 2 * keys.length } : {}, d);
    for (const k of keys) {
      const r = signed[side][k.id];
      if (!t.check(`${side} imports ${k.id}`, !r.err, r.err)) continue;
      t.eq(`${side} ${k.id}: key type`, k.alg, r.type);
      t.check(`${side} ${k.id}: derived public key = SPKI`, r.pub === k.spki);
      t.check(`${side} ${k.id}: SPKI import/export round trip`, r.spkiRoundTrip === k.spki);
      // node exports seed-only when the key has its seed, else expanded
      const f = mldsaParsePkcs8(unb64(r.export)).form;
      t.eq(`${side} ${k.id}: exported form`, k.form === 'expanded' ? 'expanded' : 'seed', f);
    }
  }
  for (const k of keys)
    t.check(`${k.id}: quill's and the default provider's PKCS#8 exports are equal`,
      signed.quill[k.id].export && signed.quill[k.id].export === signed.plain[k.id].export);

  // Every signature verified on both sides.
  const items = [];
  for (const side of ['quill', 'plain'])
    for (const k of keys) {
      const r = signed[side][k.id];
      if (r.err) continue;
      items.push({ id: `${side}-made ${k.id}`, spki: k.spki, msg, sig: r.sig, expect: true });
      items.push({ id: `${side}-made ${k.id} with context`, spki: k.spki, msg, sig: r.sigCtx, ctx, expect: true });
      items.push({ id: `${side}-made ${k.id} context signature, no context`, spki: k.spki, msg, sig: r.sigCtx, expect: false });
    }
  for (const side of ['quill', 'plain']) {
    const { out, d } = call(side, 'verify', { items });
    const good = items.filter((i) => i.expect).length;
    t.eq(`${side}: verifications counted`, side === 'quill' ? { 'mldsa-verify': good } : {}, d);
    out.forEach((r, i) => t.check(`${side} verifies ${r.id}: ${items[i].expect}`, !r.err && r.ok === items[i].expect, r.err || `got ${r.ok}`));
  }

  // RSA and ECDSA signatures across sides.
  const ckeys = {
    rsa2048: crypto.generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'pem', type: 'pkcs8' }),
    rsa3072e3: crypto.generateKeyPairSync('rsa', { modulusLength: 3072, publicExponent: 3 }).privateKey.export({ format: 'pem', type: 'pkcs8' }),
    rsa4096: crypto.generateKeyPairSync('rsa', { modulusLength: 4096 }).privateKey.export({ format: 'pem', type: 'pkcs8' }),
    p256: crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'pem', type: 'pkcs8' }),
  };
  const nrsa = CLASSIC.filter((c) => c.key !== 'p256').length, nec = CLASSIC.length - nrsa;
  const csigs = {};
  for (const side of ['quill', 'plain']) {
    const { out, d } = call(side, 'csign', { keys: ckeys, msg });
    csigs[side] = out;
    t.eq(`${side}: RSA and ECDSA signatures counted`, side === 'quill' ? { 'rsa-sign': nrsa, 'ecdsa-sign': nec } : {}, d);
  }
  for (const [maker, checker] of [['quill', 'plain'], ['plain', 'quill'], ['quill', 'quill']]) {
    const { out, d } = call(checker, 'cverify', { keys: ckeys, msg, sigs: csigs[maker] });
    t.eq(`${checker} checking ${maker}'s RSA and ECDSA signatures: counted`,
      checker === 'quill' ? { 'rsa-verify': nrsa, 'ecdsa-verify': nec } : {}, d);
    for (const r of out) t.check(`${checker} verifies ${maker}'s ${r.id}`, r.ok === true);
  }

  // Certificates.
  const pairs = [];
  for (const alg of SETS) {
    const f = (x) => path.join(dir, `c-${alg}-${x}`);
    fs.writeFileSync(f('ca.ext'), '[req]\ndistinguished_name = dn\n[dn]\n[ca]\nbasicConstraints = critical, CA:TRUE\n' +
      'keyUsage = critical, keyCertSign\n[leaf]\nbasicConstraints = critical, CA:FALSE\n');
    openssl(['genpkey', '-algorithm', alg.toUpperCase(), '-out', f('ca.key')], { dir });
    openssl(['genpkey', '-algorithm', alg.toUpperCase(), '-out', f('leaf.key')], { dir });
    openssl(['req', '-x509', '-new', '-key', f('ca.key'), '-subj', `/CN=openssl quill CA ${alg}`, '-days', '2',
      '-config', f('ca.ext'), '-extensions', 'ca', '-out', f('ca.pem')], { dir });
    openssl(['req', '-new', '-key', f('leaf.key'), '-subj', `/CN=openssl quill leaf ${alg}`, '-config', f('ca.ext'),
      '-out', f('leaf.csr')], { dir });
    openssl(['x509', '-req', '-in', f('leaf.csr'), '-CA', f('ca.pem'), '-CAkey', f('ca.key'), '-CAcreateserial',
      '-days', '2', '-extfile', f('ca.ext'), '-extensions', 'leaf', '-out', f('leaf.pem')], { dir });
    pairs.push({ id: `openssl+quill ${alg}`, alg, ca: fs.readFileSync(f('ca.pem'), 'utf8'), leaf: fs.readFileSync(f('leaf.pem'), 'utf8') });
  }
  for (const side of ['quill', 'plain']) {
    const { out, d } = call(side, 'mkcerts', { sets: SETS, tag: `node ${side}` });
    // two keys generated and two certificates signed per set
    t.eq(`${side}: certificates signed, counted`, side === 'quill'
      ? { 'mldsa-sign': 2 * SETS.length, ...(MLDSA_KEYGEN_ON_QUILL ? { 'mldsa-keygen': 2 * SETS.length } : {}) } : {}, d);
    for (const alg of SETS) {
      pairs.push({ id: `node ${side} ${alg}`, alg, ...out[alg] });
      const f = (x) => path.join(dir, `n-${side}-${alg}-${x}`);
      fs.writeFileSync(f('ca.pem'), out[alg].ca);
      fs.writeFileSync(f('leaf.pem'), out[alg].leaf);
      let ok;
      try {
        ok = /: OK/.test(openssl(['verify', '-check_ss_sig', '-CAfile', f('ca.pem'), f('leaf.pem')], { dir }));
      } catch (e) {
        ok = false;
        console.log(`    ${e.message}`);
      }
      t.check(`openssl 3.0 + quill verifies node ${side}'s ${alg} certificate chain`, ok);
    }
  }
  for (const side of ['quill', 'plain']) {
    const { out, d } = call(side, 'certs', { pairs });
    // per pair two good signatures: the CA's own, the leaf's
    t.eq(`${side}: certificate verifications counted`, side === 'quill' ? { 'mldsa-verify': 2 * pairs.length } : {}, d);
    for (const r of out) {
      if (!t.check(`${side} reads ${r.id}`, !r.err, r.err)) continue;
      t.eq(`${side} ${r.id}: checks (types, CA self-signature, checkIssued, leaf, leaf with own key, tampered, ca flags)`,
        [r.expect, r.expect, true, true, true, false, false, true, false],
        [r.caType, r.leafType, r.caSelf, r.issued, r.leafOk, r.leafOwn, r.bent, r.ca, r.leafCa]);
    }
  }
  t.finish();
}

if (process.argv[2] && modes[process.argv[2]]) await child(process.argv[2]);
else driver();
