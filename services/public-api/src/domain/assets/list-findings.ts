import { keysetOrder, keysetWhere, listEnvelope, paginate, type ListEnvelope } from '@risk/common/http';
import type { Finding, Threat } from '@risk/contracts';
import type { Prisma } from '@risk/db';
import type { AppDeps } from '../../deps';
import { assertEnriched, findAssetOr404 } from './get-asset';
import { renderThreat } from '../threats/render';
import { renderFinding } from './render';
import { loadOrgViews, type OrgScope } from '../triage/org-view';

export interface ListFindingsInput {
  /** the key's org and mode: findings carry that org's triage (docs/triage.md) */
  scope: OrgScope;
  fingerprint: string;
  limit: number;
  starting_after?: string;
  ending_before?: string;
  expandThreats: boolean;
}

export async function listFindings(
  deps: Pick<AppDeps, 'prisma' | 'pool'>,
  input: ListFindingsInput,
): Promise<ListEnvelope<Finding>> {
  const livemode = input.scope.livemode;
  const asset = await findAssetOr404(deps, livemode, input.fingerprint);
  const ofAsset = { livemode, fingerprint: asset.fingerprint };
  assertEnriched(asset);
  const page = await paginate(input, {
    loadCursor: async (id) => {
      const row = await deps.prisma.finding.findFirst({
        where: { id, ...ofAsset },
        select: { created: true, id: true },
      });
      return row;
    },
    fetch: ({ before, after, order, take }) =>
      deps.prisma.finding.findMany({
        where: {
          AND: [ofAsset, (keysetWhere('id', { before, after }) ?? {}) as Prisma.FindingWhereInput],
        },
        orderBy: keysetOrder('id', order) as Prisma.FindingOrderByWithRelationInput[],
        take,
      }),
  });
  let threats: Map<string, Threat> | undefined;
  if (input.expandThreats) {
    const ids = [...new Set(page.data.flatMap((f) => f.threat_ids))];
    const rows = ids.length ? await deps.prisma.threat.findMany({ where: { id: { in: ids }, livemode } }) : [];
    threats = new Map(rows.map((t) => [t.id, renderThreat(t)]));
  }
  // finding keys depend on the asset's whole finding set (docs/history.md): one query for all of them
  const all = await deps.prisma.finding.findMany({ where: ofAsset });
  const views = (await loadOrgViews(deps, { scope: input.scope, assets: [asset], findings: all })).get(
    asset.fingerprint,
  )!;
  return listEnvelope(
    `/v1/assets/${encodeURIComponent(asset.fingerprint)}/findings`,
    { data: page.data.map((f) => renderFinding(f, views.findings.get(f.id)!, threats)), has_more: page.has_more },
    (f) => f.id,
  );
}
