/**
 * Where an ingest request's time goes (not part of `pnpm bench`): `pnpm --filter @risk/public-api
 * bench:phases`. Prints, for a 500-signal bulk request and a single POST of the bench's workload (workload.ts):
 *   - the node phases on their own, each repeated and its median taken: JSON parse, zod validation, content
 *     digests, the batch's rows (ids, digests, redaction), the SQL text, the response (full echo vs receipts);
 *   - each SQL statement of the ingest transaction, timed one by one: the two multi-statement round trips are
 *     split into one round trip per statement (so each figure includes one round trip, printed as `SELECT 1`);
 *   - the end-to-end request time as a client sees it, unsplit.
 * The machine's load average is printed; compare figures of one run only (docs/performance.md).
 */
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { ZCreateSignalBody, ZCreateSignalsBulkBody } from '@risk/contracts';
import { signalsStore } from '@risk/db';
import { loadAverage, median, runBench } from '@risk/testing';
import type { Client } from 'pg';
import { batchRows, contentDigest } from '../src/domain/signals/ingest-rows';
import { drainProjections, projectPending } from '../src/domain/signals/projector';
import { renderSignal } from '../src/domain/signals/render-signal';
import { benchSignal, startBenchApi, untilNone } from './workload';

const REPEAT = Number(process.env.PHASES_REPEAT ?? 30);

/** median ms of `work` over REPEAT runs (after 3 untimed ones) */
function timeIt(work: () => unknown): number {
  for (let i = 0; i < 3; i++) work();
  const ms: number[] = [];
  for (let i = 0; i < REPEAT; i++) {
    const t0 = performance.now();
    work();
    ms.push(performance.now() - t0);
  }
  return median(ms);
}

// ── per statement: the ingest's multi-statement simple queries run one statement per round trip ──
const statementMs = new Map<string, number[]>();
let splitting = false;
function splitMultiStatementQueries(proto: { query: (...args: unknown[]) => unknown }) {
  const original = proto.query;
  proto.query = function (this: Client, ...args: unknown[]) {
    const text = args[0];
    // a bulk request's signals go in with COPY (a stream): timed from the query to the stream's end
    const copy = (text as { text?: unknown } | null)?.text;
    if (splitting && typeof copy === 'string' && copy.startsWith('COPY ')) {
      const t0 = performance.now();
      const stream = original.apply(this, args) as NodeJS.EventEmitter;
      stream.once('finish', () => {
        const name = `1.98 COPY ${/^COPY (\w+)/.exec(copy)?.[1]}`;
        statementMs.set(name, [...(statementMs.get(name) ?? []), performance.now() - t0]);
      });
      return stream;
    }
    // the ingest joins its statements with ';\n' (ingest-batch.ts); the bench's values carry no ';\n'
    if (!splitting || typeof text !== 'string' || !text.includes(';\n') || args.length > 1)
      return original.apply(this, args);
    return (async () => {
      const out: unknown[] = [];
      // round trip 1 inserts the signals or, in a bulk request, the projection markers (its signals follow with COPY),
      // round trip 2 commits (ingest-batch.ts); numbered by position within it, so the claims' BEGIN/COMMIT and the
      // ingest's are told apart
      const trip = /EXECUTE ri_(signals|projection_enqueue)\b/.test(text) ? 1 : 2;
      for (const [i, part] of text.split(';\n').entries()) {
        const name = `${trip}.${String(i + 1).padStart(2, '0')} ${/^EXECUTE (\w+)/.exec(part)?.[1] ?? part.slice(0, 36)}`;
        const t0 = performance.now();
        out.push(await (original.call(this, part) as Promise<unknown>));
        statementMs.set(name, [...(statementMs.get(name) ?? []), performance.now() - t0]);
      }
      return out;
    })();
  } as typeof proto.query;
}

