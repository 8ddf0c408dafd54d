import {
  keysetOrder,
  keysetWhere,
  listEnvelope,
  paginate,
  type ListEnvelope,
  type PageRequest,
} from '@risk/common/http';
import type { Threat } from '@risk/contracts';
import { assetCveIds, listThreatsMatchingAsset, type Prisma, type PrismaClient } from '@risk/db';
import { renderThreat } from './render';

export interface ListThreatsInput extends PageRequest {
  /** threats are read per mode: a key sees the threats of its own livemode */
  livemode: boolean;
  category?: string;
  severity?: string;
  affected_asset_type?: string;
}

/** GET /v1/threats: every threat (threats are shared), newest first, filtered. */
export async function listThreats(prisma: PrismaClient, input: ListThreatsInput): Promise<ListEnvelope<Threat>> {
  const filter: Prisma.ThreatWhereInput = {
    livemode: input.livemode,
    ...(input.category ? { category: input.category } : {}),
    ...(input.severity ? { severity: input.severity } : {}),
    ...(input.affected_asset_type ? { affected_asset_types: { has: input.affected_asset_type } } : {}),
  };
  const page = await paginate(input, {
    loadCursor: (id) =>
      prisma.threat.findFirst({ where: { id, livemode: input.livemode }, select: { id: true, created: true } }),
    fetch: ({ before, after, order, take }) =>
      prisma.threat.findMany({
        where: { AND: [filter, (keysetWhere('id', { before, after }) ?? {}) as Prisma.ThreatWhereInput] },
        orderBy: keysetOrder('id', order),
        take,
      }),
  });
  return listEnvelope('/v1/threats', { data: page.data.map(renderThreat), has_more: page.has_more }, (t) => t.id);
}

/** A threat of the other mode is as missing as an unknown id. */
export async function getThreat(prisma: PrismaClient, id: string, livemode: boolean): Promise<Threat | null> {
  const row = await prisma.threat.findFirst({ where: { id, livemode } });
  return row ? renderThreat(row) : null;
}

/**
 * GET /v1/assets/{fingerprint}/threats (public-api assets route): the threats matching the asset
 * under the rule in @risk/db (stores/threats-store.ts), newest first, paginated like every list. Returns null when the asset
 * does not exist (the route answers 404).
 */
export async function listThreatsForAsset(
  prisma: PrismaClient,
  fingerprint: string,
  page: PageRequest & { livemode: boolean },
): Promise<ListEnvelope<Threat> | null> {
  const { livemode } = page;
  const asset = await prisma.asset.findUnique({
    where: { livemode_fingerprint: { livemode, fingerprint } },
    select: { fingerprint: true, asset_type: true },
  });
  if (!asset) return null;
  const cve_ids = await assetCveIds(prisma, { livemode, fingerprint });
  // the matching rule (threats of the asset's mode) and the keyset page in one query: no id list of
  // every matching threat in memory
  const matching = { livemode, fingerprint, asset_type: asset.asset_type, cve_ids };
  const result = await paginate(page, {
    loadCursor: (id) => prisma.threat.findFirst({ where: { id, livemode }, select: { id: true, created: true } }),
    fetch: ({ take, ...bound }) => listThreatsMatchingAsset(prisma, { asset: matching, page: bound, take }),
  });
  const url = `/v1/assets/${encodeURIComponent(fingerprint)}/threats`;
  return listEnvelope(url, { data: result.data.map(renderThreat), has_more: result.has_more }, (t) => t.id);
}
