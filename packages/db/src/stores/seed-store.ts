// The scale seeder's writes (docs/performance.md "Seeding a large database"): bulk rows through COPY FROM STDIN, the
// month partitions the rows fall in, and the statistics and sizes after. Only the seeding command uses it; the
// services write through their own stores.
import type { Pool } from 'pg';
import { copyIn, copyValue } from '../sql/copy';
import { PARTITIONED_TABLES, monthStart } from './partitions-store';

/** The columns the seeder writes per table; `:json` marks a json/jsonb column (any JS value, JSON-encoded). */
const SEED_COLUMNS = {
  signals: [
    'id',
    'org_id',
    'livemode',
    'fingerprint',
    'asset_type',
    'observed_at',
    'name',
    'version',
    'source_url',
    'raw_manifest',
    'metadata:json',
    'content_digest',
    'request_id',
    'created',
  ],
  events: ['id', 'type', 'livemode', 'org_id', 'fingerprint', 'data:json', 'created'],
  assets: [
    'livemode',
    'fingerprint',
    'asset_type',
    'name',
    'normalized_name',
    'publisher',
    'version',
    'ecosystem',
    'source_url',
    'enrichment_status',
    'intrinsic_risk_score',
    'intrinsic_risk_severity',
    'publisher_trust:json',
    'benchmark_summary:json',
    'score_breakdown:json',
    'current_aibom_id',
    'latest_signal_id',
    'latest_digest',
    'enriched_digest',
    'signal_count',
    'first_seen',
    'last_seen',
    'enriched_at',
    'created',
    'updated',
  ],
  asset_orgs: [
    'livemode',
    'fingerprint',
    'org_id',
    'signal_count',
    'first_seen',
    'last_seen',
    'latest_signal_id',
    'latest_digest',
    'name',
    'version',
    'source_url',
  ],
  findings: [
    'id',
    'livemode',
    'fingerprint',
    'rule_id',
    'title',
    'description',
    'severity',
    'category',
    'confidence',
    'evidence:json',
    'capabilities',
    'attack_techniques',
    'cve_ids',
    'threat_ids',
    'remediation',
    'score_contribution',
    'score_breakdown:json',
    'benchmark:json',
    'enrichment_digest',
    'created',
  ],
  aiboms: [
    'id',
    'livemode',
    'fingerprint',
    'bom_version',
    'content_hash',
    'spdx_version',
    'spdx:json',
    'components:json',
    'lineage:json',
    'cyclonedx:json',
    'created',
  ],
  asset_history: [
    'id',
    'livemode',
    'fingerprint',
    'enrichment_digest',
    'intrinsic_risk_score',
    'intrinsic_risk_severity',
    'previous_risk_score',
    'previous_risk_severity',
    'bom_version',
    'findings:json',
    'findings_added:json',
    'findings_removed:json',
    'findings_changed:json',
    'created',
  ],
} as const;

export type SeedTable = keyof typeof SEED_COLUMNS;
type StripJson<C> = C extends `${infer N}:json` ? N : C;
type ColumnName<T extends SeedTable> = StripJson<(typeof SEED_COLUMNS)[T][number]>;
/** One row of `T`: every seeded column, null where the schema allows it. */
export type SeedRow<T extends SeedTable> = Record<ColumnName<T>, unknown>;

/** The tables counted before seeding: a database holding any of their rows is not empty. */
const CONTENT_TABLES = ['assets', 'signals', 'api_keys'] as const;

/** Rows already in the tables a seed writes (the command refuses a non-empty database unless told to append). */
export async function seedExistingRows(pool: Pick<Pool, 'query'>): Promise<Record<string, number>> {
  const { rows } = await pool.query<Record<string, number>>(
    `SELECT ${CONTENT_TABLES.map((t) => `(SELECT count(*) FROM (SELECT 1 FROM ${t} LIMIT 1) x)::int AS ${t}`).join(', ')}`,
  );
  return rows[0]!;
}

/** Creates the month partitions of signals and events for every month from `from` to `to` (risk_ensure_month_partition). */
export async function ensureSeedMonths(pool: Pick<Pool, 'query'>, from: Date, to: Date): Promise<number> {
  const months: Date[] = [];
  for (let m = monthStart(from); m.getTime() <= to.getTime(); m = monthStart(m, 1)) months.push(m);
  let created = 0;
  for (const table of PARTITIONED_TABLES) {
    const { rows } = await pool.query<{ created: boolean }>(
      `SELECT risk_ensure_month_partition($1, m) AS created FROM unnest($2::timestamptz[]) m`,
      [table, months],
    );
    created += rows.filter((r) => r.created).length;
  }
  return created;
}

/** Rows per chunk handed to the COPY stream: large enough that the per-write overhead vanishes. */
const LINES_PER_CHUNK = 500;

/**
 * Streams `rows` into `table` with COPY FROM STDIN (text format) on one connection, with back-pressure: rows are
 * encoded as they are pulled, so a million of them never sit in memory. Returns the number of rows written.
 */
export async function copySeedRows<T extends SeedTable>(
  pool: Pick<Pool, 'connect'>,
  table: T,
  rows: Iterable<SeedRow<T>>,
): Promise<number> {
  const specs = SEED_COLUMNS[table].map((c) => ({ name: c.replace(/:json$/, ''), json: c.endsWith(':json') }));
  // the seeder hands the same result objects (an AI-BOM, a finding's evidence) to many rows: each is encoded once
  const encoded = new WeakMap<object, string>();
  const value = (v: unknown, json: boolean): string => {
    if (!json || typeof v !== 'object' || v === null) return copyValue(v, json);
    let text = encoded.get(v);
    if (text === undefined) encoded.set(v, (text = copyValue(v, true)));
    return text;
  };
  let n = 0;
  function* lines(): Generator<string> {
    let chunk: string[] = [];
    for (const row of rows) {
      const r = row as Record<string, unknown>;
      chunk.push(specs.map((s) => value(r[s.name], s.json)).join('\t'));
      n++;
      if (chunk.length === LINES_PER_CHUNK) {
        yield chunk.join('\n') + '\n';
        chunk = [];
      }
    }
    if (chunk.length) yield chunk.join('\n') + '\n';
  }
  const client = await pool.connect();
  try {
    const sql = `COPY ${table} (${specs.map((s) => s.name).join(', ')}) FROM STDIN`;
    await copyIn(client, sql, lines());
    return n;
  } finally {
    client.release();
  }
}

/** The seeded tables' statistics, so the first plans after a seed are made on the data as it is. */
export async function analyzeSeeded(pool: Pick<Pool, 'query'>): Promise<void> {
  await pool.query(`ANALYZE ${[...Object.keys(SEED_COLUMNS), 'api_keys', 'tenants'].join(', ')}`);
}

/** Bytes on disk (heap, TOAST and indexes) of each seeded table, a partitioned one summed over its partitions. */
export async function seededSizes(pool: Pick<Pool, 'query'>): Promise<Array<{ table: string; bytes: number }>> {
  const { rows } = await pool.query<{ table: string; bytes: string }>(
    `SELECT t AS table, COALESCE((SELECT sum(pg_total_relation_size(p.relid)) FROM pg_partition_tree(t::regclass) p WHERE p.isleaf),
                     pg_total_relation_size(t::regclass))::bigint AS bytes
       FROM unnest($1::text[]) t`,
    [Object.keys(SEED_COLUMNS)],
  );
  return rows.map((r) => ({ table: r.table, bytes: Number(r.bytes) }));
}
