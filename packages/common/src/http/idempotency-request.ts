// The facts of one idempotent POST (docs/reliability.md "Idempotency claims"): the Idempotency-Key header
// checked, the request hashed, its scope, and how a stored 2xx body is kept (encrypted or not). The claim,
// replay and release against idempotency_keys are in idempotency.ts.
import type { Request, Response } from 'express';
import { IDEMPOTENCY_LEASE_MS } from '../config';
import { canonicalJson, decryptSecret, encryptSecret, sha256Hex } from '../crypto';
import { ApiError } from '../errors';
import type { ApiKeyPrincipal } from './api-key-auth';
import { requestIdOf } from './request';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What the idempotency helpers need of a database handle: a pg Pool (or PoolClient). */
export interface IdempotencyDb {
  query(text: string, values?: unknown[]): Promise<{ rows: Array<Record<string, unknown>> }>;
}

export interface IdempotencyScope {
  org_id: string;
  livemode: boolean;
  method: string;
  path: string;
  key: string;
}

/** One POST's idempotency facts, computed once per request. */
export interface IdempotencyRequest {
  scope: IdempotencyScope;
  /** sha256 of the canonical JSON of the body (key order does not matter) */
  requestHash: string;
  requestId: string;
  /** how long an in-flight claim of this key holds before a retry may take it over */
  leaseMs: number;
}

/** A stored 2xx response, replayed with `Idempotent-Replayed: true`. */
export interface StoredResponse {
  status: number;
  body: string;
  originalRequestId: string;
}

/**
 * How a route's stored responses are kept. `secretsKey` (SECRETS_KEY): the response carries a secret
 * shown only once (a webhook signing secret), so its stored body is encrypted at rest and decrypted
 * for a replay. Routes without it store plaintext JSON.
 */
export interface IdempotencyStorage {
  secretsKey?: string;
}

/**
 * Marks an encrypted stored body: `enc:` + encryptSecret's `v1.<iv>.<tag>.<ciphertext>`. A JSON body
 * never starts with it, so plaintext rows (every other route, and rows written before encryption)
 * replay as they are.
 */
export const ENCRYPTED_BODY_PREFIX = 'enc:';

/** The response_body to store for a serialised 2xx body. */
export function storedBodyOf(body: string, storage: IdempotencyStorage = {}): string {
  return storage.secretsKey === undefined ? body : ENCRYPTED_BODY_PREFIX + encryptSecret(body, storage.secretsKey);
}

/** The body to replay for a stored response_body (decrypted when it was stored encrypted). */
export function replayBodyOf(stored: string, storage: IdempotencyStorage = {}): string {
  if (!stored.startsWith(ENCRYPTED_BODY_PREFIX)) return stored;
  if (storage.secretsKey === undefined)
    throw new Error('an encrypted idempotent response needs SECRETS_KEY to be replayed');
  return decryptSecret(stored.slice(ENCRYPTED_BODY_PREFIX.length), storage.secretsKey);
}

/**
 * The path part of the scope, as routing sees it. Express matches routes case-insensitively and with
 * or without a trailing slash (Router `caseSensitive` and `strict` both default to false), so
 * `/V1/Webhooks/` reaches the same handler as `/v1/webhooks`; scoping by the raw path let one key run
 * the same request twice. The scope is the matched route's pattern in lower case with its parameters
 * filled in, URL-encoded and with their case kept (a fingerprint or an id is case-sensitive). Relative
 * to the router's mount point, as `req.path` was, so keys stored before stay valid (`/signals`).
 */
export function idempotencyPathOf(req: Request): string {
  const route = (req as { route?: { path?: unknown } }).route;
  const pattern = typeof route?.path === 'string' ? route.path : req.path;
  const params = req.params as Record<string, string | string[] | undefined>;
  const filled = pattern.toLowerCase().replace(/:(\w+)/g, (whole, name: string) => {
    const original = Object.keys(params).find((k) => k.toLowerCase() === name);
    const value = original === undefined ? undefined : params[original];
    if (value === undefined) return whole;
    return encodeURIComponent(Array.isArray(value) ? value.join('/') : value);
  });
  let end = filled.length;
  while (end > 1 && filled[end - 1] === '/') end--; // a loop, not /\/+$/ (quadratic on a run of slashes)
  return filled.slice(0, end);
}

/** Whose keys a POST's Idempotency-Key is scoped to: the org and mode of an API key, or another owner. */
export interface IdempotencyOwner {
  org_id: string;
  livemode: boolean;
}

/**
 * The scope owner of a request: what the route builder put in `res.locals.idempotencyOwner` (an auth mode's
 * `idempotencyOwner`, e.g. a tenant on the admin API), else the API-key principal of the public API.
 */
function idempotencyOwnerOf(res: Response): IdempotencyOwner {
  const owner = res.locals.idempotencyOwner as IdempotencyOwner | undefined;
  return owner ?? (res.locals.auth as ApiKeyPrincipal);
}

/** Reads and checks the Idempotency-Key header of a POST and hashes its (already parsed) body. */
export function idempotencyRequestOf(
  req: Request,
  res: Response,
  leaseMs: number = IDEMPOTENCY_LEASE_MS,
): IdempotencyRequest {
  const auth = idempotencyOwnerOf(res);
  const header = req.headers['idempotency-key'];
  const key = Array.isArray(header) ? header[0] : header;
  if (!key) {
    throw new ApiError('idempotency_key_missing', { message: "Every POST needs an 'Idempotency-Key: <uuid>' header." });
  }
  if (!UUID.test(key)) {
    throw new ApiError('idempotency_key_invalid', { message: 'Idempotency-Key must be a UUID.' });
  }
  return {
    scope: { org_id: auth.org_id, livemode: auth.livemode, method: req.method, path: idempotencyPathOf(req), key },
    requestHash: sha256Hex(canonicalJson(req.body ?? null)),
    requestId: requestIdOf(res),
    leaseMs,
  };
}
