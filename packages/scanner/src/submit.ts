// Online mode (docs/scanner.md "Online mode"): the assets found become signals of the key's org, sent through
// @risk/sdk (bulk route, Idempotency-Key on every POST, retries on 429/5xx with backoff — all the SDK's). Model files
// are looked up by hash first and only the ones the platform has never scanned are uploaded, under a size cap. Every
// string that leaves the machine went through @risk/redaction first, the redaction the platform applies
// (docs/security.md "Secrets never reach shared data"). Then the platform's verdicts are read back, waiting a bounded
// time for enrichment.
import { openAsBlob } from 'node:fs';
import {
  createPublicClient,
  NotFoundError,
  uploadArtifact,
  type PublicComponents,
  type PublicPaths,
  type RiskClient,
} from '@risk/sdk';
import { collectSecretValues, redactDeep, redactText, redactUrl } from '@risk/redaction';
import type { ArtifactResult } from '@risk/artifacts';
import type { EnrichmentInput, ScoredFinding } from '@risk/enrichment';
import { severityRank, type JudgedAsset } from './judge';
import { TOOL } from './tool';

type SignalBody = PublicComponents['schemas']['CreateSignalBody'];
type PlatformAsset = PublicComponents['schemas']['Asset'];
type ReportedScan = PublicComponents['schemas']['ReportedScan'];

/** The API's limits: 500 signals per bulk call, 500 hashes per look-up (docs/public-api.md). */
const BULK_MAX = 500;
const LOOKUP_MAX = 500;
/** Concurrent requests while uploading or reading verdicts: enough to overlap round trips, few enough to be polite. */
const CONCURRENCY = 4;

export interface SubmitOptions {
  apiUrl: string;
  apiKey: string;
  orgId: string;
  /** seconds to wait for enrichment; 0 reads the verdicts once */
  waitSeconds: number;
  /** model files larger than this are never uploaded (reported) */
  maxUploadBytes: number;
  /** Unix seconds of the scan */
  observedAt: number;
  /** where each hashed model file is on disk, by SHA-256 */
  files: ReadonlyMap<string, string>;
  log: (line: string) => void;
}

export interface SubmitReport {
  signals: number;
  uploaded: string[];
  known: string[];
  not_uploaded: Array<{ sha256: string; reason: string }>;
  pending: string[];
}

/** One submission: the client, the options and what has been done so far. */
interface Run {
  risk: RiskClient<PublicPaths>;
  opts: SubmitOptions;
  report: SubmitReport;
}

/** A manifest's text with its secrets redacted: values a JSON structure marks as secret, then the text scan. */
function redactManifest(text: string): string {
  let known: string[] = [];
  try {
    known = collectSecretValues(JSON.parse(text));
  } catch {
    /* not JSON: the text scan alone (it finds `name = value` assignments and known token formats) */
  }
  return redactText(text, known);
}

/** The observation a signal carries for an asset: its model card when it has one, else its first manifest. */
function primaryInput(a: JudgedAsset): EnrichmentInput | undefined {
  return a.inputs.find((i) => i.metadata?.scanner_format === 'hf_model_card') ?? a.inputs[0];
}

/** The findings of one local verdict a signal may quote (the API's cap). */
const REPORTED_FINDINGS_MAX = 10;
const CONTROL = /[\u0000-\u001f\u007f]+/g;

/** A string of the local analyser as the API accepts it: redacted, control characters folded, bounded; never empty. */
function reportText(s: string | undefined, max: number): string | undefined {
  if (s === undefined) return undefined;
  const t = redactText(s).replace(CONTROL, ' ').trim().slice(0, max);
  return t.length > 0 ? t : undefined;
}

/**
 * The local analyser's verdict for a file, as the signal reports it (`artifacts[].reported`, docs/artifacts.md
 * "Client-reported scan results"): it counts only in this org's view, only while the platform has no verdict of its
 * own for the bytes (a file over --max-upload-size, or one whose upload failed), and only to raise.
 */
