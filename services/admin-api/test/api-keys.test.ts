// The org's API keys through the admin API (docs/admin-api.md "API keys"), on one database with the PUBLIC API:
// a key minted with a tenant token works there with exactly its scopes, is never shown again (list, get, logs, the
// idempotency row), replays the same body for the same Idempotency-Key, and is refused once revoked; another
// tenant cannot see or revoke it; a deployment-token key is listed but revoked only through its token.
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { hashApiKey } from '@risk/common/api-keys';
import { ApiKeyAuthenticator } from '@risk/common/http';
import { createAdminHarness, expectError, type AdminHarness, type Tenant } from './harness';
import { mcpSignal, publicApiOn, type PublicApiOnHarness, type PublicApp } from './public-api';

let h: AdminHarness;
let pub: PublicApiOnHarness;
let publicApp: PublicApp;
let tenant: Tenant;
let other: Tenant;
/** every secret minted here: none may be logged */
const minted: string[] = [];

beforeAll(async () => {
  h = await createAdminHarness('adminapikeys');
  pub = publicApiOn(h, 'test-admin-api-keys');
  publicApp = pub.app;
  tenant = await h.registerTenant();
  other = await h.registerTenant();
});
afterAll(async () => {
  await pub?.close();
  await h.close();
});

async function mint(t: Tenant, body: Record<string, unknown>, idempotencyKey = randomUUID()) {
  const res = await h.call('post', '/keys/v1', { auth: t.auth, body, headers: { 'Idempotency-Key': idempotencyKey } });
  if (typeof res.body?.key === 'string') minted.push(res.body.key);
  return res;
}

const postSignal = (key: string, orgId: string) =>
  request(publicApp)
    .post('/v1/signals')
    .set('Authorization', `Bearer ${key}`)
    .set('Idempotency-Key', randomUUID())
    .send(mcpSignal(orgId));

it("a minted key works on the public API for the tenant's org with exactly its scopes", async () => {
  const res = await mint(tenant, { name: 'ci pipeline', scopes: ['signals:write', 'signals:read'] });
  expect(res.status).toBe(201);
  expect(res.body).toMatchObject({
    object: 'api_key',
    org_id: tenant.org_id,
    name: 'ci pipeline',
    scopes: ['signals:write', 'signals:read'],
    livemode: true,
    status: 'active',
    deployment_token_id: null,
    expires_at: null,
    revoked_at: null,
  });
  const key = res.body.key as string;
  expect(key).toMatch(/^rk_live_[A-Za-z0-9_-]{43}$/);
  expect(res.body.redacted_key).toBe(`${key.slice(0, 12)}…${key.slice(-4)}`);
  const row = await h.ctx.db.prisma.apiKey.findUniqueOrThrow({ where: { id: res.body.id } });
  expect(row.key_hash).toBe(hashApiKey(key));
  expect(JSON.stringify(row)).not.toContain(key);

  const posted = await postSignal(key, tenant.org_id);
  expect(posted.status).toBe(202);
  expect(posted.body).toMatchObject({ object: 'signal', org_id: tenant.org_id, livemode: true });
  const read = await request(publicApp).get(`/v1/signals/${posted.body.id}`).set('Authorization', `Bearer ${key}`);
  expect(read.status).toBe(200);
  // bound to the tenant's org and to its scopes
  expect((await postSignal(key, other.org_id)).status).toBe(403);
  const assets = await request(publicApp).get('/v1/assets').set('Authorization', `Bearer ${key}`);
  expect(assets.status).toBe(403);
  expect(assets.body.error.code).toBe('insufficient_scope');
});

it('livemode false mints an rk_test_ key that writes test-mode signals', async () => {
  const res = await mint(tenant, { name: 'staging', scopes: ['signals:write'], livemode: false });
  expect(res.status).toBe(201);
  expect(res.body.key).toMatch(/^rk_test_/);
  const posted = await postSignal(res.body.key, tenant.org_id);
  expect(posted.status).toBe(202);
  expect(posted.body.livemode).toBe(false);
});

