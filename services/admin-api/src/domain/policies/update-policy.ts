import type { FilterAction } from '@risk/firewalls';
import type { DbDeps } from '../deps';
import { serializePolicy } from '../serializers';
import { findPolicy } from './find-policy';
import { bumpAndResync, nameConflict } from './policy-writes';

/** A partial update; bumps the version and re-syncs the assignments. */
export async function updatePolicy(
  deps: DbDeps,
  request: {
    tenantId: string;
    id: string;
    changes: { name?: string; description?: string | null; default_action?: FilterAction };
  },
) {
  const { db } = deps;
  const { tenantId, id, changes: input } = request;
  await findPolicy(db, tenantId, id);
  try {
    await db.$transaction(async (tx) => {
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
  return serializePolicy(await findPolicy(db, tenantId, id));
}
