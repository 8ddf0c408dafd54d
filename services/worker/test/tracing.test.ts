import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { createWorkerHarness, modelCardManifest, waitFor, type WorkerHarness } from './harness';
import { exited, freePort, spawnWorker } from './worker-process';
import { scaledByLoad } from '@risk/testing';

// Optional OpenTelemetry tracing from the API through the queue to the worker (docs/observability.md "Tracing"):
// a local OTLP/HTTP collector stub receives the JSON export, and a signal's POST and its enrichment job share one
// trace: server span → enqueue (producer) → process (consumer) → the DB-heavy steps. Both services run as real
// processes (their main.ts, which starts tracing from the environment): the trace crosses processes through the
// job data, and the exporter runs as in production (jest's module runtime cannot load its lazy `import('http')`).

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: Array<{ key: string; value: Record<string, unknown> }>;
}
interface OtlpExport {
  resourceSpans?: Array<{ scopeSpans?: Array<{ spans?: OtlpSpan[] }> }>;
}

describe('tracing (OTLP/HTTP JSON to a local collector stub)', () => {
  let h: WorkerHarness;
  let worker: ChildProcess & { output: string[] };
  let api: ChildProcess & { output: string[] };
  let apiUrl: string;
  let collector: Server;
  const spans: OtlpSpan[] = [];
  const contentTypes: string[] = [];

  beforeAll(async () => {
    collector = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        if (req.method === 'POST' && req.url === '/v1/traces') {
          contentTypes.push(String(req.headers['content-type']));
          const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpExport;
          for (const rs of body.resourceSpans ?? [])
            for (const ss of rs.scopeSpans ?? []) spans.push(...(ss.spans ?? []));
        }
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
    const endpoint = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`;
    h = await createWorkerHarness('tracing');
    const otel = { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_BSP_SCHEDULE_DELAY: '200' };
    worker = spawnWorker(h, otel);
    // the public API's main.ts, on a free port, against the same database and queues
    const port = await freePort();
    api = spawnWorker(
      h,
      { ...otel, PUBLIC_API_PORT: String(port) },
      path.join(__dirname, '..', '..', 'public-api', 'src', 'main.ts'),
    );
    apiUrl = `http://127.0.0.1:${port}`;
    await waitFor(
      'the public API to listen',
      async () => (await fetch(`${apiUrl}/healthz`).catch(() => null))?.ok ?? null,
      // two tsx processes starting beside other suites on a 2-core runner: well beyond the default 10 s
      { timeoutMs: 50_000, intervalMs: 100 },
    );
  }, scaledByLoad(60_000));
  afterAll(async () => {
    for (const child of [api, worker]) {
      const done = exited(child);
      child.kill('SIGTERM');
      await done;
    }
    await h.close();
    collector.closeAllConnections();
    await new Promise((r) => collector.close(r));
  });

  test('a signal POST and its enrichment job share a trace id, through enqueue and the worker', async () => {
    const fp = 'hf:acme/traced-model';
    const res = await fetch(`${apiUrl}/v1/signals`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${h.key}`,
        'Idempotency-Key': randomUUID(),
        'Content-Type': 'application/json',
      },
      body: JSON.stringify({
        fingerprint: fp,
        asset_type: 'model',
        org_id: h.orgId,
        observed_at: Math.floor(Date.now() / 1000),
        name: 'acme/traced-model',
        raw_manifest: modelCardManifest(),
      }),
    });
    expect(res.status).toBe(202);
    await h.waitForAsset(fp, (a) => a.enrichment_status === 'enriched');

    const byName = (name: string) => spans.filter((s) => s.name === name);
    // both processes export in batches (OTEL_BSP_SCHEDULE_DELAY 200 ms)
    const trace = await waitFor('the exported spans of the request and its job', async () => {
      const server = byName('POST /v1/signals')[0];
      if (!server) return null;
      const inTrace = spans.filter((s) => s.traceId === server.traceId);
      return inTrace.some((s) => s.name === 'enrichment write') ? { server, inTrace } : null;
    });
    expect(contentTypes.every((t) => t.startsWith('application/json'))).toBe(true);
    const names = trace.inTrace.map((s) => s.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'POST /v1/signals',
        'enqueue enrichment',
        'process enrichment',
        'enrichment read job',
        'enrichment analyze',
        'enrichment write',
      ]),
    );
    // the chain of parents: server → enqueue → process → the DB steps
    const one = (name: string) => trace.inTrace.find((s) => s.name === name)!;
    expect(one('enqueue enrichment').parentSpanId).toBe(trace.server.spanId);
    expect(one('process enrichment').parentSpanId).toBe(one('enqueue enrichment').spanId);
    expect(one('enrichment write').parentSpanId).toBe(one('process enrichment').spanId);
    // the server span is named by the route template and carries its attributes, never the raw path
    const attrs = Object.fromEntries((trace.server.attributes ?? []).map((a) => [a.key, Object.values(a.value)[0]]));
    expect(attrs).toMatchObject({ 'http.route': '/v1/signals', 'http.request.method': 'POST' });
    expect(Number(attrs['http.response.status_code'])).toBe(202);
    // the worker's span names the API request, like its log lines
    const processAttrs = Object.fromEntries(
      (one('process enrichment').attributes ?? []).map((a) => [a.key, Object.values(a.value)[0]]),
    );
    expect(processAttrs.request_id).toBe(res.headers.get('x-request-id'));
  });
});
