// The cross-service flow on one database: register a tenant (admin API) → deployment token → GET
// /deploy/v1/credentials → the minted key POSTs a signal to the PUBLIC API and reads it back under the
// tenant's org_id; revoking the deployment token locks the key out of the public API.
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { createAdminHarness, type AdminHarness } from './harness';
import { mcpSignal, publicApiOn, type PublicApiOnHarness, type PublicApp } from './public-api';

let h: AdminHarness;
let pub: PublicApiOnHarness;
let publicApp: PublicApp;

beforeAll(async () => {
  h = await createAdminHarness('admindeployflow', { env: { PUBLIC_API_BASE_URL: 'http://127.0.0.1:8080' } });
  pub = publicApiOn(h, 'test-admin-deploy-flow');
  publicApp = pub.app;
});
afterAll(async () => {
  await pub?.close();
  await h.close();
});

const signal = (orgId: string) =>
  mcpSignal(orgId, {
    source_url: 'https://www.npmjs.com/package/@modelcontextprotocol/server-filesystem',
    metadata: { collector: 'deploy-flow-test', host: 'laptop-7' },
  });

it('register → deployment token → credentials → the minted key writes and reads a signal on the public API', async () => {
  const tenant = await h.registerTenant('fleet-co');
  const dt = await h.call('post', `/tenants/v1/${tenant.id}/deployment-token`, {
    auth: h.adminAuth,
    body: { name: 'laptops', max_uses: 10 },
  });
  expect(dt.status).toBe(201);
  const creds = await h.call('get', '/deploy/v1/credentials', { query: { token: dt.body.token } });
  expect(creds.status).toBe(200);
  expect(creds.body).toMatchObject({ org_id: tenant.org_id, api_base_url: 'http://127.0.0.1:8080' });
  const key = creds.body.api_key.key as string;

  const body = signal(tenant.org_id);
  const posted = await request(publicApp)
    .post('/v1/signals')
    .set('Authorization', `Bearer ${key}`)
    .set('Idempotency-Key', randomUUID())
    .send(body);
  expect(posted.status).toBe(202);
  expect(posted.body).toMatchObject({
    object: 'signal',
    org_id: tenant.org_id,
    fingerprint: body.fingerprint,
    livemode: true,
  });

  const read = await request(publicApp).get(`/v1/signals/${posted.body.id}`).set('Authorization', `Bearer ${key}`);
  expect(read.status).toBe(200);
  expect(read.body).toMatchObject({ id: posted.body.id, org_id: tenant.org_id, fingerprint: body.fingerprint });

  // the key is bound to the tenant's org: a signal for another org is refused
  const foreign = await request(publicApp)
    .post('/v1/signals')
    .set('Authorization', `Bearer ${key}`)
    .set('Idempotency-Key', randomUUID())
    .send(signal('org_someone_else'));
  expect(foreign.status).toBe(403);

  // a collector looks artifact verdicts up by hash, but uploading bytes is not a deployment scope
  const lookup = await request(publicApp)
    .get(`/v1/artifacts/lookup?sha256s=${'0'.repeat(64)}`)
    .set('Authorization', `Bearer ${key}`);
  expect(lookup.status).toBe(200);
  expect(lookup.body.data[0]).toMatchObject({ artifact: null });
  const uploadTry = await request(publicApp)
    .post('/v1/artifacts')
    .set('Authorization', `Bearer ${key}`)
    .set('Idempotency-Key', randomUUID())
    .set('Content-Type', 'application/octet-stream')
    .send(Buffer.from([0x80, 4, 0x4e, 0x2e]));
  expect(uploadTry.status).toBe(403);

  // the deployment scopes do not include threats:write or webhooks:write
  const webhook = await request(publicApp)
    .post('/v1/webhooks')
    .set('Authorization', `Bearer ${key}`)
    .set('Idempotency-Key', randomUUID())
    .send({ url: 'https://hooks.example/x', events: ['asset.created'] });
  expect(webhook.status).toBe(403);
  expect(webhook.body.error.type).toBe('permission_error');

  // revoking the deployment token revokes the key on the public API too
  expect(
    (await h.call('delete', `/tenants/v1/${tenant.id}/deployment-token/${dt.body.id}`, { auth: h.adminAuth })).status,
  ).toBe(200);
  const after = await request(publicApp).get(`/v1/signals/${posted.body.id}`).set('Authorization', `Bearer ${key}`);
  expect(after.status).toBe(401);
  expect(after.body.error.type).toBe('authentication_error');
});
