import type { RiskSeverity } from '@risk/contracts';
import type { StoredToolBaseline } from './enrichment-rows';
import type { Pool } from 'pg';
import { literal } from '../sql/literal';
import { PreparedStatements, executeGeneric } from '../sql/prepared';
import { CANDIDATE_THREATS_TEXT, READ_SQL, candidateThreatsSql } from './enrichment-statements';
import { toToolBaseline } from './tool-baselines-store';
import type { AssetMatchKeys, MatchingThreatRow } from './threats-store';

/**
 * What an enrichment job reads (docs/data-access.md "Stores"): the asset, its observations and the candidate
 * threats. enrichment-store.ts writes the result.
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
  /** the files the signal names by hash (docs/artifacts.md "Judgement"); null when none */
  artifacts: Array<{ path: string; sha256: string; size: number }> | null;
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
  /** the asset's MCP tool baseline (docs/drift.md), for the engine; null when none or nothing to do */
  tool_baseline: StoredToolBaseline | null;
  /** the candidate threats (as readCandidateThreats reads them for `cveIds`); null when nothing to do */
  candidates: CandidateThreats | null;
  /** the asset has packages recorded by an earlier advisory look-up (asset_packages); false when nothing to do */
  has_packages: boolean;
}

/** Candidate threats and the stamp of each (THREAT_STAMP), for the writer's check. */
export interface CandidateThreats {
  threats: CandidateThreatRow[];
  stamps: Map<string, string>;
}

function candidates(rows: Array<CandidateThreatRow & { stamp: string }>): CandidateThreats {
  return {
    threats: rows.map(({ stamp: _, ...t }) => t),
    stamps: new Map(rows.map((t) => [t.id, t.stamp])),
  };
}

const { boolArray, textArray, timestamptz } = literal;

/** The job read, prepared once per connection (docs/data-access.md "Prepared statements"). */
export const JOB_READ_STATEMENTS = new PreparedStatements({
  er_read: { types: ['boolean[]', 'text[]', 'text[]', 'timestamptz', 'text[]'], sql: READ_SQL },
});

/**
 * Reads a batch of jobs in one statement (READ_SQL): one entry per job, in order, undefined when the
 * asset does not exist. Observations received before `observedSince` are expired (the newest still
 * counts); the candidate threats are read for `cveIds` (every CVE id the engine can report).
 *
 * On its generic plan, made without sequential scans (docs/data-access.md "Generic plans";
 * packages/db/test/job-read-plan.test.ts): left to choose, Postgres planned it anew on every call, and a drain's reads
 * carry one or two jobs each, so the planning cost more of the database's time than the reading (docs/performance.md).
 */
export async function readEnrichmentJobs(
  db: Pick<Pool, 'connect'>,
  jobs: readonly EnrichmentJobKey[],
  opts: { observedSince: Date; cveIds: readonly string[] },
): Promise<Array<JobRead | undefined>> {
  type Raw = Omit<JobRead, 'tool_baseline' | 'candidates' | 'has_packages'> & {
    has_packages: boolean | null;
    i: string;
    tool_baseline: unknown;
    threats: Array<CandidateThreatRow & { stamp: string }> | null;
  };
  const { rows } = await executeGeneric(db, JOB_READ_STATEMENTS, {
    name: 'er_read',
    args: [
      boolArray(jobs.map((j) => j.livemode)),
      textArray(jobs.map((j) => j.fingerprint)),
      textArray(jobs.map((j) => j.digest)),
      timestamptz(opts.observedSince),
      textArray(opts.cveIds),
    ],
  });
  const byIndex = new Map(
    (rows as Raw[]).map(({ threats, ...r }) => [
      Number(r.i),
      {
        ...r,
        tool_baseline: toToolBaseline(r.tool_baseline),
        has_packages: r.has_packages === true,
        // the threats are read with the observations: for a job with nothing to do, neither
        candidates: r.observations ? candidates(threats ?? []) : null,
      },
    ]),
  );
  return jobs.map((_, k) => byIndex.get(k + 1));
}

/** A threat that may match the asset, flagged with whether it lists the fingerprint. */
export type CandidateThreatRow = MatchingThreatRow & { severity: RiskSeverity; by_fingerprint: boolean };

/**
 * The threats that may match the asset (candidateThreatsSql; pass every CVE id the engine can report
 * as `cve_ids`), read without any lock, and the stamp of each (THREAT_STAMP) for the writer's check.
 */
export async function readCandidateThreats(db: Pick<Pool, 'query'>, keys: AssetMatchKeys): Promise<CandidateThreats> {
  const { rows } = await db.query<CandidateThreatRow & { stamp: string }>({
    name: 'enrichment_threats',
    text: CANDIDATE_THREATS_TEXT,
    values: candidateThreatsSql(keys).values,
  });
  return candidates(rows);
}
