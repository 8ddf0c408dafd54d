// Scan results a client reports itself (docs/artifacts.md "Client-reported scan results"): one row per org, asset and
// hash in `asset_org_artifact_reports`, rebuilt from each org's latest signal by the enrichment job and read only by
// that org's own views. Nothing here reads or writes `artifacts`, the verdicts shared by hash.
import type { Pool } from 'pg';
import { rowByIdSql } from './partitions-store';

// Every org's latest signal of the asset (read in the month its id names: partitions-store.ts), its
// `artifacts[].reported` entries (the first entry of a repeated hash wins), replace that asset's report rows in one
// statement. Entries the API accepted are valid; the verdict filter keeps a
// row the table would refuse from failing the enrichment job.
const RECORD_SQL = `
  WITH src AS (
    SELECT DISTINCT ON (ao.org_id, lower(x.e->>'sha256'))
           ao.org_id, lower(x.e->>'sha256') AS sha256, x.e->>'path' AS path, x.e->'reported' AS r,
           ao.latest_digest AS digest, s.created AS reported_at
      FROM asset_orgs ao
      CROSS JOIN LATERAL ${rowByIdSql('signals', 'artifacts, created', 'ao.latest_signal_id')} s
      CROSS JOIN LATERAL jsonb_array_elements(
        CASE WHEN jsonb_typeof(s.artifacts) = 'array' THEN s.artifacts ELSE '[]'::jsonb END
      ) WITH ORDINALITY AS x(e, n)
     WHERE ao.livemode = $1 AND ao.fingerprint = $2 AND ao.latest_digest IS NOT NULL
       AND jsonb_typeof(x.e->'reported') = 'object'
       AND lower(x.e->>'sha256') ~ '^[0-9a-f]{64}$'
       AND x.e->'reported'->>'verdict' IN ('malicious', 'suspicious', 'benign', 'invalid', 'unscannable', 'unsupported')
     ORDER BY ao.org_id, lower(x.e->>'sha256'), x.n
  ),
  gone AS (
    DELETE FROM asset_org_artifact_reports r
     WHERE r.livemode = $1 AND r.fingerprint = $2
       AND NOT EXISTS (SELECT 1 FROM src WHERE src.org_id = r.org_id AND src.sha256 = r.sha256)
  )
  INSERT INTO asset_org_artifact_reports
         (livemode, fingerprint, org_id, sha256, path, verdict, analyser, analyser_version, findings, digest, reported_at)
  SELECT $1, $2, org_id, sha256, path, r->>'verdict', COALESCE(r->>'analyser', ''), COALESCE(r->>'analyser_version', ''),
         CASE WHEN jsonb_typeof(r->'findings') = 'array' THEN r->'findings' ELSE '[]'::jsonb END, digest, reported_at
    FROM src ORDER BY org_id, sha256
  ON CONFLICT (livemode, fingerprint, org_id, sha256) DO UPDATE
     SET path = EXCLUDED.path, verdict = EXCLUDED.verdict, analyser = EXCLUDED.analyser,
         analyser_version = EXCLUDED.analyser_version, findings = EXCLUDED.findings, digest = EXCLUDED.digest,
         reported_at = EXCLUDED.reported_at
   WHERE asset_org_artifact_reports.digest IS DISTINCT FROM EXCLUDED.digest
      OR asset_org_artifact_reports.path IS DISTINCT FROM EXCLUDED.path`;

/**
 * Rebuilds one asset's client-reported scan results from every org's latest signal, in one statement: each org's rows
 * become the `reported` entries of its own latest signal (an org's new signal replaces what its previous one
 * reported, never another org's). The enrichment job calls it when the observations name artifacts.
 */
export async function recordOrgArtifactReports(
  db: Pick<Pool, 'query'>,
  input: { livemode: boolean; fingerprint: string },
): Promise<void> {
  await db.query(RECORD_SQL, [input.livemode, input.fingerprint]);
}

/** One file's client-reported scan result, with the platform's verdict for the same bytes (null: none). */
export interface OrgArtifactReport {
  path: string;
  sha256: string;
  verdict: string;
  analyser: string;
  analyser_version: string;
  findings: unknown;
  reported_at: Date;
  /** the shared verdict of the bytes, made by the platform's own scan; null when it has none */
  platform_verdict: string | null;
}

/**
 * The scan results the org reported itself for each of these assets (one mode), by path, at most `limit` per asset,
 * with the platform's verdict of each hash, in one statement. Only rows of the org's latest observation count (a row
 * whose digest is no longer the org's latest is one an enrichment has not rebuilt yet, and never shown).
 */
export async function readOrgArtifactReports(
  db: Pick<Pool, 'query'>,
  input: { livemode: boolean; orgId: string; fingerprints: readonly string[]; limit: number },
): Promise<Map<string, OrgArtifactReport[]>> {
  const out = new Map<string, OrgArtifactReport[]>();
  if (input.fingerprints.length === 0) return out;
  const res = await db.query<OrgArtifactReport & { fingerprint: string }>(
    `SELECT f.fingerprint, x.*
       FROM unnest($3::text[]) AS f(fingerprint)
       CROSS JOIN LATERAL (
         SELECT r.path, r.sha256, r.verdict, r.analyser, r.analyser_version, r.findings, r.reported_at,
                a.verdict AS platform_verdict
           FROM asset_org_artifact_reports r
           JOIN asset_orgs ao ON ao.livemode = r.livemode AND ao.fingerprint = r.fingerprint AND ao.org_id = r.org_id
                             AND ao.latest_digest = r.digest
           LEFT JOIN artifacts a ON a.sha256 = r.sha256 AND a.verdict IS NOT NULL
          WHERE r.org_id = $2 AND r.livemode = $1 AND r.fingerprint = f.fingerprint
          ORDER BY r.path, r.sha256 LIMIT $4
       ) x`,
    [input.livemode, input.orgId, [...new Set(input.fingerprints)], input.limit],
  );
  for (const { fingerprint, ...r } of res.rows) {
    const list = out.get(fingerprint) ?? [];
    list.push(r);
    out.set(fingerprint, list);
  }
  return out;
}
