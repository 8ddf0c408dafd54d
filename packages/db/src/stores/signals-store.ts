import type { Pool } from 'pg';
import { literal } from '../sql/literal';
import { PreparedStatements } from '../sql/prepared';
import { FAN_OUT_EVENTS_SQL } from './events-store';

/**
 * The signals store (docs/data-access.md "Stores"): the ingest transaction's statements over signals,
 * assets, asset_orgs, idempotency claims, the outbox and asset.created events. They are server-side
 * prepared statements (PREPARE once per pooled connection, then `EXECUTE name(literal, …)`), so the two
 * multi-statement round trips of an ingest neither re-parse nor re-plan a dozen statements for every
 * request. Arguments are SQL literals from the one formatter (../sql/literal.ts); callers reject NUL
 * characters first (they cannot travel in SQL text, nor be stored in a text column).
 */
/**
 * Parameter types of ri_assets_insert and ri_assets_update: `$1` now, then the per-asset column arrays
 * (livemode, fingerprint, asset_type, name, normalized_name, version, source_url, latest_signal_id,
 * latest_digest, count, first_seen, last_seen); the update appends its next_status array.
 */
const ASSET_ROW_TYPES = [
  'timestamptz',
  'boolean[]',
  ...Array<string>(8).fill('text[]'),
  'int[]',
  'timestamptz[]',
  'timestamptz[]',
];

