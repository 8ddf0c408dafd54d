// DELETE of a policy or a firewall while assignments link them (docs/firewalls.md "Assignment sync
// states"). Deleting cascades the assignments away, so whatever was pushed would stay on the device with
// nothing left that knows of it: an assignment that is still live refuses the delete (unassign first); one
// still being removed refuses it with where the removal stands (attempt n of N, last error, next attempt);
// one whose removal ended `removal_failed` refuses it with the firewall(s) and errors named, unless the
// caller passes ?force=true, whose answer lists what may be left on each device.
import { ApiError } from '@risk/common/errors';
import { JOBS } from '@risk/common/queue';
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

/** A removal the worker is still retrying, as checkAssignmentsBeforeDelete reads it. */
interface RemovingAssignment {
  policy_id: string;
  firewall_id: string;
  last_error: string | null;
  removal_attempts: number;
  next_attempt_at: Date | null;
  policy: { name: string };
  firewall: { name: string; host: string };
}

/** How many attempts a removal job gets (the firewall_sync job's, @risk/common JOBS). */
const REMOVAL_ATTEMPTS = JOBS.firewallSync.options.attempts;

/**
 * 409 `policy_removal_in_progress`: the unassign's removal is still being retried (the firewall may be unreachable).
 * Says, for each assignment, which attempt of how many failed with what error and when the next one runs, and what
 * the caller can do: wait, or once the last attempt fails, delete with ?force=true. Retry-After: the earliest next
 * attempt.
 */
function removalInProgress(removing: RemovingAssignment[], isPolicy: boolean, now: Date): ApiError {
  const states = removing.map((a) => {
    const who = isPolicy
      ? `firewall ${a.firewall_id} ('${a.firewall.name}', ${a.firewall.host})`
      : `policy ${a.policy_id} ('${a.policy.name}')`;
    if (a.removal_attempts === 0) return `${who}: attempt 1 of ${REMOVAL_ATTEMPTS} has not finished yet`;
    const next = a.next_attempt_at
      ? a.next_attempt_at > now
        ? `the next attempt runs at ${a.next_attempt_at.toISOString()} (in about ${secondsUntil(a.next_attempt_at, now)} s)`
        : 'the next attempt is due now'
      : 'the next attempt is queued';
    return `${who}: attempt ${a.removal_attempts} of ${REMOVAL_ATTEMPTS} failed (${clip(a.last_error)}); ${next}`;
  });
  const upcoming = removing.flatMap((a) => (a.next_attempt_at && a.next_attempt_at > now ? [a.next_attempt_at] : []));
  const earliest = upcoming.length ? new Date(Math.min(...upcoming.map((d) => d.getTime()))) : null;
  const subject = isPolicy ? 'policy' : 'firewall';
  return new ApiError('policy_removal_in_progress', {
    param: 'id',
    ...(earliest ? { headers: { 'Retry-After': String(secondsUntil(earliest, now)) } } : {}),
    message:
      `The ${subject} was unassigned and removing its objects from the ${isPolicy ? 'firewall' : 'device'} is in ` +
      `progress (${states.join('; ')}). Retry the DELETE once the removal has finished. If its last attempt fails ` +
      `it ends removal_failed, and then DELETE with ?force=true deletes the ${subject}, leaving the pushed objects ` +
      'on the device.',
  });
}

const secondsUntil = (at: Date, now: Date) => Math.max(1, Math.ceil((at.getTime() - now.getTime()) / 1000));

/**
 * Throws `policy_assigned`, `policy_removal_in_progress` or `policy_removal_failed` when the delete must not go ahead; otherwise returns
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
      removal_attempts: true,
      next_attempt_at: true,
      policy: { select: { name: true } },
      firewall: { select: { name: true, host: true } },
    },
  });
  const isPolicy = 'policy_id' in subject;
  const live = assignments.filter((a) => a.sync_status !== 'removal_failed' && a.sync_status !== 'removing');
  if (live.length) {
    const n = live.length;
    throw new ApiError('policy_assigned', {
      param: 'id',
      message: isPolicy
        ? `The policy is assigned to ${n} firewall(s); unassign it first so its objects are removed from them.`
        : `${n} URL-filter polic${n === 1 ? 'y is' : 'ies are'} assigned to this firewall; unassign ${n === 1 ? 'it' : 'them'} first so their objects are removed from the device.`,
    });
  }
  const removing = assignments.filter((a) => a.sync_status === 'removing');
  if (removing.length) throw removalInProgress(removing, isPolicy, new Date());
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
