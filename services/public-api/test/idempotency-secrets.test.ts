import request from 'supertest';
import { createHarness, idem, type Harness } from './harness';

// Responses that show a secret once (webhook create and rotate_secret) are kept for idempotent replay
// encrypted with SECRETS_KEY; every other route keeps plaintext JSON.
let h: Harness;
// live-mode keys need https; 127.0.0.1 is on the test OUTBOUND_ALLOWED_HOSTS_WEBHOOK list
const WEBHOOK = { url: 'https://127.0.0.1/hooks', events: ['threat.created'] };

const post = (path: string, key: string, body: object, app = h.app) =>
  request(app).post(path).set('Authorization', `Bearer ${h.key}`).set('Idempotency-Key', key).send(body);

async function storedBody(key: string): Promise<string> {
  const { rows } = await h.ctx.db.pool.query<{ response_body: string | null; status: string }>(
    'SELECT response_body, status FROM idempotency_keys WHERE key = $1',
    [key],
  );
  expect(rows).toHaveLength(1);
  expect(rows[0]!.status).toBe('completed');
  return rows[0]!.response_body!;
}

beforeAll(async () => {
  h = await createHarness('idemsecrets');
});
afterAll(() => h.close());

describe('responses carrying a webhook secret are stored encrypted for replay', () => {
  test('POST /v1/webhooks: the stored body holds no secret, and a replay returns the first response with it', async () => {
    const key = idem();
    const first = await post('/v1/webhooks', key, WEBHOOK);
    expect(first.status).toBe(201);
    expect(first.body.secret).toMatch(/^whsec_/);

    const stored = await storedBody(key);
    expect(stored.startsWith('enc:')).toBe(true);
    expect(stored).not.toContain(first.body.secret);
    expect(stored).not.toContain(first.body.secret.slice('whsec_'.length));
    expect(stored).not.toContain('whsec_');

    const again = await post('/v1/webhooks', key, WEBHOOK);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.text).toBe(first.text);
    expect(again.headers['content-type']).toMatch(/^application\/json/);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.headers['original-request']).toBe(first.headers['x-request-id']);
  });

  test('POST /v1/webhooks/{id}/rotate_secret: the stored body holds no secret, and a replay returns the new secret', async () => {
    const created = await post('/v1/webhooks', idem(), WEBHOOK);
    expect(created.status).toBe(201);
    const key = idem();
    const path = `/v1/webhooks/${created.body.id}/rotate_secret`;
    const first = await post(path, key, {});
    expect(first.status).toBe(200);
    expect(first.body.secret).toMatch(/^whsec_/);
    expect(first.body.secret).not.toBe(created.body.secret);

    const stored = await storedBody(key);
    expect(stored.startsWith('enc:')).toBe(true);
    expect(stored).not.toContain(first.body.secret);
    expect(stored).not.toContain(first.body.secret.slice('whsec_'.length));
    expect(stored).not.toContain('whsec_');

    const again = await post(path, key, {});
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.headers['original-request']).toBe(first.headers['x-request-id']);
    // the replay did not rotate again: the endpoint still signs with the replayed secret
    const row = await h.ctx.db.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: created.body.id } });
    const { decryptSecret } = await import('@risk/common/crypto');
    expect(decryptSecret(row.secret_ciphertext, h.ctx.config.SECRETS_KEY!)).toBe(first.body.secret);
  });

  test('a plaintext row stored before encryption still replays on a webhook route', async () => {
    const key = idem();
    const first = await post('/v1/webhooks', key, WEBHOOK);
    expect(first.status).toBe(201);
    await h.ctx.db.pool.query('UPDATE idempotency_keys SET response_body = $2 WHERE key = $1', [key, first.text]);
    const again = await post('/v1/webhooks', key, WEBHOOK);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers['idempotent-replayed']).toBe('true');
  });

  test('without SECRETS_KEY the webhook routes still fail, and leave no idempotency key behind', async () => {
    const app = h.appWith({ config: { ...h.ctx.config, SECRETS_KEY: undefined } });
    const key = idem();
    const res = await post('/v1/webhooks', key, WEBHOOK, app);
    expect(res.status).toBe(500);
    expect(res.body.secret).toBeUndefined();
    expect(await h.ctx.db.prisma.idempotencyKey.count({ where: { key } })).toBe(0);
  });
});

test('a response without a secret (POST /v1/threats) is still stored as plaintext JSON and replays', async () => {
  const key = idem();
  const body = { category: 'malicious_model', title: 'plaintext threat', severity: 'low' };
  const first = await post('/v1/threats', key, body);
  expect(first.status).toBe(201);
  const stored = await storedBody(key);
  expect(stored.startsWith('enc:')).toBe(false);
  expect(JSON.parse(stored)).toEqual(first.body);
  const again = await post('/v1/threats', key, body);
  expect(again.status).toBe(201);
  expect(again.body).toEqual(first.body);
  expect(again.headers['idempotent-replayed']).toBe('true');
  expect(again.headers['original-request']).toBe(first.headers['x-request-id']);
});
