/**
 * An open-loop load generator for `pnpm bench` (docs/performance.md "What each figure means", POST at equal load):
 * requests arrive at fixed intervals scheduled by the clock, each sent at its scheduled time whatever earlier
 * requests are doing, and each latency runs from the scheduled time, not from when the request got out. A closed loop
 * (autocannon, even with `overallRate`) sends a connection's next request only after its previous answer and times it
 * from its actual send, so a stall delays the arrivals that would have queued behind it and hides that queueing
 * (coordinated omission).
 */
import http from 'node:http';

export interface OpenLoopOptions {
  /** arrivals per second */
  rate: number;
  durationMs: number;
  /** sends arrival `i` and resolves once its whole answer is read; a rejection fails the run */
  send: (i: number) => Promise<void>;
}

export interface OpenLoopRun {
  /** ms after the run's start at which arrival `i` was due: `i × 1000 / rate` */
  scheduledAt: number[];
  /** ms from arrival `i`'s scheduled time to the end of its answer */
  latencies: number[];
  /** the run's start on the `performance.now()` clock */
  start: number;
}

export async function openLoop({ rate, durationMs, send }: OpenLoopOptions): Promise<OpenLoopRun> {
  const interval = 1000 / rate;
  const count = Math.max(1, Math.round((durationMs * rate) / 1000));
  const scheduledAt = Array.from({ length: count }, (_, i) => i * interval);
  const latencies = new Array<number>(count).fill(Number.NaN);
  const inFlight: Array<Promise<void>> = [];
  const errors: unknown[] = [];
  const start = performance.now();
  let next = 0;
  await new Promise<void>((resolve) => {
    // every arrival already due goes out now (after a stall several at once), then sleep until the next is due
    const tick = () => {
      for (; next < count && start + scheduledAt[next]! <= performance.now(); next++) {
        const i = next;
        inFlight.push(
          send(i).then(
            () => {
              latencies[i] = performance.now() - (start + scheduledAt[i]!);
            },
            (err: unknown) => {
              errors.push(err);
            },
          ),
        );
      }
      if (next >= count) resolve();
      else setTimeout(tick, Math.max(0, start + scheduledAt[next]! - performance.now()));
    };
    tick();
  });
  await Promise.all(inFlight);
  if (errors.length > 0) throw errors[0];
  return { scheduledAt, latencies, start };
}

/**
 * A keep-alive POST of a JSON body resolving to the answer's status once its body is read. The pool is sized far above
 * the requests an open loop can have in flight, so no arrival waits for a free socket in the client.
 */
export function jsonPoster(url: string, maxSockets = 1024) {
  const agent = new http.Agent({ keepAlive: true, maxSockets });
  const post = (headers: Record<string, string>, body: string) =>
    new Promise<number>((resolve, reject) => {
      const req = http.request(
        url,
        { method: 'POST', agent, headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) } },
        (res) => {
          res.on('error', reject);
          res.on('end', () => resolve(res.statusCode ?? 0));
          res.resume();
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  return { post, close: () => agent.destroy() };
}
