import { createHash } from 'node:crypto';
import type { EnrichmentResult, Severity } from '@risk/enrichment';
import type { Pool } from 'pg';
import { ID_PREFIXES, newId } from '../ids';
import { assertNoNul, literal } from '../sql/literal';
import { withPrepared } from '../sql/prepared';
import {
  CANDIDATE_THREATS_TEXT,
  ENRICHMENT_WRITE_STATEMENTS as statements,
  READ_SQL,
  candidateThreatsSql,
  lockSql,
} from './enrichment-statements';
import { ASSET_HISTORY_CAP, findingSnapshot } from './history-store';
import { THREAT_MATCH_RULE_ID, type AssetMatchKeys, type MatchingThreatRow } from './threats-store';

/**
 * The enrichment store (docs/data-access.md "Stores"): what an enrichment job reads (the asset, its
 * observations, the candidate threats) and THE writer of an enrichment result, used by the worker and
 * by the tests that need an enriched asset.
 */

/** One enrichment job's key: the asset and the observation-set digest it analyses. */
export interface EnrichmentJobKey {
  livemode: boolean;
  fingerprint: string;
  digest: string;
}

/** One org's latest observation of the asset: the content of its latest signal. */
export interface Observation {
  asset_type: string;
  name: string | null;
  version: string | null;
  source_url: string | null;
  raw_manifest: string | null;
  metadata: Record<string, unknown> | null;
}

/** The asset as the job reads it, plus — only when the job has work to do — its observations and orgs. */
export interface JobRead {
  asset_type: string;
  enrichment_status: string;
  latest_digest: string;
  enriched_digest: string | null;
  intrinsic_risk_score: number | null;
  intrinsic_risk_severity: string | null;
  first_seen: Date;
  signal_count: number;
  /** newest first; null when the job has nothing to do */
  observations: Observation[] | null;
  org_count: number | null;
  org_signal_count: number | null;
  org_first_seen: Date | null;
}

/**
 * Reads a batch of jobs in one statement (READ_SQL): one entry per job, in order, undefined when the
 * asset does not exist. Observations received before `observedSince` are expired (the newest still counts).
 */
export async function readEnrichmentJobs(
  db: Pick<Pool, 'query'>,
  jobs: readonly EnrichmentJobKey[],
  observedSince: Date,
): Promise<Array<JobRead | undefined>> {
  const { rows } = await db.query<JobRead & { i: string }>({
    name: 'enrichment_read',
    text: READ_SQL,
    values: [jobs.map((j) => j.livemode), jobs.map((j) => j.fingerprint), jobs.map((j) => j.digest), observedSince],
  });
  const byIndex = new Map(rows.map((r) => [Number(r.i), r]));
  return jobs.map((_, k) => byIndex.get(k + 1));
}

/** A threat that may match the asset, flagged with whether it lists the fingerprint. */
export type CandidateThreatRow = MatchingThreatRow & { severity: Severity; by_fingerprint: boolean };

/**
 * The threats that may match the asset (candidateThreatsSql; pass every CVE id the engine can report
 * as `cve_ids`), read without any lock, and the stamp of each (THREAT_STAMP) for the writer's check.
 */
export async function readCandidateThreats(
  db: Pick<Pool, 'query'>,
  keys: AssetMatchKeys,
): Promise<{ threats: CandidateThreatRow[]; stamps: Map<string, string> }> {
  const { rows } = await db.query<CandidateThreatRow & { stamp: string }>({
    name: 'enrichment_threats',
    text: CANDIDATE_THREATS_TEXT,
    values: candidateThreatsSql(keys).values,
  });
  return {
    threats: rows.map(({ stamp: _, ...t }) => t),
    stamps: new Map(rows.map((t) => [t.id, t.stamp])),
  };
}

interface LockedRow {
  latest_digest: string;
  enrichment_status: string;
  bom_id: string | null;
  bom_version: number | null;
  content_hash: string | null;
  has_endpoints: boolean;
  threat_stamp: string | null;
}

export interface EnrichmentWrite {
  job: EnrichmentJobKey;
  /** the asset as the job read it before the engine ran (its previous score decides asset.risk_changed) */
  asset: Pick<JobRead, 'asset_type' | 'intrinsic_risk_score' | 'intrinsic_risk_severity'>;
  result: EnrichmentResult;
  /** the stamps of the candidate threats the analysis saw (readCandidateThreats) */
  threatStamps: Map<string, string>;
  now: Date;
}

