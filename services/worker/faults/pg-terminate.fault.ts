import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { createStack, post, signal, waitFor, type Stack } from './processes';

// Case c (docs/reliability.md "Fault suite"): the API's Postgres backends are terminated
// (pg_terminate_backend) again and again during a burst of signals. A request caught by it fails cleanly
// (500 api_error or 503, with the error envelope), a retry with the same Idempotency-Key and body succeeds,
// and no signal is half-written: each accepted request stored exactly its one signal.
describe('fault: Postgres backends terminated mid-burst', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await createStack('fault-pgkill');
  });
  afterAll(async () => stack?.close());

  it('fails cleanly, succeeds on retry with the same key, writes no half signal', async () => {
    // a claim whose release could not be written either (its connection was terminated too) is freed by its
    // lease (docs/reliability.md "Idempotency claims"): shortened from 60 s so the retries below wait seconds
    await stack.startApi({ IDEMPOTENCY_LEASE_MS: '3000' });
    stack.startWorker();
    const admin = new Client({ connectionString: stack.ctx.databaseUrl });
    await admin.connect();
    let terminated = 0;
    let stop = false;
    const killer = (async () => {
      while (!stop) {
        const { rowCount } = await admin.query(
          `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
            WHERE datname = current_database() AND application_name = 'public-api' AND pid <> pg_backend_pid()`,
        );
        terminated += rowCount ?? 0;
        await new Promise((r) => setTimeout(r, 40 + Math.random() * 60));
      }
    })();

    const requests = Array.from({ length: 200 }, (_, i) => ({
      key: randomUUID(),
      body: signal(stack, `npm:pgkill-${i}@1.0.0`),
    }));
    const failures: Array<{ status: number; body: Record<string, unknown> }> = [];
    const firstTry = new Map<string, number>();
    for (let i = 0; i < requests.length; i += 10) {
      await Promise.all(
        requests.slice(i, i + 10).map(async (r) => {
          const res = await post(stack, '/v1/signals', r.body, r.key);
          firstTry.set(r.key, res.status);
          if (res.status !== 202) failures.push(res);
        }),
      );
    }
    stop = true;
    await killer;
    await admin.end();

    expect(terminated).toBeGreaterThan(0);
    const failed = [...firstTry.values()].filter((s) => s !== 202).length;
    expect(failed).toBeGreaterThan(0); // the fault really hit requests
    for (const f of failures) {
      expect([500, 503]).toContain(f.status);
      const error = f.body.error as { type?: string; code?: string } | undefined;
      expect(error).toBeDefined();
      if (f.status === 500) expect(error!.type).toBe('api_error');
    }

    // every request, retried with its own key and body, is accepted (a 202 replays the stored answer)
    const bodies = new Map<string, Record<string, unknown>>();
    await Promise.all(
      requests.map(async (r) => {
        const res = await waitFor(
          `retry of ${r.body.fingerprint}`,
          async () => {
            const res = await post(stack, '/v1/signals', r.body, r.key);
            return res.status === 202 ? res : undefined;
          },
          { timeoutMs: 20_000, intervalMs: 200 },
        );
        bodies.set(r.body.fingerprint, res.body);
      }),
    );

    // no half-written signal: one signal and one asset per request, and each 202 names a stored signal
    const pool = stack.ctx.db.pool;
    const { rows } = await pool.query<{ fingerprint: string; signals: number; asset: boolean }>(
      `SELECT s.fingerprint, count(*)::int AS signals, bool_and(a.fingerprint IS NOT NULL) AS asset
         FROM signals s LEFT JOIN assets a ON a.livemode = s.livemode AND a.fingerprint = s.fingerprint
        GROUP BY s.fingerprint`,
    );
    expect(rows).toHaveLength(requests.length);
    expect(rows.filter((r) => r.signals !== 1 || !r.asset)).toEqual([]);
    const { rows: ids } = await pool.query<{ id: string }>(`SELECT id FROM signals`);
    const stored = new Set(ids.map((r) => r.id));
    expect([...bodies.values()].filter((b) => !stored.has(String(b.id)))).toEqual([]);
    const { rows: claims } = await pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM idempotency_keys WHERE status <> 'completed'`,
    );
    expect(claims[0]!.n).toBe(0);
  });
});
