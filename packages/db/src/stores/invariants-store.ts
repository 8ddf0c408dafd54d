// The reads of the worker's invariant pass (docs/reliability.md "Invariants"): work that should be waiting somewhere
// (an outbox row, a queued job) and is not, each kind in one bounded, set-based statement, under one advisory lock.
import type { Pool, PoolClient } from 'pg';

/** pg_try_advisory_xact_lock key: one pass at a time across every worker replica and the CLI */
const LOCK_KEY = 0x72697369; // 'risi'
/** work younger than this is left alone: the API's post-commit enqueue and the relay may still be on it */
const GRACE = `interval '1 minute'`;

/**
 * Cool-down of a `failed` assignment before the pass re-queues it: as long as it has been failing (since its last
 * sync, or its creation), at least FAILED_RETRY_MIN and at most FAILED_RETRY_MAX. Each re-queued push that fails
 * again moves `updated`, so the waits roughly double (5 min, 8, 16, ...) up to one an hour.
 */
const FAILED_RETRY_MIN = `interval '5 minutes'`;
const FAILED_RETRY_MAX = `interval '1 hour'`;

/** An asset waiting for enrichment with no outbox row for its latest digest; `outbox_id`: its newest relayed row. */
export interface UnqueuedAsset {
  livemode: boolean;
  fingerprint: string;
  latest_digest: string;
  outbox_id: string | null;
}

/** An assignment waiting for a push (apply its target version, or remove it) with no outbox row. */
export interface AssignmentCandidate {
  id: string;
  action: 'apply' | 'remove';
  version: number;
}

/**
 * An asset waits for enrichment when it is `pending` or `stale` (docs/reliability.md "Enrichment jobs"; `failed` is a
 * resting state left by the next signal). It is queued when an outbox row for its latest digest waits, or when the
 * job of the newest relayed row for that digest is still in BullMQ unfinished. The outbox is scanned once (hash join
 * against the bounded candidate set).
 */
const ASSET_CANDIDATES_SQL = `
  WITH c AS MATERIALIZED (
    SELECT a.livemode, a.fingerprint, a.latest_digest FROM assets a
     WHERE a.enrichment_status IN ('pending', 'stale') AND a.updated < now() - ${GRACE}
       AND NOT EXISTS (SELECT 1 FROM outbox o
                        WHERE o.kind = 'enrichment' AND o.processed_at IS NULL AND o.dead_lettered_at IS NULL
                          AND o.payload->>'fingerprint' = a.fingerprint
                          AND COALESCE((o.payload->>'livemode')::boolean, true) = a.livemode
                          AND o.payload->>'digest' = a.latest_digest)
     ORDER BY a.livemode, a.fingerprint LIMIT $1
  )
  SELECT c.livemode, c.fingerprint, c.latest_digest, max(o.id)::text AS outbox_id
    FROM c LEFT JOIN outbox o
      ON o.kind = 'enrichment' AND o.processed_at IS NOT NULL
     AND o.payload->>'fingerprint' = c.fingerprint
     AND COALESCE((o.payload->>'livemode')::boolean, true) = c.livemode
     AND o.payload->>'digest' = c.latest_digest
   GROUP BY c.livemode, c.fingerprint, c.latest_digest`;

/**
 * An assignment waits for a push while `pending` (apply its target version) or `removing` (remove it); it is queued
 * when a firewall_sync outbox row for that action and version waits, or its job is in BullMQ unfinished.
 */
const ASSIGNMENT_CANDIDATES_SQL = `
  SELECT a.id, CASE a.sync_status WHEN 'removing' THEN 'remove' ELSE 'apply' END AS action,
         a.target_version AS version
    FROM policy_assignments a
   WHERE a.sync_status IN ('pending', 'removing') AND a.updated < now() - ${GRACE}
     AND NOT EXISTS (SELECT 1 FROM outbox o
                      WHERE o.kind = 'firewall_sync' AND o.processed_at IS NULL AND o.dead_lettered_at IS NULL
                        AND o.payload->>'assignment_id' = a.id)
   ORDER BY a.id LIMIT $1`;

const FAILED_ASSIGNMENTS_SQL = `
  SELECT a.id, 'apply' AS action, a.target_version AS version
    FROM policy_assignments a
   WHERE a.sync_status = 'failed'
     AND split_part(a.last_error, ':', 1) = ANY($2::text[])
     AND a.updated < now() - LEAST(${FAILED_RETRY_MAX},
           GREATEST(${FAILED_RETRY_MIN}, a.updated - COALESCE(a.last_synced_at, a.created)))
     AND NOT EXISTS (SELECT 1 FROM outbox o
                      WHERE o.kind = 'firewall_sync' AND o.processed_at IS NULL AND o.dead_lettered_at IS NULL
                        AND o.payload->>'assignment_id' = a.id)
   ORDER BY a.id LIMIT $1`;

