// Idempotency claims on idempotency_keys (docs/reliability.md "Idempotency claims"): claim, read a taken key,
// take an expired claim back, store the 2xx, release, purge. What a request's key, hash and scope are is
// @risk/common's (http/idempotency-request.ts); the middleware that runs these around a handler is there too.
import type { Pool } from 'pg';
import type { PrismaClient } from '../generated/prisma/client';

/**
 * What the idempotency statements need of a database handle: a pg Pool (or PoolClient), or a Prisma client
 * through prismaQueryable (the admin API holds no pg Pool).
 */
export interface Queryable {
  query(text: string, values?: unknown[]): Promise<{ rows: Array<Record<string, unknown>> }>;
}

/** A Prisma client as a Queryable: `$1…` placeholders bound by Prisma. */
export const prismaQueryable = (prisma: Pick<PrismaClient, '$queryRawUnsafe'>): Queryable => ({
  query: async (text, values = []) => ({
    rows: await prisma.$queryRawUnsafe<Array<Record<string, unknown>>>(text, ...values),
  }),
});

export interface IdempotencyKeyScope {
  org_id: string;
  livemode: boolean;
  method: string;
  path: string;
  key: string;
}

/** A taken key as stored. */
export interface IdempotencyKeyRow {
  id: string;
  request_hash: string;
  status: string;
  response_status: number | null;
  response_body: string | null;
  original_request_id: string;
  created: Date;
  /** an in-flight claim older than the lease */
  lease_expired: boolean;
}

const SCOPE_WHERE = 'org_id = $1 AND livemode = $2 AND method = $3 AND path = $4 AND key = $5';
const scopeValues = (s: IdempotencyKeyScope) => [s.org_id, s.livemode, s.method, s.path, s.key];

/**
 * Claims the key with one INSERT … ON CONFLICT DO NOTHING RETURNING: the claim's row id, or undefined when the
 * key is taken. (The signal ingest builds the same INSERT with literals, without ON CONFLICT: signals-store.ts.)
 */
export async function insertIdempotencyClaim(
  db: Queryable,
  claim: { scope: IdempotencyKeyScope; requestHash: string; requestId: string },
): Promise<string | undefined> {
  const { rows } = await db.query(
    `INSERT INTO idempotency_keys (org_id, livemode, method, path, key, request_hash, status, original_request_id)
     VALUES ($1, $2, $3, $4, $5, $6, 'in_flight', $7) ON CONFLICT (org_id, livemode, method, path, key) DO NOTHING RETURNING id`,
    [...scopeValues(claim.scope), claim.requestHash, claim.requestId],
  );
  return rows[0] ? String(rows[0].id) : undefined;
}

/** The key's row, if any; `lease_expired` says whether an in-flight claim is older than `leaseMs`. */
export async function readIdempotencyKey(
  db: Queryable,
  taken: { scope: IdempotencyKeyScope; leaseMs: number },
): Promise<IdempotencyKeyRow | undefined> {
  const { rows } = await db.query(
    `SELECT id, request_hash, status, response_status, response_body, original_request_id, created,
            created < now() - make_interval(secs => $6::float8 / 1000) AS lease_expired
     FROM idempotency_keys WHERE ${SCOPE_WHERE}`,
    [...scopeValues(taken.scope), taken.leaseMs],
  );
  return rows[0] as IdempotencyKeyRow | undefined;
}

/** Deletes an expired key row. */
export async function deleteIdempotencyKey(db: Queryable, id: string): Promise<void> {
  await db.query('DELETE FROM idempotency_keys WHERE id = $1', [id]);
}

/**
 * Releases an in-flight claim; with `requestId`, only that request's claim (of two retries taking an expired claim
 * back, one deletes it and the other then sees the new claim).
 */
export async function releaseIdempotencyClaim(
  db: Queryable,
  claim: { id: string; requestId?: string },
): Promise<void> {
  if (claim.requestId === undefined)
    await db.query(`DELETE FROM idempotency_keys WHERE id = $1 AND status = 'in_flight'`, [claim.id]);
  else
    await db.query(`DELETE FROM idempotency_keys WHERE id = $1 AND status = 'in_flight' AND original_request_id = $2`, [
      claim.id,
      claim.requestId,
    ]);
}

/**
 * Stores a 2xx response on the claimed row, only while the claim is still this request's, so a request that ran
 * past its lease never overwrites the claim a retry took over.
 */
export async function completeIdempotencyClaim(
  db: Queryable,
  done: { id: string; status: number; body: string; requestId: string },
): Promise<void> {
  await db.query(
    `UPDATE idempotency_keys SET status = 'completed', response_status = $2, response_body = $3, completed_at = now()
      WHERE id = $1 AND status = 'in_flight' AND original_request_id = $4`,
    [done.id, done.status, done.body, done.requestId],
  );
}

/** Deletes the keys created before `before`; returns how many. */
export async function purgeIdempotencyKeys(db: Pick<Pool, 'query'>, before: Date): Promise<number> {
  return (await db.query('DELETE FROM idempotency_keys WHERE created < $1', [before])).rowCount ?? 0;
}
