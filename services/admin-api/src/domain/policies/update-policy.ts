import { bumpAndResync, type FilterAction } from '@risk/firewalls';
import type { PrismaDeps } from '../deps';
import { serializePolicy } from '../serializers';
import { findPolicy, lockPolicyAt } from './find-policy';
import { nameConflict } from './name-conflict';

/** A partial update, optionally checked against the version the caller read; bumps the version and re-syncs. */
export async function updatePolicy(
  deps: PrismaDeps,
  request: {
    tenantId: string;
    id: string;
    changes: {
      name?: string;
      description?: string | null;
      default_action?: FilterAction;
      expected_version?: number;
    };
  },
) {
  const { prisma } = deps;
  const { tenantId, id, changes: input } = request;
  try {
    await prisma.$transaction(async (tx) => {
      await lockPolicyAt(tx, { tenantId, policyId: id, expectedVersion: input.expected_version });
      await tx.urlFilterPolicy.update({
        where: { id },
        data: {
          ...(input.name !== undefined ? { name: input.name } : {}),
          ...(input.description !== undefined ? { description: input.description } : {}),
          ...(input.default_action !== undefined ? { default_action: input.default_action } : {}),
        },
      });
      await bumpAndResync(tx, id);
    });
  } catch (err) {
    nameConflict(err, input.name);
  }
  return serializePolicy(await findPolicy(prisma, tenantId, id));
}
