// Threat findings, score, publisher trust, benchmarks and the AI-BOM of an analysis (docs/enrichment.md).
import { buildBomModel, buildCycloneDx, buildSpdx, contentHash, isoSeconds } from './aibom';
import { isRule } from './rules';
// the severity bands (docs/enrichment.md "Scoring") are defined once, in @risk/contracts (pure, no I/O, like this package)
import { severityForScore } from '@risk/contracts';
import { collectSecretValues, redactDeep } from '@risk/redaction';
import { computeScore, SCORE_FORMULA } from './score';
import { publisherTrust } from './trust';
import type { FinalizeContext, FindingDraft, MatchedThreat, ParsedManifest, ScoredFinding, Severity } from './types';
import { LIMITS, storable } from './limits';
import { isObj, str, uniq } from './util';
import type { Analysis } from './analyze';
import type { ToolFingerprint } from './drift';

export interface EnrichmentResult {
  findings: ScoredFinding[];
  intrinsic_risk_score: number;
  intrinsic_risk_severity: Severity;
  score_breakdown: {
    formula: string;
    /** the band the worst finding set the floor for (src/score.ts) */
    band: Severity;
    /** 'low' when content was recognised but not analysed (format_not_analysed, manifest_unparseable) */
    score_confidence: 'normal' | 'low';
    base: number;
    threat_penalty: number;
    total: number;
    items: Array<{ rule_id: string; threat_id?: string; weight: number; contribution: number }>;
  };
  publisher_trust: Record<string, unknown>;
  benchmark_summary: Record<string, unknown> | null;
  aibom: {
    content_hash: string;
    spdx_version: 'SPDX-2.3';
    spdx: Record<string, unknown>;
    components: Array<Record<string, unknown>>;
    lineage: Record<string, unknown> | null;
    cyclonedx: Record<string, unknown>;
  };
  normalized_name: string | null;
  publisher: string | null;
  ecosystem: string | null;
  /** the asset's tools, fingerprinted and redacted (docs/drift.md): the caller stores new names as the baseline */
  tools: ToolFingerprint[];
}

function benchmarkSummary(p: ParsedManifest, findings: FindingDraft[]): Record<string, unknown> | null {
  const mi = p.model_index;
  const results: Array<Record<string, unknown>> = [];
  if (Array.isArray(mi)) {
    for (const entry of mi) {
      if (!isObj(entry) || !Array.isArray(entry.results)) continue;
      for (const r of entry.results) {
        if (!isObj(r)) continue;
        const task = isObj(r.task) ? r.task : {};
        const ds = isObj(r.dataset) ? r.dataset : {};
        const metrics = Array.isArray(r.metrics) ? r.metrics : [];
        for (const m of metrics) {
          if (!isObj(m)) continue;
          const value = typeof m.value === 'number' || typeof m.value === 'string' ? m.value : null;
          results.push({
            model: str(entry.name),
            task: str(task.type) ?? str(task.name),
            task_name: str(task.name),
            dataset: str(ds.type) ?? str(ds.name),
            dataset_name: str(ds.name),
            dataset_config: str(ds.args) ?? str(ds.config),
            metric: str(m.type) ?? str(m.name),
            metric_name: str(m.name),
            value,
          });
        }
      }
    }
  }
  if (results.length === 0) return null;
  const flags = findings.filter((f) => isRule(f, 'R13')).map((f) => f.description);
  return {
    source: 'model-index',
    results: results.slice(0, 100),
    count: results.length,
    safety: { status: flags.length ? 'degraded' : 'unknown', flags },
  };
}

function benchmarkMetrics(
  b: Record<string, unknown> | null,
): Array<{ metric: string | null; dataset: string | null; value: unknown }> {
  const results = b && Array.isArray(b.results) ? (b.results as Array<Record<string, unknown>>) : [];
  return results.map((r) => ({ metric: str(r.metric), dataset: str(r.dataset), value: r.value ?? null }));
}

function threatFinding(t: MatchedThreat): FindingDraft {
  const w = Number.isFinite(t.risk_penalty) ? Math.max(0, Math.min(100, t.risk_penalty)) : 0;
  return {
    rule_id: 'threat_match',
    title: `Matches threat: ${t.title}`,
    description: `Asset matches threat ${t.id} (${t.category}); risk_penalty ${w}.`,
    severity: t.severity,
    category: t.category || 'threat',
    confidence: 1,
    evidence: { threat_id: t.id, risk_penalty: w, cve_id: t.cve_id },
    capabilities: [],
    attack_techniques: [...t.attack_techniques],
    cve_ids: t.cve_id ? [t.cve_id] : [],
    threat_ids: [t.id],
    remediation: t.remediation,
    weight: w,
  };
}

/**
 * Scores, AI-BOM and trust for an analysis. Everything it returns is storable (`storable`: no NUL or lone surrogate
 * from a manifest reaches Postgres; output nesting bounded).
 */
