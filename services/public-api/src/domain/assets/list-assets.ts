import { keysetOrder, keysetWhere, listEnvelope, paginate, type Cursor, type ListEnvelope } from '@risk/common/http';
import type { Asset } from '@risk/contracts';
import type { Prisma } from '@risk/db';
import { readDbOf, type ReadDeps } from '../../deps';
import { effectiveCandidates } from '../triage/effective-filter';
import { loadOrgRules, loadOrgViews, type OrgScope } from '../triage/org-view';
import { loadAssetExpansions, type AssetExpand } from './expand';
import { withOwnObservation } from './own-observation';
import { ASSET_SELECT, renderAsset, type AssetRow } from './render';

export interface ListAssetsInput {
  /** the key's org and mode: a key lists only the assets of its own mode, with its org's effective view */
  scope: OrgScope;
  limit: number;
  starting_after?: string;
  ending_before?: string;
  asset_type?: string;
  enrichment_status?: string;
  intrinsic_risk_severity?: string;
  effective_risk_severity?: string;
  expand: Set<AssetExpand>;
}

/** Assets examined per round when filtering on the org's effective severity (docs/triage.md). */
export const EFFECTIVE_SCAN_CHUNK = 200;

/**
 * Newest first (created DESC, fingerprint DESC) within the key's mode; the cursor is a fingerprint,
 * resolved within the mode but without the filters. `effective_risk_severity` is the org's own view, so
 * it cannot be an indexed column: a SQL pre-filter keeps only the assets whose effective severity can
 * be the one asked for (effective-filter.ts), and the page is filled from them in chunks, each chunk's
 * effective scores computed in one batch (org-view.ts).
 */
export async function listAssets(appDeps: ReadDeps, input: ListAssetsInput): Promise<ListEnvelope<Asset>> {
  const deps = readDbOf(appDeps); // a list tolerates replication lag (docs/scaling.md "Read replicas")
  const { livemode } = input.scope;
  const filters: Prisma.AssetWhereInput = {
    livemode,
    ...(input.asset_type ? { asset_type: input.asset_type } : {}),
    ...(input.enrichment_status ? { enrichment_status: input.enrichment_status } : {}),
    ...(input.intrinsic_risk_severity ? { intrinsic_risk_severity: input.intrinsic_risk_severity } : {}),
  };
  const rules = input.effective_risk_severity ? await loadOrgRules(deps, input.scope) : undefined;
  const wanted = input.effective_risk_severity;
  const candidates =
    wanted && rules ? await effectiveCandidates(deps, { scope: input.scope, rules, severity: wanted }) : {};
  const query = (bound: { before?: Cursor; after?: Cursor }, order: 'asc' | 'desc', take: number) =>
    deps.prisma.asset.findMany({
      where: { AND: [filters, candidates, (keysetWhere('fingerprint', bound) ?? {}) as Prisma.AssetWhereInput] },
      orderBy: keysetOrder('fingerprint', order) as Prisma.AssetOrderByWithRelationInput[],
      take,
      select: ASSET_SELECT,
    });
  const page = await paginate(input, {
    loadCursor: async (fingerprint) => {
      const row = await deps.prisma.asset.findUnique({
        where: { livemode_fingerprint: { livemode, fingerprint } },
        select: { created: true, fingerprint: true },
      });
      return row ? { created: row.created, id: row.fingerprint } : null;
    },
    fetch: async ({ before, after, order, take }) => {
      if (!wanted || !rules) return query({ before, after }, order, take);
      const out: AssetRow[] = [];
      let bound = { before, after };
      for (;;) {
        const chunk = await query(bound, order, EFFECTIVE_SCAN_CHUNK);
        const views = await loadOrgViews(deps, { scope: input.scope, assets: chunk, rules });
        for (const a of chunk)
          if (out.length < take && views.get(a.fingerprint)?.effective.effective_risk_severity === wanted) out.push(a);
        const last = chunk[chunk.length - 1];
        if (out.length >= take || chunk.length < EFFECTIVE_SCAN_CHUNK || !last) return out;
        const cursor = { created: last.created, id: last.fingerprint };
        bound = order === 'desc' ? { before: cursor, after: undefined } : { before: undefined, after: cursor };
      }
    },
  });
  // the org's own name and version of the assets it observed (docs/security.md "Display fields and feeds")
  const data = await withOwnObservation(deps, input.scope, page.data);
  const expansions = await loadAssetExpansions(deps, {
    scope: input.scope,
    assets: data,
    expand: input.expand,
    ...(rules ? { rules } : {}),
  });
  return listEnvelope(
    '/v1/assets',
    { data: data.map((a) => renderAsset(a, expansions.get(a.fingerprint))), has_more: page.has_more },
    (a) => a.fingerprint,
  );
}
