import net from 'node:net';
import { performance } from 'node:perf_hooks';
import { createStack, exited, post, signal, waitFor, type Stack } from './processes';

// Case d (docs/reliability.md "Fault suite"): SIGTERM to the public API while clients keep sending signals
// (single and bulk). Every request sent before the signal completes with its normal answer, connections
// opened after it are refused, no request gets a 5xx, and the process exits (code 0) within 10 s.
describe('fault: SIGTERM to the public API under load', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await createStack('fault-sigterm');
  });
  afterAll(async () => stack?.close());

  const connectRefused = (port: number) =>
    new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(false);
      });
      socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'ECONNREFUSED'));
    });

  it('finishes in-flight requests, refuses new connections, exits within 10 s', async () => {
    const api = await stack.startApi();
    let sigtermAt = Infinity;
    let stopping = false;
    const results: Array<{ started: number; status: number }> = [];
    let n = 0;
    const client = async (c: number) => {
      while (!stopping) {
        const i = n++;
        const started = performance.now();
        const res =
          c % 3 === 0
            ? await post(stack, '/v1/signals/bulk', {
                signals: Array.from({ length: 200 }, (_, j) => signal(stack, `npm:term-${i}-${j}@1.0.0`)),
              })
            : await post(stack, '/v1/signals', signal(stack, `npm:term-${i}@1.0.0`));
        results.push({ started, status: res.status });
      }
    };
    const clients = Promise.all(Array.from({ length: 12 }, (_, c) => client(c)));

    // under way: some answered, and each client has one more in flight
    await waitFor('load to run', () => results.length >= 24, { timeoutMs: 30_000, intervalMs: 20 });
    const exit = exited(api);
    sigtermAt = performance.now();
    api.kill('SIGTERM');
    // keep sending for a while after the signal, then stop
    await new Promise((r) => setTimeout(r, 1000));
    const refusedWhileDraining = await connectRefused(stack.apiPort);
    stopping = true;
    await clients;
    const { code, signal: sig } = await exit;
    const exitMs = performance.now() - sigtermAt;

    const before = results.filter((r) => r.started < sigtermAt);
    const after = results.filter((r) => r.started >= sigtermAt);
    expect(before.length).toBeGreaterThanOrEqual(24 + 12);
    // sent before SIGTERM: every one answered, and accepted
    expect(before.filter((r) => r.status !== 202)).toEqual([]);
    // sent after: accepted (on a connection still open) or refused at the socket (status 0), never a 5xx
    expect(after.filter((r) => r.status !== 202 && r.status !== 0)).toEqual([]);
    expect(refusedWhileDraining).toBe(true);
    expect({ code, sig }).toEqual({ code: 0, sig: null });
    expect(exitMs).toBeLessThan(10_000);

    // every 202 stored its signals (nothing the API answered was lost in the shutdown)
    const { rows } = await stack.ctx.db.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM signals`);
    expect(rows[0]!.n).toBeGreaterThan(0);
  });
});
