// Idempotency claims on idempotency_keys (docs/reliability.md "Idempotency claims"): claim, resolve a taken
// key (replay, mismatch, in flight), store the 2xx, release, and the middleware that runs them around a
// handler. The request's facts (header, hash, scope, stored-body encryption) are in idempotency-request.ts.
import {
  completeIdempotencyClaim,
  deleteIdempotencyKey,
  insertIdempotencyClaim,
  readIdempotencyKey,
  releaseIdempotencyClaim,
} from '@risk/db';
import type { RequestHandler, Response } from 'express';
import { IDEMPOTENCY_RETENTION_MS } from '../config';
import { ApiError } from '../errors';
import type { Logger } from '../logger';
import {
  idempotencyRequestOf,
  replayBodyOf,
  storedBodyOf,
  type IdempotencyDb,
  type IdempotencyRequest,
  type IdempotencyStorage,
  type StoredResponse,
} from './idempotency-request';

export * from './idempotency-request';

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
  const existing = await readIdempotencyKey(db, { scope: r.scope, leaseMs: r.leaseMs });
  if (!existing) return null; // released between our insert and read: try to claim again
  if (Date.now() - existing.created.getTime() > IDEMPOTENCY_RETENTION_MS) {
    await deleteIdempotencyKey(db, existing.id);
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
    await releaseIdempotencyClaim(db, { id: existing.id, requestId: existing.original_request_id });
    return null;
  }
  if (existing.status === 'in_flight' && existing.original_request_id === r.requestId) {
    // this very request's earlier attempt claimed the key and committed, but its connection died before it
    // could say so (a micro-batch retried alone after a terminated backend): its outcome is unknown here,
    // which is a 500 like a failed completion write; a retry with the key takes the claim over after the
    // lease (docs/reliability.md "Idempotency claims")
    throw new ApiError('internal_error', {
      message: 'The outcome of this request could not be confirmed; retry with the same Idempotency-Key.',
    });
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
    const id = await insertIdempotencyClaim(db, r);
    if (id !== undefined) return { id };
    const replay = await resolveTakenKey(db, r, storage);
    if (replay) return { replay };
  }
  throw new ApiError('idempotency_key_in_use', { message: 'Could not claim the Idempotency-Key; retry.' });
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
          await completeIdempotencyClaim(db, {
            id: claim.id,
            status,
            body: storedBodyOf(body, storage),
            requestId: r.requestId,
          });
        else await releaseIdempotencyClaim(db, { id: claim.id });
      } catch (err) {
        // The outcome could not be stored. Say so, and release the claim so a retry is not refused for the
        // key's lifetime; if even that fails, the lease frees the key (docs/reliability.md "Idempotency claims").
        opts.logger.error('could not store the idempotent response; releasing the key', {
          err,
          request_id: r.requestId,
          path: r.scope.path,
        });
        await releaseIdempotencyClaim(db, { id: claim.id }).catch((e: unknown) =>
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
