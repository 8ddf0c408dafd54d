import { keysetOrder, keysetWhere, listEnvelope, paginate, type Cursor, type ListEnvelope } from '@risk/common/http';
import type { Finding, Threat } from '@risk/contracts';
import type { Prisma } from '@risk/db';
import type { AppDeps } from '../../deps';
import { assertEnriched, findAssetOr404 } from './get-asset';
import { renderThreat } from '../threats/render';
import { renderFinding } from './render';
import { loadOrgViews, type OrgScope } from '../triage/org-view';
import { readOwnReports, renderOwnReportedFindings } from './client-reported';
import type { Finding as FindingRow } from '@risk/db';

/** One item of the page: a stored finding of the asset, or one the org's own reported scan results add. */
type Item = Cursor & ({ row: FindingRow } | { reported: Finding });

/** Keyset order of the list (created, then id), newest first for `desc`. */
const byKey =
  (order: 'asc' | 'desc') =>
  (a: Cursor, b: Cursor): number => {
    const d = a.created.getTime() - b.created.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
    return order === 'asc' ? d : -d;
  };

/** Whether an item lies strictly beyond the keyset bound (keysetWhere's rule, in memory). */
function within(c: Cursor, bound: { before?: Cursor; after?: Cursor }): boolean {
  const b = bound.before ?? bound.after;
  if (!b) return true;
  const d = byKey('asc')(c, b);
  return bound.before ? d < 0 : d > 0;
}

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
  // the org's own client-reported findings (docs/artifacts.md "Client-reported scan results") are items of the same
  // keyset, ordered by when they were reported: a handful per asset, merged into each page in memory
  const own = await readOwnReports(deps, input.scope, [asset.fingerprint]);
  const reportedAt = new Map((own.get(asset.fingerprint) ?? []).map((r) => [r.sha256, r.reported_at]));
  const reported: Item[] = renderOwnReportedFindings(asset.fingerprint, own.get(asset.fingerprint) ?? []).map((f) => ({
    id: f.id,
    created: reportedAt.get(String((f.evidence as { sha256?: unknown }).sha256)) ?? new Date(0),
    reported: f,
  }));
  const page = await paginate<Item>(input, {
    loadCursor: async (id) => {
      const mine = reported.find((r) => r.id === id);
      if (mine) return { created: mine.created, id: mine.id };
      const row = await deps.prisma.finding.findFirst({
        where: { id, ...ofAsset },
        select: { created: true, id: true },
      });
      return row;
    },
    fetch: async ({ before, after, order, take }) => {
      const rows = await deps.prisma.finding.findMany({
        where: {
          AND: [ofAsset, (keysetWhere('id', { before, after }) ?? {}) as Prisma.FindingWhereInput],
        },
        orderBy: keysetOrder('id', order) as Prisma.FindingOrderByWithRelationInput[],
        take,
      });
      const items: Item[] = [
        ...rows.map((row) => ({ created: row.created, id: row.id, row })),
        ...reported.filter((r) => within(r, { before, after })),
      ];
      return items.sort(byKey(order)).slice(0, take);
    },
  });
  let threats: Map<string, Threat> | undefined;
  if (input.expandThreats) {
    const ids = [...new Set(page.data.flatMap((f) => ('row' in f ? f.row.threat_ids : [])))];
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
    {
      data: page.data.map((f) => ('row' in f ? renderFinding(f.row, views.findings.get(f.id)!, threats) : f.reported)),
      has_more: page.has_more,
    },
    (f) => f.id,
  );
}