async function main() {
  const load0 = loadAverage();
  const api = await startBenchApi('phases', {
    env: { RATE_LIMIT_ENABLED: 'false' },
    projector: false, // the projection is run and timed below
    beforeStart: async (ctx) => {
      const conn = await ctx.db.pool.connect();
      splitMultiStatementQueries(Object.getPrototypeOf(conn));
      conn.release();
    },
  });
  const { ctx, orgId, headers, deps } = api;
  const run = randomUUID().slice(0, 8);
  let seq = 0;
  const batchOf = (n: number) => ({ signals: Array.from({ length: n }, () => benchSignal(orgId, seq++, run)) });

  // ── node phases of one 500-signal request ──
  const text = JSON.stringify(batchOf(500));
  const parsed = JSON.parse(text) as { signals: unknown[] };
  const body = ZCreateSignalsBulkBody.parse(parsed);
  const auth = { org_id: orgId, livemode: true } as never;
  const input = { auth, requestId: 'req_phases', signals: body.signals, bulk: true };
  const now = new Date();
  const rows = batchRows([{ input }], now);
  const full = rows.rowsOf[0]!.map((r) => ({
    ...renderSignal(r),
    enrichment: { status: 'queued', reason: 'new_asset' },
  }));
  const node: Array<[string, number]> = [
    ['JSON.parse of the body', timeIt(() => JSON.parse(text))],
    ['zod validation', timeIt(() => ZCreateSignalsBulkBody.parse(parsed))],
    ['content digests (500)', timeIt(() => body.signals.map(contentDigest))],
    ['batch rows (ids, digests, redaction)', timeIt(() => batchRows([{ input }], now))],
    ['COPY data of the signals (bulk)', timeIt(() => signalsStore.signalsCopyData(now, rows.rowsOf.flat()))],
    [
      'SQL text (signals, assets, lock, asset_orgs)',
      timeIt(() => [
        signalsStore.insertSignals(now, rows.rowsOf.flat()),
        signalsStore.insertNewAssets(now, rows.assets),
        signalsStore.lockAssets(rows.assets),
        signalsStore.upsertAssetOrgs(now, rows.assets),
      ]),
    ],
    ['response: full echo, JSON.stringify', timeIt(() => JSON.stringify({ object: 'signal_batch', data: full }))],
    [
      'response: compact receipts, JSON.stringify',
      timeIt(() =>
        JSON.stringify({
          object: 'signal_batch',
          data: full.map((s) => ({
            id: s.id,
            object: s.object,
            fingerprint: s.fingerprint,
            content_digest: s.content_digest,
            created: s.created,
            enrichment: s.enrichment,
          })),
        }),
      ),
    ],
  ];
  const single = benchSignal(orgId, 0, run);
  const singleText = JSON.stringify(single);
  const singleNode: Array<[string, number]> = [
    [
      'JSON.parse + zod + digest (1 signal)',
      timeIt(() => contentDigest(ZCreateSignalBody.parse(JSON.parse(singleText)))),
    ],
  ];

  // ── requests: end to end (unsplit), then one split run each for the statements ──
  const post = async (path: string, payload: unknown) => {
    const t0 = performance.now();
    const res = await fetch(`${api.base}${path}`, {
      method: 'POST',
      headers: { ...headers, 'idempotency-key': randomUUID() },
      body: JSON.stringify(payload),
    });
    await res.arrayBuffer();
    if (res.status !== 202) throw new Error(`${path} answered ${res.status}`);
    return performance.now() - t0;
  };
  for (let i = 0; i < 3; i++) await post('/v1/signals/bulk', batchOf(500)); // warm-up
  const bulkMs: number[] = [];
  for (let i = 0; i < 10; i++) bulkMs.push(await post('/v1/signals/bulk', batchOf(500)));
  const singleMs: number[] = [];
  for (let i = 0; i < 50; i++) singleMs.push(await post('/v1/signals', batchOf(1).signals[0]));
  const rtt: number[] = [];
  for (let i = 0; i < 50; i++) {
    const t0 = performance.now();
    await ctx.db.pool.query('SELECT 1');
    rtt.push(performance.now() - t0);
  }
  const statements = async (label: string, send: () => Promise<number>, times: number) => {
    statementMs.clear();
    splitting = true;
    for (let i = 0; i < times; i++) await send();
    splitting = false;
    return [...statementMs].map(
      ([name, ms]) => `  ${label} ${name.padEnd(42)} ${median(ms).toFixed(2).padStart(7)} ms`,
    );
  };
  const bulkStatements = await statements('bulk  ', () => post('/v1/signals/bulk', batchOf(500)), 5);
  const singleStatements = await statements('single', () => post('/v1/signals', batchOf(1).signals[0]), 20);
  // the asset projection of a bulk (docs/reliability.md "Asset projection"): unsplit, then split per statement
  await drainProjections(deps);
  for (let i = 0; i < 10; i++) await post('/v1/signals/bulk', batchOf(500));
  const projectMs: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    await projectPending(deps);
    projectMs.push(performance.now() - t0);
  }
  // Split runs start once the previous projection's enrichment jobs are in Redis (its outbox rows processed): its
  // 500 BullMQ adds run after its commit, in this process, and a statement in flight meanwhile waits for them
  // (that wait, not Postgres, was the 135–226 ms once read as ri_fanout's; docs/performance.md).
  const outboxDrained = () => untilNone(ctx.db.pool, 'SELECT count(*) AS n FROM outbox WHERE processed_at IS NULL', 20);
  const projectionStatements = await statements(
    'project',
    async () => {
      await outboxDrained();
      return projectPending(deps);
    },
    5,
  );

  const fmt = ([name, ms]: [string, number]) => `  ${name.padEnd(44)} ${ms.toFixed(2).padStart(7)} ms`;
  const lines = [
    `ingest phases — ${new Date().toISOString()} — ${os.cpus().length} CPUs, load average ${load0} at start, ${loadAverage()} at end (medians)`,
    `end to end: bulk of 500 new assets ${median(bulkMs).toFixed(1)} ms, single POST (new asset, sequential) ${median(singleMs).toFixed(2)} ms; SELECT 1 round trip ${median(rtt).toFixed(2)} ms`,
    'node, per 500-signal request:',
    ...node.map(fmt),
    ...singleNode.map(fmt),
    'SQL, one statement per round trip (each includes one round trip):',
    ...bulkStatements,
    ...singleStatements,
    `projection of one 500-signal bulk (new assets), end to end ${median(projectMs).toFixed(1)} ms:`,
    ...projectionStatements,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  await api.close();
}

runBench(main);
