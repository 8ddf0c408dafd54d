import { ApiError } from '@risk/common/errors';
import { keysetOrder, keysetWhere, paginate } from '@risk/common/http';
import type { Prisma, PrismaClient } from '@risk/db';
import { buildStixBundle } from '@risk/enrichment';
import { renderThreat } from './render';

/**
 * GET /v1/threats/export and /v1/threats/{id}/export (docs/threats.md "STIX exchange"): threats as a STIX 2.1 bundle
 * with deterministic ids (@risk/enrichment stix-export.ts), so importing it back merges.
 */

export interface ExportThreatsInput {
  org_id: string;
  livemode: boolean;
  category?: string;
  severity?: string;
  limit: number;
  starting_after?: string;
}

/** The org's own threats of the key's mode, newest first; `next` is the cursor of the following bundle. */
export async function exportThreats(
  db: PrismaClient,
  input: ExportThreatsInput,
): Promise<{ bundle: Record<string, unknown>; next: string | null }> {
  const filter: Prisma.ThreatWhereInput = {
    livemode: input.livemode,
    created_by_org: input.org_id,
    ...(input.category ? { category: input.category } : {}),
    ...(input.severity ? { severity: input.severity } : {}),
  };
  const page = await paginate(input, {
    loadCursor: (id) => db.threat.findFirst({ where: { id, ...filter }, select: { id: true, created: true } }),
    fetch: ({ before, after, order, take }) =>
      db.threat.findMany({
        where: { AND: [filter, (keysetWhere('id', { before, after }) ?? {}) as Prisma.ThreatWhereInput] },
        orderBy: keysetOrder('id', order),
        take,
      }),
  });
  const last = page.data.at(-1);
  return { bundle: buildStixBundle(page.data.map(renderThreat)), next: page.has_more && last ? last.id : null };
}

/** One threat (any org's: threats are shared) of the key's mode. */
export async function exportThreat(db: PrismaClient, id: string, livemode: boolean): Promise<Record<string, unknown>> {
  const row = await db.threat.findFirst({ where: { id, livemode } });
  if (!row) throw new ApiError('resource_missing', { param: 'threat_id', message: `No such threat: '${id}'.` });
  return buildStixBundle([renderThreat(row)]);
}
