// Supply-chain rule R23: a package or dependency version inside an advisory's range (docs/enrichment.md "Rule
// catalogue", docs/advisories.md).
import { CURATED_INDEX } from '../advisories/curated';
import { indexAdvisories, matchDependencies } from '../advisories/match';
import type { Dependency, EnrichmentInput, ParsedManifest } from '../types';
import { uniq } from '../util';
import { defineRule, type Emission, type RuleContext } from './define';
import { dependencyRole } from './pinning';
import { aiPackage } from './signals/ai-packages';

/** R23 confidence for advisories whose `verification` is not `primary` (below the 0.9 floor threshold). */
export const SECONDARY_ADVISORY_CONFIDENCE = 0.8;
/** R23 confidence for an advisory matched on a declared dependency rather than the asset itself (reachability unknown). */
export const DEPENDENCY_ADVISORY_CONFIDENCE = 0.6;

/** Lock entries (npm `packages.node_modules/…`, uv.lock `package[i]`): resolved transitively, not chosen by the author. */
const LOCKED_PATH = /^packages\.|^package\[/;

/**
 * A dependency the manifest declares itself (not a lock's resolution) on an AI library: a package of the well-known AI
 * libraries and SDKs (src/data/ai-packages.json, which holds every package the curated feed covers). Such a library is what the asset exists to call — its model loading, tokenizers, UI server — so its advisory's code path is
 * the asset's own, not a maybe (docs/enrichment.md "Vulnerability calibration").
 */
export function isDirectAiDependency(d: Dependency): boolean {
  return (
    d.path !== 'version' &&
    !LOCKED_PATH.test(d.path) &&
    // an extra or a development dependency runs only when someone opts in: its advisory keeps the reachability
    // discount like any other dependency's
    dependencyRole(d.path) === 'runtime' &&
    aiPackage(d.ecosystem, d.name) !== null
  );
}

/** The asset itself as a dependency (its own name and version), so an advisory on it matches too. */
function selfDependencies(ctx: Pick<RuleContext, 'p' | 'input'>): Dependency[] {
  const { p, input } = ctx;
  const selfName = input.name ?? p.name;
  const selfVersion = input.version ?? p.version;
  if (!selfName || !selfVersion) return [];
  const out: Dependency[] = [];
  const eco =
    p.kind === 'npm_package'
      ? 'npm'
      : p.kind === 'pyproject'
        ? 'pypi'
        : input.asset_type === 'package' || input.asset_type === 'mcp_server'
          ? /^@|\//.test(selfName)
            ? 'npm'
            : 'pypi'
          : null;
  if (eco)
    out.push({
      ecosystem: eco,
      name: eco === 'pypi' ? selfName.toLowerCase() : selfName,
      spec: eco === 'pypi' ? `==${selfVersion}` : selfVersion,
      path: 'version',
    });
  if (/ollama/i.test(selfName) && /^v?\d/.test(selfVersion))
    out.push({
      ecosystem: 'go',
      name: 'github.com/ollama/ollama',
      spec: selfVersion.replace(/^v/, ''),
      path: 'version',
    });
  return out;
}

export const R23 = defineRule({
  id: 'R23',
  title: 'Known vulnerable version',
  severity: 'high',
  weight: 35,
  category: 'vulnerability',
  rationale:
    'A package/dependency version lies inside an advisory range from the shipped advisories (severity per advisory).',
  remediation: 'Upgrade to the fixed version named in the advisory.',
  attack_techniques: ['AML.T0010.001'],
  references: [`§3 R23; confidence ${SECONDARY_ADVISORY_CONFIDENCE} for advisories with verification ≠ primary`],
  evaluate(ctx) {
    const index = ctx.input.advisories ? indexAdvisories(ctx.input.advisories) : CURATED_INDEX;
    return matchDependencies(advisoryDependencies(ctx.p, ctx.input), index).map((m) => {
      const a = m.advisory;
      const onDependency = m.dependency.path !== 'version';
      const severity = a.severity ?? 'high';
      const names = uniq([a.id, ...a.aliases, ...m.same_as]);
      const cves = names.filter((n) => n.startsWith('CVE-'));
      const label = cves[0] ?? a.id;
      const primary = a.verification === 'primary';
      // a high or critical advisory in a direct AI dependency counts at full confidence (it can carry the asset
      // into high); any other dependency's advisory keeps the reachability discount
      const central =
        onDependency && isDirectAiDependency(m.dependency) && (severity === 'high' || severity === 'critical');
      return {
        // a dependency's advisory is capped at high (and counts at 0.6 below): see the confidence note; a record
        // without a severity counts as the rule's default, high (docs/advisories.md "Severity")
        severity: onDependency && severity === 'critical' ? 'high' : severity,
        title: `Known vulnerable version: ${m.dependency.name} (${label})`,
        description: `${m.dependency.name} ${m.dependency.spec} is inside ${m.affected} of ${a.id}: ${a.summary}${m.fixed ? ` Fixed in ${m.fixed}.` : ''}${primary ? '' : ' (advisory from secondary sources)'}`,
        evidence: {
          path: m.dependency.path,
          package: m.dependency.name,
          spec: m.dependency.spec,
          affected: m.affected,
          fixed: m.fixed,
          advisory_id: a.id,
          // the API's record of each id (GET /v1/advisories/{id}, by id or alias: docs/advisories.md)
          references: names.map((n) => `/v1/advisories/${encodeURIComponent(n)}`),
          advisory_source: a.source_url ?? a.references[0] ?? null,
          verification: a.verification,
          aliases: names.filter((n) => n !== a.id),
        },
        cve_ids: cves.length ? cves : [a.id],
        // the version match is exact, but an advisory that rests on secondary sources (ai-cves.json `verification`)
        // is not confirmed data: it keeps most of its weight and does not trigger the confirmed-severity floor.
        // checked against the corpus (c044, c048, c051, c093, c095: a reviewer rates an old pin of a
        // vulnerable library medium): a vulnerable *dependency* is exposure whose reachability is unknown (the CVE
        // needs its code path and untrusted input), so it is capped at high and counts at
        // DEPENDENCY_ADVISORY_CONFIDENCE (one band lower: medium); the asset itself at a vulnerable version (path
        // `version`) keeps the advisory's full weight
        confidence: Math.min(
          primary ? 1 : SECONDARY_ADVISORY_CONFIDENCE,
          onDependency && !central ? DEPENDENCY_ADVISORY_CONFIDENCE : 1,
        ),
      } satisfies Emission;
    });
  },
});

/** What R23 matches for one observation: its declared dependencies and the asset itself as a package. */
export function advisoryDependencies(p: ParsedManifest, input: EnrichmentInput): Dependency[] {
  return [...p.dependencies, ...selfDependencies({ p, input })];
}
