// OSV advisory feeds in Postgres (docs/advisories.md): the batched upsert of an import, the re-enrichment of the
// assets whose packages an import changed, the enrichment job's one-query candidate look-up, and the API's read by
// id or alias. Advisories are public knowledge: no org or mode column; asset_packages is per mode like assets.
import type { Pool, PoolClient } from 'pg';
import { literal } from '../sql/literal';
import { PreparedStatements, executeGeneric } from '../sql/prepared';
import { reenrichMatchedSql } from './reenrich-sql';

/** One record ready to store: the OSV document and the columns derived from it (the worker's import computes them). */
export interface AdvisoryRow {
  id: string;
  aliases: string[];
  summary: string;
  severity: string | null;
  modified: string;
  published: string | null;
  withdrawn: string | null;
  /** the OSV record as read from the feed */
  osv: unknown;
  content_hash: string;
  /** (ecosystem key, normalized name) of every package it affects */
  packages: Array<{ ecosystem: string; name: string }>;
}

export interface UpsertAdvisoriesResult {
  inserted: string[];
  updated: string[];
  unchanged: number;
  /** the package keys of every inserted or changed record, before and after the change */
  changed_packages: Array<{ ecosystem: string; name: string }>;
}

const UPSERT_SQL = `
  WITH input AS (
    SELECT * FROM unnest($1::text[], $2::jsonb[], $3::text[], $4::text[], $5::timestamptz[], $6::timestamptz[],
                         $7::timestamptz[], $8::jsonb[], $9::text[])
      AS t(id, aliases, summary, severity, modified, published, withdrawn, osv, content_hash)
  )
  INSERT INTO advisories AS a (id, source, aliases, summary, severity, modified, published, withdrawn, osv, content_hash)
  SELECT id, $10, ARRAY(SELECT jsonb_array_elements_text(aliases)), summary, severity, modified, published, withdrawn,
         osv, content_hash
  FROM input
  ON CONFLICT (id) DO UPDATE SET
    source = EXCLUDED.source, aliases = EXCLUDED.aliases, summary = EXCLUDED.summary, severity = EXCLUDED.severity,
    modified = EXCLUDED.modified, published = EXCLUDED.published, withdrawn = EXCLUDED.withdrawn, osv = EXCLUDED.osv,
    content_hash = EXCLUDED.content_hash, updated = now()
  -- an identical record (same content, same feed) is left alone: a re-import changes nothing and re-enriches nothing
  WHERE a.content_hash <> EXCLUDED.content_hash OR a.source <> EXCLUDED.source
  RETURNING a.id, (xmax = 0) AS inserted`;

const DELETE_PACKAGES_SQL = `
  DELETE FROM advisory_packages WHERE advisory_id = ANY($1::text[]) RETURNING ecosystem, name`;

const INSERT_PACKAGES_SQL = `
  INSERT INTO advisory_packages (ecosystem, name, advisory_id)
  SELECT * FROM unnest($1::text[], $2::text[], $3::text[])
  ON CONFLICT DO NOTHING`;

/**
 * Upsert one batch of records of the feed `source` in one transaction (three statements, whatever the batch size):
 * new ids are inserted, changed ones (content hash or feed differs) replaced with their package index, identical
 * ones left alone. The caller batches a feed (a few hundred records per call).
 */
