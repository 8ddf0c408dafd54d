// Pieces every admin resource's contracts use.
import { z } from '../zod';

/** Admin API timestamps are ISO 8601 strings (the public API's are Unix seconds). */
export const isoDate = z.string().openapi({ format: 'date-time' });

/** One assignment whose removal failed, deleted anyway with ?force=true: what may still be on the device. */
export const ZLeftOnDevice = z
  .object({
    firewall_id: z.string(),
    firewall_name: z.string(),
    host: z.string(),
    policy_id: z.string(),
    policy_name: z.string(),
    sync_status: z.literal('removal_failed'),
    last_error: z.string().nullable(),
    objects: z.array(z.string()).openapi({ description: 'what the last successful push created on the device' }),
  })
  .openapi('LeftOnDevice');

export const ZDeleted = z
  .object({
    id: z.string(),
    object: z.string(),
    deleted: z.literal(true),
    left_on_device: z.array(ZLeftOnDevice).optional().openapi({
      description:
        'DELETE ?force=true of a policy or firewall only: the assignments whose removal had failed, and what of them may be left on the device',
    }),
  })
  .openapi('Deleted');

/** DELETE of a policy or firewall: force=true deletes despite assignments whose removal ended removal_failed */
export const ZForceDeleteQuery = z.object({
  force: z
    .enum(['true', 'false'])
    .optional()
    .openapi({ description: 'true: delete even though removals ended removal_failed (see left_on_device)' }),
});

/** An id in an admin path (`/tenants/v1/{id}`, `{token_id}`, `{ruleId}`, `{fwId}`). */
export const zPathId = z.string().min(1).max(255);
