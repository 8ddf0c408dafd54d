import { PreparedStatements } from '../sql/prepared';
import { FAN_OUT_EVENTS_SQL } from './events-store';
import { rowByIdSql } from './partitions-store';

/** The claim reads each marker's signal by id in the month its id names (docs/scaling.md "Monthly partitions…"). */
const SIGNAL_CLAIM_COLUMNS =
  'id, org_id, livemode, fingerprint, asset_type, observed_at, name, version, source_url, content_digest, request_id, created';

// The ingest transaction's prepared statements (docs/data-access.md "Stores"), one entry each, which
// signals-store.ts executes with literal arguments: a table of SQL, kept apart from the store's code.

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

/**
 * The buckets of the projection backlog (docs/reliability.md "Asset projection"): a marker's bucket is a hash of its
 * asset's key (mode and fingerprint), recorded at intake, so one asset's markers are always in one bucket and one
 * projector at a time applies them, in acceptance order. Fixed: a marker keeps the bucket it was written with, so
 * changing it reorders the markers pending at the change (drain first).
 */
export const PROJECTION_BUCKETS = 16;

export const INGEST_STATEMENTS = new PreparedStatements({
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
      'text[]',
    ],
    sql: `INSERT INTO signals (id, org_id, livemode, fingerprint, asset_type, observed_at, name, version, source_url,
                               raw_manifest, metadata, content_digest, request_id, artifacts, created)
          SELECT t.id, t.org_id, t.livemode, t.fingerprint, t.asset_type, t.observed_at, t.name, t.version, t.source_url,
                 t.raw_manifest, t.metadata::jsonb, t.content_digest, t.request_id, t.artifacts::jsonb, $1
          FROM unnest($2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)
               AS t(id, org_id, livemode, fingerprint, asset_type, observed_at, name, version, source_url, raw_manifest, metadata,
                    content_digest, request_id, artifacts)`,
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
  // The same column arrays as ri_assets_insert (asset_type is not updated), plus the next enrichment status and
  // the submitting org. The shared name, version and source_url (and the normalized name) follow one org only, the
  // asset's first observer (earliest asset_orgs.first_seen): its signals update them as before, while any other
  // org's signal only fills a field still empty. No later org can rename an asset or move its URL; each org's own
  // views and feed read its own fields in asset_orgs (docs/security.md "Display fields and feeds").
  ri_assets_update: {
    types: [...ASSET_ROW_TYPES, 'text[]', 'text[]'],
    sql: `UPDATE assets a SET
            name = CASE WHEN t.leads THEN COALESCE(t.name, a.name) ELSE COALESCE(a.name, t.name) END,
            normalized_name = CASE WHEN t.leads THEN COALESCE(t.normalized_name, a.normalized_name)
                                   ELSE COALESCE(a.normalized_name, t.normalized_name) END,
            version = CASE WHEN t.leads THEN COALESCE(t.version, a.version) ELSE COALESCE(a.version, t.version) END,
            source_url = CASE WHEN t.leads THEN COALESCE(t.source_url, a.source_url) ELSE COALESCE(a.source_url, t.source_url) END,
            latest_signal_id = t.latest_signal_id,
            latest_digest = t.latest_digest,
            signal_count = a.signal_count + t.count,
            first_seen = LEAST(a.first_seen, t.first_seen),
            last_seen = GREATEST(a.last_seen, t.last_seen),
            enrichment_status = COALESCE(t.next_status, a.enrichment_status),
            updated = $1
          FROM (SELECT u.*, COALESCE(f.org_id = u.org_id, true) AS leads
                  FROM unnest($2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)
                       AS u(livemode, fingerprint, asset_type, name, normalized_name, version, source_url, latest_signal_id,
                            latest_digest, count, first_seen, last_seen, next_status, org_id)
                  LEFT JOIN LATERAL (
                    SELECT ao.org_id FROM asset_orgs ao
                     WHERE ao.livemode = u.livemode AND ao.fingerprint = u.fingerprint
                     ORDER BY ao.first_seen, ao.org_id LIMIT 1
                  ) f ON true) AS t
          WHERE a.livemode = t.livemode AND a.fingerprint = t.fingerprint`,
  },
  // The org's latest observation of the asset replaces its previous one (never another org's), with the org's
  // own display fields and source URL: a non-null field of its new signals replaces its earlier one.
  ri_asset_orgs: {
    types: ['timestamptz', 'boolean[]', 'text[]', 'text[]', 'int[]', 'text[]', 'text[]', 'text[]', 'text[]', 'text[]'],
    sql: `INSERT INTO asset_orgs (livemode, fingerprint, org_id, signal_count, first_seen, last_seen, latest_signal_id, latest_digest,
                                  name, version, source_url)
          SELECT t.livemode, t.fingerprint, t.org_id, t.count, $1, $1, t.signal_id, t.digest, t.name, t.version, t.source_url
          FROM unnest($2, $3, $4, $5, $6, $7, $8, $9, $10)
               AS t(livemode, fingerprint, org_id, count, signal_id, digest, name, version, source_url)
          ON CONFLICT (livemode, fingerprint, org_id) DO UPDATE
            SET signal_count = asset_orgs.signal_count + EXCLUDED.signal_count, last_seen = EXCLUDED.last_seen,
                latest_signal_id = EXCLUDED.latest_signal_id, latest_digest = EXCLUDED.latest_digest,
                name = COALESCE(EXCLUDED.name, asset_orgs.name), version = COALESCE(EXCLUDED.version, asset_orgs.version),
                source_url = COALESCE(EXCLUDED.source_url, asset_orgs.source_url)`,
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
  // The bulk request's reads and writes when its asset projection is deferred (docs/reliability.md "Asset projection").
  // The assets' state and the submitting org's observation, unlocked: the receipts' enrichment decision is made
  // against the state at acceptance; the projection decides again under the assets' locks.
  ri_assets_state: {
    types: ['boolean[]', 'text[]', 'text[]'],
    sql: `SELECT a.livemode, a.fingerprint, a.enrichment_status, a.latest_digest, a.enriched_digest, a.enriched_at,
                 ao.latest_digest AS org_digest, ao.last_seen AS org_last_seen
          FROM unnest($1, $2, $3) AS t(livemode, fingerprint, org_id)
          JOIN assets a ON a.livemode = t.livemode AND a.fingerprint = t.fingerprint
          LEFT JOIN asset_orgs ao ON ao.livemode = t.livemode AND ao.fingerprint = t.fingerprint AND ao.org_id = t.org_id`,
  },
  // one marker per accepted signal, numbered in request order (the order the projector applies them in), with its
  // asset's bucket
  ri_projection_enqueue: {
    types: ['text[]', 'int[]'],
    sql: `INSERT INTO signal_projections (signal_id, bucket)
          SELECT t.id, t.bucket FROM unnest($1, $2) WITH ORDINALITY AS t(id, bucket, n) ORDER BY t.n`,
  },
  // The projector's claim: up to $2 free buckets, oldest head first, whose advisory locks
  // (pg_try_advisory_xact_lock, held to the end of the transaction) this transaction takes, and their oldest $1
  // markers in seq order (a prefix of each bucket's), locked (SKIP LOCKED: never a marker another transaction holds,
  // nor one deleted since this statement's snapshot). Projectors holding different buckets run at once; one that
  // gets no bucket sees no rows. `heads` walks the index signal_projections(bucket, seq) once per bucket (a loose
  // index scan: at most PROJECTION_BUCKETS probes, whatever the backlog). The try-locks run in a Limit over a
  // materialized, ordered list, so they stop once $2 are taken and lock no other bucket. Markers set aside after
  // failing on their own (failed_at) are skipped.
  rp_claim: {
    types: ['int', 'int'],
    sql: `WITH RECURSIVE heads AS (
            (SELECT bucket, seq FROM signal_projections WHERE failed_at IS NULL ORDER BY bucket, seq LIMIT 1)
            UNION ALL
            SELECT n.bucket, n.seq FROM heads h CROSS JOIN LATERAL (
              SELECT p.bucket, p.seq FROM signal_projections p
               WHERE p.failed_at IS NULL AND p.bucket > h.bucket ORDER BY p.bucket, p.seq LIMIT 1) n
          ),
          candidates AS MATERIALIZED (SELECT bucket FROM heads ORDER BY seq),
          turn AS MATERIALIZED (
            SELECT bucket FROM candidates
             WHERE pg_try_advisory_xact_lock(hashtext('signal_projection'), bucket) LIMIT $2)
          SELECT s.id, s.org_id, s.livemode, s.fingerprint, s.asset_type, s.observed_at, s.name,
                 s.version, s.source_url, s.content_digest, s.request_id, s.created, p.bucket
          FROM signal_projections p
          CROSS JOIN LATERAL ${rowByIdSql('signals', SIGNAL_CLAIM_COLUMNS, 'p.signal_id')} s
          WHERE p.bucket = ANY (ARRAY(SELECT bucket FROM turn)) AND p.failed_at IS NULL
          ORDER BY p.seq LIMIT $1
          FOR UPDATE OF p SKIP LOCKED`,
  },
  rp_done: {
    types: ['text[]'],
    sql: `DELETE FROM signal_projections WHERE signal_id = ANY($1)`,
  },
});
