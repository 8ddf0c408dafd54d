// Deterministic STIX identifiers (docs/formats.md "STIX"): UUIDv5 (RFC 9562, SHA-1) of our own ids under one fixed
// namespace, so exporting the same threat twice gives the same STIX id and a re-import merges instead of duplicating.
import { createHash } from 'node:crypto';

/** The namespace of every id we mint (a fixed random UUID; never change it: exported ids would all change). */
export const RISK_STIX_NAMESPACE = '6b1b4e4c-3f8e-4c1a-9d55-2f0c8a1e7d42';

export function uuidV5(name: string, namespace = RISK_STIX_NAMESPACE): string {
  const ns = Buffer.from(namespace.replace(/-/g, ''), 'hex');
  const hash = createHash('sha1').update(ns).update(name, 'utf8').digest();
  hash[6] = ((hash[6] ?? 0) & 0x0f) | 0x50;
  hash[8] = ((hash[8] ?? 0) & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/** `<type>--<uuidv5(key)>`: the STIX id of one of our objects (a threat's id, a CVE id, an ATLAS technique id). */
export const stixId = (type: string, key: string): string => `${type}--${uuidV5(`${type}:${key}`)}`;

/** The STIX id a threat is exported under, whatever SDO type carries it. */
export const threatStixId = (type: string, threatId: string): string => stixId(type, `threat:${threatId}`);
