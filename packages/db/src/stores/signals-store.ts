import type { Pool } from 'pg';
import { copyValue } from '../sql/copy';
import { literal } from '../sql/literal';
import { withPrepared, type PreparedSession } from '../sql/prepared';
import { INGEST_STATEMENTS, PROJECTION_BUCKETS } from './signals-statements';

export { PROJECTION_BUCKETS };

/**
 * The signals store (docs/data-access.md "Stores"): the ingest transaction's statements over signals,
 * assets, asset_orgs, idempotency claims, the outbox and asset.created events. They are server-side
 * prepared statements (signals-statements.ts; PREPARE once per pooled connection, then `EXECUTE name(literal, …)`), so the two
 * multi-statement round trips of an ingest neither re-parse nor re-plan a dozen statements for every
 * request. Arguments are SQL literals from the one formatter (../sql/literal.ts); callers reject NUL
 * characters first (they cannot travel in SQL text, nor be stored in a text column).
 */
/** The idempotency scope and ids of one request (the shape of @risk/common's IdempotencyRequest). */
export interface ClaimRequest {
  scope: { org_id: string; livemode: boolean; method: string; path: string; key: string };
  requestHash: string;
  requestId: string;
}

/** A signal row as inserted (the rendered columns plus the id of the request that sent it). */
export interface SignalInsert {
  id: string;
  org_id: string;
  livemode: boolean;
  fingerprint: string;
  asset_type: string;
  observed_at: Date;
  name: string | null;
  version: string | null;
  source_url: string | null;
  raw_manifest: string | null;
  metadata: unknown;
  content_digest: string;
  request_id: string;
  /** the files the signal names by hash (docs/artifacts.md "Judgement"); null when it names none */
  artifacts?: unknown;
}

/** One outbox row of kind 'enrichment': the job as JSON and its dedupe key (JOBS.enrichment.dedupeKey; the job id is the outbox row's, docs/reliability.md). */
export interface EnrichmentOutboxRow {
  payload: string;
  dedupe_key: string;
}

const { textArray, intArray, boolArray } = literal;
const ts = literal.timestamptz;
const tsArray = literal.timestamptzArray;
const exec = INGEST_STATEMENTS.execute.bind(INGEST_STATEMENTS);

/**
 * One asset of a batch: the batch's aggregate of its signals (the last one is the org's latest
 * observation). One org per asset and batch (requests of a batch never share an asset).
 */
export interface AssetWrite {
  livemode: boolean;
  fingerprint: string;
  org_id: string;
  asset_type: string;
  name: string | null;
  normalized_name: string | null;
  version: string | null;
  source_url: string | null;
  latest_signal_id: string;
  /** the content digest of the latest signal */
  content_digest: string;
  /** the asset's observation-set digest after this batch (= content_digest for a new asset) */
  latest_digest: string;
  count: number;
  first_seen: Date;
  last_seen: Date;
}

/** The column arrays ri_assets_insert and ri_assets_update share, in their parameter order. */
const assetColumns = (assets: readonly AssetWrite[]): string[] => [
  boolArray(assets.map((a) => a.livemode)),
  textArray(assets.map((a) => a.fingerprint)),
  textArray(assets.map((a) => a.asset_type)),
  textArray(assets.map((a) => a.name)),
  textArray(assets.map((a) => a.normalized_name)),
  textArray(assets.map((a) => a.version)),
  textArray(assets.map((a) => a.source_url)),
  textArray(assets.map((a) => a.latest_signal_id)),
  textArray(assets.map((a) => a.latest_digest)),
  intArray(assets.map((a) => a.count)),
  tsArray(assets.map((a) => a.first_seen)),
  tsArray(assets.map((a) => a.last_seen)),
];

/** The idempotency scopes of a batch's requests as column arrays (org, livemode, method, path, key). */
const scopeColumns = (idems: readonly ClaimRequest[]): string[] => [
  textArray(idems.map((r) => r.scope.org_id)),
  boolArray(idems.map((r) => r.scope.livemode)),
  textArray(idems.map((r) => r.scope.method)),
  textArray(idems.map((r) => r.scope.path)),
  textArray(idems.map((r) => r.scope.key)),
];

/** The columns a bulk request's signals are copied into, in the order of signalsCopyData's fields. */
const SIGNAL_COPY_COLUMNS =
  'id, org_id, livemode, fingerprint, asset_type, observed_at, name, version, source_url, raw_manifest, metadata, ' +
  'content_digest, request_id, artifacts, created';

