// Artifact verdicts in enrichment (docs/artifacts.md "Judgement"): an enrichment job records the hashes its asset names
// and hands the platform's verdicts for them to the engine; an `artifact.verdict_changed` job re-enriches the assets
// naming hashes whose verdict is new or changed.
import type { Job } from 'bullmq';
import { JOBS, type EnrichmentJob } from '@risk/common/queue';
import {
  findArtifactVerdicts,
  markAssetsForArtifactReenrichment,
  recordAssetArtifacts,
  recordOrgArtifactReports,
} from '@risk/db';
import { ARTIFACT_VERDICTS } from '@risk/contracts';
import {
  namedArtifacts,
  type ArtifactVerdictFinding,
  type ArtifactVerdictRecord,
  type ArtifactVerdictValue,
  type EnrichmentInput,
} from '@risk/enrichment';
import type { WorkerDeps } from '../deps';

/** The outbox reason of the enrichment a verdict change queues (it names the job apart from content-driven ones). */
export const ARTIFACT_VERDICT_REASON = 'artifact_verdict';

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const optString = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** A stored analyser finding as the engine reads it; anything malformed is dropped rather than trusted. */
function toFinding(f: unknown): ArtifactVerdictFinding | null {
  if (!isObj(f) || typeof f.id !== 'string') return null;
  const e = isObj(f.evidence) ? f.evidence : {};
  const evidence: ArtifactVerdictFinding['evidence'] = {};
  const callable = optString(e.callable);
  const member = optString(e.member);
  const excerpt = optString(e.excerpt);
  if (callable !== undefined) evidence.callable = callable;
  if (member !== undefined) evidence.member = member;
  if (typeof e.offset === 'number' && Number.isFinite(e.offset)) evidence.offset = e.offset;
  if (excerpt !== undefined) evidence.excerpt = excerpt;
  return {
    id: f.id,
    message: optString(f.message) ?? f.id,
    ...(typeof f.severity === 'string' ? { severity: f.severity } : {}),
    ...(typeof f.verdict === 'string' ? { verdict: f.verdict } : {}),
    evidence,
  };
}

/**
 * Records the hashes the job's observations name (asset_artifacts) and reads their verdicts in one query, then gives
 * them to every input. The record comes first: a verdict committed after the read finds the asset there and queues
 * its re-enrichment. An asset naming no hash costs no query (rows it recorded earlier stay until it names one again:
 * at worst one needless re-enrichment, which changes nothing; an org's reports of an earlier signal stop counting
 * once its latest observation differs). Returns the number of verdicts found.
 */
export async function attachArtifactVerdicts(
  deps: Pick<WorkerDeps, 'pool'>,
  job: Pick<EnrichmentJob, 'livemode' | 'fingerprint'>,
  inputs: EnrichmentInput[],
): Promise<number> {
  const named = namedArtifacts(inputs);
  if (named.length === 0) return 0;
  await recordAssetArtifacts(deps.pool, { livemode: job.livemode, fingerprint: job.fingerprint, artifacts: named });
  // each org's own reported scan results, rebuilt from its latest signal beside (never into) the shared verdicts
  // (docs/artifacts.md "Client-reported scan results"); the engine never sees them
  const [found] = await Promise.all([
    findArtifactVerdicts(
      deps.pool,
      named.map((a) => a.sha256),
    ),
    recordOrgArtifactReports(deps.pool, { livemode: job.livemode, fingerprint: job.fingerprint }),
  ]);
  const records: ArtifactVerdictRecord[] = [];
  for (const [sha256, v] of found) {
    if (!(ARTIFACT_VERDICTS as readonly string[]).includes(v.verdict)) continue;
    records.push({
      sha256,
      verdict: v.verdict as ArtifactVerdictValue,
      format: v.format,
      findings: (Array.isArray(v.findings) ? v.findings : [])
        .map(toFinding)
        .filter((f): f is ArtifactVerdictFinding => f !== null),
      analyser_version: v.analyser_version,
      scanned_at: v.scanned_at ? new Date(v.scanned_at).toISOString() : null,
    });
  }
  records.sort((a, b) => (a.sha256 < b.sha256 ? -1 : a.sha256 > b.sha256 ? 1 : 0));
  for (const i of inputs) i.artifact_verdicts = records;
  return records.length;
}

/** What identifies a verdict as the engine used it: a later scan of the same bytes changes it. */
const verdictStamp = (v: { verdict: string; analyser_version: string; scanned_at: Date | string | null }): string =>
  `${v.verdict}@${v.analyser_version}@${v.scanned_at ? new Date(v.scanned_at).toISOString() : ''}`;

/**
 * After the job's write: reads the verdicts of the hashes the engine judged once more and, when one was made or changed
 * since attachArtifactVerdicts read them, re-enriches the assets naming it (this one included). A verdict's own
 * `artifact.verdict_changed` job may have run while this job had not written yet (the asset was still pending, so the
 * job it queued for the same digest finds nothing to do): this check catches that window (docs/artifacts.md
 * "A verdict that arrives later"). Costs one query, only for assets that name hashes. Returns the number of queued jobs.
 */
export async function recheckArtifactVerdicts(
  deps: Pick<WorkerDeps, 'pool'>,
  inputs: readonly EnrichmentInput[],
): Promise<number> {
  const named = namedArtifacts(inputs);
  if (named.length === 0) return 0;
  const used = new Map((inputs[0]?.artifact_verdicts ?? []).map((v) => [v.sha256, verdictStamp(v)]));
  const now = await findArtifactVerdicts(
    deps.pool,
    named.map((a) => a.sha256),
  );
  const changed = named
    .map((a) => a.sha256)
    .filter((sha) => {
      const v = now.get(sha);
      return (v ? verdictStamp(v) : undefined) !== used.get(sha);
    });
  if (changed.length === 0) return 0;
  return markAssetsForArtifactReenrichment(deps.pool, { sha256s: changed, reason: ARTIFACT_VERDICT_REASON });
}

/**
 * The `artifact.verdict_changed` consumer: every asset naming one of the hashes is marked stale and gets an enrichment
 * outbox row, in one statement (markAssetsForArtifactReenrichment); the outbox relay enqueues them and each
 * enrichment writes `asset.risk_changed` as usual when the score moves.
 */
export function createArtifactVerdictProcessor(deps: Pick<WorkerDeps, 'pool'>) {
  return async (job: Job): Promise<{ queued: number }> => {
    const data = JOBS.artifactVerdictChanged.payload.parse(job.data);
    const queued = await markAssetsForArtifactReenrichment(deps.pool, {
      sha256s: data.sha256s,
      reason: ARTIFACT_VERDICT_REASON,
    });
    return { queued };
  };
}