export interface EnrichmentWritten {
  status: 'enriched' | 'stale' | 'pending';
  bomVersion: number;
  /** the webhook deliveries fanned out in the transaction, for the caller to enqueue after commit */
  deliveries: Array<{ delivery_id: string; outbox_id: bigint }>;
}

/** The stamp of the threats the analysis applied, as the lock statement spells it (ids in C order). */
function appliedThreatStamp(result: EnrichmentResult, stamps: Map<string, string>): string {
  const ids = new Set(result.findings.filter((f) => f.rule_id === THREAT_MATCH_RULE_ID).flatMap((f) => f.threat_ids));
  return [...ids]
    .sort()
    .map((id) => stamps.get(id) ?? id)
    .join(',');
}

const { text, jsonb, int, bool, textArray } = literal;

/**
 * Writes an enrichment result in one transaction on one pooled connection, in two round trips (a
 * first use of the connection adds one to prepare the statements): `BEGIN; EXECUTE lock` then
 * `EXECUTE write; [EXECUTE fan-out;] COMMIT` (docs/performance.md). Findings are replaced, a new AI-BOM
 * version is inserted when its content changed, the asset's scores and status are set and the events
 * recorded, all in the job's mode.
 */
export async function writeEnrichment(db: Pick<Pool, 'connect'>, input: EnrichmentWrite): Promise<EnrichmentWritten> {
  const { job, asset, result, threatStamps, now } = input;
  return withPrepared(db, statements, async (session) => {
    // the CVE ids of the rule findings (threat_match findings excluded, as in the shared rule)
    const cveIds = [
      ...new Set(result.findings.filter((f) => f.rule_id !== THREAT_MATCH_RULE_ID).flatMap((f) => f.cve_ids)),
    ].sort();
    const lock = lockSql({
      livemode: job.livemode,
      fingerprint: job.fingerprint,
      asset_type: asset.asset_type,
      cve_ids: cveIds,
    });
    const lockArgs = lock.values.map((v) =>
      Array.isArray(v) ? textArray(v as string[]) : typeof v === 'boolean' ? bool(v) : text(v as string),
    );
    session.inTransaction = true;
    const first = await session.run(
      assertNoNul(`BEGIN;\n${statements.execute(cveIds.length > 0 ? 'ew_lock_cve' : 'ew_lock_fp', lockArgs)}`),
    );
    const current = first[1]!.rows[0] as LockedRow | undefined;
    if (!current) throw new Error(`asset ${job.fingerprint} disappeared during enrichment`);

    // every version is kept; a new one only when the BOM's content changed
    const newBom = current.content_hash !== result.aibom.content_hash;
    const bomVersion = newBom ? (current.bom_version ?? 0) + 1 : current.bom_version!;
    const bomId = newBom ? newId(ID_PREFIXES.aibom) : current.bom_id!;
    // newer content arrived while we computed: keep the result (it is the last good one) but leave the
    // asset waiting for the job that carries the newer digest
    const superseded = current.latest_digest !== job.digest;
    // A threat matching the asset was created or changed while we analysed (the analysis ran without
    // the row lock, on the threats read before it). The threat's own re-enrichment may not reach this
    // asset (it matches CVE ids on stored findings, and ours are not stored yet) or may already have
    // run: store our result as the last good one, leave the asset stale, and queue one more job (outbox
    // row, same transaction) that analyses again with the threats as they are now.
    const threatsChanged = (current.threat_stamp ?? '') !== appliedThreatStamp(result, threatStamps);
    const status = superseded
      ? current.enrichment_status === 'pending'
        ? 'pending'
        : 'stale'
      : threatsChanged
        ? 'stale'
        : 'enriched';
    const eventRows = enrichmentEvents({ ...input, status, bomId, bomVersion });

    const second = [
      // history first: it diffs against the previous entry and needs nothing ew_write changes
      statements.execute('ew_history', [
        text(newId(ID_PREFIXES.assetHistory)),
        bool(job.livemode),
        text(job.fingerprint),
        text(job.digest),
        `'${now.toISOString()}'`,
        int(result.intrinsic_risk_score),
        text(result.intrinsic_risk_severity),
        int(bomVersion),
        jsonb(findingSnapshot(result.findings)),
        int(ASSET_HISTORY_CAP),
      ]),
      statements.execute('ew_write', [
        text(job.fingerprint),
        text(job.digest),
        `'${now.toISOString()}'`,
        jsonb(findingRows(result)),
        text(bomId),
        int(bomVersion),
        text(result.aibom.content_hash),
        text(result.aibom.spdx_version),
        jsonb(result.aibom.spdx),
        jsonb(result.aibom.components),
        jsonb(result.aibom.lineage),
        jsonb(result.aibom.cyclonedx),
        bool(newBom),
        int(result.intrinsic_risk_score),
        text(result.intrinsic_risk_severity),
        jsonb(result.publisher_trust),
        jsonb(result.benchmark_summary),
        jsonb(result.score_breakdown),
        text(result.normalized_name),
        text(result.publisher),
        text(result.ecosystem),
        text(status),
        jsonb(eventRows),
        bool(job.livemode),
      ]),
    ];
    if (current.has_endpoints) second.push(statements.execute('ew_fanout', [textArray(eventRows.map((e) => e.id))]));
    if (threatsChanged && !superseded) {
      const stampHash = createHash('sha256')
        .update(current.threat_stamp ?? '')
        .digest('hex');
      const payload = {
        fingerprint: job.fingerprint,
        digest: job.digest,
        reason: `threats_changed:${stampHash.slice(0, 16)}`,
      };
      second.push(`INSERT INTO outbox (kind, payload) VALUES ('enrichment', ${jsonb(payload)})`);
    }
    second.push('COMMIT');
    const out = await session.run(assertNoNul(second.join(';\n')));
    session.inTransaction = false;
    const deliveries = current.has_endpoints
      ? (out[2]!.rows as Array<{ delivery_id: string; outbox_id: string }>).map((r) => ({
          delivery_id: r.delivery_id,
          outbox_id: BigInt(r.outbox_id),
        }))
      : [];
    return { status, bomVersion, deliveries };
  });
}