/** The EXECUTE text of each ingest statement, from the batch's values. */
export const signalsStore = {
  begin: 'BEGIN',
  commit: 'COMMIT',
  /**
   * The claims in a transaction of their own, committed before the ingest's so a concurrent duplicate sees them (409)
   * at once. They need not wait for their WAL flush: the ingest's synchronous COMMIT flushes them too, and a claim
   * lost in a crash before that only frees the key, which is what a failed request does anyway.
   */
  claimCommitted: (idems: readonly ClaimRequest[]) => [
    'BEGIN',
    'SET LOCAL synchronous_commit = off',
    signalsStore.claim(idems),
    'COMMIT',
  ],
  claim: (idems: readonly ClaimRequest[]) =>
    exec('ri_claim', [
      ...scopeColumns(idems),
      textArray(idems.map((r) => r.requestHash)),
      textArray(idems.map((r) => r.requestId)),
    ]),
  /** stores each request's 2xx response on its claim */
  complete: (responses: ReadonlyArray<{ idem: ClaimRequest; status: number; body: string }>) =>
    exec('ri_complete', [
      ...scopeColumns(responses.map((r) => r.idem)),
      textArray(responses.map((r) => r.idem.requestId)),
      intArray(responses.map((r) => r.status)),
      textArray(responses.map((r) => r.body)),
    ]),
  insertSignals: (created: Date, rows: readonly SignalInsert[]) => {
    const col = (f: (r: SignalInsert) => string | null) => textArray(rows.map(f));
    return exec('ri_signals', [
      ts(created),
      col((r) => r.id),
      col((r) => r.org_id),
      boolArray(rows.map((r) => r.livemode)),
      col((r) => r.fingerprint),
      col((r) => r.asset_type),
      tsArray(rows.map((r) => r.observed_at)),
      col((r) => r.name),
      col((r) => r.version),
      col((r) => r.source_url),
      col((r) => r.raw_manifest),
      col((r) => (r.metadata === null || r.metadata === undefined ? null : JSON.stringify(r.metadata))),
      col((r) => r.content_digest),
      col((r) => r.request_id),
      col((r) => (r.artifacts ? JSON.stringify(r.artifacts) : null)),
    ]);
  },
  /**
   * A bulk request's signals go in with COPY (docs/data-access.md "COPY"): the statement, sent with
   * `PreparedSession.copyIn` inside the ingest transaction, and its data (the same values insertSignals binds).
   */
  copySignals: `COPY signals (${SIGNAL_COPY_COLUMNS}) FROM STDIN`,
  signalsCopyData: (created: Date, rows: readonly SignalInsert[]): string[] => {
    const at = created.toISOString();
    const lines = rows.map((r) =>
      [
        copyValue(r.id),
        copyValue(r.org_id),
        r.livemode ? 't' : 'f',
        copyValue(r.fingerprint),
        copyValue(r.asset_type),
        r.observed_at.toISOString(),
        copyValue(r.name),
        copyValue(r.version),
        copyValue(r.source_url),
        copyValue(r.raw_manifest),
        copyValue(r.metadata, true),
        copyValue(r.content_digest),
        copyValue(r.request_id),
        copyValue(r.artifacts || null, true),
        at,
      ].join('\t'),
    );
    return [lines.join('\n') + '\n'];
  },
  insertNewAssets: (now: Date, assets: readonly AssetWrite[]) =>
    exec('ri_assets_insert', [ts(now), ...assetColumns(assets)]),
  lockAssets: (assets: readonly AssetWrite[]) =>
    exec('ri_assets_lock', [boolArray(assets.map((a) => a.livemode)), textArray(assets.map((a) => a.fingerprint))]),
  orgObservations: (assets: readonly AssetWrite[]) =>
    exec('ri_org_observations', [
      boolArray(assets.map((a) => a.livemode)),
      textArray(assets.map((a) => a.fingerprint)),
      textArray(assets.map((a) => a.org_id)),
    ]),
  updateExistingAssets: (now: Date, assets: readonly AssetWrite[], nextStatus: ReadonlyArray<string | null>) =>
    exec('ri_assets_update', [
      ts(now),
      ...assetColumns(assets),
      textArray(nextStatus),
      textArray(assets.map((a) => a.org_id)),
    ]),
  /** one asset_orgs row per asset: its org's latest observation and its own display fields and source URL */
  upsertAssetOrgs: (now: Date, assets: readonly AssetWrite[]) =>
    exec('ri_asset_orgs', [
      ts(now),
      boolArray(assets.map((a) => a.livemode)),
      textArray(assets.map((a) => a.fingerprint)),
      textArray(assets.map((a) => a.org_id)),
      intArray(assets.map((a) => a.count)),
      textArray(assets.map((a) => a.latest_signal_id)),
      textArray(assets.map((a) => a.content_digest)),
      textArray(assets.map((a) => a.name)),
      textArray(assets.map((a) => a.version)),
      textArray(assets.map((a) => a.source_url)),
    ]),
  insertOutbox: (rows: readonly EnrichmentOutboxRow[]) =>
    exec('ri_outbox', [textArray(rows.map((r) => r.payload)), textArray(rows.map((r) => r.dedupe_key))]),
  insertAssetCreatedEvents: (
    now: Date,
    events: ReadonlyArray<{ id: string; livemode: boolean; fingerprint: string; data: string }>,
  ) =>
    exec('ri_events', [
      ts(now),
      textArray(events.map((e) => e.id)),
      boolArray(events.map((e) => e.livemode)),
      textArray(events.map((e) => e.fingerprint)),
      textArray(events.map((e) => e.data)),
    ]),
  fanOut: (eventIds: readonly string[]) => exec('ri_fanout', [textArray(eventIds)]),
  /** the bulk request's unlocked read of its assets' state (docs/reliability.md "Asset projection") */
  assetState: (assets: readonly AssetWrite[]) =>
    exec('ri_assets_state', [
      boolArray(assets.map((a) => a.livemode)),
      textArray(assets.map((a) => a.fingerprint)),
      textArray(assets.map((a) => a.org_id)),
    ]),
  /** the projection markers of a bulk request's signals, in request order, each in its asset's bucket */
  enqueueProjection: (signals: ReadonlyArray<{ id: string; livemode: boolean; fingerprint: string }>) =>
    exec('ri_projection_enqueue', [
      textArray(signals.map((s) => s.id)),
      intArray(signals.map((s) => projectionBucket(s.livemode, s.fingerprint))),
    ]),
  /**
   * The projector's claim of the oldest pending signals (ClaimedSignal rows, with their bucket) of up to `buckets`
   * free buckets, oldest head first.
   */
  claimProjection: (limit: number, buckets: number) => exec('rp_claim', [literal.int(limit), literal.int(buckets)]),
  projectionDone: (signalIds: readonly string[]) => exec('rp_done', [textArray(signalIds)]),
};

