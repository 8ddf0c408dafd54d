import { createCipheriv, createDecipheriv, createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { decodeKey } from './config';

export function sha256Hex(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

/** url-safe random token of `bytes` bytes of entropy */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

export function constantTimeEqual(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb);
}

/** JSON with object keys sorted recursively: equal documents give equal strings whatever their key order. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value as object).sort()) out[key] = sortKeys((value as Record<string, unknown>)[key]);
    return out;
  }
  return value;
}

/**
 * AES-256-GCM for secrets that must be used again later (firewall API tokens, webhook signing
 * secrets). Format: v1.<iv>.<tag>.<ciphertext>, base64url parts.
 */
export function encryptSecret(plaintext: string, secretsKey: string): string {
  const key = mustKey(secretsKey);
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const ct = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), ct.toString('base64url')].join(
    '.',
  );
}

export function decryptSecret(ciphertext: string, secretsKey: string): string {
  const key = mustKey(secretsKey);
  const [version, iv, tag, ct] = ciphertext.split('.');
  if (version !== 'v1' || !iv || !tag || ct === undefined) throw new Error('unrecognised secret ciphertext');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(ct, 'base64url')), decipher.final()]).toString('utf8');
}

function mustKey(secretsKey: string): Buffer {
  const key = decodeKey(secretsKey);
  if (!key) throw new Error('SECRETS_KEY must be 32 bytes (64 hex chars or base64)');
  return key;
}
