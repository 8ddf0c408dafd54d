// Artifact verdicts by content hash (docs/artifacts.md "Artifacts in the API"). `artifacts` holds what the
// platform's own analyser said about some bytes: shared by every org, it carries no org. `artifact_uploads` says
// which org uploaded what and is read only with the caller's own org. Scans are leased: the process scanning
// renews `scan_lease_until`; a scan whose lease ran out (its process died) is marked failed by the next claim, the
// worker's maintenance, or a read that finds it.
import type { Pool, PoolClient } from 'pg';
import type { PrismaClient } from '../generated/prisma/client';

/** A pg pool or client, or Prisma (its raw queries): every function here runs plain parameterised SQL. */
export type ArtifactsDb = Pick<Pool, 'query'> | Pick<PoolClient, 'query'> | Pick<PrismaClient, '$queryRawUnsafe'>;

async function rows<T>(db: ArtifactsDb, sql: string, params: unknown[]): Promise<T[]> {
  if ('$queryRawUnsafe' in db) return db.$queryRawUnsafe<T[]>(sql, ...params);
  const res = await (db as Pick<Pool, 'query'>).query(sql, params);
  return res.rows as T[];
}

export type ArtifactVerdictName = 'malicious' | 'suspicious' | 'benign' | 'invalid' | 'unscannable' | 'unsupported';
export type ArtifactStatus = 'scanning' | 'done' | 'failed';

/** What enrichment needs of a verdict. */
export interface ArtifactVerdictRow {
  verdict: ArtifactVerdictName;
  format: string;
  findings: unknown[];
  analyser_version: string;
  scanned_at: Date;
}

