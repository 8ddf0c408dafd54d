// A change to a policy carries the version the page showed (`expected_version`); when the policy changed
// elsewhere meanwhile the admin API answers 409 version_conflict (docs/admin-api.md "Rules"). The page explains
// that nothing was saved and reloads the policy, so the next attempt starts from the truth.
import { ConsoleApiError } from '../../api/client';
import { formatNumber } from '../../lib/format';

export function isVersionConflict(err: unknown): boolean {
  return err instanceof ConsoleApiError && err.status === 409 && err.code === 'version_conflict';
}

/** what the page says after a conflict: `what` was not saved (e.g. "your move"), and what to do `next` */
export function conflictMessage(input: { version: number; what: string; next: string }): string {
  return `This policy was changed elsewhere after you opened it (you had version ${formatNumber(input.version)}), so ${input.what} was not saved. The current policy has been reloaded: ${input.next}.`;
}

/**
 * Runs a change; a version conflict reloads the policy (`refresh`) and fails with the conflict message, any other
 * error is thrown as it is.
 */
export async function saveOrExplainConflict<T>(
  change: () => Promise<T>,
  conflict: { refresh: () => Promise<unknown>; version: number; what: string; next: string },
): Promise<T> {
  try {
    return await change();
  } catch (err) {
    if (!isVersionConflict(err)) throw err;
    await conflict.refresh();
    throw new Error(conflictMessage(conflict), { cause: err });
  }
}
