// Polling instead of sleeping, for tests that wait on real processes, queues and databases.
import { loadFactor } from '@risk/time-budget';

/**
 * Polls `fn` until it returns something truthy (returned), or throws `timed out waiting for <what>` once `timeoutMs`
 * (default 20 s; polled every `intervalMs`, default 25 ms) has passed, stretched by the machine's load (@risk/time-budget loadFactor). The
 * deadline is a hang detector, not a speed bound: when it expires the load is read again, and the wait goes on while
 * the machine has got busier since.
 */
export async function waitFor<T>(
  what: string,
  fn: () => Promise<T | undefined | null | false> | T | undefined | null | false,
  wait: number | { timeoutMs?: number; intervalMs?: number } = {},
): Promise<T> {
  // a bare number is the timeout (the common case); an object also sets the polling interval
  const { timeoutMs = 20_000, intervalMs = 25 } = typeof wait === 'number' ? { timeoutMs: wait } : wait;
  const started = Date.now();
  let factor = loadFactor();
  for (;;) {
    const value = await fn();
    if (value) return value;
    if (Date.now() - started > timeoutMs * factor) {
      factor = Math.max(factor, loadFactor());
      const waited = Date.now() - started;
      if (waited > timeoutMs * factor)
        throw new Error(
          `timed out waiting for ${what} (${waited} ms: ${timeoutMs} ms × ${factor.toFixed(1)} for the machine's load)`,
        );
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
