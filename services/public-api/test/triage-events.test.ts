import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { createHarness, enrichLikeWorker, postJson, postSignal, signalBody, type Harness } from './harness';

// A triage set through the API is a `finding.triage_updated` event to the org that set it, and to no other org or
// mode (docs/triage.md "Events"), written with the triage in one transaction and fanned out to the org's webhooks.
const FIXTURES = join(__dirname, '../../../packages/enrichment/test/fixtures');
const PICKLE_CARD = readFileSync(join(FIXTURES, '23-hf-card-sklearn-mpg-pickle-README.md'), 'utf8');
const ORG_B = 'org_triage_events_other';
const enc = encodeURIComponent;

let h: Harness;
let keyB: string;
let keyTest: string;

beforeAll(async () => {
  h = await createHarness('triageevents');
  keyB = await h.mintKey({ orgId: ORG_B });
  keyTest = await h.mintKey({ livemode: false });
});
afterAll(() => h.close());

const events = (key: string) =>
  request(h.app).get('/v1/events?type=finding.triage_updated&limit=100').set('Authorization', `Bearer ${key}`);

test('the org that triages gets finding.triage_updated with the previous state; other orgs and modes get nothing', async () => {
  const hookA = await postJson(h, '/v1/webhooks', { url: 'https://127.0.0.1/a', events: ['finding.triage_updated'] });
  const hookB = await postJson(h, '/v1/webhooks', { url: 'https://127.0.0.1/b', events: ['*'] }, keyB);
  expect([hookA.status, hookB.status]).toEqual([201, 201]);

  const fp = `triage-events:${Date.now()}`;
  const over = { fingerprint: fp, asset_type: 'model', name: 'scikit-learn/mpg', raw_manifest: PICKLE_CARD };
  expect((await postSignal(h, signalBody(h.orgId, over))).status).toBe(202);
  expect((await postSignal(h, signalBody(ORG_B, over), keyB)).status).toBe(202);
  await enrichLikeWorker(h, fp);
  const asset = await request(h.app)
    .get(`/v1/assets/${enc(fp)}?expand[]=findings`)
    .set('Authorization', `Bearer ${h.key}`);
  const r01 = (asset.body.findings as Array<{ id: string; rule_id: string; finding_key: string }>).find(
    (f) => f.rule_id === 'R01',
  )!;
  const path = `/v1/assets/${enc(fp)}/findings/${enc(r01.id)}/triage`;

  const first = await postJson(h, path, { state: 'false_positive', comment: 'never loaded' });
  expect(first.status).toBe(200);
  const second = await postJson(h, path, { state: 'acknowledged' });
  expect(second.status).toBe(200);

  const listed = (await events(h.key)).body.data as Array<{ id: string; data: Record<string, any> }>;
  expect(listed).toHaveLength(2);
  const [latest, earlier] = listed; // newest first
  expect(earlier!.data).toEqual({
    object: expect.objectContaining({
      object: 'finding_triage',
      fingerprint: fp,
      rule_id: 'R01',
      finding_key: r01.finding_key,
      state: 'false_positive',
      comment: 'never loaded',
      set_by: first.body.set_by,
    }),
    previous_attributes: { state: 'open' },
  });
  expect(latest!.data.object.state).toBe('acknowledged');
  expect(latest!.data.previous_attributes).toEqual({ state: 'false_positive' });

  // the other org observing the same asset, and the same org in test mode, see none of it
  expect((await events(keyB)).body.data).toEqual([]);
  expect((await events(keyTest)).body.data).toEqual([]);

  // fanned out to the org's subscribed endpoint only, in the triage's transaction
  const deliveries = await h.ctx.db.prisma.webhookDelivery.findMany({
    where: { event_id: { in: listed.map((e) => e.id) } },
    select: { endpoint_id: true },
  });
  expect(deliveries.map((d) => d.endpoint_id).sort()).toEqual([hookA.body.id, hookA.body.id]);
});

test('a refused triage writes no event', async () => {
  const before = (await events(h.key)).body.data.length;
  const res = await postJson(h, `/v1/assets/${enc('triage-events:none')}/findings/fnd_none/triage`, {
    state: 'acknowledged',
  });
  expect(res.status).toBe(404);
  expect((await events(h.key)).body.data).toHaveLength(before);
});
