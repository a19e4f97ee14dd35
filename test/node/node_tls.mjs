// SPDX-License-Identifier: Apache-2.0
// Copyright quill authors.
//
// node_tls: TLS 1.3 on loopback between two node processes (tls.createServer
// and tls.connect), with RSA-2048, P-256 and ML-DSA-65 certificates (a test
// CA of the same type issues each server certificate; RSA and P-256 made
// by the openssl CLI's default provider, ML-DSA-65 by the openssl CLI with
// quill), for every pairing of server and client with quill (node
// --openssl-config) and plain (OpenSSL 3.5's default provider), both plain
// being the control.  Per run:
//   - the client makes N full handshakes (no session reuse), each checked:
//     TLSv1.3, authorized against the CA for "localhost", the server's
//     certificate of the expected key type, the server's greeting read;
//     then its counters must show exactly 2N verifications of the type
//     with quill (the CA's signature on the server certificate and the
//     CertificateVerify; rsa-verify, ecdsa-verify or mldsa-verify) and none
//     plain; then one more connection trusting another CA must fail
//     verification;
//   - the server (closed by the test through its stdin, with a deadline of
//     its own) must have completed the N good handshakes and seen the
//     refused one fail, and its counters must show one signature per
//     handshake, N + 1 (the refused client aborts after the server's
//     CertificateVerify; rsa-sign, ecdsa-sign or mldsa-sign) with quill,
//     none plain.
// Mutual TLS with ML-DSA-65 (the server asks for a client certificate from
// the same CA) runs the same pairings, with the counts given at the checks.
// ML-DSA-65 in TLS 1.3 works here because quill announces ML-DSA's TLS
// signature schemes on a 3.5+ core (provider/tls_sigalg.h): libssl keeps
// a provider's scheme only if the key type's key manager, fetched with the
// config's ?quill.sig=yes, is that provider's, which for ML-DSA is quill's.
// A 3.0 core has no ML-DSA in TLS.

import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import tls from 'node:tls';
import { fileURLToPath } from 'node:url';
import { Checks, counters, diff, hasOpenssl, isQuill, needHost, openssl, runNode, skip, startNode, tmp, zeros } from './lib.mjs';

const self = fileURLToPath(import.meta.url);
const N = 5;
const TYPES = {
  rsa: { gen: ['-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:2048'], quill: false, node: 'rsa', sign: 'rsa-sign', verify: 'rsa-verify' },
  p256: { gen: ['-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256'], quill: false, node: 'ec', sign: 'ecdsa-sign', verify: 'ecdsa-verify' },
  mldsa65: { gen: ['-algorithm', 'ML-DSA-65'], quill: true, node: 'ml-dsa-65', sign: 'mldsa-sign', verify: 'mldsa-verify' },
};
// Mutual TLS with ML-DSA-65 on both sides: the server asks for a client
// certificate (issued by the same CA) and refuses clients without one.
const MUTUAL = 'mldsa65';

// server KEY CERT [CLIENTCA]: listens on 127.0.0.1 (a port the kernel picks, printed
// as the first line), answers each connection, and on "close" on stdin (or
// after 60 s) closes and prints {handshakes, protocols}.
function server(keyFile, certFile, clientCaFile) {
  const done = { handshakes: 0, protocols: {}, clientErrors: [], clients: [] };
  const mutual = clientCaFile ? { requestCert: true, rejectUnauthorized: true, ca: fs.readFileSync(clientCaFile) } : {};
  const srv = tls.createServer({ key: fs.readFileSync(keyFile), cert: fs.readFileSync(certFile),
    minVersion: 'TLSv1.3', maxVersion: 'TLSv1.3', ...mutual }, (sock) => {
    done.handshakes++;
    if (clientCaFile) {
      const pc = sock.getPeerX509Certificate();
      done.clients.push([sock.authorized, pc ? pc.publicKey.asymmetricKeyType : null]);
    }
    const p = sock.getProtocol();
    done.protocols[p] = (done.protocols[p] || 0) + 1;
    sock.on('error', () => {});
    sock.end(`hello ${p}\n`);
  });
  srv.on('tlsClientError', (e) => done.clientErrors.push(e.code || e.message));
  const stop = () => srv.close(() => { process.stdout.write(`${JSON.stringify(done)}\n`); process.exit(0); });
  const deadline = setTimeout(() => { console.error('server: no "close" within 60 s'); process.exit(3); }, 60000);
  srv.listen(0, '127.0.0.1', () => process.stdout.write(`${JSON.stringify({ port: srv.address().port })}\n`));
  readline.createInterface({ input: process.stdin }).on('line', (l) => {
    if (l.trim() === 'close') { clearTimeout(deadline); stop(); }
  });
}

