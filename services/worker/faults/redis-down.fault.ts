import { createStack, post, signal, statusCounts, waitFor, type Stack } from './processes';

// Case b (docs/reliability.md "Fault suite"): Redis is killed while signals arrive and started again (empty:
// no persistence). The API answers 202 from the outbox, /readyz says 503 meanwhile, nothing else fails, and
// the relay enqueues the waiting rows once Redis is back, so every accepted signal ends enriched.
describe('fault: Redis stopped while signals arrive', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await createStack('fault-redis');
  });
  afterAll(async () => stack?.close());

  const readyz = () =>
    fetch(`${stack.apiUrl}/readyz`).then(
      (r) => r.status,
      () => 0,
    );

  it('every 202 is enriched, readiness is 503 meanwhile, no other 5xx', async () => {
    await stack.startApi();
    stack.startWorker();
    const accepted = new Set<string>();
    const statuses: number[] = [];
    const send = async (fingerprint: string) => {
      const res = await post(stack, '/v1/signals', signal(stack, fingerprint));
      statuses.push(res.status);
      if (res.status === 202) accepted.add(fingerprint);
    };

    await Promise.all(Array.from({ length: 20 }, (_, i) => send(`npm:before-${i}@1.0.0`)));
    // the jobs these queued live only in Redis: let them finish before Redis loses its memory
    await waitFor('signals before the outage enriched', async () => (await statusCounts(stack)).enriched === 20);
    expect(await readyz()).toBe(200);

    await stack.redis.stop();
    await waitFor('readiness to report Redis down', async () => (await readyz()) === 503, {
      timeoutMs: 10_000,
      intervalMs: 100,
    });
    for (let round = 0; round < 5; round++) {
      await Promise.all(Array.from({ length: 20 }, (_, i) => send(`npm:during-${round}-${i}@1.0.0`)));
      expect(await readyz()).toBe(503);
    }

    await stack.redis.start();
    await waitFor('readiness back', async () => (await readyz()) === 200, { timeoutMs: 15_000, intervalMs: 100 });
    await Promise.all(Array.from({ length: 20 }, (_, i) => send(`npm:after-${i}@1.0.0`)));

    expect(statuses.filter((s) => s !== 202)).toEqual([]);
    expect(accepted.size).toBe(140);
    await waitFor(
      'every accepted signal enriched',
      async () => (await statusCounts(stack)).enriched === accepted.size,
      { timeoutMs: 60_000, intervalMs: 200 },
    );
    const { rows } = await stack.ctx.db.pool.query<{ fingerprint: string }>(
      `SELECT fingerprint FROM assets WHERE enriched_digest IS DISTINCT FROM latest_digest`,
    );
    expect(rows).toEqual([]);
  });
});
