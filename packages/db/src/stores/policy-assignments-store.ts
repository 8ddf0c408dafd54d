// Policy assignments and their URL filter rules (docs/firewalls.md "Sync", "Assignment sync states"): the
// assignment's sync lock, the re-sync of a policy's live assignments and the rules' order, each one statement.
import type { Pool } from 'pg';
import type { Tx } from '../tx';

/**
 * The sync jobs' advisory lock of one assignment, in the two-key form: the first key names the purpose, so other
 * advisory locks cannot collide with it. Held for the caller's transaction.
 */
export async function lockAssignment(tx: Tx, assignment: { id: string; waitMs: number }): Promise<void> {
  await tx.$queryRaw`SELECT set_config('lock_timeout', ${`${assignment.waitMs}ms`}, true)`;
  await tx.$queryRaw`SELECT 1 AS locked
    FROM (SELECT pg_advisory_xact_lock(hashtext('firewall_sync'), hashtext(${assignment.id}))) AS l`;
}

/** The same lock without waiting: false when a sync job holds it (a push is in flight). */
export async function tryLockAssignment(tx: Tx, assignmentId: string): Promise<boolean> {
  const [lock] = await tx.$queryRaw<Array<{ free: boolean }>>`
    SELECT pg_try_advisory_xact_lock(hashtext('firewall_sync'), hashtext(${assignmentId})) AS free`;
  return lock?.free === true;
}

/**
 * Sets the live assignments of each policy pending at its new version (statuses in `leaving` are left alone);
 * returns each assignment set pending with its target version.
 */
export async function markAssignmentsPending(
  tx: Tx,
  input: { policyIds: string[]; versions: number[]; leaving: string[] },
): Promise<Array<{ id: string; version: number }>> {
  const { policyIds, versions, leaving } = input;
  return tx.$queryRaw<Array<{ id: string; version: number }>>`
    UPDATE policy_assignments a SET sync_status = 'pending', target_version = v.version, updated = now()
      FROM unnest(${policyIds}::text[], ${versions}::int[]) AS v(policy_id, version)
     WHERE a.policy_id = v.policy_id AND a.sync_status <> ALL(${leaving}::text[])
    RETURNING a.id, v.version`;
}

/** Rule positions 1..n in the order given, in one statement (the caller checks the ids are the policy's own). */
export async function setRulePositions(tx: Tx, orderedIds: string[]): Promise<void> {
  if (!orderedIds.length) return;
  const positions = orderedIds.map((_, i) => i + 1);
  await tx.$executeRaw`UPDATE url_filter_rules AS r SET position = v.position, updated = now()
    FROM unnest(${orderedIds}::text[], ${positions}::int[]) AS v(id, position) WHERE r.id = v.id`;
}

/** One row per sync status with its number of assignments (the table holds one row per firewall and policy). */
export async function countAssignmentsBySyncStatus(
  db: Pick<Pool, 'query'>,
): Promise<Array<{ status: string; n: number }>> {
  const { rows } = await db.query<{ status: string; n: number }>(
    `SELECT sync_status AS status, count(*)::int AS n FROM policy_assignments GROUP BY sync_status`,
  );
  return rows;
}

/** Locks the policy's row for the caller's transaction (a change reads and bumps its version under it). */
export async function lockPolicy(tx: Tx, policyId: string): Promise<void> {
  await tx.$queryRaw`SELECT id FROM url_filter_policies WHERE id = ${policyId} FOR UPDATE`;
}
