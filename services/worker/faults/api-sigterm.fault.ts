import { randomUUID } from 'node:crypto';
import diagnostics from 'node:diagnostics_channel';
import net from 'node:net';
import { performance } from 'node:perf_hooks';
import { createStack, exited, post, signal, waitFor, type Stack } from './processes';

// Case d (docs/reliability.md "Fault suite"): SIGTERM to the public API while clients keep sending signals
// (single and bulk). Every request sent before the signal completes with its normal answer, connections
// made in its accept window (SHUTDOWN_ACCEPT_MS) are served with Connection: close and later ones refused, no
// request gets a 5xx, and the process exits (code 0) within 10 s.
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

  /** a GET /readyz on a connection of its own: its status line and Connection header, or the socket's error */
  const readyzOnNewConnection = (port: number) =>
    new Promise<string>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () =>
        socket.write('GET /readyz HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n'),
      );
      let head = '';
      socket.on('data', (chunk: Buffer) => {
        head += chunk.toString('latin1');
        if (!head.includes('\r\n\r\n')) return;
        socket.destroy();
        const status = head.slice(0, head.indexOf('\r\n'));
        resolve(`${status}; ${/^connection: close/im.test(head) ? 'Connection: close' : 'keep-alive'}`);
      });
      socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? 'error'));
    });

  // when fetch (undici) wrote each request's headers to a socket, by Idempotency-Key: "sent before the
  // signal" is that moment, not the call to fetch, whose connect and write happen turns of the loop later
  const sentAt = new Map<string, number>();
  // the requests written and not answered yet: the signal goes once each client has one
  const written = new Set<string>();
  const onSendHeaders = (message: unknown) => {
    const headers = String((message as { headers?: unknown }).headers ?? '');
    const key = /idempotency-key: ([0-9a-f-]{36})/i.exec(headers)?.[1];
    if (key) {
      sentAt.set(key, performance.now());
      written.add(key);
    }
  };
  beforeAll(() => diagnostics.subscribe('undici:client:sendHeaders', onSendHeaders));
  afterAll(() => diagnostics.unsubscribe('undici:client:sendHeaders', onSendHeaders));

  it('finishes in-flight requests, refuses new connections, exits within 10 s', async () => {
    // the listener keeps accepting this long after the signal (docs/reliability.md "Fault suite")
    const api = await stack.startApi({ SHUTDOWN_ACCEPT_MS: '1000' });
    let sigtermAt = Infinity;
    let stopping = false;
    const results: Array<{ sent: number; status: number; cause?: unknown }> = [];
    let n = 0;
    const client = async (c: number) => {
      while (!stopping) {
        const i = n++;
        const key = randomUUID();
        const res =
          c % 3 === 0
            ? await post(
                stack,
                '/v1/signals/bulk',
                { signals: Array.from({ length: 200 }, (_, j) => signal(stack, `npm:term-${i}-${j}@1.0.0`)) },
                key,
              )
            : await post(stack, '/v1/signals', signal(stack, `npm:term-${i}@1.0.0`), key);
        const sent = sentAt.get(key) ?? Infinity; // never written: refused at connect
        written.delete(key);
        results.push({ sent, status: res.status, ...(res.status === 0 ? { cause: res.body.cause } : {}) });
      }
    };
    const clients = Promise.all(Array.from({ length: 12 }, (_, c) => client(c)));

    // under way: some answered, and each client has one more written and in flight (checked in the same turn
    // as the signal: a client between two requests would have its next one counted as sent after the signal)
    await waitFor('load to run', () => results.length >= 24 && written.size === 12, {
      timeoutMs: 30_000,
      intervalMs: 5,
    });
    const exit = exited(api);
    sigtermAt = performance.now();
    api.kill('SIGTERM');
    // a connection made in the accept window is served, with Connection: close: a balancer's probe sees the 503
    await new Promise((r) => setTimeout(r, 200));
    const inWindow = await readyzOnNewConnection(stack.apiPort);
    // keep sending for a while after the signal, then stop
    await new Promise((r) => setTimeout(r, 1800));
    const refusedWhileDraining = await connectRefused(stack.apiPort);
    stopping = true;
    await clients;
    const { code, signal: sig } = await exit;

    const before = results.filter((r) => r.sent < sigtermAt);
    const after = results.filter((r) => r.sent >= sigtermAt);
    expect(before.length).toBeGreaterThanOrEqual(24 + 12);
    // sent before SIGTERM: every one answered, and accepted
    expect(before.filter((r) => r.status !== 202)).toEqual([]);
    // sent after: accepted (on a connection still open) or refused at the socket (status 0), never a 5xx
    expect(after.filter((r) => r.status !== 202 && r.status !== 0)).toEqual([]);
    expect(inWindow).toBe('HTTP/1.1 503 Service Unavailable; Connection: close');
    expect(refusedWhileDraining).toBe(true);
    // exit code 0 is the ordering that matters: the drain finished before the API's own shutdown deadline, which
    // exits 1 (onShutdown in packages/common/src/http/server.ts)
    expect({ code, sig }).toEqual({ code: 0, sig: null });

    // every 202 stored its signals (nothing the API answered was lost in the shutdown)
    const { rows } = await stack.ctx.db.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM signals`);
    expect(rows[0]!.n).toBeGreaterThan(0);
  });
});