const INGEST_STATEMENTS = new PreparedStatements({
  // One claim row per request of the batch. A plain INSERT: a taken key aborts the round trip with a
  // unique violation on idempotency_keys.
  ri_claim: {
    types: ['text[]', 'boolean[]', 'text[]', 'text[]', 'text[]', 'text[]', 'text[]'],
    sql: `INSERT INTO idempotency_keys (org_id, livemode, method, path, key, request_hash, status, original_request_id)
          SELECT t.org_id, t.livemode, t.method, t.path, t.key, t.request_hash, 'in_flight', t.request_id
          FROM unnest($1, $2, $3, $4, $5, $6, $7) AS t(org_id, livemode, method, path, key, request_hash, request_id)`,
  },
  ri_complete: {
    types: ['text[]', 'boolean[]', 'text[]', 'text[]', 'text[]', 'text[]', 'int[]', 'text[]'],
    sql: `UPDATE idempotency_keys k SET status = 'completed', response_status = t.status, response_body = t.body, completed_at = now()
          FROM unnest($1, $2, $3, $4, $5, $6, $7, $8) AS t(org_id, livemode, method, path, key, request_id, status, body)
          WHERE k.org_id = t.org_id AND k.livemode = t.livemode AND k.method = t.method AND k.path = t.path
            AND k.key = t.key AND k.original_request_id = t.request_id`,
  },
  ri_signals: {
    types: [
      'timestamptz',
      'text[]',
      'text[]',
      'boolean[]',
      'text[]',
      'text[]',
      'timestamptz[]',
      'text[]',
      'text[]',
      'text[]',
      'text[]',
      'text[]',
      'text[]',
      'text[]',
    ],
    sql: `INSERT INTO signals (id, org_id, livemode, fingerprint, asset_type, observed_at, name, version, source_url,
                               raw_manifest, metadata, content_digest, request_id, created)
          SELECT t.id, t.org_id, t.livemode, t.fingerprint, t.asset_type, t.observed_at, t.name, t.version, t.source_url,
                 t.raw_manifest, t.metadata::jsonb, t.content_digest, t.request_id, $1
          FROM unnest($2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
               AS t(id, org_id, livemode, fingerprint, asset_type, observed_at, name, version, source_url, raw_manifest, metadata,
                    content_digest, request_id)`,
  },
  ri_assets_insert: {
    types: ASSET_ROW_TYPES,
    sql: `INSERT INTO assets (livemode, fingerprint, asset_type, name, normalized_name, version, source_url, enrichment_status,
                              latest_signal_id, latest_digest, signal_count, first_seen, last_seen, created, updated)
          SELECT t.livemode, t.fingerprint, t.asset_type, t.name, t.normalized_name, t.version, t.source_url, 'pending',
                 t.latest_signal_id, t.latest_digest, t.count, t.first_seen, t.last_seen, $1, $1
          FROM unnest($2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
               AS t(livemode, fingerprint, asset_type, name, normalized_name, version, source_url, latest_signal_id,
                    latest_digest, count, first_seen, last_seen)
          ON CONFLICT (livemode, fingerprint) DO NOTHING
          RETURNING livemode, fingerprint`,
  },
  // Locks every asset of the batch in (livemode, fingerprint) order (those this transaction just inserted
  // are already ours) and reads the previous state of the others. A separate statement after the INSERT:
  // it sees an asset that a concurrent request created and committed while the INSERT waited for it.
  ri_assets_lock: {
    types: ['boolean[]', 'text[]'],
    sql: `SELECT a.livemode, a.fingerprint, a.enrichment_status, a.latest_digest, a.enriched_digest, a.enriched_at
          FROM unnest($1, $2) AS t(livemode, fingerprint)
          JOIN assets a ON a.livemode = t.livemode AND a.fingerprint = t.fingerprint
          ORDER BY a.livemode, a.fingerprint FOR UPDATE OF a`,
  },
  // The submitting org's latest observation of each asset. A statement of its own, after the lock: it
  // reads with a snapshot taken once the asset locks are held, and every writer of asset_orgs holds its
  // asset's lock, so what it reads stays current until this transaction commits.
  ri_org_observations: {
    types: ['boolean[]', 'text[]', 'text[]'],
    sql: `SELECT ao.livemode, ao.fingerprint, ao.latest_digest AS org_digest, ao.last_seen AS org_last_seen
          FROM unnest($1, $2, $3) AS t(livemode, fingerprint, org_id)
          JOIN asset_orgs ao ON ao.livemode = t.livemode AND ao.fingerprint = t.fingerprint AND ao.org_id = t.org_id`,
  },
  // the same column arrays as ri_assets_insert (asset_type is not updated), plus the next enrichment status
  ri_assets_update: {
    types: [...ASSET_ROW_TYPES, 'text[]'],
    sql: `UPDATE assets a SET
            name = COALESCE(t.name, a.name),
            normalized_name = COALESCE(t.normalized_name, a.normalized_name),
            version = COALESCE(t.version, a.version),
            source_url = COALESCE(t.source_url, a.source_url),
            latest_signal_id = t.latest_signal_id,
            latest_digest = t.latest_digest,
            signal_count = a.signal_count + t.count,
            first_seen = LEAST(a.first_seen, t.first_seen),
            last_seen = GREATEST(a.last_seen, t.last_seen),
            enrichment_status = COALESCE(t.next_status, a.enrichment_status),
            updated = $1
          FROM unnest($2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
               AS t(livemode, fingerprint, asset_type, name, normalized_name, version, source_url, latest_signal_id,
                    latest_digest, count, first_seen, last_seen, next_status)
          WHERE a.livemode = t.livemode AND a.fingerprint = t.fingerprint`,
  },
  // the org's latest observation of the asset replaces its previous one (never another org's)
  ri_asset_orgs: {
    types: ['timestamptz', 'boolean[]', 'text[]', 'text[]', 'int[]', 'text[]', 'text[]'],
    sql: `INSERT INTO asset_orgs (livemode, fingerprint, org_id, signal_count, first_seen, last_seen, latest_signal_id, latest_digest)
          SELECT t.livemode, t.fingerprint, t.org_id, t.count, $1, $1, t.signal_id, t.digest
          FROM unnest($2, $3, $4, $5, $6, $7) AS t(livemode, fingerprint, org_id, count, signal_id, digest)
          ON CONFLICT (livemode, fingerprint, org_id) DO UPDATE
            SET signal_count = asset_orgs.signal_count + EXCLUDED.signal_count, last_seen = EXCLUDED.last_seen,
                latest_signal_id = EXCLUDED.latest_signal_id, latest_digest = EXCLUDED.latest_digest`,
  },
  ri_outbox: {
    types: ['text[]', 'text[]'],
    sql: `INSERT INTO outbox (kind, payload, dedupe_key)
          SELECT 'enrichment', t.payload::jsonb, t.dedupe_key FROM unnest($1, $2) AS t(payload, dedupe_key)
          RETURNING id`,
  },
  // asset.created, scoped by fingerprint (and mode) so only the orgs that submitted signals for it see it
  ri_events: {
    types: ['timestamptz', 'text[]', 'boolean[]', 'text[]', 'text[]'],
    sql: `INSERT INTO events (id, type, livemode, org_id, fingerprint, data, created)
          SELECT t.id, 'asset.created', t.livemode, NULL, t.fingerprint, t.data::jsonb, $1
          FROM unnest($2, $3, $4, $5) AS t(id, livemode, fingerprint, data)`,
  },
  ri_fanout: { types: ['text[]'], sql: FAN_OUT_EVENTS_SQL },
});

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
}

/** One outbox row of kind 'enrichment': the job as JSON and its dedupe key (the job id). */
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

/** The EXECUTE text of each ingest statement, from the batch's values. */
export const signalsStore = {
  statements: INGEST_STATEMENTS,
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
    ]);
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
    exec('ri_assets_update', [ts(now), ...assetColumns(assets), textArray(nextStatus)]),
  /** one asset_orgs row per asset: its org's latest observation */
  upsertAssetOrgs: (now: Date, assets: readonly AssetWrite[]) =>
    exec('ri_asset_orgs', [
      ts(now),
      boolArray(assets.map((a) => a.livemode)),
      textArray(assets.map((a) => a.fingerprint)),
      textArray(assets.map((a) => a.org_id)),
      intArray(assets.map((a) => a.count)),
      textArray(assets.map((a) => a.latest_signal_id)),
      textArray(assets.map((a) => a.content_digest)),
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
};

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