/**
 * Runs `work` on one pooled connection with the ingest statements prepared (withPrepared: a connection whose PREPARE
 * failed or broke is discarded, an open transaction rolled back). `work` sends the texts signalsStore builds.
 */
export function withIngestSession<T>(
  db: Pick<Pool, 'connect'>,
  work: (session: PreparedSession) => Promise<T>,
): Promise<T> {
  return withPrepared(db, INGEST_STATEMENTS, work);
}

/**
 * The projection bucket of an asset (docs/reliability.md "Asset projection"): FNV-1a (32 bit) of its mode and
 * fingerprint, modulo PROJECTION_BUCKETS. Computed here, not by Postgres, so it cannot change with a server upgrade.
 */
function projectionBucket(livemode: boolean, fingerprint: string): number {
  let h = livemode ? 0x811c9dc5 : 0x050c5d1f; // the offset basis, or another one for test mode
  for (let i = 0; i < fingerprint.length; i++) h = Math.imul(h ^ fingerprint.charCodeAt(i), 0x01000193);
  return (h >>> 0) % PROJECTION_BUCKETS;
}

/**
 * The accepted signals awaiting their projection (set-aside ones do not count): the backlog admission control
 * bounds (docs/reliability.md "Admission control"). A count over the backlog, so each replica runs it on a timer,
 * never per request; the backlog it counts is itself bounded by that admission.
 */
export async function countPendingProjections(db: Pick<Pool, 'query'>): Promise<number> {
  const { rows } = await db.query<{ n: number }>({
    name: 'public_api_pending_projections',
    text: 'SELECT count(*)::int AS n FROM signal_projections WHERE failed_at IS NULL',
  });
  return rows[0]!.n;
}

/** Whether any accepted signal still awaits its projection (set-aside signals do not count). */
export async function projectionsPending(db: Pick<Pool, 'query'>): Promise<boolean> {
  const { rows } = await db.query<{ pending: boolean }>(
    'SELECT EXISTS (SELECT 1 FROM signal_projections WHERE failed_at IS NULL) AS pending',
  );
  return rows[0]!.pending;
}

