import { readOrgTriage, type OrgAssetTriage, type OrgTriageRows } from '@risk/db';
import type { AppDeps } from '../../deps';
import type { AssetRow, FindingRow } from '../assets/render';
import {
  compileRules,
  effectiveScore,
  viewFindings,
  type EffectiveScore,
  type FindingView,
  type OrgRules,
  type TriageRow,
  type ViewFinding,
} from './effective';

/**
 * How long computing the views of a batch of assets may hold the event loop before other requests get a turn.
 * An asset's view is linear in its findings and in the org's rules (effective.ts rulesForAsset), but a page,
 * an overview chunk or a look-up holds up to 200 assets, and 500 rules of hostile globs cost a few ms an asset
 * (docs/security.md "Suppression globs in linear time").
 */
export const VIEW_SLICE_MS = 10;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The key's org in the key's mode: everything of triage is scoped by both (docs/triage.md). */
export interface OrgScope {
  orgId: string;
  livemode: boolean;
}

export interface AssetOrgView {
  effective: EffectiveScore;
  /** the asset's findings as the org sees them, by finding id */
  findings: Map<string, FindingView<FindingRow>>;
}

/** The org's active suppression rules and its severity overrides: one query. */
export async function loadOrgRules(deps: Pick<AppDeps, 'pool'>, scope: OrgScope, now = new Date()): Promise<OrgRules> {
  const rows = await readOrgTriage(deps.pool, { ...scope, fingerprints: [], now });
  return compileRules(rows.suppressions, rows.overrides, now);
}

/**
 * What the org's views of a set of assets are computed from: its rules and its triage rows of those assets, read at
 * `now` in one query. A request that computes views twice over the same assets (the look-up: every asset rendered,
 * then the matched ones with their expanded findings) reads it once and passes it to both loadOrgViews calls.
 */
export interface OrgViewContext {
  rows: OrgTriageRows;
  now: Date;
}

/** The org's view context of these assets (OrgViewContext): one query. */
export async function readOrgViewContext(
  deps: Pick<AppDeps, 'pool'>,
  scope: OrgScope,
  read: { fingerprints: string[]; now?: Date },
): Promise<OrgViewContext> {
  const now = read.now ?? new Date();
  return { rows: await readOrgTriage(deps.pool, { ...scope, fingerprints: read.fingerprints, now }), now };
}

/**
 * The org's view of many assets at once (docs/triage.md "Effective score"): one query for the org's
 * rules and its triage rows of these assets and, only when anything of the org applies, one for the
 * assets' findings: never a query per asset. `findings` may be passed when the caller loaded them, and `context`
 * (covering at least these assets) when it read the org's rules and triage rows already.
 */
export async function loadOrgViews(
  deps: Pick<AppDeps, 'prisma' | 'pool'>,
  input: { scope: OrgScope; assets: AssetRow[]; findings?: FindingRow[]; rules?: OrgRules; context?: OrgViewContext },
): Promise<Map<string, AssetOrgView>> {
  const out = new Map<string, AssetOrgView>();
  const { scope, assets } = input;
  if (assets.length === 0) return out;
  const fps = assets.map((a) => a.fingerprint);
  const { rows, now } =
    input.context ??
    (await readOrgViewContext(deps, scope, { fingerprints: fps, now: input.rules?.now ?? new Date() }));
  const rules = input.rules ?? compileRules(rows.suppressions, rows.overrides, now);
  const nothingApplies = !rules.suppressions.length && !rules.overrides.size && !rows.triage.length;
  const findings =
    input.findings ??
    (nothingApplies
      ? []
      : await deps.prisma.finding.findMany({ where: { livemode: scope.livemode, fingerprint: { in: fps } } }));
  const byAsset = new Map<string, FindingRow[]>();
  for (const f of findings) {
    const list = byAsset.get(f.fingerprint) ?? [];
    list.push(f);
    byAsset.set(f.fingerprint, list);
  }
  const triageByAsset = new Map<string, Map<string, TriageRow>>();
  for (const t of rows.triage) {
    const m = triageByAsset.get(t.fingerprint) ?? new Map<string, TriageRow>();
    m.set(t.finding_key, t);
    triageByAsset.set(t.fingerprint, m);
  }
  let sliceStarted = performance.now();
  for (const a of assets) {
    if (performance.now() - sliceStarted > VIEW_SLICE_MS) {
      await nextTurn();
      sliceStarted = performance.now();
    }
    const views = viewFindings(a, byAsset.get(a.fingerprint) ?? [], {
      triage: triageByAsset.get(a.fingerprint) ?? new Map(),
      rules,
    });
    out.set(a.fingerprint, {
      effective: effectiveScore(a, views),
      findings: new Map(views.map((v) => [v.finding.id, v])),
    });
  }
  return out;
}

/**
 * One asset's effective score from the org's triage context read with the asset (the batched asset
 * read, asset-reader.ts): the same computation as loadOrgViews, without a query.
 */
export function effectiveOf(asset: AssetRow, ctx: OrgAssetTriage & { now: Date }): EffectiveScore {
  if (!ctx.findings) return effectiveScore(asset, []);
  const rules = compileRules(ctx.suppressions, ctx.overrides, ctx.now);
  const triage = new Map<string, TriageRow>(ctx.triage.map((t) => [t.finding_key, t]));
  return effectiveScore(asset, viewFindings<ViewFinding>(asset, ctx.findings, { triage, rules }));
}