function reportedScan(r: ArtifactResult): ReportedScan {
  const findings = r.findings.slice(0, REPORTED_FINDINGS_MAX).flatMap((f) => {
    const id = reportText(f.id, 100);
    const message = reportText(f.message, 500);
    if (!id || !message) return [];
    const evidence: NonNullable<NonNullable<ReportedScan['findings']>[number]['evidence']> = {};
    const callable = reportText(f.evidence.callable, 200);
    const member = reportText(f.evidence.member, 200);
    const excerpt = reportText(f.evidence.excerpt, 200);
    if (callable) evidence.callable = callable;
    if (member) evidence.member = member;
    if (excerpt) evidence.excerpt = excerpt;
    if (Number.isSafeInteger(f.evidence.offset) && f.evidence.offset! >= 0) evidence.offset = f.evidence.offset!;
    return [{ id, message, severity: f.severity, ...(Object.keys(evidence).length ? { evidence } : {}) }];
  });
  return {
    verdict: r.verdict,
    analyser: TOOL.name,
    analyser_version: reportText(r.analyser_version, 64) ?? 'unknown',
    ...(findings.length ? { findings } : {}),
  };
}

/** The signals for the assets found, redacted: what `--dry-run` prints and `--submit` sends. */
export function buildSignals(assets: readonly JudgedAsset[], orgId: string, observedAt: number): SignalBody[] {
  return assets.map((a) => {
    const input = primaryInput(a);
    const s: SignalBody = {
      fingerprint: a.fingerprint,
      asset_type: a.asset_type,
      org_id: orgId,
      observed_at: observedAt,
      name: redactText(a.name),
      metadata: redactDeep({
        scanner: `${TOOL.name}/${TOOL.version}`,
        ...(input?.metadata ?? {}),
        locations: a.locations.slice(0, 20),
      }),
    };
    if (a.version) s.version = redactText(a.version);
    if (input?.raw_manifest) s.raw_manifest = redactManifest(input.raw_manifest);
    if (input?.source_url) s.source_url = redactUrl(input.source_url);
    if (a.artifacts.length) {
      // each file with the local analyser's verdict of its bytes (this org's view only, docs/artifacts.md)
      const local = new Map(a.artifact_results.map((r) => [r.sha256, r]));
      s.artifacts = a.artifacts.map((x) => {
        const r = local.get(x.sha256);
        return { path: x.path, sha256: x.sha256, size: x.size, ...(r ? { reported: reportedScan(r) } : {}) };
      });
    }
    return s;
  });
}

function chunks<T>(xs: readonly T[], n: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < xs.length; i += n) out.push(xs.slice(i, i + n));
  return out;
}

async function eachLimited<T>(xs: readonly T[], fn: (x: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < xs.length) await fn(xs[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, xs.length) }, lane));
}

/** Looks every hash up (≤ 500 per call) and uploads the ones the platform has not scanned, under the size cap. */
async function syncArtifacts(run: Run, assets: readonly JudgedAsset[]): Promise<void> {
  const { risk, opts, report } = run;
  const sizes = new Map<string, number>();
  for (const a of assets) for (const x of a.artifacts) sizes.set(x.sha256, x.size);
  const unknown: string[] = [];
  for (const batch of chunks([...sizes.keys()], LOOKUP_MAX)) {
    const found = await risk.get('/v1/artifacts/lookup', { params: { query: { sha256s: batch } } });
    for (const r of found.data) (r.artifact ? report.known : unknown).push(r.sha256);
  }
  await eachLimited(unknown, async (sha256) => {
    const file = opts.files.get(sha256);
    const size = sizes.get(sha256) ?? 0;
    if (!file) return void report.not_uploaded.push({ sha256, reason: 'file not on disk' });
    if (size > opts.maxUploadBytes)
      return void report.not_uploaded.push({
        sha256,
        reason: `larger than --max-upload-size (${opts.maxUploadBytes})`,
      });
    // a file-backed Blob: fetch streams it, the file is never held in memory
    await uploadArtifact(risk, await openAsBlob(file), { filename: file.split(/[\\/]/).pop() });
    report.uploaded.push(sha256);
  });
}

function scoredFinding(f: PublicComponents['schemas']['Finding']): ScoredFinding {
  return {
    rule_id: f.rule_id,
    title: f.title,
    description: f.description,
    severity: f.effective_severity,
    category: f.category,
    confidence: f.confidence,
    evidence: (f.evidence ?? {}) as Record<string, unknown>,
    capabilities: f.capabilities,
    attack_techniques: f.attack_techniques,
    cve_ids: f.cve_ids,
    threat_ids: f.threats.map((t) => (typeof t === 'string' ? t : t.id)),
    remediation: f.remediation,
    weight: 0,
    score_contribution: f.score_contribution,
  };
}

/** A finding the platform made from this org's own reported scan result, not from its own judgement. */
const clientReported = (f: PublicComponents['schemas']['Finding']): boolean =>
  (f.evidence as { source?: unknown } | null)?.source === 'client_reported';

