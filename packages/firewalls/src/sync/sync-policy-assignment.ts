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
import { defaultConnectorContext } from '../connector/https-client';
import type { FirewallConnection, FirewallConnector, PushedObjects } from '../connector/types';
import { policyModelOf } from '../policy/policy-model-of';
import { createConnector } from '../registry';
import { AssignmentBusyError, withAssignmentLock } from './assignment-lock';
import { connectionOf } from './connection-of';

export interface SyncOptions {
  secretsKey: string;
  /** OUTBOUND_ALLOWED_HOSTS of the running process (empty: no exemptions) */
  allowedHosts?: string;
  connectorFor?: (connection: FirewallConnection) => FirewallConnector;
}

export interface RemoveOptions extends SyncOptions {
  /** the job's last attempt: a failure now ends the removal as `removal_failed` instead of being retried */
  lastAttempt?: boolean;
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
    ((c: FirewallConnection) => createConnector(c, defaultConnectorContext(options.allowedHosts ?? '')))
  );
}

/** Another job of the assignment is pushing: retry later (nothing is recorded on the assignment). */
async function underLock(
  db: PrismaClient,
  assignmentId: string,
  fn: (tx: Tx) => Promise<SyncResult>,
): Promise<SyncResult> {
  try {
    return await withAssignmentLock(db, assignmentId, fn);
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
  db: PrismaClient,
  assignmentId: string,
  options: SyncOptions,
): Promise<SyncResult> {
  return underLock(db, assignmentId, (tx) => applyLocked(tx, assignmentId, options));
}

async function applyLocked(tx: Tx, assignmentId: string, options: SyncOptions): Promise<SyncResult> {
  const assignment = await tx.policyAssignment.findUnique({
    where: { id: assignmentId },
    include: { firewall: true, policy: { include: { rules: { orderBy: { position: 'asc' } } } } },
  });
  const skipped = { assignment_id: assignmentId, status: 'skipped' as const };
  if (!assignment || !APPLY_STATUSES.includes(assignment.sync_status)) return skipped;
  // a stale job (its version was pushed by a later job already): the device has the target, nothing to do
  if (assignment.sync_status === 'synced' && assignment.synced_version === assignment.target_version) return skipped;
  const model = policyModelOf(assignment.policy);
  // compare-and-set: only the version that is still the target, and only while no removal started
  const stillTarget = { id: assignmentId, target_version: model.version, sync_status: { in: APPLY_STATUSES } };
  try {
    const connector = connectorOf(options)(connectionOf(assignment.firewall, options.secretsKey));
    const pushed = await connector.applyUrlPolicy(model, (assignment.pushed_objects as PushedObjects | null) ?? null);
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
  db: PrismaClient,
  assignmentId: string,
  options: RemoveOptions,
): Promise<SyncResult> {
  return underLock(db, assignmentId, (tx) => removeLocked(tx, assignmentId, options));
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
    const { count } = await tx.policyAssignment.updateMany({
      where: { id: assignmentId, sync_status: 'removing', updated: assignment.updated },
      data: { last_error: `${error.reason}: ${error.message}`, ...(final ? { sync_status: 'removal_failed' } : {}) },
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
  db: PrismaClient,
  assignmentId: string,
  attemptStartedAt: Date,
  message: string,
): Promise<boolean> {
  const { count } = await db.policyAssignment.updateMany({
    where: { id: assignmentId, sync_status: 'removing', updated: { lte: attemptStartedAt } },
    data: { sync_status: 'removal_failed', last_error: message },
  });
  return count > 0;
}