// connect(opts): one connection; resolves {authorized, protocol, keyType,
// data} or {error}.
function connect(opts) {
  return new Promise((resolve) => {
    let data = '', info = null;
    const timer = setTimeout(() => { sock.destroy(); resolve({ error: 'timeout' }); }, 20000);
    const sock = tls.connect(opts, () => {
      const pc = sock.getPeerX509Certificate();
      info = { authorized: sock.authorized, protocol: sock.getProtocol(), keyType: pc && pc.publicKey.asymmetricKeyType };
    });
    sock.setEncoding('utf8');
    sock.on('data', (d) => { data += d; });
    sock.on('end', () => { clearTimeout(timer); resolve({ ...info, data }); });
    sock.on('error', (e) => { clearTimeout(timer); resolve({ error: e.code || e.message }); });
  });
}

// client PORT CA OTHERCA TYPE [KEY CERT]: N checked handshakes (with a
// client certificate if KEY and CERT are given), its counters, one
// handshake trusting OTHERCA that must fail; prints {results, d, bad}.
async function client(port, caFile, otherCaFile, type, keyFile, certFile) {
  const stats = process.env.QUILL_STATS;
  const before = counters(stats);
  const results = [];
  const mine = keyFile ? { key: fs.readFileSync(keyFile), cert: fs.readFileSync(certFile) } : {};
  for (let i = 0; i < N; i++)
    results.push(await connect({ host: '127.0.0.1', port: Number(port), servername: 'localhost', ca: fs.readFileSync(caFile),
      minVersion: 'TLSv1.3', ...mine }));
  const d = diff(before, counters(stats));
  const bad = await connect({ host: '127.0.0.1', port: Number(port), servername: 'localhost', ca: fs.readFileSync(otherCaFile),
    minVersion: 'TLSv1.3', ...mine });
  process.stdout.write(JSON.stringify({ results, d, bad, type, quill: isQuill() }));
}

// ---- driver ----

function makeCerts(dir) {
  fs.writeFileSync(path.join(dir, 'x.cnf'), '[req]\ndistinguished_name = dn\n[dn]\n' +
    '[ca]\nbasicConstraints = critical, CA:TRUE\nkeyUsage = critical, keyCertSign\nsubjectKeyIdentifier = hash\n' +
    '[leaf]\nbasicConstraints = critical, CA:FALSE\nkeyUsage = critical, digitalSignature\nextendedKeyUsage = serverAuth\n' +
    'subjectAltName = DNS:localhost, IP:127.0.0.1\nauthorityKeyIdentifier = keyid\n' +
    '[client]\nbasicConstraints = critical, CA:FALSE\nkeyUsage = critical, digitalSignature\nextendedKeyUsage = clientAuth\n' +
    'authorityKeyIdentifier = keyid\n');
  const cnf = path.join(dir, 'x.cnf');
  for (const [t, spec] of Object.entries(TYPES)) {
    const f = (x) => path.join(dir, `${t}-${x}`);
    const o = { dir, quill: spec.quill };
    for (const k of ['ca', 'other-ca', 'leaf']) openssl(['genpkey', ...spec.gen, '-out', f(`${k}.key`)], o);
    for (const k of ['ca', 'other-ca'])
      openssl(['req', '-x509', '-new', '-key', f(`${k}.key`), '-subj', `/CN=quill node ${k} ${t}`, '-days', '2',
        '-config', cnf, '-extensions', 'ca', '-out', f(`${k}.pem`)], o);
    openssl(['req', '-new', '-key', f('leaf.key'), '-subj', '/CN=localhost', '-config', cnf, '-out', f('leaf.csr')], o);
    openssl(['x509', '-req', '-in', f('leaf.csr'), '-CA', f('ca.pem'), '-CAkey', f('ca.key'), '-CAcreateserial', '-days', '2',
      '-extfile', cnf, '-extensions', 'leaf', '-out', f('leaf.pem')], o);
    if (t === MUTUAL) {
      openssl(['genpkey', ...spec.gen, '-out', f('client.key')], o);
      openssl(['req', '-new', '-key', f('client.key'), '-subj', '/CN=quill node client', '-config', cnf, '-out', f('client.csr')], o);
      openssl(['x509', '-req', '-in', f('client.csr'), '-CA', f('ca.pem'), '-CAkey', f('ca.key'), '-CAcreateserial', '-days', '2',
        '-extfile', cnf, '-extensions', 'client', '-out', f('client.pem')], o);
    }
  }
}