it('list and retrieve never show the secret; the list pages by cursor, newest first', async () => {
  const a = await mint(tenant, { name: 'page a', scopes: ['assets:read'] });
  const b = await mint(tenant, { name: 'page b', scopes: ['assets:read'] });
  const list = await h.call('get', '/keys/v1', { auth: tenant.auth, query: { limit: '1' } });
  expect(list.status).toBe(200);
  expect(list.body).toMatchObject({ object: 'list', url: '/keys/v1', has_more: true });
  expect(list.body.data.map((k: { id: string }) => k.id)).toEqual([b.body.id]);
  const next = await h.call('get', '/keys/v1', {
    auth: tenant.auth,
    query: { limit: '1', starting_after: list.body.next_cursor },
  });
  expect(next.body.data.map((k: { id: string }) => k.id)).toEqual([a.body.id]);
  const all = await h.call('get', '/keys/v1', { auth: tenant.auth, query: { limit: '100' } });
  const one = await h.call('get', `/keys/v1/${a.body.id}`, { auth: tenant.auth });
  expect(one.status).toBe(200);
  expect(one.body).toEqual({ ...a.body, key: undefined, last_used_at: null });
  for (const text of [list.text, next.text, all.text, one.text]) {
    expect(text).not.toContain('"key":');
    for (const secret of minted) expect(text).not.toContain(secret);
  }
});

it('a replay with the same Idempotency-Key answers the same key, stored encrypted, and mints nothing more', async () => {
  const idem = randomUUID();
  const body = { name: 'replayed', scopes: ['assets:read'], expires_in_days: 30 };
  const first = await mint(tenant, body, idem);
  const replay = await mint(tenant, body, idem);
  expect(first.status).toBe(201);
  expect(replay.status).toBe(201);
  expect(replay.headers['idempotent-replayed']).toBe('true');
  expect(replay.body).toEqual(first.body);
  expect(await h.ctx.db.prisma.apiKey.count({ where: { name: 'replayed' } })).toBe(1);
  const { rows } = await h.ctx.db.pool.query<{ org_id: string; response_body: string }>(
    `SELECT org_id, response_body FROM idempotency_keys WHERE key = $1`,
    [idem],
  );
  expect(rows).toHaveLength(1);
  expect(rows[0]!.org_id).toBe(`tenant:${tenant.id}`);
  expect(rows[0]!.response_body.startsWith('enc:')).toBe(true);
  expect(rows[0]!.response_body).not.toContain(first.body.key);
  expect(rows[0]!.response_body).not.toContain(first.body.id);
  // another body under the same key is refused; the same key from another tenant is its own
  expectError(await mint(tenant, { ...body, name: 'other' }, idem), 400, 'idempotency_replay_mismatch');
  const theirs = await mint(other, body, idem);
  expect(theirs.status).toBe(201);
  expect(theirs.body.id).not.toBe(first.body.id);
  expect(theirs.headers['idempotent-replayed']).toBeUndefined();
});

it('revoking refuses the key on the public API at once (no cache) and is idempotent', async () => {
  const res = await mint(tenant, { name: 'to revoke', scopes: ['signals:write'] });
  const key = res.body.key as string;
  expect((await postSignal(key, tenant.org_id)).status).toBe(202);
  const revoked = await h.call('delete', `/keys/v1/${res.body.id}`, { auth: tenant.auth });
  expect(revoked.status).toBe(200);
  expect(revoked.body).toMatchObject({ id: res.body.id, status: 'revoked' });
  expect(revoked.body.key).toBeUndefined();
  const refused = await postSignal(key, tenant.org_id);
  expect(refused.status).toBe(401);
  expect(refused.body.error.code).toBe('api_key_revoked');
  const again = await h.call('delete', `/keys/v1/${res.body.id}`, { auth: tenant.auth });
  expect(again.status).toBe(200);
  expect(again.body.revoked_at).toBe(revoked.body.revoked_at);
});

