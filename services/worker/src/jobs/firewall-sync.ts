import { requireSecret } from '@risk/common/config';
import { allowedHostsFor } from '@risk/common/outbound';
import { JOBS } from '@risk/common/queue';
import {
  defaultConnectorContext,
  endRemovalAfterFailedJob,
  removePolicyAssignment,
  syncPolicyAssignment,
  type SyncResult,
} from '@risk/firewalls';
import { UnrecoverableError, type Job } from 'bullmq';
import type { WorkerDeps } from '../deps';

/** What the processor reads of a BullMQ job (tests pass plain objects). */
export interface FirewallSyncJobLike {
  data: unknown;
  /** attempts that failed before this one (BullMQ counts from 0) */
  attemptsMade?: number;
  opts?: { attempts?: number; backoff?: number | { type?: string; delay?: number } };
}

/**
 * How long after a failure of attempt `attempt` BullMQ runs the job's next one: its backoff (exponential:
 * delay·2^(attempt−1), BullMQ's formula; fixed: delay). Recorded on a removal so DELETE of the policy can say
 * when the removal tries again (docs/firewalls.md "Assignment sync states").
 */
export function retryDelayMs(job: FirewallSyncJobLike, attempt: number): number | undefined {
  const backoff = job.opts?.backoff;
  const spec = typeof backoff === 'number' ? { type: 'fixed', delay: backoff } : backoff;
  if (!spec?.delay) return undefined;
  return spec.type === 'exponential' ? spec.delay * 2 ** (attempt - 1) : spec.delay;
}

/**
 * Pushes a URL-filter policy to a firewall (or removes it) for one firewall_sync job. The push itself
 * is @risk/firewalls' sync use case (docs/firewalls.md "Sync"); a retryable failure is thrown so BullMQ retries with backoff, a
 * permanent one (bad credentials, untranslatable policy) is recorded on the assignment and not retried.
 * A removal still failing on its last attempt ends `removal_failed` (docs/firewalls.md "Assignment sync
 * states"), so it never stays `removing` once its retries are spent.
 */
export function createFirewallSyncProcessor(deps: WorkerDeps): (job: FirewallSyncJobLike) => Promise<SyncResult> {
  // parsed once: a bad FIREWALL_ALLOWED_CIDRS stops the worker at start, not each sync (docs/security.md "Firewall
  // targets")
  const connectorContext = defaultConnectorContext(
    allowedHostsFor(deps.config, 'firewall'),
    deps.config.FIREWALL_ALLOWED_CIDRS,
  );
  return async (job) => {
    const payload = JOBS.firewallSync.payload.parse(job.data);
    const options = {
      secretsKey: requireSecret(deps.config, 'SECRETS_KEY'),
      connectorContext,
      feedBaseUrl: deps.config.FEED_BASE_URL, // where pushed EDLs / external feeds pull from (docs/feeds.md)
    };
    const attempt = (job.attemptsMade ?? 0) + 1;
    const lastAttempt = attempt >= (job.opts?.attempts ?? 1);
    const result =
      payload.action === 'remove'
        ? await removePolicyAssignment(deps.prisma, payload.assignment_id, {
            ...options,
            lastAttempt,
            attempt,
            retryDelayMs: retryDelayMs(job, attempt),
          })
        : await syncPolicyAssignment(deps.prisma, payload.assignment_id, options);
    if (result.status === 'failed' || result.status === 'removal_failed') {
      const message = `${result.error?.reason}: ${result.error?.message}`;
      if (result.retryable === false) throw new UnrecoverableError(message);
      throw new Error(message);
    }
    // runs inside the job's log context (metrics.ts instrumentJob): the line carries the admin request's id
    deps.logger.info('firewall sync finished', {
      assignment_id: payload.assignment_id,
      action: payload.action,
      version: payload.version,
      status: result.status,
    });
    return result;
  };
}

/**
 * BullMQ's `failed` event for a firewall-sync job. A removal whose retries are spent ends `removal_failed`
 * even when its last attempt could not record it itself (the worker died mid-attempt and BullMQ failed the
 * stalled job, or another job held the assignment's lock), so no removal stays `removing` for good.
 */
export async function onFirewallSyncFailed(deps: WorkerDeps, job: Job | undefined, err: Error): Promise<void> {
  if (!job) return;
  const attempts = job.opts.attempts ?? 1;
  if (job.attemptsMade < attempts && err.name !== 'UnrecoverableError') return;
  const parsed = JOBS.firewallSync.payload.safeParse(job.data);
  if (!parsed.success || parsed.data.action !== 'remove') return;
  const startedAt = new Date(job.processedOn ?? job.timestamp);
  await endRemovalAfterFailedJob(deps.prisma, {
    assignmentId: parsed.data.assignment_id,
    attemptStartedAt: startedAt,
    message: `job_failed: ${err.message}`,
  });
}