/** A stored artifact (never with its uploader). */
export interface ArtifactRow {
  sha256: string;
  size: number;
  format: string | null;
  verdict: ArtifactVerdictName | null;
  findings: unknown[];
  facts: Record<string, unknown>;
  analyser_version: string | null;
  status: ArtifactStatus;
  failure: string | null;
  bytes_kept: boolean;
  scanned_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** The result of a scan, as @risk/artifacts' ArtifactResult gives it. */
export interface ArtifactScanWrite {
  sha256: string;
  size: number;
  format: string;
  verdict: ArtifactVerdictName;
  findings: unknown[];
  facts: Record<string, unknown>;
  analyser_version: string;
}

// A scan whose lease ran out reads as failed at once (maintenance writes it so on its next pass): its process died.
const LAPSED = (a: string) => `(${a}status = 'scanning' AND ${a}scan_lease_until < now())`;
const columns = (a: string): string => `${a}sha256, ${a}size::float8 AS size, ${a}format, ${a}verdict, ${a}findings,
  ${a}facts, ${a}analyser_version, CASE WHEN ${LAPSED(a)} THEN 'failed' ELSE ${a}status END AS status,
  CASE WHEN ${LAPSED(a)} THEN 'lease_expired' ELSE ${a}failure END AS failure, ${a}bytes_kept, ${a}scanned_at,
  ${a}created_at, ${a}updated_at`;
const COLUMNS = columns('');

function toRow(r: ArtifactRow): ArtifactRow {
  return { ...r, size: Number(r.size) };
}

/**
 * The verdicts of these hashes, in one query: hashes never scanned to the end are absent. A hash being re-scanned
 * keeps its previous verdict until the new one is written.
 */
export async function findArtifactVerdicts(
  db: ArtifactsDb,
  sha256s: string[],
): Promise<Map<string, ArtifactVerdictRow>> {
  const out = new Map<string, ArtifactVerdictRow>();
  if (sha256s.length === 0) return out;
  const found = await rows<ArtifactVerdictRow & { sha256: string }>(
    db,
    `SELECT sha256, verdict, format, findings, analyser_version, scanned_at
       FROM artifacts WHERE sha256 = ANY($1::text[]) AND verdict IS NOT NULL`,
    [sha256s],
  );
  for (const { sha256, ...v } of found) out.set(sha256, v);
  return out;
}

/** Artifacts by hash (any status), in one query; unknown hashes are absent. */
export async function findArtifacts(db: ArtifactsDb, sha256s: string[]): Promise<Map<string, ArtifactRow>> {
  const out = new Map<string, ArtifactRow>();
  if (sha256s.length === 0) return out;
  const found = await rows<ArtifactRow>(db, `SELECT ${COLUMNS} FROM artifacts WHERE sha256 = ANY($1::text[])`, [
    sha256s,
  ]);
  for (const r of found) out.set(r.sha256, toRow(r));
  return out;
}

export type ArtifactClaim =
  /** the hash is known with this analyser version: no scan needed */
  | { kind: 'known'; artifact: ArtifactRow }
  /**
   * the caller holds the scan lease now (a new hash, a failed or dead scan, or another analyser version); `created`:
   * the platform had not seen these bytes before
   */
  | { kind: 'claimed'; artifact: ArtifactRow; created: boolean };

/**
 * Claims the scan of these bytes for `owner` until `now + leaseMs`, unless they were scanned with `analyserVersion`
 * already. A scan under way elsewhere is taken over: the caller holds the bytes and the result is the same for the
 * same analyser version, so two scans of one hash at once cost CPU, never a wrong verdict.
 */
export async function claimArtifactScan(
  db: ArtifactsDb,
  input: { sha256: string; size: number; owner: string; leaseMs: number; analyserVersion: string; now?: Date },
): Promise<ArtifactClaim> {
  const now = input.now ?? new Date();
  const until = new Date(now.getTime() + input.leaseMs);
  const [claimed] = await rows<ArtifactRow & { inserted: boolean }>(
    db,
    `INSERT INTO artifacts (sha256, size, status, scan_owner, scan_lease_until, created_at, updated_at)
     VALUES ($1, $2, 'scanning', $3, $4, $5, $5)
     ON CONFLICT (sha256) DO UPDATE
        SET status = 'scanning', failure = NULL, scan_owner = $3, scan_lease_until = $4, updated_at = $5
      WHERE artifacts.status <> 'done' OR artifacts.analyser_version IS DISTINCT FROM $6
     RETURNING ${COLUMNS}, (xmax = 0) AS inserted`,
    [input.sha256, input.size, input.owner, until, now, input.analyserVersion],
  );
  if (claimed) {
    // xmax is 0 on a row this statement inserted, set on one it updated (ON CONFLICT DO UPDATE)
    const { inserted, ...artifact } = claimed;
    return { kind: 'claimed', artifact: toRow(artifact), created: inserted };
  }
  const known = (await findArtifacts(db, [input.sha256])).get(input.sha256);
  if (!known) throw new Error('artifact row vanished between its claim and its read');
  return { kind: 'known', artifact: known };
}

/** Extends the lease of a scan this owner still holds; false when it no longer does. */
export async function renewArtifactLease(
  db: ArtifactsDb,
  input: { sha256: string; owner: string; leaseMs: number; now?: Date },
): Promise<boolean> {
  const now = input.now ?? new Date();
  const renewed = await rows<{ sha256: string }>(
    db,
    `UPDATE artifacts SET scan_lease_until = $3
      WHERE sha256 = $1 AND status = 'scanning' AND scan_owner = $2 RETURNING sha256`,
    [input.sha256, input.owner, new Date(now.getTime() + input.leaseMs)],
  );
  return renewed.length > 0;
}

/**
 * Renews the lease of a running scan every third of `leaseMs` until the returned function is called (a scan of
 * gigabytes outlives one lease; a process that dies stops renewing, and the lease runs out).
 */
export function keepArtifactLease(
  db: ArtifactsDb,
  lease: { sha256: string; owner: string; leaseMs: number },
  onError: (err: unknown) => void,
): () => void {
  const timer = setInterval(
    () => void renewArtifactLease(db, lease).catch(onError),
    Math.max(250, Math.floor(lease.leaseMs / 3)),
  );
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * Writes a scan's result (whoever held the lease: the verdict of one analyser version is a property of the bytes).
 * Returns the stored row and whether the verdict changed (a first verdict counts as a change), which is when the
 * assets naming the hash are re-enriched.
 */
export async function completeArtifactScan(
  db: ArtifactsDb,
  result: ArtifactScanWrite,
  now: Date = new Date(),
): Promise<{ artifact: ArtifactRow; verdictChanged: boolean }> {
  const [row] = await rows<ArtifactRow & { previous_verdict: string | null }>(
    db,
    `WITH prev AS (SELECT verdict FROM artifacts WHERE sha256 = $1)
     INSERT INTO artifacts AS a (sha256, size, format, verdict, findings, facts, analyser_version, status,
                                 scanned_at, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5::jsonb, $6::jsonb, $7, 'done', $8, $8, $8)
     ON CONFLICT (sha256) DO UPDATE
        SET format = $3, verdict = $4, findings = $5::jsonb, facts = $6::jsonb, analyser_version = $7,
            status = 'done', failure = NULL, scan_owner = NULL, scan_lease_until = NULL, scanned_at = $8,
            updated_at = $8
     RETURNING ${columns('a.')}, (SELECT verdict FROM prev) AS previous_verdict`,
    [
      result.sha256,
      result.size,
      result.format,
      result.verdict,
      JSON.stringify(result.findings),
      JSON.stringify(result.facts),
      result.analyser_version,
      now,
    ],
  );
  const { previous_verdict, ...artifact } = row!;
  return { artifact: toRow(artifact), verdictChanged: previous_verdict !== result.verdict };
}

/** Marks a scan this owner holds failed (the analyser threw); a scan finished meanwhile by another is left alone. */
export async function failArtifactScan(
  db: ArtifactsDb,
  input: { sha256: string; owner: string; failure: string; now?: Date },
): Promise<void> {
  await rows(
    db,
    `UPDATE artifacts SET status = 'failed', failure = $3, scan_owner = NULL, scan_lease_until = NULL, updated_at = $4
      WHERE sha256 = $1 AND status = 'scanning' AND scan_owner = $2 RETURNING sha256`,
    [input.sha256, input.owner, input.failure, input.now ?? new Date()],
  );
}

/** Marks every scan whose lease ran out failed (`lease_expired`); returns their hashes. */
export async function expireArtifactScans(db: ArtifactsDb, now: Date = new Date()): Promise<string[]> {
  const expired = await rows<{ sha256: string }>(
    db,
    `UPDATE artifacts SET status = 'failed', failure = 'lease_expired', scan_owner = NULL, scan_lease_until = NULL,
            updated_at = $1
      WHERE status = 'scanning' AND scan_lease_until < $1 RETURNING sha256`,
    [now],
  );
  return expired.map((r) => r.sha256);
}

/** Records that this org uploaded these bytes (once per org and mode; a repeat counts). Never read across orgs. */
export async function recordArtifactUpload(
  db: ArtifactsDb,
  input: {
    orgId: string;
    livemode: boolean;
    sha256: string;
    idempotencyKey?: string | null;
    filename?: string | null;
    now?: Date;
  },
): Promise<void> {
  await rows(
    db,
    `INSERT INTO artifact_uploads (org_id, livemode, sha256, idempotency_key, filename, created_at, last_uploaded_at)
     VALUES ($1, $2, $3, $4, $5, $6, $6)
     ON CONFLICT (org_id, livemode, sha256) DO UPDATE
        SET uploads = artifact_uploads.uploads + 1, last_uploaded_at = $6
     RETURNING sha256`,
    [
      input.orgId,
      input.livemode,
      input.sha256,
      input.idempotencyKey ?? null,
      input.filename ?? null,
      input.now ?? new Date(),
    ],
  );
}

/** Size of a kept-bytes row. */
export const ARTIFACT_CHUNK_BYTES = 1 << 20;

/** Stores one chunk of kept bytes (idempotent: a repeat of the same upload rewrites the same rows). */
export async function writeArtifactChunk(
  db: ArtifactsDb,
  chunk: { sha256: string; seq: number; data: Uint8Array },
): Promise<void> {
  const { sha256, seq, data } = chunk;
  await rows(
    db,
    `INSERT INTO artifact_chunks (sha256, seq, data) VALUES ($1, $2, $3)
     ON CONFLICT (sha256, seq) DO UPDATE SET data = EXCLUDED.data RETURNING seq`,
    [sha256, seq, Buffer.from(data.buffer, data.byteOffset, data.byteLength)],
  );
}

/** Marks the bytes kept once every chunk is written (`chunks` of them); extra rows of an older write are dropped. */
export async function markArtifactBytesKept(db: ArtifactsDb, sha256: string, chunks: number): Promise<void> {
  await rows(
    db,
    `WITH gone AS (DELETE FROM artifact_chunks WHERE sha256 = $1 AND seq >= $2)
     UPDATE artifacts SET bytes_kept = true WHERE sha256 = $1 RETURNING sha256`,
    [sha256, chunks],
  );
}

/** Kept bytes from chunk `fromSeq`, at most `limit` chunks, in order (a re-scan pages through them). */
export async function readArtifactChunks(
  db: ArtifactsDb,
  input: { sha256: string; fromSeq: number; limit: number },
): Promise<Array<{ seq: number; data: Buffer }>> {
  return rows<{ seq: number; data: Buffer }>(
    db,
    `SELECT seq, data FROM artifact_chunks WHERE sha256 = $1 AND seq >= $2 ORDER BY seq LIMIT $3`,
    [input.sha256, input.fromSeq, input.limit],
  );
}

/**
 * Hashes whose bytes are kept and whose verdict another analyser version made (or none did), oldest first, with the
 * size a re-scan claims them at (so the caller needs no second read).
 */
export async function findArtifactsToRescan(
  db: ArtifactsDb,
  input: { analyserVersion: string; limit: number },
): Promise<Array<{ sha256: string; size: number }>> {
  const found = await rows<{ sha256: string; size: number }>(
    db,
    `SELECT sha256, size::float8 AS size FROM artifacts
      WHERE bytes_kept AND analyser_version IS DISTINCT FROM $1 AND status <> 'scanning'
      ORDER BY updated_at LIMIT $2`,
    [input.analyserVersion, input.limit],
  );
  return found.map((r) => ({ sha256: r.sha256, size: Number(r.size) }));
}
