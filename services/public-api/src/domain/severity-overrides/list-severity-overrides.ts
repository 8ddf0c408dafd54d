import { listEnvelope, type ListEnvelope } from '@risk/common/http';
import type { SeverityOverride } from '@risk/contracts';
import type { AppDeps } from '../../deps';
import type { OrgScope } from '../triage/org-view';
import { renderSeverityOverride } from '../triage/render';

/**
 * The org's overrides in the key's mode, by rule id. At most one per rule, so the list is bounded by the
 * engine's rule count and comes in one page (`has_more` is always false).
 */
export async function listSeverityOverrides(
  deps: Pick<AppDeps, 'prisma'>,
  input: { scope: OrgScope },
): Promise<ListEnvelope<SeverityOverride>> {
  const rows = await deps.prisma.severityOverride.findMany({
    where: { org_id: input.scope.orgId, livemode: input.scope.livemode },
    orderBy: { rule_id: 'asc' },
  });
  return listEnvelope(
    '/v1/severity-overrides',
    { data: rows.map(renderSeverityOverride), has_more: false },
    (o) => o.rule_id,
  );
}