const OUTBOX_SQL = `
  SELECT count(*) FILTER (WHERE dead_lettered_at IS NULL AND created < now() - ${GRACE})::int AS stuck,
         COALESCE(EXTRACT(EPOCH FROM now() - min(created) FILTER (WHERE dead_lettered_at IS NULL)), 0)::float8 AS oldest,
         count(*) FILTER (WHERE dead_lettered_at IS NOT NULL)::int AS dead
    FROM outbox WHERE processed_at IS NULL`;

const DEAD_IDS_SQL = `SELECT id::text AS id FROM outbox
  WHERE processed_at IS NULL AND dead_lettered_at IS NOT NULL ORDER BY id LIMIT 100`;

/** What one invariant pass reads and writes, inside the pass's transaction. */
export interface InvariantReads {
  /** up to `limit` assets waiting for enrichment with no outbox row for their latest digest */
  unqueuedAssets(limit: number): Promise<UnqueuedAsset[]>;
  /** up to `limit` pending or removing assignments with no outbox row */
  unqueuedAssignments(limit: number): Promise<AssignmentCandidate[]>;
  /** up to `limit` failed assignments whose last error's reason is one of `reasons`, past their cool-down */
  failedAssignments(limit: number, reasons: readonly string[]): Promise<AssignmentCandidate[]>;
  /** waiting outbox rows: older than the grace (stuck), the oldest's age in seconds, and the dead-lettered */
  outboxCounts(): Promise<{ stuck: number; oldest: number; dead: number }>;
  /** the first 100 dead-lettered row ids, oldest first */
  deadLetteredIds(): Promise<string[]>;
  /** one enrichment outbox row per asset (reason `doctor`) */
  requeueEnrichments(assets: readonly UnqueuedAsset[]): Promise<void>;
}

function readsOn(client: Pick<PoolClient, 'query'>): InvariantReads {
  return {
    unqueuedAssets: async (limit) => (await client.query<UnqueuedAsset>(ASSET_CANDIDATES_SQL, [limit])).rows,
    unqueuedAssignments: async (limit) =>
      (await client.query<AssignmentCandidate>(ASSIGNMENT_CANDIDATES_SQL, [limit])).rows,
    failedAssignments: async (limit, reasons) =>
      (await client.query<AssignmentCandidate>(FAILED_ASSIGNMENTS_SQL, [limit, reasons])).rows,
    outboxCounts: async () => {
      const { rows } = await client.query<{ stuck: number; oldest: number; dead: number }>(OUTBOX_SQL);
      return rows[0] ?? { stuck: 0, oldest: 0, dead: 0 };
    },
    deadLetteredIds: async () => (await client.query<{ id: string }>(DEAD_IDS_SQL)).rows.map((r) => r.id),
    requeueEnrichments: async (assets) => {
      if (assets.length === 0) return;
      // through the outbox like every other enrichment request: the relay makes one job per row, and the job is a
      // no-op if the asset got enriched in the meantime (docs/reliability.md "Enrichment jobs")
      await client.query(
        `INSERT INTO outbox (kind, payload)
         SELECT 'enrichment', jsonb_build_object('livemode', l, 'fingerprint', f, 'digest', d, 'reason', 'doctor')
           FROM unnest($1::boolean[], $2::text[], $3::text[]) AS x(l, f, d)`,
        [assets.map((a) => a.livemode), assets.map((a) => a.fingerprint), assets.map((a) => a.latest_digest)],
      );
    },
  };
}

/**
 * Runs `pass` in a transaction holding the invariants' advisory lock (pg_try_advisory_xact_lock), so two replicas
 * never check and repair at once. Undefined when another pass holds the lock.
 */
export async function withInvariantLock<T>(
  db: Pick<Pool, 'connect'>,
  pass: (reads: InvariantReads) => Promise<T>,
): Promise<T | undefined> {
  const client = await db.connect();
  try {
    await client.query('BEGIN');
    const { rows: lock } = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_xact_lock($1) AS ok', [
      LOCK_KEY,
    ]);
    if (!lock[0]?.ok) {
      await client.query('COMMIT');
      return undefined;
    }
    const result = await pass(readsOn(client));
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}
