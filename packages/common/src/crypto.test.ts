import { randomBytes } from 'node:crypto';
import { canonicalJson, constantTimeEqual, decryptSecret, encryptSecret } from './crypto';

describe('crypto helpers', () => {
  it('canonicalJson ignores key order at every depth but keeps array order', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, 1], c: null } })).toBe(canonicalJson({ a: { c: null, d: [2, 1] }, b: 1 }));
    expect(canonicalJson({ a: [1, 2] })).not.toBe(canonicalJson({ a: [2, 1] }));
  });

  it('encryptSecret round-trips with AES-256-GCM, uses a fresh IV and rejects tampering or a wrong key', () => {
    const key = randomBytes(32).toString('hex');
    const a = encryptSecret('s3cr3t-token', key);
    const b = encryptSecret('s3cr3t-token', key);
    expect(a).not.toBe(b);
    expect(a).not.toContain('s3cr3t');
    expect(decryptSecret(a, key)).toBe('s3cr3t-token');
    const parts = a.split('.');
    parts[3] = Buffer.from('tampered').toString('base64url');
    expect(() => decryptSecret(parts.join('.'), key)).toThrow();
    expect(() => decryptSecret(a, randomBytes(32).toString('base64'))).toThrow();
  });

  it('constantTimeEqual compares strings of any length', () => {
    expect(constantTimeEqual('abc', 'abc')).toBe(true);
    expect(constantTimeEqual('abc', 'abcd')).toBe(false);
  });
});
