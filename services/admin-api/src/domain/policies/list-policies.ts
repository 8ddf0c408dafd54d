import type { ListQuery } from '@risk/contracts';
import type { PrismaDeps } from '../deps';
import { listPage } from '../list-page';
import { serializePolicy } from '../serializers';
import { withChildren } from './find-policy';

export function listPolicies(deps: PrismaDeps, input: { tenantId: string; page: ListQuery }) {
  const policies = deps.prisma.urlFilterPolicy;
  // each policy with its rules and assignments, which the serializer shows
  const model = {
    findFirst: policies.findFirst.bind(policies),
    findMany: (args: { where: object; orderBy: object[]; take: number }) =>
      policies.findMany({ ...args, include: withChildren }),
  };
  return listPage(model, {
    page: input.page,
    scope: { tenant_id: input.tenantId },
    url: '/policies/v1/url-filter',
    serialize: serializePolicy,
  });
}
