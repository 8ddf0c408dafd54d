import { decryptSecret } from '@risk/common/crypto';
import request from 'supertest';
import { createHarness, idem, postJson, type Harness } from './harness';
import { webhookSuite, type Receiver } from './webhooks-fixtures';

let h: Harness;
/** test mode: the receiver is plain http on 127.0.0.1, which live mode refuses */
let testKey: string;
let receiver: Receiver;
const auth = (key = testKey) => ({ Authorization: `Bearer ${key}` });
const post = (path: string, body: unknown, key = testKey) => postJson(h, path, body, key);

const suite = webhookSuite('webhooks-create');
beforeAll(() => {
  ({ h, testKey, receiver } = suite);
});

describe('webhook endpoints', () => {
  test('POST /v1/webhooks creates an endpoint (201) and shows its whsec_ secret once', async () => {
    const res = await post('/v1/webhooks', {
      url: receiver.url,
      events: ['threat.created', 'asset.risk_changed'],
      description: 'SOC pipeline',
      metadata: { team: 'soc' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      object: 'webhook_endpoint',
      id: expect.stringMatching(/^we_/),
      url: receiver.url,
      events: ['threat.created', 'asset.risk_changed'],
      description: 'SOC pipeline',
      metadata: { team: 'soc' },
      status: 'enabled',
      disabled_reason: null,
      livemode: false,
      created: expect.any(Number),
      updated: expect.any(Number),
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]+=*$/),
    });
    // 32 random bytes behind the prefix (Standard Webhooks: 24–64)
    expect(Buffer.from(res.body.secret.slice(6), 'base64')).toHaveLength(32);

    const got = await request(h.app).get(`/v1/webhooks/${res.body.id}`).set(auth());
    expect(got.status).toBe(200);
    expect(got.body).not.toHaveProperty('secret');
    const { secret: _secret, ...rest } = res.body;
    expect(got.body).toEqual(rest);
    const list = await request(h.app).get('/v1/webhooks').set(auth());
    expect(list.body.data.find((e: { id: string }) => e.id === res.body.id)).not.toHaveProperty('secret');
    expect(JSON.stringify(list.body)).not.toContain(res.body.secret);
    // stored encrypted, never in clear
    const row = await h.ctx.db.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: res.body.id } });
    expect(row.secret_ciphertext).not.toContain(res.body.secret.slice(6));
    expect(decryptSecret(row.secret_ciphertext, h.ctx.config.SECRETS_KEY!)).toBe(res.body.secret);
    // and never logged
    expect(h.ctx.logLines.join('\n')).not.toContain(res.body.secret);
  });

  test('["*"] subscribes to every event; event names are checked against the catalogue', async () => {
    const all = await post('/v1/webhooks', { url: receiver.url, events: ['*'] });
    expect(all.status).toBe(201);
    expect(all.body.events).toEqual(['*']);
    const bad = await post('/v1/webhooks', { url: receiver.url, events: ['threat.created', 'threat.deleted'] });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 'parameter_invalid', param: 'events[1]' });
    const none = await post('/v1/webhooks', { url: receiver.url, events: [] });
    expect(none.body.error).toMatchObject({ code: 'parameter_invalid', param: 'events' });
    const missing = await post('/v1/webhooks', { events: ['*'] });
    expect(missing.body.error).toMatchObject({ code: 'missing_required_param', param: 'url' });
    const unknown = await post('/v1/webhooks', { url: receiver.url, events: ['*'], secret: 'mine' });
    expect(unknown.body.error).toMatchObject({ code: 'parameter_unknown', param: 'secret' });
  });

  test.each([
    ['a private address', 'https://10.0.0.1/hook'],
    ['the cloud metadata address', 'https://169.254.169.254/latest/meta-data'],
    ['a link-local address', 'https://169.254.10.10/hook'],
    ['a CGNAT address', 'https://100.64.0.1/hook'],
    ['an IPv6 unique-local address', 'https://[fd00::1]/hook'],
    ['a metadata host name', 'https://metadata.google.internal/hook'],
    ['the NAT64 form of the metadata address', 'https://[64:ff9b::a9fe:a9fe]/latest'],
    ['an IPv4-mapped private address', 'https://[::ffff:10.0.0.1]/hook'],
  ])('refuses a URL whose host is %s (400 url_not_allowed, param url)', async (_label, url) => {
    const res = await post('/v1/webhooks', { url, events: ['*'] });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ type: 'invalid_request_error', code: 'url_not_allowed', param: 'url' });
  });

  test('refuses loopback unless OUTBOUND_ALLOWED_HOSTS_WEBHOOK lists it', async () => {
    const strict = await createHarness('webhooksstrict', { env: { OUTBOUND_ALLOWED_HOSTS_WEBHOOK: '' } });
    const strictKey = await strict.mintKey({ livemode: false });
    try {
      const res = await request(strict.app)
        .post('/v1/webhooks')
        .set('Authorization', `Bearer ${strictKey}`)
        .set('Idempotency-Key', idem())
        .send({ url: receiver.url, events: ['*'] });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'url_not_allowed', param: 'url' });
      expect(res.body.error.message).toMatch(/loopback/);
      const byName = await request(strict.app)
        .post('/v1/webhooks')
        .set('Authorization', `Bearer ${strictKey}`)
        .set('Idempotency-Key', idem())
        .send({ url: 'http://localhost:9/hook', events: ['*'] });
      expect(byName.body.error).toMatchObject({ code: 'url_not_allowed', param: 'url' });
    } finally {
      await strict.close();
    }
  });

  test('live mode requires https; test mode accepts http; other schemes and credentials are refused', async () => {
    const liveHttp = await post('/v1/webhooks', { url: 'http://127.0.0.1:9/hook', events: ['*'] }, h.key);
    expect(liveHttp.status).toBe(400);
    expect(liveHttp.body.error).toMatchObject({ code: 'parameter_invalid', param: 'url' });
    expect(liveHttp.body.error.message).toMatch(/https/);
    const liveHttps = await post('/v1/webhooks', { url: 'https://127.0.0.1:9/hook', events: ['*'] }, h.key);
    expect(liveHttps.status).toBe(201);
    expect(liveHttps.body.livemode).toBe(true);
    const testHttp = await post('/v1/webhooks', { url: 'http://127.0.0.1:9/hook', events: ['*'] });
    expect(testHttp.status).toBe(201);
    for (const url of ['ftp://127.0.0.1/hook', 'https://user:pw@127.0.0.1/hook', 'not a url', '/relative']) {
      const res = await post('/v1/webhooks', { url, events: ['*'] });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'parameter_invalid', param: 'url' });
    }
  });
});