it('with the key cache on, a revocation is seen once the cached look-up is older than cacheTtlMs (as for the CLI)', async () => {
  const cached = new ApiKeyAuthenticator(h.ctx.db.prisma, { cacheTtlMs: 300, lastUsedFlushMs: 60_000 });
  const cachedApp = pub.appWith(cached);
  const send = (key: string) =>
    request(cachedApp)
      .post('/v1/signals')
      .set('Authorization', `Bearer ${key}`)
      .set('Idempotency-Key', randomUUID())
      .send(mcpSignal(tenant.org_id));
  try {
    const res = await mint(tenant, { name: 'cached', scopes: ['signals:write'] });
    expect((await send(res.body.key)).status).toBe(202);
    expect((await h.call('delete', `/keys/v1/${res.body.id}`, { auth: tenant.auth })).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 350));
    const refused = await send(res.body.key);
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe('api_key_revoked');
  } finally {
    await cached.close();
  }
});

it("another tenant can neither see nor revoke a tenant's key (404) and the key keeps working", async () => {
  const res = await mint(tenant, { name: 'private', scopes: ['signals:write'] });
  expectError(await h.call('get', `/keys/v1/${res.body.id}`, { auth: other.auth }), 404, 'resource_missing', 'id');
  expectError(await h.call('delete', `/keys/v1/${res.body.id}`, { auth: other.auth }), 404, 'resource_missing', 'id');
  const theirs = await h.call('get', '/keys/v1', { auth: other.auth, query: { limit: '100' } });
  expect(theirs.body.data.every((k: { org_id: string }) => k.org_id === other.org_id)).toBe(true);
  expect(theirs.text).not.toContain(res.body.id);
  // a cursor from another org is unknown, not a way in
  expectError(
    await h.call('get', '/keys/v1', { auth: other.auth, query: { starting_after: res.body.id } }),
    400,
    'resource_missing',
    'starting_after',
  );
  expect((await h.ctx.db.prisma.apiKey.findUniqueOrThrow({ where: { id: res.body.id } })).revoked_at).toBeNull();
  expect((await postSignal(res.body.key, tenant.org_id)).status).toBe(202);
});

it('a key exchanged from a deployment token is listed, but revoked only through its token (409)', async () => {
  const dt = await h.call('post', `/tenants/v1/${tenant.id}/deployment-token`, {
    auth: h.adminAuth,
    body: { name: 'laptops', max_uses: 2 },
  });
  const creds = await h.call('get', '/deploy/v1/credentials', { query: { token: dt.body.token } });
  minted.push(creds.body.api_key.key);
  const id = creds.body.api_key.id as string;
  const listed = await h.call('get', `/keys/v1/${id}`, { auth: tenant.auth });
  expect(listed.body).toMatchObject({ id, deployment_token_id: dt.body.id, status: 'active' });
  expectError(
    await h.call('delete', `/keys/v1/${id}`, { auth: tenant.auth }),
    409,
    'api_key_managed_by_deployment_token',
    'id',
  );
  expect((await h.ctx.db.prisma.apiKey.findUniqueOrThrow({ where: { id } })).revoked_at).toBeNull();
  await h.call('delete', `/tenants/v1/${tenant.id}/deployment-token/${dt.body.id}`, { auth: h.adminAuth });
  expect((await h.call('get', `/keys/v1/${id}`, { auth: tenant.auth })).body.status).toBe('revoked');
});

it('the admin token is refused on the key routes (403 tenant_token_required)', async () => {
  expectError(await h.call('get', '/keys/v1', { auth: h.adminAuth }), 403, 'tenant_token_required');
  expectError(
    await h.call('post', '/keys/v1', { auth: h.adminAuth, body: { name: 'x', scopes: ['assets:read'] } }),
    403,
    'tenant_token_required',
  );
});

it('no minted secret reaches a log line', () => {
  expect(minted.length).toBeGreaterThan(5);
  expect(h.ctx.logLines.length).toBeGreaterThan(0);
  for (const secret of minted) expect(h.ctx.logLines.filter((l) => l.includes(secret))).toEqual([]);
});
