import { JOBS, requireSecret } from '@risk/common';
import { removePolicyAssignment, syncPolicyAssignment, type SyncResult } from '@risk/firewalls';
import { UnrecoverableError } from 'bullmq';
import type { WorkerDeps } from '../deps';

/**
 * Pushes a URL-filter policy to a firewall (or removes it) for one firewall_sync job. The push itself
 * is @risk/firewalls' sync use case (docs/firewalls.md "Sync"); a retryable failure is thrown so BullMQ retries with backoff, a
 * permanent one (bad credentials, untranslatable policy) is recorded on the assignment and not retried.
 */
export function createFirewallSyncProcessor(deps: WorkerDeps): (job: { data: unknown }) => Promise<SyncResult> {
  return async (job) => {
    const payload = JOBS.firewallSync.payload.parse(job.data);
    const options = {
      secretsKey: requireSecret(deps.config, 'SECRETS_KEY'),
      allowedHosts: deps.config.OUTBOUND_ALLOWED_HOSTS,
    };
    const result =
      payload.action === 'remove'
        ? await removePolicyAssignment(deps.prisma, payload.assignment_id, options)
        : await syncPolicyAssignment(deps.prisma, payload.assignment_id, options);
    if (result.status === 'failed') {
      const message = `${result.error?.reason}: ${result.error?.message}`;
      if (result.retryable === false) throw new UnrecoverableError(message);
      throw new Error(message);
    }
    return result;
  };
}
