// The push itself, run by the worker for each firewall_sync job (and callable directly in tests):
// compile the policy for the firewall's vendor, apply it, record sync_status / synced_version / error
// (docs/firewalls.md "Sync" and "Assignment sync states").
//
// Every job of one assignment runs under that assignment's lock (assignment-lock.ts) and reconciles the
// assignment to its state *now*, not to the version its job was queued for: a stale job re-reads the
// latest target and pushes that, or exits when the device already has it. Results are recorded by
// compare-and-set on the target version, so a push of version N never marks N+1 synced.
import type { Prisma, PrismaClient, Tx } from '@risk/db';
import { ConnectorError } from '../connector/errors';
import { defaultConnectorContext, type ConnectorContext } from '../connector/https-client';
import type { FirewallConnection, FirewallConnector, PushedObjects } from '../connector/types';
import { loadCategoryCatalog } from '../categories/load-catalog';
import { policyModelOf } from '../policy/policy-model-of';
import { createConnector } from '../registry';
import { AssignmentBusyError, withAssignmentLock } from './assignment-lock';
import { connectionOf } from './connection-of';
import { feedRules } from '../feeds/feed-reference';
import { firewallFeedCredential } from './firewall-feed-credential';

export interface SyncOptions {
  secretsKey: string;
  /**
   * how connectors reach firewalls: the running process's firewall allow-list and FIREWALL_ALLOWED_CIDRS, parsed
   * once (defaultConnectorContext; docs/security.md "Firewall targets"); absent: no exemptions, no restriction
   */
  connectorContext?: ConnectorContext;
  connectorFor?: (connection: FirewallConnection) => FirewallConnector;
  /** FEED_BASE_URL: where a pushed EDL / external feed pulls the tenant's risk feed (docs/feeds.md) */
  feedBaseUrl?: string;
}

export interface RemoveOptions extends SyncOptions {
  /** the job's last attempt: a failure now ends the removal as `removal_failed` instead of being retried */
  lastAttempt?: boolean;
  /** this attempt's number, from 1 (default: one more than the attempts recorded on the assignment) */
  attempt?: number;
  /** how long after a failure of this attempt the job's next one runs (its backoff); recorded so DELETE can say when */
  retryDelayMs?: number;
}

export interface SyncResult {
  assignment_id: string;
  status: 'synced' | 'pending' | 'failed' | 'removed' | 'removal_failed' | 'skipped';
  error?: { reason: string; message: string };
  /** false when retrying cannot help (bad credentials, untranslatable policy) */
  retryable?: boolean;
}

/** Statuses an apply job works on; `removing` and `removal_failed` belong to the removal. */
const APPLY_STATUSES = ['pending', 'failed', 'synced'];
const PERMANENT = new Set(['auth_rejected', 'policy_not_translatable', 'outbound_blocked']);

function describe(err: unknown) {
  if (err instanceof ConnectorError) return { reason: err.reason, message: err.message };
  return { reason: 'unexpected_response', message: err instanceof Error ? err.message : String(err) };
}

function connectorOf(options: SyncOptions) {
  return (
    options.connectorFor ??
    ((c: FirewallConnection) => createConnector(c, options.connectorContext ?? defaultConnectorContext('')))
  );
}

/** Another job of the assignment is pushing: retry later (nothing is recorded on the assignment). */
async function underLock(
  prisma: PrismaClient,
  assignmentId: string,
  fn: (tx: Tx) => Promise<SyncResult>,
): Promise<SyncResult> {
  try {
    return await withAssignmentLock(prisma, assignmentId, fn);
  } catch (err) {
    if (!(err instanceof AssignmentBusyError)) throw err;
    return {
      assignment_id: assignmentId,
      status: 'failed',
      error: { reason: 'sync_in_progress', message: err.message },
      retryable: true,
    };
  }
}

export function syncPolicyAssignment(
  prisma: PrismaClient,
  assignmentId: string,
  options: SyncOptions,
): Promise<SyncResult> {
  return underLock(prisma, assignmentId, (tx) => applyLocked(tx, assignmentId, { ...options, db: prisma }));
}

