// The push itself, run by the worker for each firewall_sync job (and callable directly in tests):
// compile the policy for the firewall's vendor, apply it, record sync_status / synced_version / error
// (docs/firewalls.md "Sync").
import type { Prisma, PrismaClient } from '@risk/db';
import { ConnectorError } from '../connector/errors';
import { defaultConnectorContext } from '../connector/https-client';
import type { FirewallConnection, FirewallConnector, PushedObjects } from '../connector/types';
import { policyModelOf } from '../policy/policy-model-of';
import { createConnector } from '../registry';
import { connectionOf } from './connection-of';

export interface SyncOptions {
  secretsKey: string;
  /** OUTBOUND_ALLOWED_HOSTS of the running process (empty: no exemptions) */
  allowedHosts?: string;
  connectorFor?: (connection: FirewallConnection) => FirewallConnector;
}

export interface SyncResult {
  assignment_id: string;
  status: 'synced' | 'pending' | 'failed' | 'removed' | 'skipped';
  error?: { reason: string; message: string };
  /** false when retrying cannot help (bad credentials, untranslatable policy) */
  retryable?: boolean;
}

const PERMANENT = new Set(['auth_rejected', 'policy_not_translatable', 'outbound_blocked']);

function describe(err: unknown) {
  if (err instanceof ConnectorError) return { reason: err.reason, message: err.message };
  return { reason: 'unexpected_response', message: err instanceof Error ? err.message : String(err) };
}

export async function syncPolicyAssignment(
  db: PrismaClient,
  assignmentId: string,
  options: SyncOptions,
): Promise<SyncResult> {
  const assignment = await db.policyAssignment.findUnique({
    where: { id: assignmentId },
    include: { firewall: true, policy: { include: { rules: { orderBy: { position: 'asc' } }, assignments: true } } },
  });
  if (!assignment || assignment.sync_status === 'removing') return { assignment_id: assignmentId, status: 'skipped' };
  const model = policyModelOf(assignment.policy);
  const connectorFor =
    options.connectorFor ??
    ((c: FirewallConnection) => createConnector(c, defaultConnectorContext(options.allowedHosts ?? '')));
  try {
    const connector = connectorFor(connectionOf(assignment.firewall, options.secretsKey));
    const pushed = await connector.applyUrlPolicy(model, (assignment.pushed_objects as PushedObjects | null) ?? null);
    // a newer change may have landed while we pushed: stay pending for the job that carries it
    const { count } = await db.policyAssignment.updateMany({
      where: { id: assignmentId, target_version: { lte: model.version }, sync_status: { not: 'removing' } },
      data: {
        sync_status: 'synced',
        synced_version: model.version,
        last_error: null,
        last_synced_at: new Date(),
        pushed_objects: pushed as unknown as Prisma.InputJsonValue,
      },
    });
    if (count === 0) {
      await db.policyAssignment.updateMany({
        where: { id: assignmentId },
        data: { pushed_objects: pushed as unknown as Prisma.InputJsonValue, synced_version: model.version },
      });
      return { assignment_id: assignmentId, status: 'pending' };
    }
    return { assignment_id: assignmentId, status: 'synced' };
  } catch (err) {
    const error = describe(err);
    await db.policyAssignment.updateMany({
      where: { id: assignmentId, sync_status: { not: 'removing' } },
      data: { sync_status: 'failed', last_error: `${error.reason}: ${error.message}` },
    });
    return { assignment_id: assignmentId, status: 'failed', error, retryable: !PERMANENT.has(error.reason) };
  }
}

/** Unassign: remove what was pushed, then delete the assignment. On failure it stays `removing` with the error. */
export async function removePolicyAssignment(
  db: PrismaClient,
  assignmentId: string,
  options: SyncOptions,
): Promise<SyncResult> {
  const assignment = await db.policyAssignment.findUnique({ where: { id: assignmentId }, include: { firewall: true } });
  // re-assigned after the unassign (back to pending): the apply job now owns it, so nothing is removed
  if (!assignment || assignment.sync_status !== 'removing') return { assignment_id: assignmentId, status: 'skipped' };
  const pushed = assignment.pushed_objects as PushedObjects | null;
  const connectorFor =
    options.connectorFor ??
    ((c: FirewallConnection) => createConnector(c, defaultConnectorContext(options.allowedHosts ?? '')));
  try {
    if (pushed) await connectorFor(connectionOf(assignment.firewall, options.secretsKey)).removeUrlPolicy(pushed);
    // only while still `removing`: a re-assign during the removal keeps the row (its apply job re-pushes)
    await db.policyAssignment.deleteMany({ where: { id: assignmentId, sync_status: 'removing' } });
    return { assignment_id: assignmentId, status: 'removed' };
  } catch (err) {
    const error = describe(err);
    await db.policyAssignment.updateMany({
      where: { id: assignmentId },
      data: { last_error: `${error.reason}: ${error.message}` },
    });
    return { assignment_id: assignmentId, status: 'failed', error, retryable: !PERMANENT.has(error.reason) };
  }
}
