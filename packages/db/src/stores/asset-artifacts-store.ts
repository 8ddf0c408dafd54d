// The hashes an asset names (docs/artifacts.md "Judgement"): `asset_artifacts` holds, per asset and mode, the files its
// current observations name by SHA-256, replaced by each enrichment that reads them. A verdict made or changed later
// finds the assets to re-enrich by one probe of the sha256 index; the asset's own view lists them with their verdicts.
import type { Pool } from 'pg';
import { reenrichMatchedSql } from './reenrich-sql';

/** One named file of an asset: the bytes, the first path naming them and the size the signal gave. */
export interface AssetArtifactRef {
  sha256: string;
  path: string;
  size: number;
}

const RECORD_SQL = `
  WITH input AS (
    SELECT DISTINCT ON (sha256) sha256, path, size
      FROM unnest($3::text[], $4::text[], $5::int8[]) WITH ORDINALITY AS t(sha256, path, size, n)
     ORDER BY sha256, n
  ),
  gone AS (
    DELETE FROM asset_artifacts aa
     WHERE aa.livemode = $1 AND aa.fingerprint = $2 AND NOT (aa.sha256 = ANY ($3::text[]))
  )
  INSERT INTO asset_artifacts (livemode, fingerprint, sha256, path, size)
  SELECT $1, $2, sha256, path, size FROM input ORDER BY sha256
  ON CONFLICT (livemode, fingerprint, sha256) DO UPDATE SET path = EXCLUDED.path, size = EXCLUDED.size
   WHERE asset_artifacts.path IS DISTINCT FROM EXCLUDED.path OR asset_artifacts.size IS DISTINCT FROM EXCLUDED.size`;

/**
 * Replaces the hashes one asset names with `artifacts` (the first entry of a repeated hash wins), in one statement. The
 * enrichment job calls it before it reads the verdicts of those hashes, so a verdict committed after that read finds
 * the asset here and re-enriches it.
 */
export async function recordAssetArtifacts(
  db: Pick<Pool, 'query'>,
  input: { livemode: boolean; fingerprint: string; artifacts: readonly AssetArtifactRef[] },
): Promise<void> {
  const a = input.artifacts;
  await db.query(RECORD_SQL, [
    input.livemode,
    input.fingerprint,
    a.map((x) => x.sha256),
    a.map((x) => x.path),
    a.map((x) => Math.max(0, Math.trunc(x.size))),
  ]);
}

/** The assets (both modes) naming one of the hashes in $1, found by the sha256 index (its plan is tested). */
export const ASSETS_NAMING_SQL = `SELECT DISTINCT aa.livemode, aa.fingerprint FROM asset_artifacts aa WHERE aa.sha256 = ANY ($1::text[])`;

/**
 * Every asset (both modes) naming one of `sha256s`: enriched ones become stale, and enriched, stale and pending ones get
 * an enrichment outbox row with `reason` (the worker's outbox relay enqueues it), in one statement — what an advisory
 * import does for its packages (reenrich-sql.ts; assets locked in (livemode, fingerprint) order). Returns the number
 * of queued jobs.
 */
export async function markAssetsForArtifactReenrichment(
  db: Pick<Pool, 'query'>,
  input: { sha256s: readonly string[]; reason: string },
): Promise<number> {
  if (input.sha256s.length === 0) return 0;
  const res = await db.query(reenrichMatchedSql(ASSETS_NAMING_SQL, '$2'), [input.sha256s, input.reason]);
  return res.rows.length;
}

/** A named file as the asset's view lists it: with the shared verdict of its hash, null when never scanned. */
export type AssetArtifactView = AssetArtifactRef & { verdict: string | null };

/**
 * The files each of these assets (one mode) names, by path, at most `limit` per asset, with the shared verdict of each
 * hash, in one statement (the asset routes' `expand[]=artifacts`). Assets naming nothing are absent.
 */
export async function readAssetArtifacts(
  db: Pick<Pool, 'query'>,
  input: { livemode: boolean; fingerprints: readonly string[]; limit: number },
): Promise<Map<string, AssetArtifactView[]>> {
  const out = new Map<string, AssetArtifactView[]>();
  if (input.fingerprints.length === 0) return out;
  const res = await db.query<AssetArtifactView & { fingerprint: string }>(
    `SELECT f.fingerprint, x.path, x.sha256, x.size, x.verdict
       FROM unnest($2::text[]) AS f(fingerprint)
       CROSS JOIN LATERAL (
         SELECT aa.path, aa.sha256, aa.size::float8 AS size, a.verdict
           FROM asset_artifacts aa LEFT JOIN artifacts a ON a.sha256 = aa.sha256
          WHERE aa.livemode = $1 AND aa.fingerprint = f.fingerprint
          ORDER BY aa.path, aa.sha256 LIMIT $3
       ) x`,
    [input.livemode, [...new Set(input.fingerprints)], input.limit],
  );
  for (const { fingerprint, ...r } of res.rows) {
    const list = out.get(fingerprint) ?? [];
    list.push(r);
    out.set(fingerprint, list);
  }
  return out;
}
