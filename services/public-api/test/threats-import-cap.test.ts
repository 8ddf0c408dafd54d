// A STIX import counts every threat it writes against THREAT_WRITES_PER_ORG_PER_HOUR, and one import causes at most one
// delivery per endpoint of another org (docs/security.md "Caps per org", docs/webhooks.md "Event catalogue"). Before,
// an import of 1,000 threats counted as one write and fanned out 1,000 threat.created events to every org.
import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import request from 'supertest';
import { deliverWebhook } from '../../worker/src/jobs/webhook-delivery';
import { createHarness, postJson, type Harness } from './harness';
import { deliveryDeps, startReceiver, stopReceiver, type Receiver } from './webhooks-fixtures';
import { scaledByLoad } from '@risk/testing';

jest.setTimeout(scaledByLoad(120_000));

const QUOTA = 60;

/** A bundle of `n` indicators, each a new threat on its own fingerprint (the shape the audit imported by the 1,000). */
function bundleOf(n: number, tag: string) {
  const at = '2026-11-01T00:00:00.000Z';
  return {
    type: 'bundle',
    id: `bundle--${randomUUID()}`,
    objects: Array.from({ length: n }, (_, i) => ({
      type: 'indicator',
      spec_version: '2.1',
      id: `indicator--${randomUUID()}`,
      created: at,
      modified: at,
      name: `backdoored model ${tag} ${i}`,
      indicator_types: ['malicious-activity'],
      pattern: `[x-risk-asset:fingerprint = 'hf:${tag}/m${i}']`,
      pattern_type: 'stix',
      valid_from: at,
    })),
  };
}

let h: Harness;
beforeAll(async () => {
  h = await createHarness('threatimportcap', { env: { THREAT_WRITES_PER_ORG_PER_HOUR: String(QUOTA) } });
});
afterAll(async () => {
  await h.close();
});

const threatsOf = (org: string) => h.ctx.db.prisma.threat.count({ where: { created_by_org: org } });

describe('THREAT_WRITES_PER_ORG_PER_HOUR and STIX imports', () => {
  test('an import of N threats consumes N; one larger than what is left is 429 and writes nothing', async () => {
    const org = 'org_importcap';
    const key = await h.mintKey({ orgId: org });
    const first = bundleOf(30, 'capa');
    const imported = await postJson(h, '/v1/threats/import', first, key);
    expect(imported.status).toBe(200);
    expect(imported.body.summary.imported).toBe(30);

    // 30 are left: an import that would write 31 is refused as a whole
    const tooBig = await postJson(h, '/v1/threats/import', bundleOf(31, 'capb'), key);
    expect(tooBig.status).toBe(429);
    expect(tooBig.body.error).toMatchObject({ type: 'rate_limit_error', code: 'threat_write_limit_reached' });
    expect(tooBig.body.error.message).toMatch(/would write 31 threats, more than the 30 this org may still write/);
    expect(Number(tooBig.headers['retry-after'])).toBeGreaterThan(0);
    expect(tooBig.headers['ratelimit']).toMatch(/^"threat_writes";r=30;/);
    expect(await threatsOf(org)).toBe(30);

    // the refused import cost nothing: exactly the 30 left still fit
    const fits = await postJson(h, '/v1/threats/import', bundleOf(30, 'capc'), key);
    expect(fits.status).toBe(200);
    expect(await threatsOf(org)).toBe(60);

    // the allowance is spent for every route that writes threats
    const single = await postJson(h, '/v1/threats', { category: 'typosquat', title: 'x', severity: 'low' }, key);
    expect(single.status).toBe(429);
    expect(single.body.error.code).toBe('threat_write_limit_reached');
    // an import that changes nothing writes nothing and costs nothing, even at the cap
    const again = await postJson(h, '/v1/threats/import', first, key);
    expect(again.status).toBe(200);
    expect(again.body.summary).toMatchObject({ imported: 0, merged: 30 });
    expect(await threatsOf(org)).toBe(60);
    // so does an update that changes nothing; one that changes something is refused
    const id = imported.body.results[0].threat_ids[0] as string;
    const { title } = (await request(h.app).get(`/v1/threats/${id}`).set('Authorization', `Bearer ${key}`)).body;
    expect((await postJson(h, `/v1/threats/${id}`, { title }, key)).status).toBe(200);
    expect((await postJson(h, `/v1/threats/${id}`, { title: `${title} (renamed)` }, key)).status).toBe(429);
  });
});

