import type { Request, RequestHandler, Response } from 'express';
import { canonicalJson, decryptSecret, encryptSecret, sha256Hex } from '../crypto';
import { ApiError } from '../errors';
import type { Logger } from '../logger';
import type { ApiKeyPrincipal } from './api-key-auth';
import { requestIdOf } from './request';

export const IDEMPOTENCY_RETENTION_MS = 24 * 3600 * 1000;
/**
 * How long an `in_flight` claim holds its key (IDEMPOTENCY_LEASE_MS overrides it). Past it a retry with
 * the same key and body takes the claim over: its first request died, or could not store its outcome
 * (docs/reliability.md "Idempotency claims"). Longer than any request may run.
 */
export const IDEMPOTENCY_LEASE_MS = 60_000;
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

/** Reads and checks the Idempotency-Key header of a POST and hashes its (already parsed) body. */
export function idempotencyRequestOf(
  req: Request,
  res: Response,
  leaseMs: number = IDEMPOTENCY_LEASE_MS,
): IdempotencyRequest {
  const auth = res.locals.auth as ApiKeyPrincipal;
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

const SCOPE_WHERE = 'org_id = $1 AND livemode = $2 AND method = $3 AND path = $4 AND key = $5';
const scopeValues = (s: IdempotencyScope) => [s.org_id, s.livemode, s.method, s.path, s.key];

/**
 * The claim as one statement (`$1…$7`: org, livemode, method, path, key, request hash, request id).
 * Callers that batch statements in one round trip build the same INSERT with literals; a plain INSERT
 * (no ON CONFLICT) then aborts the batch with a unique violation on idempotency_keys when the key is taken.
 */
export const IDEMPOTENCY_CLAIM_SQL = `INSERT INTO idempotency_keys (org_id, livemode, method, path, key, request_hash, status, original_request_id)
  VALUES ($1, $2, $3, $4, $5, $6, 'in_flight', $7) ON CONFLICT (org_id, livemode, method, path, key) DO NOTHING RETURNING id`;

/** The unique index a taken key violates (Postgres error 23505). */
export const IDEMPOTENCY_UNIQUE_CONSTRAINT = 'idempotency_keys_org_id_livemode_method_path_key_key';

export function isIdempotencyConflict(err: unknown): boolean {
  const e = err as { code?: string; table?: string; constraint?: string } | null;
  return e?.code === '23505' && (e.table === 'idempotency_keys' || e.constraint === IDEMPOTENCY_UNIQUE_CONSTRAINT);
}

/**
 * The key is taken: decides what the request gets. Returns the stored response to replay, `null` when
 * the key was released (or expired and is now deleted, or its in-flight claim outlived its lease and
 * was taken back) so the caller may claim again, or throws 400 idempotency_replay_mismatch / 409
 * idempotency_key_in_use.
 */
export async function resolveTakenKey(
  db: IdempotencyDb,
  r: IdempotencyRequest,
  storage: IdempotencyStorage = {},
): Promise<StoredResponse | null> {
  const { rows } = await db.query(
    `SELECT id, request_hash, status, response_status, response_body, original_request_id, created,
            created < now() - make_interval(secs => $6::float8 / 1000) AS lease_expired
     FROM idempotency_keys WHERE ${SCOPE_WHERE}`,
    [...scopeValues(r.scope), r.leaseMs],
  );
  const existing = rows[0] as
    | {
        id: string;
        request_hash: string;
        status: string;
        response_status: number | null;
        response_body: string | null;
        original_request_id: string;
        created: Date;
        lease_expired: boolean;
      }
    | undefined;
  if (!existing) return null; // released between our insert and read: try to claim again
  if (Date.now() - existing.created.getTime() > IDEMPOTENCY_RETENTION_MS) {
    await db.query('DELETE FROM idempotency_keys WHERE id = $1', [existing.id]);
    return null;
  }
  if (existing.request_hash !== r.requestHash) {
    throw new ApiError('idempotency_replay_mismatch', {
      message: 'Keys for idempotent requests can only be used with the same parameters they were first used with.',
    });
  }
  if (existing.status === 'in_flight' && existing.lease_expired) {
    // the claiming request died or could not store its outcome: take the key back (only this exact claim,
    // so of two retries one claims it and the other sees the new claim) and let the caller claim it
    await db.query(`DELETE FROM idempotency_keys WHERE id = $1 AND status = 'in_flight' AND original_request_id = $2`, [
      existing.id,
      existing.original_request_id,
    ]);
    return null;
  }
  if (existing.status !== 'completed' || existing.response_status === null) {
    throw new ApiError('idempotency_key_in_use', {
      message: 'A request with this Idempotency-Key is still being processed; retry later.',
    });
  }
  return {
    status: existing.response_status,
    body: replayBodyOf(existing.response_body ?? '', storage),
    originalRequestId: existing.original_request_id,
  };
}

/**
 * Claims the key with one INSERT … ON CONFLICT DO NOTHING RETURNING (one round trip when free).
 * Returns the claim's row id, or the stored response to replay; throws mismatch / in use.
 */
async function claimIdempotencyKey(
  db: IdempotencyDb,
  r: IdempotencyRequest,
  storage: IdempotencyStorage = {},
): Promise<{ id: string } | { replay: StoredResponse }> {
  for (let tries = 0; tries < 2; tries++) {
    const { rows } = await db.query(IDEMPOTENCY_CLAIM_SQL, [...scopeValues(r.scope), r.requestHash, r.requestId]);
    if (rows[0]) return { id: String(rows[0].id) };
    const replay = await resolveTakenKey(db, r, storage);
    if (replay) return { replay };
  }
  throw new ApiError('idempotency_key_in_use', { message: 'Could not claim the Idempotency-Key; retry.' });
}

/**
 * Stores a 2xx response on the claimed row (`$1` id, `$2` status, `$3` body as storedBodyOf gives it,
 * `$4` the claiming request's id): only while the claim is still this request's, so a request that ran
 * past its lease never overwrites the claim a retry took over.
 */
export const IDEMPOTENCY_COMPLETE_SQL = `UPDATE idempotency_keys SET status = 'completed', response_status = $2, response_body = $3, completed_at = now()
  WHERE id = $1 AND status = 'in_flight' AND original_request_id = $4`;

/** Releases a claim that did not end in a 2xx, by scope and the claiming request's id. */
export async function releaseIdempotencyKey(db: IdempotencyDb, r: IdempotencyRequest): Promise<void> {
  await db.query(
    `DELETE FROM idempotency_keys WHERE ${SCOPE_WHERE} AND original_request_id = $6 AND status = 'in_flight'`,
    [...scopeValues(r.scope), r.requestId],
  );
}

/** Sends a stored response as a replay. */
export function sendReplay(res: Response, stored: StoredResponse): void {
  res.setHeader('Idempotent-Replayed', 'true');
  res.setHeader('Original-Request', stored.originalRequestId);
  res.status(stored.status).type('application/json').send(stored.body);
}

/**
 * Idempotency-Key for POST (docs/public-api.md "Idempotency"). Scope: (org, livemode, method, path). The key row is
 * claimed with an INSERT before the handler runs, so a concurrent duplicate gets 409
 * idempotency_key_in_use; a 2xx response is stored before it is sent, so a retry after the response
 * always replays; any other outcome releases the key. Body equality is by canonical JSON.
 *
 * `storage` is read per request (a function may throw, e.g. when SECRETS_KEY is not configured,
 * before the key is claimed): with a `secretsKey` the stored body is encrypted and decrypted on replay.
 *
 * Routes on a hot path can do better: claim in the same round trip as their own transaction and
 * store the response in it (public-api's signal ingest does, with the helpers above).
 */
export function idempotencyMiddleware(
  db: IdempotencyDb,
  storageOf: () => IdempotencyStorage = () => ({}),
  opts: { logger: Logger; leaseMs?: number },
): RequestHandler {
  return async (req, res, next) => {
    if (req.method !== 'POST') return next();
    const r = idempotencyRequestOf(req, res, opts.leaseMs);
    const storage = storageOf();
    const claim = await claimIdempotencyKey(db, r, storage);
    if ('replay' in claim) {
      sendReplay(res, claim.replay);
      return;
    }
    res.setHeader('Original-Request', r.requestId);
    interceptJson(res, async (status, body) => {
      try {
        if (status >= 200 && status < 300)
          await db.query(IDEMPOTENCY_COMPLETE_SQL, [claim.id, status, storedBodyOf(body, storage), r.requestId]);
        else await db.query(`DELETE FROM idempotency_keys WHERE id = $1 AND status = 'in_flight'`, [claim.id]);
      } catch (err) {
        // The outcome could not be stored. Say so, and release the claim so a retry is not refused for the
        // key's lifetime; if even that fails, the lease frees the key (docs/reliability.md "Idempotency claims").
        opts.logger.error('could not store the idempotent response; releasing the key', {
          err,
          request_id: r.requestId,
          path: r.scope.path,
        });
        await db
          .query(`DELETE FROM idempotency_keys WHERE id = $1 AND status = 'in_flight'`, [claim.id])
          .catch((e: unknown) =>
            opts.logger.error('could not release the idempotency key; its lease will', {
              err: e,
              request_id: r.requestId,
            }),
          );
      }
    });
    next();
  };
}

/** Runs `beforeSend` (which never rejects) with the serialised body before a res.json() response leaves. */
function interceptJson(res: Response, beforeSend: (status: number, body: string) => Promise<void>): void {
  res.json = ((body: unknown) => {
    const serialised = JSON.stringify(body);
    beforeSend(res.statusCode, serialised)
      .catch(() => undefined)
      .finally(() => {
        res.type('application/json');
        res.send(serialised);
      });
    return res;
  }) as typeof res.json;
}
