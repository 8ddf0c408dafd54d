// DELETE of a policy or a firewall while assignments link them (docs/firewalls.md "Assignment sync
// states"). Deleting cascades the assignments away, so whatever was pushed would stay on the device with
// nothing left that knows of it: an assignment that is still live (or still being removed) refuses the
// delete; one whose removal ended `removal_failed` refuses it with the firewall(s) and errors named,
// unless the caller passes ?force=true, whose answer lists what may be left on each device.
import { ApiError } from '@risk/common';
import type { PrismaClient } from '@risk/db';
import { describePushedObjects } from '../sync/left-on-device';
import type { PushedObjects } from '../connector/types';

export interface LeftOnDevice {
  firewall_id: string;
  firewall_name: string;
  host: string;
  policy_id: string;
  policy_name: string;
  sync_status: 'removal_failed';
  last_error: string | null;
  /** the objects the last successful push created, which the failed removal may not have deleted */
  objects: string[];
}

const ERROR_IN_MESSAGE_MAX = 200;

function clip(text: string | null): string {
  if (!text) return 'no error recorded';
  return text.length > ERROR_IN_MESSAGE_MAX ? `${text.slice(0, ERROR_IN_MESSAGE_MAX)}…` : text;
}

/**
 * Throws `policy_assigned` or `policy_removal_failed` when the delete must not go ahead; otherwise returns
 * `{ left_on_device }` for a forced delete (to spread into the answer) and `{}` for a plain one.
 */
export async function checkAssignmentsBeforeDelete(
  prisma: PrismaClient,
  subject: { policy_id: string } | { firewall_id: string },
  force: boolean,
): Promise<{ left_on_device?: LeftOnDevice[] }> {
  const assignments = await prisma.policyAssignment.findMany({
    where: subject,
    orderBy: { created: 'asc' },
    select: {
      policy_id: true,
      firewall_id: true,
      sync_status: true,
      last_error: true,
      pushed_objects: true,
      policy: { select: { name: true } },
      firewall: { select: { name: true, host: true } },
    },
  });
  const isPolicy = 'policy_id' in subject;
  const live = assignments.filter((a) => a.sync_status !== 'removal_failed');
  if (live.length) {
    const n = live.length;
    throw new ApiError('policy_assigned', {
      param: 'id',
      message: isPolicy
        ? `The policy is assigned to ${n} firewall(s); unassign it first so its objects are removed from them.`
        : `${n} URL-filter polic${n === 1 ? 'y is' : 'ies are'} assigned to this firewall; unassign ${n === 1 ? 'it' : 'them'} first so their objects are removed from the device.`,
    });
  }
  if (assignments.length && !force) {
    const named = assignments
      .map((a) =>
        isPolicy
          ? `firewall ${a.firewall_id} ('${a.firewall.name}', ${a.firewall.host}): removal_failed, ${clip(a.last_error)}`
          : `policy ${a.policy_id} ('${a.policy.name}'): removal_failed, ${clip(a.last_error)}`,
      )
      .join('; ');
    throw new ApiError('policy_removal_failed', {
      param: 'id',
      message:
        `Removing the policy from the firewall failed and its retries are spent (${named}). ` +
        'Retry the removal with DELETE /policies/v1/url-filter/{id}/assign/{fwId} once the firewall is reachable, ' +
        `or delete the ${isPolicy ? 'policy' : 'firewall'} with ?force=true, which leaves the pushed objects on the device.`,
    });
  }
  if (!force) return {};
  return {
    left_on_device: assignments.map((a) => ({
      firewall_id: a.firewall_id,
      firewall_name: a.firewall.name,
      host: a.firewall.host,
      policy_id: a.policy_id,
      policy_name: a.policy.name,
      sync_status: 'removal_failed' as const,
      last_error: a.last_error,
      objects: describePushedObjects(a.pushed_objects as PushedObjects | null),
    })),
  };
}