describe("another org's endpoints and one org's import", () => {
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(() => stopReceiver(receiver));

  test('an import of 40 threats reaches another tenant as one threat.imported delivery; the importer gets its 40 events', async () => {
    // test mode: the receiver is plain http on loopback (OUTBOUND_ALLOWED_HOSTS_WEBHOOK of the test harness)
    const keyA = await h.mintKey({ orgId: 'org_import_origin', livemode: false });
    const keyB = await h.mintKey({ orgId: 'org_import_bystander', livemode: false });
    const events = ['threat.created', 'threat.updated', 'threat.imported'];
    const endpointB = await postJson(h, '/v1/webhooks', { url: receiver.url, events }, keyB);
    expect(endpointB.status).toBe(201);
    const endpointA = await postJson(h, '/v1/webhooks', { url: `${receiver.url}/a`, events: ['*'] }, keyA);
    expect(endpointA.status).toBe(201);

    const res = await postJson(h, '/v1/threats/import', bundleOf(40, 'fanout'), keyA);
    expect(res.status).toBe(200);
    expect(res.body.summary.imported).toBe(40);

    const deliveriesTo = (endpointId: string) =>
      h.ctx.db.prisma.webhookDelivery.findMany({ where: { endpoint_id: endpointId } });
    const toB = await deliveriesTo(endpointB.body.id);
    expect(toB.map((d) => d.event_type)).toEqual(['threat.imported']);
    const toA = await deliveriesTo(endpointA.body.id);
    expect(toA.filter((d) => d.event_type === 'threat.created')).toHaveLength(40);
    expect(toA.filter((d) => d.event_type === 'threat.imported')).toHaveLength(1);

    // real delivery to B's receiver: one signed POST naming the 40 threats
    const deps = deliveryDeps(h);
    for (const d of toB)
      expect(await deliverWebhook(deps, { delivery_id: d.id, attempt: 1 })).toMatchObject({ outcome: 'delivered' });
    const atB = receiver.received.filter((r) => r.headers['webhook-id'] === toB[0]!.event_id);
    expect(atB).toHaveLength(1);
    const event = new Webhook(endpointB.body.secret).verify(atB[0]!.body, atB[0]!.headers as Record<string, string>);
    expect(event).toMatchObject({
      type: 'threat.imported',
      livemode: false,
      data: {
        object: {
          object: 'threat_import',
          bundle_id: res.body.bundle_id,
          created_by_org: 'org_import_origin',
          updated_threat_ids: [],
        },
      },
    });
    const ids = (event as { data: { object: { created_threat_ids: string[] } } }).data.object.created_threat_ids;
    expect(new Set(ids)).toEqual(new Set(res.body.results.flatMap((l: { threat_ids: string[] }) => l.threat_ids)));
    expect(ids).toHaveLength(40);

    // B reads the same single event in its event list; the import's per-threat events are A's alone
    const listedByB = await request(h.app).get('/v1/events?limit=100').set('Authorization', `Bearer ${keyB}`);
    expect(listedByB.body.data.map((e: { type: string }) => e.type)).toEqual(['threat.imported']);

    // a single create still reaches every org as threat.created, as before
    const single = await postJson(h, '/v1/threats', { category: 'typosquat', title: 'one', severity: 'low' }, keyA);
    expect(single.status).toBe(201);
    expect((await deliveriesTo(endpointB.body.id)).map((d) => d.event_type).sort()).toEqual([
      'threat.created',
      'threat.imported',
    ]);
  });
});
