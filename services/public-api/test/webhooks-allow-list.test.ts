// The outbound allow-list is scoped to its purpose (docs/security.md "Outbound allow-lists per purpose"): the README's
// demo setting, meant for firewall simulators on loopback, opens no tenant's webhooks to loopback, under its new name
// or the deprecated OUTBOUND_ALLOWED_HOSTS; a receiver reached only through the webhook list never has its reply
// shown in GET /v1/webhooks/{id}/deliveries; IPv4-compatible IPv6 targets are refused.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { encryptSecret } from '@risk/common/crypto';
import { ID_PREFIXES, newId } from '@risk/db';
import request from 'supertest';
import { deliverWebhook } from '../../worker/src/jobs/webhook-delivery';
import { createHarness, postJson, type Harness } from './harness';
import { deliveryDeps } from './webhooks-fixtures';
import { scaledByLoad } from '@risk/testing';

jest.setTimeout(scaledByLoad(60_000));

/** An internal service on loopback, like the worker's /healthz: what an attacker wants to read. */
const INTERNAL_REPLY = '{"status":"ok","checks":{"postgres":"ok","redis":"ok"}}';
let internal: Server;
let internalUrl: string;
const received: string[] = [];

beforeAll(async () => {
  internal = createServer((req, res) => {
    received.push(req.url ?? '');
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(INTERNAL_REPLY));
  });
  await new Promise<void>((resolve) => internal.listen(0, '127.0.0.1', resolve));
  internalUrl = `http://127.0.0.1:${(internal.address() as AddressInfo).port}/healthz`;
});
afterAll(async () => {
  internal.closeAllConnections();
  await new Promise((resolve) => internal.close(resolve));
});

describe.each([
  ['the README demo setting', { OUTBOUND_ALLOWED_HOSTS_FIREWALL: '127.0.0.1,localhost' }],
  ['the deprecated OUTBOUND_ALLOWED_HOSTS', { OUTBOUND_ALLOWED_HOSTS: '127.0.0.1,localhost' }],
])('with %s (firewall simulators on loopback)', (label, allowFirewalls) => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness(`whallow${label.length}`, {
      env: { OUTBOUND_ALLOWED_HOSTS_WEBHOOK: '', OUTBOUND_ALLOWED_HOSTS_FIREWALL: '', ...allowFirewalls },
    });
  });
  afterAll(async () => {
    await h.close();
  });

  test("a tenant's webhook to 127.0.0.1 or localhost is refused (400 url_not_allowed), in test and live mode", async () => {
    const testKey = await h.mintKey({ livemode: false });
    const liveKey = await h.mintKey({ livemode: true });
    for (const [url, key] of [
      [internalUrl, testKey],
      ['http://localhost:8082/healthz', testKey],
      ['https://localhost:8443/hook', liveKey],
      ['https://127.0.0.1:8443/hook', liveKey],
    ] as const) {
      const res = await postJson(h, '/v1/webhooks', { url, events: ['*'] }, key);
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'url_not_allowed', param: 'url' });
      expect(res.body.error.message).toMatch(/loopback/);
    }
    expect(await h.ctx.db.prisma.webhookEndpoint.count()).toBe(0);
  });

  test('an endpoint to loopback stored earlier gets no delivery: the worker refuses it too', async () => {
    const orgId = 'org_whallow_old';
    const endpoint = await h.ctx.db.prisma.webhookEndpoint.create({
      data: {
        id: newId(ID_PREFIXES.webhookEndpoint),
        org_id: orgId,
        livemode: false,
        url: internalUrl,
        events: ['*'],
        status: 'enabled',
        secret_ciphertext: encryptSecret(`whsec_${Buffer.alloc(32, 3).toString('base64')}`, h.ctx.config.SECRETS_KEY!),
      },
    });
    const key = await h.mintKey({ orgId, livemode: false });
    const threat = await postJson(h, '/v1/threats', { category: 'malicious_model', title: 't', severity: 'low' }, key);
    expect(threat.status).toBe(201);
    const delivery = await h.ctx.db.prisma.webhookDelivery.findFirstOrThrow({ where: { endpoint_id: endpoint.id } });
    const before = received.length;
    await deliverWebhook(deliveryDeps(h), { delivery_id: delivery.id, attempt: 1 });
    expect(received.length).toBe(before);
    const listed = await request(h.app)
      .get(`/v1/webhooks/${endpoint.id}/deliveries`)
      .set('Authorization', `Bearer ${key}`);
    expect(listed.body.data[0].attempts[0]).toMatchObject({
      status: 'failed',
      response_status: null,
      response_body: null,
      error: expect.stringMatching(/^refused: .*loopback/),
    });
  });
});

describe('with OUTBOUND_ALLOWED_HOSTS_WEBHOOK listing loopback (test receivers)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness('whallowhook', {
      env: { OUTBOUND_ALLOWED_HOSTS_WEBHOOK: '127.0.0.1,localhost', OUTBOUND_ALLOWED_HOSTS_FIREWALL: '' },
    });
  });
  afterAll(async () => {
    await h.close();
  });

  test('deliveries reach the listed receiver, but GET /v1/webhooks/{id}/deliveries never shows its reply', async () => {
    const orgId = 'org_whallow_hook';
    const key = await h.mintKey({ orgId, livemode: false });
    const endpoint = (await postJson(h, '/v1/webhooks', { url: internalUrl, events: ['threat.created'] }, key)).body;
    expect(endpoint.id).toMatch(/^we_/);
    await postJson(h, '/v1/threats', { category: 'malicious_model', title: 't', severity: 'low' }, key);
    const delivery = await h.ctx.db.prisma.webhookDelivery.findFirstOrThrow({ where: { endpoint_id: endpoint.id } });
    const before = received.length;
    expect(await deliverWebhook(deliveryDeps(h), { delivery_id: delivery.id, attempt: 1 })).toMatchObject({
      outcome: 'delivered',
      status: 200,
    });
    expect(received.length).toBe(before + 1);

    const listed = await request(h.app)
      .get(`/v1/webhooks/${endpoint.id}/deliveries`)
      .set('Authorization', `Bearer ${key}`);
    expect(listed.status).toBe(200);
    expect(listed.body.data[0].attempts).toEqual([
      expect.objectContaining({ status: 'succeeded', response_status: 200, response_body: null }),
    ]);
    expect(JSON.stringify(listed.body)).not.toContain('postgres');
    const stored = await h.ctx.db.prisma.webhookDeliveryAttempt.findMany({ where: { delivery_id: delivery.id } });
    expect(stored.map((a) => a.response_body)).toEqual([null]);
  });

  test('IPv4-compatible IPv6 targets ([::127.0.0.1], ::7f00:1, ::a9fe:a9fe) are refused', async () => {
    const key = await h.mintKey({ livemode: false });
    for (const url of ['http://[::127.0.0.1]/hook', 'http://[::7f00:1]:8082/healthz', 'http://[::a9fe:a9fe]/latest']) {
      const res = await postJson(h, '/v1/webhooks', { url, events: ['*'] }, key);
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'url_not_allowed', param: 'url' });
      expect(res.body.error.message).toMatch(/IETF-reserved ::\/8/);
    }
  });
});
