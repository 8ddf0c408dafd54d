// Polling instead of sleeping, for tests that wait on real processes, queues and databases.
/**
 * Polls `fn` until it returns something truthy (returned), or throws `timed out waiting for <what>`
 * after `timeoutMs` (default 20 s; polled every `intervalMs`, default 25 ms). Tests wait on real processes, queues and databases this way instead of sleeping.
 */
export async function waitFor<T>(
  what: string,
  fn: () => Promise<T | undefined | null | false> | T | undefined | null | false,
  wait: number | { timeoutMs?: number; intervalMs?: number } = {},
): Promise<T> {
  // a bare number is the timeout (the common case); an object also sets the polling interval
  const { timeoutMs = 20_000, intervalMs = 25 } = typeof wait === 'number' ? { timeoutMs: wait } : wait;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
