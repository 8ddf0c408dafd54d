import { keysetOrder, keysetWhere, listEnvelope, paginate, type ListEnvelope } from '@risk/common/http';
import type { Suppression } from '@risk/contracts';
import type { Prisma } from '@risk/db';
import type { AppDeps } from '../../deps';
import type { OrgScope } from '../triage/org-view';
import { renderSuppression } from '../triage/render';

/** The org's suppression rules in the key's mode, newest first, expired ones included (`active: false`). */
export async function listSuppressions(
  deps: Pick<AppDeps, 'prisma'>,
  input: { scope: OrgScope; limit: number; starting_after?: string; ending_before?: string },
): Promise<ListEnvelope<Suppression>> {
  const own = { org_id: input.scope.orgId, livemode: input.scope.livemode };
  const page = await paginate(input, {
    loadCursor: (id) =>
      deps.prisma.suppressionRule.findFirst({ where: { id, ...own }, select: { created: true, id: true } }),
    fetch: ({ before, after, order, take }) =>
      deps.prisma.suppressionRule.findMany({
        where: { AND: [own, (keysetWhere('id', { before, after }) ?? {}) as Prisma.SuppressionRuleWhereInput] },
        orderBy: keysetOrder('id', order) as Prisma.SuppressionRuleOrderByWithRelationInput[],
        take,
      }),
  });
  const now = new Date();
  return listEnvelope(
    '/v1/suppressions',
    { data: page.data.map((r) => renderSuppression(r, now)), has_more: page.has_more },
    (s) => s.id,
  );
}
