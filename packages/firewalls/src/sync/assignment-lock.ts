// One push at a time per assignment, across every worker replica: a Postgres advisory lock held by a
// transaction for the whole push (docs/firewalls.md "Assignment sync states"). Without it an older push
// could reach the device after a newer one. The lock lives in Postgres, not in the process, because
// several workers run the firewall-sync queue; it goes away with the transaction, so a crashed worker
// never leaves it behind.
import { lockAssignment, type PrismaClient, type Tx } from '@risk/db';

/** How long a job waits for another job of the same assignment before giving up (it is then retried). */
export const ASSIGNMENT_LOCK_WAIT_MS = 30_000;
/**
 * Upper bound of one push (connectors time out each request after 10 s; a PAN-OS commit polls its job):
 * the transaction that holds the lock is rolled back after this, which releases the lock.
 */
export const ASSIGNMENT_PUSH_DEADLINE_MS = 5 * 60_000;

/** Postgres' error for a lock wait that exceeded lock_timeout */
const LOCK_NOT_AVAILABLE = '55P03';

export class AssignmentBusyError extends Error {
  constructor(assignmentId: string) {
    super(`another sync of assignment ${assignmentId} held its lock for more than ${ASSIGNMENT_LOCK_WAIT_MS} ms`);
  }
}

function isLockTimeout(err: unknown): boolean {
  const text = err instanceof Error ? `${err.message} ${String((err as { code?: unknown }).code ?? '')}` : '';
  return text.includes(LOCK_NOT_AVAILABLE) || /lock timeout/i.test(text);
}

/**
 * Runs `fn` inside a transaction that holds the assignment's advisory lock. Everything `fn` writes through
 * `tx` commits with the lock's release, so the next job of the assignment sees it.
 */
export async function withAssignmentLock<T>(
  prisma: PrismaClient,
  assignmentId: string,
  fn: (tx: Tx) => Promise<T>,
): Promise<T> {
  try {
    return await prisma.$transaction(
      async (tx) => {
        await lockAssignment(tx, { id: assignmentId, waitMs: ASSIGNMENT_LOCK_WAIT_MS });
        return fn(tx);
      },
      { maxWait: 10_000, timeout: ASSIGNMENT_PUSH_DEADLINE_MS },
    );
  } catch (err) {
    if (isLockTimeout(err)) throw new AssignmentBusyError(assignmentId);
    throw err;
  }
}
