// The enrichment job's advisory look-up (docs/advisories.md "Enrichment"): the asset's packages were computed in the
// analysis pool (parsing is untrusted work, under the job's budget); ONE query records them and returns every
// advisory affecting any of them; the engine gets those records and stays pure.
import { performance } from 'node:perf_hooks';
import type { EnrichmentJob } from '@risk/common/queue';
import { readCandidateThreats, type CandidateThreats } from '@risk/db';
import {
  ADVISORY_CVE_IDS,
  advisoryPackageKey,
  CURATED_ADVISORIES,
  normalizeOsv,
  type AdvisoryRecord,
  type PackageKey,
} from '@risk/enrichment';
import type { WorkerDeps } from '../deps';
import { readAdvisories } from '../jobs/enrichment-batches';

export interface AdvisoryLookup {
  advisories: AdvisoryRecord[];
  /** CVE ids among the candidates (ids and aliases): the threats the findings may cite are read by these */
  cve_ids: string[];
  /**
   * How many records the database returned for the packages (withdrawn ones included). 0: the advisories are the
   * engine's curated records for those packages, exactly what the engine uses on its own.
   */
  from_database: number;
  ms: number;
}

/** The look-up's answer for an asset without packages, now or recorded: nothing to read, nothing to replace. */
export const NO_ADVISORIES: Readonly<AdvisoryLookup> = Object.freeze({
  advisories: [],
  cve_ids: [],
  from_database: 0,
  ms: 0,
});

export async function lookupAdvisories(
  deps: WorkerDeps,
  input: { livemode: boolean; fingerprint: string; packages: PackageKey[] },
): Promise<AdvisoryLookup> {
  const t0 = performance.now();
  const { packages } = input;
  // one statement for the look-ups of every concurrent job (a MicroBatch, jobs/enrichment-batches.ts)
  const rows = await readAdvisories(deps, {
    livemode: input.livemode,
    fingerprint: input.fingerprint,
    packages,
  });
  const advisories: AdvisoryRecord[] = [];
  for (const raw of rows) {
    const n = normalizeOsv(raw);
    if (n.ok) advisories.push(n.record);
  }
  // the curated feed shipped with this engine counts even before a start has loaded it into the database; a
  // record the database holds (possibly withdrawn or changed) wins
  const held = new Set(advisories.map((a) => a.id));
  const wanted = new Set(packages.map((p) => `${p.ecosystem}:${p.name}`));
  for (const a of CURATED_ADVISORIES)
    if (!held.has(a.id) && a.affected.some((x) => wanted.has(advisoryPackageKey(x.ecosystem, x.name))))
      advisories.push(a);
  const cve_ids = [...new Set(advisories.flatMap((a) => [a.id, ...a.aliases]).filter((id) => id.startsWith('CVE-')))];
  return { advisories, cve_ids, from_database: rows.length, ms: performance.now() - t0 };
}

/**
 * The candidate threats read for the curated CVE ids, plus those whose cve_id only a loaded feed's candidates name
 * (one more read, for those ids only; none when there are none): merged by threat id, stamps included.
 */
export async function withFeedCveThreats(
  deps: WorkerDeps,
  input: { job: EnrichmentJob; assetType: string; base: CandidateThreats; cveIds: readonly string[] },
): Promise<CandidateThreats> {
  const { job, assetType, base, cveIds } = input;
  const known = new Set(ADVISORY_CVE_IDS);
  const extra = cveIds.filter((id) => !known.has(id));
  if (extra.length === 0) return base;
  const more = await readCandidateThreats(deps.pool, {
    livemode: job.livemode,
    fingerprint: job.fingerprint,
    asset_type: assetType,
    cve_ids: extra,
  });
  const seen = new Set(base.threats.map((t) => t.id));
  return {
    threats: [...base.threats, ...more.threats.filter((t) => !seen.has(t.id))],
    stamps: new Map([...base.stamps, ...more.stamps]),
  };
}