// readLine(stream): the first line the child prints.
function readLine(child) {
  return new Promise((resolve, reject) => {
    let buf = '';
    const timer = setTimeout(() => reject(new Error('no line within 30 s')), 30000);
    child.stdout.on('data', (d) => {
      buf += d;
      const i = buf.indexOf('\n');
      if (i >= 0) { clearTimeout(timer); child.stdout.removeAllListeners('data'); resolve([buf.slice(0, i), buf.slice(i + 1)]); }
    });
    child.on('exit', (c) => reject(new Error(`exited (${c}) before its first line`)));
  });
}

async function driver() {
  needHost();
  if (!hasOpenssl()) skip('no openssl CLI: the test certificates are made with it');
  const t = new Checks('node_tls');
  const dir = tmp('node_tls');
  makeCerts(dir);
  let n = 0;
  const runs = [...Object.keys(TYPES).map((type) => [type, false]), [MUTUAL, true]];
  for (const [type, mutual] of runs) {
    const spec = TYPES[type];
    for (const [sq, cq] of [[true, true], [true, false], [false, true], [false, false]]) {
      const name = `${type}${mutual ? ' mutual' : ''} server ${sq ? 'quill' : 'plain'} / client ${cq ? 'quill' : 'plain'}`;
      const f = (x) => path.join(dir, `${type}-${x}`);
      const sstats = path.join(dir, `s${n}`), cstats = path.join(dir, `c${n++}`);
      const srv = startNode({ quill: sq, stats: sstats, script: self,
        args: ['server', f('leaf.key'), f('leaf.pem'), ...(mutual ? [f('ca.pem')] : [])] });
      let serr = '';
      srv.stderr.on('data', (d) => { serr += d; });
      const exited = new Promise((res) => srv.on('exit', (code, sig) => res(code ?? sig)));
      try {
        const [first, rest0] = await readLine(srv);
        let rest = rest0;
        srv.stdout.on('data', (d) => { rest += d; });
        const { port } = JSON.parse(first);
        const r = runNode({ quill: cq, stats: cstats, script: self,
          args: ['client', String(port), f('ca.pem'), f('other-ca.pem'), type, ...(mutual ? [f('client.key'), f('client.pem')] : [])] });
        let c = null;
        if (t.check(`${name}: client ran`, r.status === 0, `exit ${r.status ?? r.signal}: ${r.stderr}`)) c = JSON.parse(r.stdout);
        srv.stdin.write('close\n');
        const code = await exited;
        t.check(`${name}: server closed by the test`, code === 0, `exit ${code}: ${serr}`);
        const s = JSON.parse(rest.trim() || '{}');
        if (c) {
          c.results.forEach((x, i) => t.eq(`${name}: handshake ${i + 1} (protocol, authorized, server key, greeting)`,
            ['TLSv1.3', true, spec.node, 'hello TLSv1.3\n'], [x.protocol, x.authorized, x.keyType, x.data]));
          // mutual: a third verification per handshake, the CA's signature
          // on the client's own certificate, checked as libssl builds the
          // chain it sends (the ca option gives it the CA), and the
          // client's CertificateVerify signature
          t.eq(`${name}: client counters after ${N} handshakes`,
            cq ? (mutual ? { [spec.sign]: N, [spec.verify]: 3 * N } : { [spec.verify]: 2 * N }) : {}, c.d);
          t.check(`${name}: a client trusting another CA is refused (${c.bad.error || 'no error'})`,
            !!c.bad.error && !c.bad.authorized);
        }
        // the refused client aborts the handshake after the server's
        // CertificateVerify: the server signed, but did not finish it
        t.eq(`${name}: server handshakes completed, client errors`, [N, 1], [s.handshakes, (s.clientErrors || []).length]);
        if (mutual) t.eq(`${name}: server saw client certificates (authorized, key type)`, Array(N).fill([true, spec.node]), s.clients);
        // mutual: per handshake the server also verifies the client's
        // certificate and CertificateVerify, and (having the CA for client
        // certificates) the CA's signature on its own certificate as libssl
        // builds the chain it sends, which it does for the refused client too
        t.eq(`${name}: server counters`,
          sq ? (mutual ? { [spec.sign]: N + 1, [spec.verify]: 3 * N + 1 } : { [spec.sign]: N + 1 }) : {}, diff(zeros(), counters(sstats)));
        if (!sq) t.eq(`${name}: plain server left no statistics file`, 0, counters(sstats).files);
        if (!cq) t.eq(`${name}: plain client left no statistics file`, 0, counters(cstats).files);
      } catch (e) {
        t.bad(`${name}: ${e.message} ${serr}`);
        srv.kill('SIGKILL');
        await exited;
      }
    }
  }
  t.finish();
}

const [mode, ...args] = process.argv.slice(2);
if (mode === 'server') server(...args);
else if (mode === 'client') await client(...args);
else await driver();