export function finalize(analysis: Analysis, ctx: FinalizeContext): EnrichmentResult {
  return storable(finalizeRaw(analysis, ctx), { maxString: Number.POSITIVE_INFINITY }) as EnrichmentResult;
}

function finalizeRaw(analysis: Analysis, ctx: FinalizeContext): EnrichmentResult {
  const threats = [...(ctx.threats ?? [])].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const drafts: FindingDraft[] = [...analysis.findings, ...threats.map(threatFinding)];
  const s = computeScore(drafts);
  const byIndex = new Map(s.items.map((it) => [it.index, it]));
  const findings: ScoredFinding[] = drafts.map((f, i) => ({
    ...f,
    score_contribution: byIndex.get(i)?.contribution ?? 0,
  }));
  const severity = severityForScore(s.score);
  const created = isoSeconds(ctx.now);
  const p = analysis.parsed;
  // model-index strings repeat per metric row: capped like evidence strings
  const benchmark = storable(benchmarkSummary(p, analysis.findings), {
    maxString: LIMITS.output_string,
  }) as ReturnType<typeof benchmarkSummary>;
  const name = analysis.display_name ?? analysis.input.fingerprint;
  const unredactedModel = buildBomModel(analysis.input, p, {
    ecosystem: analysis.ecosystem,
    publisher: analysis.publisher,
    name,
    risk: { score: s.score, severity, rules: uniq(drafts.map((f) => f.rule_id)).sort() },
    benchmark: benchmarkMetrics(benchmark),
  });
  // docs/security.md "Secrets never reach shared data": the BOM model is redacted before it is hashed
  // and rendered (a rotated secret makes no new BOM version), and the whole result once more below
  const known = secretsOf(p);
  const model = redactDeep(unredactedModel, known);
  const hash = contentHash(model);
  const spdx = buildSpdx(model, hash, created);
  const cyclonedx = buildCycloneDx(model, { hash, created, benchmark, parsed: p });
  const trust = publisherTrust(analysis.publisher, {
    context: ctx.publisher ?? { org_count: 0, signal_count: 0, first_seen: ctx.now },
    findings: analysis.findings,
    now: ctx.now,
  });
  const result: EnrichmentResult = {
    findings,
    intrinsic_risk_score: s.score,
    intrinsic_risk_severity: severity,
    score_breakdown: {
      formula: SCORE_FORMULA,
      band: s.band,
      // findings that mean part of the content was not analysed: the score cannot read as a clean bill of health
      score_confidence: drafts.some((f) => isRule(f, 'format_not_analysed', 'manifest_unparseable')) ? 'low' : 'normal',
      base: s.base,
      threat_penalty: s.threat_penalty,
      total: s.total,
      items: s.items.map((it) => {
        const o: { rule_id: string; threat_id?: string; weight: number; contribution: number } = {
          rule_id: it.rule_id,
          weight: it.weight,
          contribution: it.contribution,
        };
        if (it.threat_id !== undefined) o.threat_id = it.threat_id;
        return o;
      }),
    },
    publisher_trust: trust as unknown as Record<string, unknown>,
    benchmark_summary: benchmark,
    aibom: {
      content_hash: hash,
      spdx_version: 'SPDX-2.3',
      spdx,
      components: model.components.map((c) => ({
        type: c.type,
        name: c.name,
        version: c.version,
        purl: c.purl,
        license: c.license,
        supplier: c.supplier,
        download_location: c.download_location,
        hashes: c.hashes,
        spdx_id: c.ref,
        primary: c.primary,
        ...(c.artifact ? { artifact: c.artifact } : {}),
      })),
      lineage: model.lineage as unknown as Record<string, unknown> | null,
      cyclonedx,
    },
    normalized_name: analysis.normalized_name,
    publisher: analysis.publisher,
    ecosystem: analysis.ecosystem,
    tools: analysis.tools,
  };
  // the one boundary: everything the engine outputs (findings, AI-BOM, names) leaves redacted
  return redactResult(result, known);
}

/**
 * The result through redactDeep, except the parts built only from the already redacted BOM model (SPDX,
 * components, lineage: walking them again would find nothing and cost a third of the engine's time).
 * CycloneDX is walked: it also reads the parsed manifest.
 */
function redactResult(result: EnrichmentResult, known: readonly string[]): EnrichmentResult {
  const { spdx, components, lineage } = result.aibom;
  const rest = redactDeep({ ...result, aibom: { ...result.aibom, spdx: {}, components: [], lineage: null } }, known);
  return { ...rest, aibom: { ...rest.aibom, spdx, components, lineage } };
}

/**
 * Values that are secret because of their key in the manifest's MCP servers (env / headers under a
 * secret-looking name or flagged isSecret, `--token` arguments): scrubbed wherever they reappear.
 */
function secretsOf(p: ParsedManifest): string[] {
  if (p.servers.length === 0) return [];
  return collectSecretValues(
    p.servers.map((s) => ({
      env: s.env,
      headers: s.headers,
      args: s.args,
      secret: s.secretEnv.map((k) => s.env[k] ?? s.headers[k] ?? ''),
    })),
  );
}
