import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { buildPublicOpenApiDocument } from '@risk/public-api';
import { createWebhookPayloadValidator, scaledByLoad } from '@risk/testing';
import { Webhook } from 'standardwebhooks';
import request from 'supertest';
import { startWorker, type RunningWorker } from '../src';
import { createWorkerHarness, modelCardManifest, waitFor, type WorkerHarness } from './harness';

/**
 * The whole loop through the real API, queue and worker: an asset is enriched, a threat naming it is
 * created afterwards, the worker re-enriches the asset (score + threat finding) and every resulting
 * event reaches a webhook receiver on 127.0.0.1, signed per Standard Webhooks.
 */
describe('threat → re-enrichment → signed webhooks (end to end)', () => {
  let h: WorkerHarness;
  let worker: RunningWorker;
  let server: Server;
  let receiverUrl: string;
  const received: Array<{ headers: IncomingHttpHeaders; body: string }> = [];

  beforeAll(async () => {
    h = await createWorkerHarness('webhooke2e');
    worker = startWorker(h.deps, { maintenance: false });
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/risk`;
  });
  afterAll(async () => {
    await worker.close();
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    await h.close();
  });

  it(
    'raises the score, links the threat in findings and /threats, and delivers every event signed',
    async () => {
      // the story runs in test mode: a test-mode key registers the plain-http receiver (live mode requires
      // https), and test-mode events reach test-mode endpoints only (docs/security.md)
      const testKey = await h.mintTestKey();
      const endpoint = await h.subscribe(receiverUrl, testKey);
      const wh = new Webhook(endpoint.secret);

      const fp = 'hf:acme/llama-2-7b-alpaca-webhooks';
      const test = { Authorization: `Bearer ${testKey}` };
      expect(
        (
          await h.submit(
            {
              fingerprint: fp,
              asset_type: 'model',
              name: 'acme/llama-2-7b-alpaca',
              version: '1.0',
              raw_manifest: modelCardManifest(),
            },
            testKey,
          )
        ).status,
      ).toBe(202);
      await h.waitForAsset(fp, (a) => a.enrichment_status === 'enriched', undefined, false);
      const before = await h.ctx.db.prisma.asset.findUniqueOrThrow({
        where: { livemode_fingerprint: { livemode: false, fingerprint: fp } },
      });

      const threat = await request(h.app)
        .post('/v1/threats')
        .set(test)
        .set('Idempotency-Key', randomUUID())
        .send({
          category: 'malicious_model',
          title: 'Backdoored alpaca fine-tune',
          severity: 'high',
          fingerprints: [fp],
          affected_asset_types: ['model'],
          attack_techniques: ['AML.T0018'],
          risk_penalty: 30,
        });
      expect(threat.status).toBe(201);

      const after = await waitFor('re-enrichment with the threat', async () => {
        const a = await h.ctx.db.prisma.asset.findUniqueOrThrow({
          where: { livemode_fingerprint: { livemode: false, fingerprint: fp } },
        });
        return a.enrichment_status === 'enriched' && a.intrinsic_risk_score !== before.intrinsic_risk_score ? a : null;
      });
      expect(after.intrinsic_risk_score!).toBeGreaterThan(before.intrinsic_risk_score!);
      expect(after.score_breakdown).toMatchObject({ threat_penalty: 30 });

      const enc = encodeURIComponent(fp);
      const threats = await request(h.app).get(`/v1/assets/${enc}/threats`).set(test);
      expect(threats.body.data.map((t: { id: string }) => t.id)).toEqual([threat.body.id]);
      const findings = await request(h.app).get(`/v1/assets/${enc}/findings?expand[]=threats&limit=100`).set(test);
      const linked = findings.body.data.filter((f: { threats: Array<{ id: string }> }) =>
        f.threats.some((t) => t.id === threat.body.id),
      );
      expect(linked).toHaveLength(1);
      expect(linked[0].attack_techniques).toEqual(['AML.T0018']);

      // every event of the story reaches the receiver, each verified with the endpoint's secret
      const types = ['asset.created', 'asset.enriched', 'threat.created', 'asset.risk_changed'];
      const events = await waitFor('deliveries', async () => {
        const verified = received.map(
          (r) =>
            wh.verify(r.body, r.headers as Record<string, string>) as {
              id: string;
              type: string;
              data: Record<string, unknown>;
            },
        );
        // both enrichments' events (before and after the threat) must be in, not just one of each type
        const enriched = verified.filter((e) => e.type === 'asset.enriched').length;
        return enriched >= 2 && types.every((t) => verified.some((e) => e.type === t)) ? verified : null;
      });
      for (const r of received) expect(r.headers['webhook-id']).toBe((JSON.parse(r.body) as { id: string }).id);
      // each body is what the public document's `webhooks` entry for its type says (docs/webhooks.md)
      const payloadMismatch = createWebhookPayloadValidator(buildPublicOpenApiDocument('http://127.0.0.1'));
      expect(received.map((r) => payloadMismatch(r.body)).filter(Boolean)).toEqual([]);
      expect(events.filter((e) => e.type === 'asset.enriched')).toHaveLength(2);
      expect(events.filter((e) => e.type === 'asset.created')).toHaveLength(1);
      const riskChanged = events.find((e) => e.type === 'asset.risk_changed')!;
      expect(riskChanged.data).toMatchObject({
        object: { fingerprint: fp, intrinsic_risk_score: after.intrinsic_risk_score },
        previous_attributes: { intrinsic_risk_score: before.intrinsic_risk_score },
      });
      // and GET /v1/events lists the same events for reconciliation
      const listed = await request(h.app).get('/v1/events?limit=100').set(test);
      expect(listed.body.data.map((e: { id: string }) => e.id)).toEqual(
        expect.arrayContaining(events.map((e) => e.id)),
      );
    },
    scaledByLoad(60_000),
  );
});
