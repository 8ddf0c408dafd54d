// Leak probe for the public API (docs/reliability.md "Soak"): the real app in this process on a scratch
// database, PROBE_ROUNDS rounds of PROBE_PER_ROUND requests (new signals, then reads of those assets), and
// after each round a full collection and the heap in use. A leak raises the post-collection heap round after
// round; V8 sizing its spaces moves RSS, not this. With PROBE_SNAPSHOTS=1 it also counts heap objects by
// constructor after the first and the last round and prints the ones that grew most.
// Run: node --expose-gc --import tsx services/worker/soak/heap-probe.ts
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import { createWorkerHarness } from '../test/harness';

const ROUNDS = Number(process.env.PROBE_ROUNDS ?? 8);
const PER_ROUND = Number(process.env.PROBE_PER_ROUND ?? 1000);
const CONCURRENCY = 8;

const gc = (globalThis as { gc?: () => void }).gc;

function countByConstructor(): Map<string, number> {
  const file = v8.writeHeapSnapshot(path.join(os.tmpdir(), `probe-${process.pid}-${Date.now()}.heapsnapshot`));
  const snap = JSON.parse(readFileSync(file, 'utf8')) as {
    snapshot: { meta: { node_fields: string[]; node_types: [string[]] } };
    nodes: number[];
    strings: string[];
  };
  rmSync(file);
  const fields = snap.snapshot.meta.node_fields;
  const width = fields.length;
  const typeAt = fields.indexOf('type');
  const nameAt = fields.indexOf('name');
  const types = snap.snapshot.meta.node_types[0];
  const counts = new Map<string, number>();
  for (let i = 0; i < snap.nodes.length; i += width) {
    const type = types[snap.nodes[i + typeAt]!];
    if (type !== 'object' && type !== 'closure' && type !== 'array') continue;
    const name = `${type}:${snap.strings[snap.nodes[i + nameAt]!]}`;
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return counts;
}

async function main(): Promise<void> {
  if (!gc) throw new Error('run with node --expose-gc');
  const h = await createWorkerHarness('heapprobe', {
    RATE_LIMIT_LIVE_PER_SECOND: '1000000',
    RATE_LIMIT_TEST_PER_SECOND: '1000000',
    RATE_LIMIT_FAILED_AUTH_PER_IP: '1000000',
    LOG_LEVEL: 'error',
  });
  const server = h.app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const auth = { authorization: `Bearer ${h.key}` };
  // a socket the server closed while this process wrote a snapshot fails once: send again (the same
  // Idempotency-Key, so a signal is never stored twice)
  const send = (url: string, init?: RequestInit) => fetch(url, init).catch(() => fetch(url, init));
  let n = 0;
  const one = async () => {
    const fingerprint = `npm:probe-${n++}@1.0.0`;
    const res = await send(`${base}/v1/signals`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
      body: JSON.stringify({
        fingerprint,
        asset_type: 'package',
        name: 'probe',
        org_id: h.orgId,
        observed_at: Math.floor(Date.now() / 1000),
      }),
    });
    await res.arrayBuffer();
    if (res.status !== 202) throw new Error(`POST /v1/signals: ${res.status}`);
    const read = await send(`${base}/v1/assets/${encodeURIComponent(fingerprint)}`, { headers: auth });
    await read.arrayBuffer();
    if (read.status !== 200) throw new Error(`GET /v1/assets: ${read.status}`);
  };
  let first: Map<string, number> | undefined;
  const rows: string[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    for (let done = 0; done < PER_ROUND; done += CONCURRENCY)
      await Promise.all(Array.from({ length: CONCURRENCY }, one));
    gc();
    gc();
    const mem = process.memoryUsage();
    const mib = (x: number) => Math.round(x / 2 ** 20);
    rows.push(`| ${round} | ${n * 2} | ${mib(mem.heapUsed)} | ${mib(mem.heapTotal)} | ${mib(mem.rss)} |`);
    console.log(rows[rows.length - 1]);
    if (process.env.PROBE_SNAPSHOTS === '1' && round === 1) first = countByConstructor();
  }
  console.log(['| round | requests | heap used MiB (after gc) | heap total MiB | RSS MiB |', ...rows].join('\n'));
  if (first) {
    const last = countByConstructor();
    const grown = [...last.entries()]
      .map(([name, c]) => [name, c - (first.get(name) ?? 0)] as const)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 15);
    console.log('objects grown between round 1 and the last, by constructor:');
    for (const [name, d] of grown) console.log(`  ${d}\t${name}`);
  }
  server.close();
  await h.close();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