async function applyLocked(
  tx: Tx,
  assignmentId: string,
  options: SyncOptions & { db: PrismaClient },
): Promise<SyncResult> {
  const assignment = await tx.policyAssignment.findUnique({
    where: { id: assignmentId },
    include: { firewall: true, policy: { include: { rules: { orderBy: { position: 'asc' } } } } },
  });
  const skipped = { assignment_id: assignmentId, status: 'skipped' as const };
  if (!assignment || !APPLY_STATUSES.includes(assignment.sync_status)) return skipped;
  // a stale job (its version was pushed by a later job already): the device has the target, nothing to do
  if (assignment.sync_status === 'synced' && assignment.synced_version === assignment.target_version) return skipped;
  // the merged category data (a rule naming an operator-imported AI category pushes its domains), read only when
  // a rule names a category at all
  const catalog = assignment.policy.rules.some((r) => r.enabled && r.categories.length)
    ? await loadCategoryCatalog(tx)
    : undefined;
  const model = policyModelOf(assignment.policy, { feedBaseUrl: options.feedBaseUrl, catalog });
  // compare-and-set: only the version that is still the target, and only while no removal started
  const stillTarget = { id: assignmentId, target_version: model.version, sync_status: { in: APPLY_STATUSES } };
  try {
    const connector = connectorOf(options)(connectionOf(assignment.firewall, options.secretsKey));
    const feed = feedRules(model).length
      ? // outside the lock's transaction: the device pulls the feed during the push, so the token must be visible
        await firewallFeedCredential(options.db, { firewall: assignment.firewall, secretsKey: options.secretsKey })
      : null;
    const previous = (assignment.pushed_objects as PushedObjects | null) ?? null;
    const pushed = await connector.applyUrlPolicy(model, previous, feed);
    const pushedJson = pushed as unknown as Prisma.InputJsonValue;
    const { count } = await tx.policyAssignment.updateMany({
      where: stillTarget,
      data: {
        sync_status: 'synced',
        synced_version: model.version,
        last_error: null,
        last_synced_at: new Date(),
        pushed_objects: pushedJson,
      },
    });
    if (count === 0) {
      // a newer change (or an unassign) landed during the push: record what the device now holds, so the
      // next push or the removal cleans it up, and leave the status to the job that carries the change
      await tx.policyAssignment.updateMany({
        where: { id: assignmentId },
        data: { pushed_objects: pushedJson, synced_version: model.version },
      });
      return { assignment_id: assignmentId, status: 'pending' };
    }
    return { assignment_id: assignmentId, status: 'synced' };
  } catch (err) {
    const error = describe(err);
    const { count } = await tx.policyAssignment.updateMany({
      where: stillTarget,
      data: { sync_status: 'failed', last_error: `${error.reason}: ${error.message}` },
    });
    // the target moved on meanwhile: the job that carries it pushes (and reports) the newer version
    if (count === 0) return { assignment_id: assignmentId, status: 'pending' };
    return { assignment_id: assignmentId, status: 'failed', error, retryable: !PERMANENT.has(error.reason) };
  }
}

/**
 * Unassign: remove what was pushed, then delete the assignment. A failure keeps it `removing` with the
 * error for the next attempt; on the last attempt (or a permanent failure) it ends `removal_failed`, which
 * the user retries by unassigning again or overrides with DELETE ?force=true.
 */
export function removePolicyAssignment(
  prisma: PrismaClient,
  assignmentId: string,
  options: RemoveOptions,
): Promise<SyncResult> {
  return underLock(prisma, assignmentId, (tx) => removeLocked(tx, assignmentId, options));
}

async function removeLocked(tx: Tx, assignmentId: string, options: RemoveOptions): Promise<SyncResult> {
  const assignment = await tx.policyAssignment.findUnique({ where: { id: assignmentId }, include: { firewall: true } });
  // re-assigned after the unassign (back to pending): the apply job now owns it, so nothing is removed
  if (!assignment || assignment.sync_status !== 'removing') return { assignment_id: assignmentId, status: 'skipped' };
  const pushed = assignment.pushed_objects as PushedObjects | null;
  try {
    if (pushed)
      await connectorOf(options)(connectionOf(assignment.firewall, options.secretsKey)).removeUrlPolicy(pushed);
    // only while still `removing`: a re-assign during the removal keeps the row (its apply job re-pushes)
    await tx.policyAssignment.deleteMany({ where: { id: assignmentId, sync_status: 'removing' } });
    return { assignment_id: assignmentId, status: 'removed' };
  } catch (err) {
    const error = describe(err);
    const retryable = !PERMANENT.has(error.reason);
    const final = options.lastAttempt === true || !retryable;
    // compare-and-set on `updated` too: an unassign sent again during this attempt (the user's retry, with
    // its own job) changed the row, and this attempt's failure must not end the removal that retry started
    // where the removal stands, for DELETE's answer (removal-state.ts): attempts failed so far, the next one's time
    const { count } = await tx.policyAssignment.updateMany({
      where: { id: assignmentId, sync_status: 'removing', updated: assignment.updated },
      data: {
        last_error: `${error.reason}: ${error.message}`,
        removal_attempts: options.attempt ?? assignment.removal_attempts + 1,
        next_attempt_at:
          final || options.retryDelayMs === undefined ? null : new Date(Date.now() + options.retryDelayMs),
        ...(final ? { sync_status: 'removal_failed' } : {}),
      },
    });
    if (count === 0) return { assignment_id: assignmentId, status: 'skipped' };
    if (final) return { assignment_id: assignmentId, status: 'removal_failed', error, retryable: false };
    return { assignment_id: assignmentId, status: 'failed', error, retryable };
  }
}

/**
 * A removal job that failed for good without its last attempt recording it (the worker died or was
 * stalled, or the assignment's lock stayed busy): end the removal `removal_failed` unless the row changed
 * after that attempt started (a newer unassign or a re-assign owns it then).
 */
export async function endRemovalAfterFailedJob(
  prisma: PrismaClient,
  input: { assignmentId: string; attemptStartedAt: Date; message: string },
): Promise<boolean> {
  const { assignmentId, attemptStartedAt, message } = input;
  const { count } = await prisma.policyAssignment.updateMany({
    where: { id: assignmentId, sync_status: 'removing', updated: { lte: attemptStartedAt } },
    data: { sync_status: 'removal_failed', last_error: message, next_attempt_at: null },
  });
  return count > 0;
}
