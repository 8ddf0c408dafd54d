import { createCipheriv, createDecipheriv, createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export function sha256Hex(data: string | Uint8Array): string {
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

/**
 * JSON with object keys sorted at every depth: equal documents give equal strings whatever their key order, and
 * different documents give different strings (the idempotency request hash and the signal content digest rely on
 * both). Every own key counts: copying `__proto__` into a plain object with `out[key] = …` would set its prototype
 * instead and drop the key from the output (docs/security.md "JSON nesting depth"), so that key is defined. No
 * document's depth can overflow the stack: a sorted copy serialised by JSON.stringify (fast, native) serves documents
 * up to CANONICAL_RECURSION_MAX_DEPTH levels, deeper ones are written without recursion. The output is the one the
 * earlier recursive copy + JSON.stringify gave for every document without a `__proto__` key: array-index keys ("0",
 * "12") first in numeric order as a JavaScript object lists them, then the other keys sorted by UTF-16 code units;
 * inside arrays undefined, functions and symbols become null, in objects they are left out.
 */
export function canonicalJson(value: unknown): string {
  try {
    return JSON.stringify(sortedCopy(value, 1));
  } catch (err) {
    if (err !== TOO_DEEP) throw err;
    return canonicalJsonIterative(value);
  }
}

/** Far below what overflows the stack (a few thousand levels), far above any body the APIs accept (32). */
const CANONICAL_RECURSION_MAX_DEPTH = 64;
const TOO_DEEP = new RangeError('deeper than the sorted copy recurses');

function sortedCopy(value: unknown, depth: number): unknown {
  if (!isJsonContainer(value)) return value;
  if (depth > CANONICAL_RECURSION_MAX_DEPTH) throw TOO_DEEP;
  if (Array.isArray(value)) return value.map((item: unknown) => sortedCopy(item, depth + 1));
  const record = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    const child = sortedCopy(record[key], depth + 1);
    if (key === '__proto__') Object.defineProperty(out, key, { value: child, enumerable: true, writable: true });
    else out[key] = child;
  }
  return out;
}

/** canonicalJson's output, written with an explicit stack of frames instead of recursion (any depth). */
function canonicalJsonIterative(value: unknown): string {
  if (!isJsonContainer(value)) return JSON.stringify(value);
  const parts: string[] = [];
  const frames: CanonicalFrame[] = [];
  const open = (node: object) => {
    if (Array.isArray(node)) {
      parts.push('[');
      frames.push({ node, keys: undefined, next: 0 });
    } else {
      parts.push('{');
      frames.push({ node, keys: canonicalKeys(node), next: 0 });
    }
  };
  open(value);
  while (frames.length > 0) {
    const frame = frames[frames.length - 1]!;
    const length = frame.keys ? frame.keys.length : (frame.node as unknown[]).length;
    if (frame.next === length) {
      parts.push(frame.keys ? '}' : ']');
      frames.pop();
      continue;
    }
    if (frame.next > 0) parts.push(',');
    let child: unknown;
    if (frame.keys) {
      const key = frame.keys[frame.next]!;
      parts.push(JSON.stringify(key), ':');
      child = (frame.node as Record<string, unknown>)[key];
    } else child = (frame.node as unknown[])[frame.next];
    frame.next++;
    if (isJsonContainer(child)) open(child);
    else parts.push(JSON.stringify(child) ?? 'null');
  }
  return parts.join('');
}

interface CanonicalFrame {
  node: object;
  /** an object's keys in output order; undefined for an array */
  keys: string[] | undefined;
  next: number;
}

const isJsonContainer = (value: unknown): value is object => value !== null && typeof value === 'object';

/** Values JSON.stringify leaves out of an object. */
const isOmitted = (value: unknown) => value === undefined || typeof value === 'function' || typeof value === 'symbol';

const ARRAY_INDEX = /^(?:0|[1-9]\d{0,9})$/;
const MAX_ARRAY_INDEX = 2 ** 32 - 2;

/** An own key that an object lists before its other keys, in numeric order (ECMAScript "array index"). */
const isArrayIndex = (key: string) => ARRAY_INDEX.test(key) && Number(key) <= MAX_ARRAY_INDEX;

function canonicalKeys(node: object): string[] {
  const record = node as Record<string, unknown>;
  const keys = Object.keys(node).filter((key) => !isOmitted(record[key]));
  // Object.keys lists array-index keys first, already in numeric order
  let indexKeys = 0;
  while (indexKeys < keys.length && isArrayIndex(keys[indexKeys]!)) indexKeys++;
  if (indexKeys === 0) return keys.sort();
  return keys.slice(0, indexKeys).concat(keys.slice(indexKeys).sort());
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

/** A 32-byte key given as 64 hex characters or base64 (SECRETS_KEY); null when it is neither. */
export function decodeKey(value: string): Buffer | null {
  if (/^[0-9a-fA-F]{64}$/.test(value)) return Buffer.from(value, 'hex');
  const buf = Buffer.from(value, 'base64');
  return buf.length === 32 ? buf : null;
}

function mustKey(secretsKey: string): Buffer {
  const key = decodeKey(secretsKey);
  if (!key) throw new Error('SECRETS_KEY must be 32 bytes (64 hex chars or base64)');
  return key;
}
