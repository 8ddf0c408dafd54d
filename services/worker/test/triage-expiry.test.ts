import { randomUUID } from 'node:crypto';
import { mintApiKey } from '@risk/common/api-keys';
import { SCOPES } from '@risk/contracts';
import request from 'supertest';
import { runMaintenance, startWorker, type RunningWorker } from '../src';
import { createWorkerHarness, type WorkerHarness } from './harness';

/**
 * docs/triage.md "Expiry": an accepted risk whose expires_at passed returns to open in the worker's
 * maintenance pass, with a history row and a finding.triage_expired event for the org that accepted it
 * only (not another org, not the other mode), delivered to its subscribed webhook endpoint.
 */
const card = ['---', 'license: apache-2.0', 'library_name: transformers', '---', '# acme/model', 'Fine-tuned.'].join(
  '\n',
);

describe('accepted_risk expiry', () => {
  let h: WorkerHarness;
  let worker: RunningWorker;
  const orgB = 'org_triageexp_b';
  let keyB: string;
  let keyTest: string;

  beforeAll(async () => {
    h = await createWorkerHarness('triageexp', { OUTBOUND_ALLOWED_HOSTS_WEBHOOK: '127.0.0.1,localhost' });
    worker = startWorker(h.deps, { maintenance: false });
    keyB = (await mintApiKey(h.ctx.db.prisma, { org_id: orgB, scopes: [...SCOPES], livemode: true })).key;
    keyTest = (await mintApiKey(h.ctx.db.prisma, { org_id: h.orgId, scopes: [...SCOPES], livemode: false })).key;
  });
  afterAll(async () => {
    await worker.close();
    await h.close();
  });

  const api = (key: string) => ({
    get: (path: string) => request(h.app).get(path).set('Authorization', `Bearer ${key}`),
    post: (path: string, body: object) =>
      request(h.app).post(path).set('Authorization', `Bearer ${key}`).set('Idempotency-Key', randomUUID()).send(body),
  });

  test('returns to open with a history row and an event for that org only', async () => {
    const fp = `hf:acme/expiring-${Date.now()}`;
    const sent = await h.submit({
      fingerprint: fp,
      asset_type: 'model',
      name: 'acme/model',
      raw_manifest: card,
      metadata: { files: ['model.pkl'] },
    });
    expect(sent.status).toBe(202);
    await h.waitForAsset(fp, (a) => a.enrichment_status === 'enriched');
    const enc = encodeURIComponent(fp);
    const hook = await api(h.key).post('/v1/webhooks', {
      url: 'https://127.0.0.1:9/hook',
      events: ['finding.triage_expired'],
    });
    expect(hook.status).toBe(201);

    const asset = await api(h.key).get(`/v1/assets/${enc}?expand[]=findings`);
    const finding = asset.body.findings.find((f: { rule_id: string }) => f.rule_id === 'R01');
    expect(finding).toBeDefined();
    const expiresAt = Math.floor(Date.now() / 1000) + 60;
    const set = await api(h.key).post(`/v1/assets/${enc}/findings/${finding.id}/triage`, {
      state: 'accepted_risk',
      expires_at: expiresAt,
      comment: 'isolated host',
    });
    expect(set.status).toBe(200);
    expect((await api(h.key).get(`/v1/assets/${enc}`)).body.effective_risk_score).toBeLessThan(
      asset.body.intrinsic_risk_score,
    );

    // before the expiry nothing happens
    expect((await runMaintenance(h.deps, new Date())).triage_expired).toBe(0);
    const result = await runMaintenance(h.deps, new Date((expiresAt + 1) * 1000));
    expect(result.triage_expired).toBe(1);
    // a second pass finds nothing left
    expect((await runMaintenance(h.deps, new Date((expiresAt + 2) * 1000))).triage_expired).toBe(0);

    const now = await api(h.key).get(`/v1/assets/${enc}/findings/${finding.id}/triage`);
    expect(now.body).toMatchObject({ state: 'open', set_by: 'system', expires_at: null, comment: 'isolated host' });
    expect(now.body.history[0]).toMatchObject({ from_state: 'accepted_risk', to_state: 'open', set_by: 'system' });
    const after = await api(h.key).get(`/v1/assets/${enc}`);
    expect(after.body.effective_risk_score).toBe(after.body.intrinsic_risk_score);

    const events = await api(h.key).get('/v1/events?type=finding.triage_expired');
    expect(events.body.data).toHaveLength(1);
    expect(events.body.data[0].data).toMatchObject({
      object: {
        object: 'finding_triage',
        fingerprint: fp,
        rule_id: 'R01',
        state: 'open',
        finding_key: finding.finding_key,
      },
      previous_attributes: { state: 'accepted_risk', expires_at: expiresAt },
    });
    expect((await api(keyB).get('/v1/events?type=finding.triage_expired')).body.data).toEqual([]);
    expect((await api(keyTest).get('/v1/events?type=finding.triage_expired')).body.data).toEqual([]);
    const deliveries = await h.ctx.db.prisma.webhookDelivery.findMany({
      where: { event_id: events.body.data[0].id, endpoint_id: hook.body.id },
    });
    expect(deliveries).toHaveLength(1);
  });
});