export async function upsertAdvisories(
  db: Pick<Pool, 'connect'>,
  input: { source: string; rows: readonly AdvisoryRow[] },
): Promise<UpsertAdvisoriesResult> {
  const rows = input.rows;
  const client: PoolClient = await db.connect();
  try {
    await client.query('BEGIN');
    const up = await client.query<{ id: string; inserted: boolean }>(UPSERT_SQL, [
      rows.map((r) => r.id),
      rows.map((r) => JSON.stringify(r.aliases)),
      rows.map((r) => r.summary),
      rows.map((r) => r.severity),
      rows.map((r) => r.modified),
      rows.map((r) => r.published),
      rows.map((r) => r.withdrawn),
      rows.map((r) => JSON.stringify(r.osv)),
      rows.map((r) => r.content_hash),
      input.source,
    ]);
    const changed = new Set(up.rows.map((r) => r.id));
    const old = await client.query<{ ecosystem: string; name: string }>(DELETE_PACKAGES_SQL, [[...changed]]);
    const fresh = rows.filter((r) => changed.has(r.id)).flatMap((r) => r.packages.map((p) => ({ ...p, id: r.id })));
    await client.query(INSERT_PACKAGES_SQL, [
      fresh.map((p) => p.ecosystem),
      fresh.map((p) => p.name),
      fresh.map((p) => p.id),
    ]);
    await client.query('COMMIT');
    const keys = new Map<string, { ecosystem: string; name: string }>();
    for (const p of [...old.rows, ...fresh])
      keys.set(`${p.ecosystem}:${p.name}`, { ecosystem: p.ecosystem, name: p.name });
    return {
      inserted: up.rows.filter((r) => r.inserted).map((r) => r.id),
      updated: up.rows.filter((r) => !r.inserted).map((r) => r.id),
      unchanged: rows.length - up.rows.length,
      changed_packages: [...keys.values()],
    };
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}

/**
 * Every asset (both modes) last matched for one of `packages`: enriched ones become stale, and enriched, stale and
 * pending ones get an enrichment outbox row with `reason` (the worker's outbox relay enqueues it) — what a new
 * threat does (docs/threats.md), in one statement. Assets are locked in (livemode, fingerprint) order like every
 * writer of assets (docs/reliability.md "Lock order"). Returns the number of queued jobs.
 */
export async function markAssetsForAdvisoryReenrichment(
  db: Pick<Pool, 'query'>,
  input: { packages: ReadonlyArray<{ ecosystem: string; name: string }>; reason: string },
): Promise<number> {
  if (input.packages.length === 0) return 0;
  const res = await db.query(
    reenrichMatchedSql(
      `SELECT DISTINCT ap.livemode, ap.fingerprint
         FROM asset_packages ap JOIN unnest($1::text[], $2::text[]) AS k(ecosystem, name) USING (ecosystem, name)`,
      '$3',
    ),
    [input.packages.map((p) => p.ecosystem), input.packages.map((p) => p.name), input.reason],
  );
  return res.rows.length;
}

/** One enrichment job's advisory look-up: the asset and the packages computed from its observations. */
export interface AdvisoryLookupKey {
  livemode: boolean;
  fingerprint: string;
  packages: ReadonlyArray<{ ecosystem: string; name: string }>;
}

/** The statement of readCandidateAdvisories (below): $1 livemode[], $2 fingerprint[], $3 job index[], $4 ecosystem[], $5 name[]. */
export const CANDIDATE_ADVISORIES_SQL = `WITH jobs AS (SELECT * FROM unnest($1::boolean[], $2::text[]) WITH ORDINALITY AS j(livemode, fingerprint, i)),
           keys AS (
             SELECT DISTINCT j.i, j.livemode, j.fingerprint, k.ecosystem, k.name
               FROM unnest($3::int[], $4::text[], $5::text[]) AS k(i, ecosystem, name) JOIN jobs j ON j.i = k.i
           ),
           held AS (
             SELECT j.i, h.row_id, h.ecosystem, h.name
               FROM jobs j CROSS JOIN LATERAL (
                 SELECT ap.ctid AS row_id, ap.ecosystem, ap.name FROM asset_packages ap
                  WHERE ap.livemode = j.livemode AND ap.fingerprint = j.fingerprint OFFSET 0
               ) h
           ),
           doomed AS (
             SELECT array_agg(h.row_id) AS row_ids FROM held h
              WHERE NOT EXISTS (SELECT 1 FROM keys k WHERE k.i = h.i AND k.ecosystem = h.ecosystem AND k.name = h.name)
           ),
           gone AS (
             DELETE FROM asset_packages
              WHERE (SELECT row_ids FROM doomed) IS NOT NULL AND ctid = ANY ((SELECT row_ids FROM doomed)::tid[])
           ),
           added AS (
             INSERT INTO asset_packages (livemode, fingerprint, ecosystem, name)
             SELECT livemode, fingerprint, ecosystem, name FROM keys ORDER BY livemode, fingerprint, ecosystem, name
             ON CONFLICT DO NOTHING
           )
           SELECT m.i, a.osv
             FROM (SELECT DISTINCT k.i, p.advisory_id
                     FROM keys k CROSS JOIN LATERAL (
                       SELECT p.advisory_id FROM advisory_packages p WHERE p.ecosystem = k.ecosystem AND p.name = k.name OFFSET 0
                     ) p) m
             CROSS JOIN LATERAL (SELECT a.id, a.osv FROM advisories a WHERE a.id = m.advisory_id OFFSET 0) a
            ORDER BY m.i, a.id`;

const ADVISORY_LOOKUP_STATEMENTS = new PreparedStatements({
  ea_lookup: { types: ['boolean[]', 'text[]', 'int[]', 'text[]', 'text[]'], sql: CANDIDATE_ADVISORIES_SQL },
});

/**
 * The enrichment jobs' advisory look-up, ONE statement for a batch of jobs (docs/advisories.md "Enrichment"):
 * records the packages each asset is matched for (its asset_packages, replaced) and returns, per job in order,
 * the OSV records of every advisory affecting any of its packages — withdrawn ones too: the engine skips them,
 * and they tell the worker the curated copy it ships is void. The jobs of one batch must be distinct assets (the
 * caller's MicroBatch keys them).
 *
 * Its plan is prepared once per connection and always the generic one (docs/performance.md "The advisory look-up's
 * cached plan"): left to choose, Postgres planned it anew on every execution (a plan made without the arrays' sizes is
 * costed above one made for a batch of one or two jobs), which took a fifth of Postgres's CPU in an enrichment drain.
 * A generic plan must not scan whole tables, so every read of asset_packages, advisory_packages and advisories is a
 * LATERAL probe by key (OFFSET 0 keeps each from being flattened into a join that plan would hash over a sequential
 * scan), and the DELETE removes the rows it found by ctid behind a one-time filter: when no package was dropped (a
 * new asset, unchanged packages: nearly every job) it reads nothing at all.
 */
export async function readCandidateAdvisories(
  db: Pick<Pool, 'connect'>,
  lookups: readonly AdvisoryLookupKey[],
): Promise<unknown[][]> {
  const pkgs = lookups.flatMap((l, i) => l.packages.map((p) => ({ i: i + 1, ...p })));
  const { boolArray, textArray, intArray } = literal;
  const { rows } = await executeGeneric(db, ADVISORY_LOOKUP_STATEMENTS, {
    name: 'ea_lookup',
    args: [
      boolArray(lookups.map((l) => l.livemode)),
      textArray(lookups.map((l) => l.fingerprint)),
      intArray(pkgs.map((p) => p.i)),
      textArray(pkgs.map((p) => p.ecosystem)),
      textArray(pkgs.map((p) => p.name)),
    ],
  });
  const out: unknown[][] = lookups.map(() => []);
  for (const r of rows as Array<{ i: string; osv: unknown }>) out[Number(r.i) - 1]!.push(r.osv);
  return out;
}

export interface StoredAdvisory {
  id: string;
  source: string;
  aliases: string[];
  summary: string;
  severity: string | null;
  modified: Date;
  published: Date | null;
  withdrawn: Date | null;
  osv: unknown;
  created: Date;
  updated: Date;
}

/**
 * The advisory with this id, or else the records that list it as an alias (a CVE id shared by a PYSEC and a GHSA
 * record): the exact id first, then by id. Returns every record found so the caller can name the others.
 */
export async function readAdvisoriesByIdOrAlias(db: Pick<Pool, 'query'>, id: string): Promise<StoredAdvisory[]> {
  const res = await db.query<StoredAdvisory>(
    `SELECT id, source, aliases, summary, severity, modified, published, withdrawn, osv, created, updated
     FROM advisories WHERE id = $1 OR aliases @> ARRAY[$1]::text[]
     ORDER BY (id = $1) DESC, (withdrawn IS NULL) DESC, id LIMIT 20`,
    [id],
  );
  return res.rows;
}

/** Per-feed counts (the CLI's summary and the first-start check). */
export async function advisoryFeedCounts(
  db: Pick<Pool, 'query'>,
): Promise<Array<{ source: string; advisories: number; withdrawn: number }>> {
  const res = await db.query<{ source: string; advisories: string; withdrawn: string }>(
    `SELECT source, count(*)::text AS advisories, count(withdrawn)::text AS withdrawn FROM advisories GROUP BY source ORDER BY source`,
  );
  return res.rows.map((r) => ({ source: r.source, advisories: Number(r.advisories), withdrawn: Number(r.withdrawn) }));
}