/**
 * The platform's view of an asset in the scanner's shape: the org's effective score, severity and findings. The local
 * verdicts this run reported come back as client-reported findings (a file the platform has not scanned: over
 * --max-upload-size, say); the platform's score leaves them out, so the asset keeps the worse of the platform's
 * severity and the local one, and --fail-on still sees a file the local analyser found malicious.
 */
function withVerdict(a: JudgedAsset, p: PlatformAsset): JudgedAsset {
  const own = (p.findings ?? []).filter(clientReported).map(scoredFinding);
  const findings = [...(p.findings ?? []).filter((f) => f.counts_toward_effective_score).map(scoredFinding), ...own];
  const ignored = (p.findings ?? [])
    .filter((f) => !f.counts_toward_effective_score && !clientReported(f))
    .map((f) => ({
      rule_id: f.rule_id,
      reason: f.triage
        ? `triage: ${f.triage.state}${f.triage.comment ? ` (${f.triage.comment})` : ''}`
        : 'suppressed by the org',
    }));
  const score = p.effective_risk_score ?? p.intrinsic_risk_score ?? a.score;
  const severity = p.effective_risk_severity ?? p.intrinsic_risk_severity ?? a.severity;
  const localWorse = own.length > 0 && severityRank(a.severity) > severityRank(severity);
  return {
    ...a,
    score: localWorse ? Math.max(score, a.score) : score,
    severity: localWorse ? a.severity : severity,
    findings,
    ignored: [...a.ignored, ...ignored],
  };
}

/** Reads each asset until its enrichment is done or the wait is over; `pending` names the ones still waiting. */
async function readVerdicts(run: Run, assets: readonly JudgedAsset[]): Promise<JudgedAsset[]> {
  const { risk, opts, report } = run;
  const deadline = Date.now() + opts.waitSeconds * 1000;
  const done = new Map<string, PlatformAsset>();
  for (let delay = 250; ; delay = Math.min(delay * 2, 2000)) {
    const todo = assets.filter((a) => !done.has(a.fingerprint));
    await eachLimited(todo, async (a) => {
      try {
        const asset = await risk.get('/v1/assets/{fingerprint}', {
          params: { path: { fingerprint: a.fingerprint }, query: { 'expand[]': ['findings'] } },
        });
        // stale: enriched, with a re-enrichment due (its scores stand until then)
        if (asset.enrichment_status !== 'pending') done.set(a.fingerprint, asset);
      } catch (e) {
        // a bulk signal's asset appears within about a second of the 202 (README "First calls")
        if (!(e instanceof NotFoundError)) throw e;
      }
    });
    if (done.size === assets.length || Date.now() + delay > deadline) break;
    await new Promise((r) => setTimeout(r, delay));
  }
  report.pending = assets.filter((a) => !done.has(a.fingerprint)).map((a) => a.fingerprint);
  return assets.map((a) => {
    const p = done.get(a.fingerprint);
    return p && p.enrichment_status !== 'failed' ? withVerdict(a, p) : a;
  });
}

/** Sends the assets, uploads unknown model files, and returns the assets as the platform judged them. */
export async function submit(
  assets: readonly JudgedAsset[],
  opts: SubmitOptions,
): Promise<{ assets: JudgedAsset[]; report: SubmitReport }> {
  const risk = createPublicClient({ baseUrl: opts.apiUrl, apiKey: opts.apiKey });
  const report: SubmitReport = { signals: 0, uploaded: [], known: [], not_uploaded: [], pending: [] };
  // artifacts first: a signal naming a hash the platform has scanned is judged by that verdict at once
  await syncArtifacts({ risk, opts, report }, assets);
  for (const batch of chunks(buildSignals(assets, opts.orgId, opts.observedAt), BULK_MAX)) {
    const r = await risk.post('/v1/signals/bulk', { body: { signals: batch } });
    report.signals += r.data.length;
  }
  opts.log(
    `risk-scan: sent ${report.signals} signals; uploaded ${report.uploaded.length} model files, ` +
      `${report.known.length} already known, ${report.not_uploaded.length} not uploaded`,
  );
  const judged = await readVerdicts({ risk, opts, report }, assets);
  if (report.pending.length)
    opts.log(`risk-scan: ${report.pending.length} assets not enriched within --wait; their verdicts are local`);
  return { assets: judged, report };
}
