/**
 * The bench's open-loop generator (bench/open-loop.ts, docs/performance.md "What each figure means"): arrivals follow
 * the clock, not the answers, and each latency counts from the arrival's scheduled time. Asserted with orderings and
 * lower bounds against a server that answers nothing until every arrival has reached it.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { jsonPoster, openLoop } from '../bench/open-loop';

const ARRIVALS = 12;
const RATE = 200; // one arrival every 5 ms

describe('open-loop load generator', () => {
  let server: http.Server;
  let url: string;
  const held: http.ServerResponse[] = [];
  const log: string[] = [];
  let releasedAt = Number.NaN;

  beforeAll(async () => {
    // holds every answer until the last arrival is in: a generator that waited for answers would never get there
    server = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        log.push(`received ${held.length}`);
        held.push(res);
        if (held.length < ARRIVALS) return;
        releasedAt = performance.now();
        for (const [i, r] of held.entries()) {
          log.push(`answered ${i}`);
          r.writeHead(202, { 'content-type': 'application/json' }).end('{}');
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('sends every arrival on schedule whatever the answers, and times each from its scheduled time', async () => {
    const client = jsonPoster(url);
    const sentAt: number[] = [];
    const statuses: number[] = [];
    const run = await openLoop({
      rate: RATE,
      durationMs: (ARRIVALS * 1000) / RATE,
      send: async (i) => {
        sentAt[i] = performance.now();
        statuses.push(await client.post({ 'content-type': 'application/json' }, '{}'));
      },
    });
    client.close();

    // the schedule is the rate's arithmetic, not the answers'
    expect(run.scheduledAt).toEqual(Array.from({ length: ARRIVALS }, (_, i) => (i * 1000) / RATE));
    expect(statuses).toEqual(Array.from({ length: ARRIVALS }, () => 202));
    // every arrival reached the server before the first answer left it
    const firstAnswer = log.indexOf('answered 0');
    expect(log.lastIndexOf(`received ${ARRIVALS - 1}`)).toBeLessThan(firstAnswer);
    for (let i = 0; i < ARRIVALS; i++) {
      // never sent before its time
      expect(sentAt[i]! - run.start).toBeGreaterThanOrEqual(run.scheduledAt[i]!);
      // the latency includes the whole wait from the scheduled time to the release of the answers
      expect(run.latencies[i]!).toBeGreaterThanOrEqual(releasedAt - (run.start + run.scheduledAt[i]!));
      // and also the time before it was sent: at least as long as measured from its send
      expect(run.latencies[i]!).toBeGreaterThanOrEqual(releasedAt - sentAt[i]!);
    }
    // all answered at once: the earliest arrival waited longest
    expect(run.latencies[0]!).toBeGreaterThan(run.latencies[ARRIVALS - 1]!);
  });

  it('fails the run when a send fails, after the other arrivals finish', async () => {
    const done: number[] = [];
    await expect(
      openLoop({
        rate: 1000,
        durationMs: 5,
        send: async (i) => {
          if (i === 1) throw new Error('refused');
          done.push(i);
        },
      }),
    ).rejects.toThrow('refused');
    expect(done).toEqual([0, 2, 3, 4]);
  });
});
