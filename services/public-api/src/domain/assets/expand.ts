import { ApiError } from '@risk/common/errors';
import { ASSET_ARTIFACTS_MAX, type AiBom, type AssetArtifact, type Finding } from '@risk/contracts';
import { readAssetArtifacts } from '@risk/db';
import type { AppDeps } from '../../deps';
import type { OrgRules } from '../triage/effective';
import { loadOrgViews, type AssetOrgView, type OrgScope, type OrgViewContext } from '../triage/org-view';
import { renderAiBom, renderFinding, type AssetExpansions, type AssetRow } from './render';
import { aiBomForOrg, readOwnReports, renderOwnReportedFindings, withOwnReport } from './client-reported';

export type AssetExpand = 'findings' | 'aibom' | 'artifacts';

/**
 * Checks expand[] values against what the route supports; anything else is 400 parameter_invalid
 * with param `expand`. List routes also accept Stripe's `data.<field>` spelling.
 */
export function parseExpand<T extends string>(
  values: string[] | undefined,
  allowed: readonly T[],
  opts: { list?: boolean } = {},
): Set<T> {
  const out = new Set<T>();
  for (const raw of values ?? []) {
    const value = opts.list && raw.startsWith('data.') ? raw.slice(5) : raw;
    if (!(allowed as readonly string[]).includes(value)) {
      throw new ApiError('parameter_invalid', {
        param: 'expand',
        message: `This route cannot expand '${raw}'. Supported: ${allowed.join(', ')}.`,
      });
    }
    out.add(value as T);
  }
  return out;
}

/**
 * The bound on how much one response may expand (docs/security.md "Rate limits and caps"): an AI-BOM
 * is the largest object we serve, so `expand[]=aibom` is refused (400 expand_limit_exceeded) on a
 * request that could return more than EXPAND_AIBOM_MAX_ITEMS assets: a page `limit` or a look-up's
 * key count above it. Checked before any query runs.
 */
export function assertExpandBound(
  expand: Set<AssetExpand>,
  bound: { items: number; max: number; param: string },
): void {
  const { items, max, param } = bound;
  if (!expand.has('aibom') || items <= max) return;
  throw new ApiError('expand_limit_exceeded', {
    param,
    message: `expand[]=aibom is allowed for at most ${max} assets per request; this request asks for up to ${items} (${param}). Send fewer, or fetch AI-BOMs at /v1/assets/{fingerprint}/aibom.`,
  });
}

/**
 * Loads the expanded fields of many assets (all of the key's mode) at once, and the key's org's view of
 * them (effective score, triage of findings: docs/triage.md): one query per expanded field and at most
 * three for the org's view, never one per asset.
 */
export async function loadAssetExpansions(
  deps: Pick<AppDeps, 'prisma' | 'pool'>,
  input: {
    scope: OrgScope;
    assets: AssetRow[];
    expand: Set<AssetExpand>;
    rules?: OrgRules;
    /** the org's views when the caller computed them already (look-up) */
    views?: Map<string, AssetOrgView>;
    /** the org's rules and triage rows of these assets when the caller read them already (look-up) */
    context?: OrgViewContext;
  },
): Promise<Map<string, AssetExpansions>> {
  const { scope, assets, expand } = input;
  const livemode = scope.livemode;
  const out = new Map<string, AssetExpansions>(assets.map((a) => [a.fingerprint, {}]));
  if (assets.length === 0) return out;
  const [findings, aiboms, artifacts, reports] = await Promise.all([
    expand.has('findings')
      ? deps.prisma.finding.findMany({
          where: { livemode, fingerprint: { in: assets.map((a) => a.fingerprint) } },
          orderBy: [{ created: 'desc' }, { id: 'desc' }],
        })
      : Promise.resolve(null),
    expand.has('aibom')
      ? deps.prisma.aiBom.findMany({
          where: { livemode, id: { in: assets.flatMap((a) => (a.current_aibom_id ? [a.current_aibom_id] : [])) } },
          omit: { cyclonedx: true },
        })
      : Promise.resolve(null),
    // the files each asset names by hash with their shared verdicts (docs/artifacts.md "Judgement"), one statement
    expand.has('artifacts')
      ? readAssetArtifacts(deps.pool, {
          livemode,
          fingerprints: assets.map((a) => a.fingerprint),
          limit: ASSET_ARTIFACTS_MAX,
        })
      : Promise.resolve(null),
    // the scan results the key's org reported itself: its own view only (docs/artifacts.md "Client-reported scan
    // results"), one statement
    expand.has('findings') || expand.has('artifacts') || expand.has('aibom')
      ? readOwnReports(
          deps,
          scope,
          assets.map((a) => a.fingerprint),
        )
      : Promise.resolve(null),
  ]);
  // precomputed views hold no findings when nothing of the org applied: expanded findings need their own
  const views =
    input.views && !findings
      ? input.views
      : await loadOrgViews(deps, {
          scope,
          assets,
          ...(findings ? { findings } : {}),
          ...(input.rules ? { rules: input.rules } : {}),
          ...(input.context ? { context: input.context } : {}),
        });
  for (const a of assets) out.get(a.fingerprint)!.effective = views.get(a.fingerprint)!.effective;
  if (findings) {
    const byAsset = new Map<string, Finding[]>();
    for (const f of findings) {
      const list = byAsset.get(f.fingerprint) ?? [];
      list.push(renderFinding(f, views.get(f.fingerprint)!.findings.get(f.id)!));
      byAsset.set(f.fingerprint, list);
    }
    for (const a of assets)
      out.get(a.fingerprint)!.findings = [
        ...(byAsset.get(a.fingerprint) ?? []),
        ...renderOwnReportedFindings(a.fingerprint, reports?.get(a.fingerprint) ?? []),
      ];
  }
  if (artifacts)
    for (const a of assets)
      out.get(a.fingerprint)!.artifacts = (artifacts.get(a.fingerprint) ?? []).map((x) =>
        withOwnReport(x as AssetArtifact, reports?.get(a.fingerprint)),
      );
  if (aiboms) {
    const byId = new Map<string, AiBom>(
      aiboms.map((b) => [b.id, renderAiBom(aiBomForOrg(b, reports?.get(b.fingerprint)))]),
    );
    for (const a of assets)
      out.get(a.fingerprint)!.aibom = a.current_aibom_id ? (byId.get(a.current_aibom_id) ?? null) : null;
  }
  return out;
}
