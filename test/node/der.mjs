// SPDX-License-Identifier: Apache-2.0
// Copyright quill authors.
//
// der.mjs: the little DER the node suite writes and reads itself, so that
// key forms and certificates can be made independently of either
// provider's encoders:
//   - RFC 9881's three ML-DSA private-key forms inside PKCS#8 (seed-only
//     [0] IMPLICIT OCTET STRING, expandedKey OCTET STRING, both SEQUENCE);
//   - a minimal X.509 v3 certificate (node cannot make certificates): the
//     TBSCertificate is written here and signed with crypto.sign by
//     whichever provider the process has.
// Definite lengths only; readers check every length they walk.

import crypto from 'node:crypto';

export const MLDSA_OID = { 'ml-dsa-44': '2.16.840.1.101.3.4.3.17', 'ml-dsa-65': '2.16.840.1.101.3.4.3.18', 'ml-dsa-87': '2.16.840.1.101.3.4.3.19' };

function len(n) {
  if (n < 0x80) return Buffer.from([n]);
  const b = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) b.unshift(v & 0xff);
  return Buffer.from([0x80 | b.length, ...b]);
}
export function tlv(tag, ...parts) {
  const body = Buffer.concat(parts);
  return Buffer.concat([Buffer.from([tag]), len(body.length), body]);
}
export const seq = (...p) => tlv(0x30, ...p);
export const set = (...p) => tlv(0x31, ...p);
export const octet = (b) => tlv(0x04, b);
export const utf8 = (s) => tlv(0x0c, Buffer.from(s, 'utf8'));
export const bitstring = (b) => tlv(0x03, Buffer.from([0]), b);
export const bool = (v) => tlv(0x01, Buffer.from([v ? 0xff : 0]));
// int(b): a non-negative INTEGER from big-endian bytes (or a small number).
export function int(b) {
  if (typeof b === 'number') b = Buffer.from([b]);
  let i = 0;
  while (i < b.length - 1 && b[i] === 0 && !(b[i + 1] & 0x80)) i++;
  b = b.subarray(i);
  return tlv(0x02, b[0] & 0x80 ? Buffer.concat([Buffer.from([0]), b]) : b);
}
export function oid(s) {
  const a = s.split('.').map(Number);
  const out = [40 * a[0] + a[1]];
  for (const v of a.slice(2)) {
    const b = [v & 0x7f];
    for (let x = Math.floor(v / 128); x > 0; x = Math.floor(x / 128)) b.unshift(0x80 | (x & 0x7f));
    out.push(...b);
  }
  return tlv(0x06, Buffer.from(out));
}
function utctime(d) {
  const p = (n) => String(n).padStart(2, '0');
  return tlv(0x17, Buffer.from(`${p(d.getUTCFullYear() % 100)}${p(d.getUTCMonth() + 1)}${p(d.getUTCDate())}` +
    `${p(d.getUTCHours())}${p(d.getUTCMinutes())}${p(d.getUTCSeconds())}Z`));
}

// read(buf, off): the TLV at off as {tag, start (of the value), end}.
export function read(buf, off = 0) {
  if (off + 2 > buf.length) throw new Error('DER: truncated header');
  const tag = buf[off];
  let n = buf[off + 1], p = off + 2;
  if (n & 0x80) {
    const k = n & 0x7f;
    if (k === 0 || k > 4 || p + k > buf.length) throw new Error('DER: bad length');
    n = 0;
    for (let i = 0; i < k; i++) n = n * 256 + buf[p + i];
    p += k;
  }
  if (p + n > buf.length) throw new Error('DER: value past the end');
  return { tag, start: p, end: p + n };
}
// children(buf, t): the TLVs inside the constructed t.
export function children(buf, t) {
  const out = [];
  for (let p = t.start; p < t.end;) {
    const c = read(buf, p);
    out.push(c);
    p = c.end;
  }
  return out;
}

// mldsaPkcs8(alg, {seed, expanded}): PKCS#8 in RFC 9881's form: seed-only
// when only seed is given, expandedKey-only when only expanded, both when
// both.
export function mldsaPkcs8(alg, { seed, expanded }) {
  let inner;
  if (seed && expanded) inner = seq(octet(seed), octet(expanded));
  else if (seed) inner = tlv(0x80, seed);
  else inner = octet(expanded);
  return seq(int(0), seq(oid(MLDSA_OID[alg])), octet(inner));
}

// mldsaParsePkcs8(der): {form: 'seed'|'expanded'|'both', seed, expanded, oid}.
export function mldsaParsePkcs8(der) {
  const top = read(der);
  const [, alg, pk] = children(der, top);
  const o = children(der, alg)[0];
  const oidHex = der.subarray(o.start, o.end).toString('hex');
  const inner = read(der, pk.start);
  const v = der.subarray(inner.start, inner.end);
  if (inner.tag === 0x80) return { form: 'seed', seed: v, oid: oidHex };
  if (inner.tag === 0x04) return { form: 'expanded', expanded: v, oid: oidHex };
  if (inner.tag === 0x30) {
    const [s, e] = children(der, inner);
    return { form: 'both', seed: der.subarray(s.start, s.end), expanded: der.subarray(e.start, e.end), oid: oidHex };
  }
  throw new Error(`unknown ML-DSA private key form (tag 0x${inner.tag.toString(16)})`);
}

// certificate({alg, subject, issuer, spki, key, ca}): a DER X.509 v3
// certificate for the SubjectPublicKeyInfo spki (DER), signed with the
// ML-DSA private KeyObject key (crypto.sign, so by the process's
// provider); valid from an hour ago for two days; basicConstraints CA:TRUE
// (critical) when ca, else CA:FALSE.
export function certificate({ alg, subject, issuer, spki, key, ca }) {
  const name = (cn) => seq(set(seq(oid('2.5.4.3'), utf8(cn))));
  const algid = seq(oid(MLDSA_OID[alg]));
  const now = Date.now();
  const serial = crypto.randomBytes(12);
  serial[0] &= 0x7f;
  serial[0] |= 0x01;
  const bc = seq(oid('2.5.29.19'), bool(true), octet(ca ? seq(bool(true)) : seq()));
  const tbs = seq(tlv(0xa0, int(2)), int(serial), algid, name(issuer),
    seq(utctime(new Date(now - 3600e3)), utctime(new Date(now + 2 * 86400e3))), name(subject), spki,
    tlv(0xa3, seq(bc)));
  const sig = crypto.sign(null, tbs, key);
  return seq(tbs, algid, bitstring(sig));
}

// pem(der, label): PEM text.
export function pem(der, label = 'CERTIFICATE') {
  const b = der.toString('base64').match(/.{1,64}/g).join('\n');
  return `-----BEGIN ${label}-----\n${b}\n-----END ${label}-----\n`;
}