/** The findings as ew_write's jsonb recordset reads them. */
function findingRows(result: EnrichmentResult) {
  return result.findings.map((f) => ({
    id: newId(ID_PREFIXES.finding),
    rule_id: f.rule_id,
    title: f.title,
    description: f.description,
    severity: f.severity,
    category: f.category,
    confidence: f.confidence,
    evidence: f.evidence,
    capabilities: f.capabilities,
    attack_techniques: f.attack_techniques,
    cve_ids: f.cve_ids,
    threat_ids: f.threat_ids,
    remediation: f.remediation,
    score_contribution: f.score_contribution,
    score_breakdown: { weight: f.weight, contribution: f.score_contribution },
    benchmark: f.benchmark ?? null,
  }));
}

/** asset.enriched, and asset.risk_changed when a previous score or severity changed. */
function enrichmentEvents(
  w: EnrichmentWrite & { status: EnrichmentWritten['status']; bomId: string; bomVersion: number },
): Array<{ id: string; type: string; data: Record<string, unknown> }> {
  const { job, asset, result } = w;
  const rendered = {
    object: 'asset',
    fingerprint: job.fingerprint,
    asset_type: asset.asset_type,
    enrichment_status: w.status,
    intrinsic_risk_score: result.intrinsic_risk_score,
    intrinsic_risk_severity: result.intrinsic_risk_severity,
    publisher: result.publisher,
    aibom: w.bomId,
    bom_version: w.bomVersion,
    enriched_at: Math.floor(w.now.getTime() / 1000),
  };
  const events: Array<{ id: string; type: string; data: Record<string, unknown> }> = [
    { id: newId(ID_PREFIXES.event), type: 'asset.enriched', data: { object: rendered } },
  ];
  const scoreChanged = asset.intrinsic_risk_score !== result.intrinsic_risk_score;
  const severityChanged = asset.intrinsic_risk_severity !== result.intrinsic_risk_severity;
  if (asset.intrinsic_risk_score !== null && (scoreChanged || severityChanged)) {
    events.push({
      id: newId(ID_PREFIXES.event),
      type: 'asset.risk_changed',
      data: {
        object: rendered,
        previous_attributes: {
          intrinsic_risk_score: asset.intrinsic_risk_score,
          intrinsic_risk_severity: asset.intrinsic_risk_severity,
        },
      },
    });
  }
  return events;
}