/** A stored signal as the projection and the pending asset read use it (no manifest, no metadata). */
export type ProjectedSignal = Omit<SignalInsert, 'raw_manifest' | 'metadata' | 'request_id' | 'artifacts'> & {
  request_id: string | null;
  created: Date;
};

/** A claimed signal, with its bucket (claimProjection). */
export type ClaimedSignal = ProjectedSignal & { bucket: number };

/**
 * The key's org's accepted signals for these fingerprints whose projection has not run yet, oldest first
 * (docs/reliability.md "Asset projection"). Only the org's own signals of its mode: another org learns
 * nothing of a pending fingerprint.
 */
export async function readPendingSignals(
  db: Pick<Pool, 'query'>,
  scope: { orgId: string; livemode: boolean; fingerprints: readonly string[] },
): Promise<ProjectedSignal[]> {
  if (scope.fingerprints.length === 0) return [];
  const { rows } = await db.query<ProjectedSignal>({
    name: 'public_api_pending_signals',
    text: `SELECT s.id, s.org_id, s.livemode, s.fingerprint, s.asset_type, s.observed_at, s.name, s.version, s.source_url,
                  s.content_digest, s.request_id, s.created
           FROM signals s JOIN signal_projections p ON p.signal_id = s.id
           WHERE s.fingerprint = ANY($1::text[]) AND s.livemode = $2 AND s.org_id = $3
           ORDER BY p.seq`,
    values: [[...new Set(scope.fingerprints)], scope.livemode, scope.orgId],
  });
  return rows;
}

/** How often one signal's projection may fail on its own before it is set aside (docs/reliability.md). */
export const PROJECTION_MAX_ATTEMPTS = 3;

/**
 * Counts a failure of the oldest pending signal of `bucket`, tried alone (the projector's isolation step), and sets
 * it aside at PROJECTION_MAX_ATTEMPTS so the signals accepted after it are applied. Under the bucket's advisory lock
 * (undefined when another projector holds it: that one counts it). Bind parameters: this runs on the pool, after
 * the failed projection rolled back.
 */
export async function recordProjectionFailure(
  db: Pick<Pool, 'query'>,
  error: string,
  bucket: number,
): Promise<{ signal_id: string; attempts: number; set_aside: boolean } | undefined> {
  const { rows } = await db.query<{ signal_id: string; attempts: number; set_aside: boolean }>({
    text: `WITH turn AS MATERIALIZED (SELECT pg_try_advisory_xact_lock(hashtext('signal_projection'), $3) AS ours)
           UPDATE signal_projections p
              SET attempts = p.attempts + 1, error = left($1, 2000),
                  failed_at = CASE WHEN p.attempts + 1 >= $2 THEN now() END
            WHERE (SELECT ours FROM turn)
              AND p.seq = (SELECT seq FROM signal_projections WHERE bucket = $3 AND failed_at IS NULL ORDER BY seq LIMIT 1
                           FOR UPDATE SKIP LOCKED)
        RETURNING p.signal_id, p.attempts, p.failed_at IS NOT NULL AS set_aside`,
    values: [error, PROJECTION_MAX_ATTEMPTS, bucket],
  });
  return rows[0];
}

/**
 * Releases the claims of requests that did not commit (by scope and claiming request id), so a
 * corrected retry with the same key runs. Bind parameters: this runs on the pool, outside the ingest.
 */
export async function releaseClaims(db: Pick<Pool, 'query'>, idems: readonly ClaimRequest[]): Promise<void> {
  if (idems.length === 0) return;
  await db.query(
    `DELETE FROM idempotency_keys k USING unnest($1::text[], $2::boolean[], $3::text[], $4::text[], $5::text[], $6::text[])
       AS t(org_id, livemode, method, path, key, request_id)
     WHERE k.org_id = t.org_id AND k.livemode = t.livemode AND k.method = t.method AND k.path = t.path
       AND k.key = t.key AND k.original_request_id = t.request_id AND k.status = 'in_flight'`,
    [
      idems.map((r) => r.scope.org_id),
      idems.map((r) => r.scope.livemode),
      idems.map((r) => r.scope.method),
      idems.map((r) => r.scope.path),
      idems.map((r) => r.scope.key),
      idems.map((r) => r.requestId),
    ],
  );
}
