import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { mintApiKey } from '@risk/common/api-keys';
import { SCOPES } from '@risk/contracts';
import { AIBOM_FORMATS } from '@risk/contracts';
import request from 'supertest';
import { startWorker, type RunningWorker } from '../src';
import { createWorkerHarness, waitFor, type WorkerHarness } from './harness';
import { c, expectClean, signals } from './secrets-redaction-fixtures';
import { scaledByLoad } from '@risk/testing';

/**
 * docs/security.md "Secrets never reach shared data", tried as a careless (or hostile) collector would:
 * credentials planted in every manifest format go through the real API, queue and worker; then every
 * shared response (asset, lists, findings, the AI-BOM in every format, events), every webhook payload,
 * every row of the shared tables and every log line is searched for them. None may appear — not whole,
 * not in part. (The signal itself is the submitting org's own data and keeps what it sent.)
 */
describe('no secret from a manifest reaches shared data', () => {
  let h: WorkerHarness;
  let worker: RunningWorker;
  let server: Server;
  let receiverUrl: string;
  let key: string;
  const received: string[] = [];

  beforeAll(async () => {
    h = await createWorkerHarness('secretsredaction');
    // everything runs under one test-mode key (a sandbox key can register a plain-http receiver)
    key = (await mintApiKey(h.ctx.db.prisma, { org_id: h.orgId, scopes: [...SCOPES], livemode: false })).key;
    worker = startWorker(h.deps, { maintenance: false });
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (b: Buffer) => chunks.push(b));
      req.on('end', () => {
        received.push(Buffer.concat(chunks).toString('utf8'));
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  });
  afterAll(async () => {
    await worker.close();
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    await h.close();
  });

  it(
    'redacts them from every response, webhook payload, shared row and log line',
    async () => {
      const auth = { Authorization: `Bearer ${key}` };
      await h.subscribe(receiverUrl, key);

      for (const s of signals) {
        const res = await request(h.app)
          .post('/v1/signals')
          .set(auth)
          .set('Idempotency-Key', randomUUID())
          .send({
            fingerprint: s.fingerprint,
            asset_type: s.asset_type,
            org_id: h.orgId,
            observed_at: Math.floor(Date.now() / 1000) - 5,
            ...s.body,
          });
        expect(res.status).toBe(202);
      }
      for (const s of signals)
        await h.waitForAsset(s.fingerprint, (a) => a.enrichment_status === 'enriched', 30_000, false);

      // the leaked-secrets rule saw them: R20 reports kind and location
      const r20 = await h.ctx.db.prisma.finding.findMany({ where: { rule_id: 'R20' }, select: { evidence: true } });
      expect(r20.length).toBeGreaterThanOrEqual(5);
      expect(JSON.stringify(r20)).toMatch(/"kind":"(github_token|openai_api_key|huggingface_token|jwt|private_key)"/);

      const get = async (path: string) => {
        const res = await request(h.app).get(path).set(auth);
        expect(res.status).toBe(200);
        return res.text;
      };
      const responses: Array<[string, string]> = [];
      responses.push(['GET /v1/assets', await get('/v1/assets?limit=100&expand[]=findings&expand[]=aibom')]);
      for (const s of signals) {
        const fp = encodeURIComponent(s.fingerprint);
        responses.push([`asset ${s.fingerprint}`, await get(`/v1/assets/${fp}?expand[]=findings&expand[]=aibom`)]);
        responses.push([`findings ${s.fingerprint}`, await get(`/v1/assets/${fp}/findings?limit=100`)]);
        for (const format of AIBOM_FORMATS)
          responses.push([`aibom ${format} ${s.fingerprint}`, await get(`/v1/assets/${fp}/aibom?format=${format}`)]);
      }
      const lookupQuery = signals.map((s) => `fingerprints=${encodeURIComponent(s.fingerprint)}`).join('&');
      responses.push(['look-up', await get(`/v1/assets/lookup?${lookupQuery}&expand[]=aibom&expand[]=findings`)]);
      const events = await get('/v1/events?limit=100');
      expect(JSON.parse(events).data.length).toBeGreaterThanOrEqual(signals.length);
      responses.push(['GET /v1/events', events]);
      for (const [where, text] of responses) expectClean(where, text);
      // the AI-BOM documents stay valid where the secret was (URL-safe marker inside URLs)
      const bom = JSON.parse(responses.find(([w]) => w === 'aibom json hf:acme/leaky-card')![1]) as Record<
        string,
        unknown
      >;
      expect(JSON.stringify(bom)).toMatch(/REDACTED/);

      // every event reached the receiver, and none carries a secret
      await waitFor(
        'webhook deliveries',
        async () => received.filter((b) => b.includes('"asset.enriched"')).length >= signals.length,
      );
      received.forEach((b, i) => expectClean(`webhook payload ${i}`, b));

      // the shared tables themselves (what the admin API and every org read)
      for (const table of [
        'assets',
        'findings',
        'aiboms',
        'events',
        'webhook_deliveries',
        'asset_history',
        'asset_tool_baselines',
      ]) {
        const { rows } = await h.ctx.db.pool.query<{ doc: string }>(
          `SELECT row_to_json(t)::text AS doc FROM ${table} t`,
        );
        expectClean(`table ${table}`, rows.map((r) => r.doc).join('\n'));
      }
      // the signal is the org's own data: it keeps what was sent (readable only by that org)
      const own = await h.ctx.db.prisma.signal.findFirstOrThrow({ where: { fingerprint: 'agent:leaky-mcp-client' } });
      expect(own.raw_manifest).toContain(c.dbPassword);

      // and no log line of the API or the worker
      expect(h.ctx.logLines.length).toBeGreaterThan(0);
      expectClean('log lines', h.ctx.logLines.join('\n'));
    },
    scaledByLoad(120_000),
  );
});
