// Firewalls: create, list, retrieve and delete, with validation per field, the outbound guard on host, 409 duplicate
// names, 404s and the encrypted api_token that never comes back (updates: firewall-updates.test.ts; calls to the
// devices: firewall-device-calls.test.ts).
import request from 'supertest';
import { decryptSecret } from '@risk/common/crypto';
import { createApp } from '../src/app';
import { startFirewallSuite, fw, validFirewall, type FirewallSuite } from './firewall-suite';
import { expectError, unique, type AdminHarness, type Tenant } from './harness';

let suite: FirewallSuite;
let h: AdminHarness;
let tenant: Tenant;

beforeAll(async () => ({ h, tenant } = suite = await startFirewallSuite('adminfirewalls')));
afterAll(() => suite.close());

const valid = (over: Record<string, unknown> = {}) => validFirewall(h, over);

describe('POST /firewalls/v1', () => {
  it('201 with defaults (port 443, verify_ssl true, status unknown), last4 only, the token encrypted at rest', async () => {
    const token = h.newApiToken();
    const res = await h.createFirewall(tenant.auth, {
      name: 'edge-1',
      type: 'fortinet',
      host: 'FW1.Corp.Example',
      api_token: token,
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      object: 'firewall',
      name: 'edge-1',
      type: 'fortinet',
      host: 'fw1.corp.example',
      port: 443,
      verify_ssl: true,
      api_token_last4: token.slice(-4),
      status: 'unknown',
      model: null,
      version: null,
      last_test: null,
      logging: null,
    });
    expect(res.body.id).toMatch(/^fw_/);
    expect(res.body).not.toHaveProperty('api_token');
    expect(res.text).not.toContain(token);
    const row = await h.ctx.db.prisma.firewall.findUniqueOrThrow({ where: { id: res.body.id } });
    expect(row.api_token_ciphertext).not.toContain(token);
    expect(decryptSecret(row.api_token_ciphertext, h.ctx.config.SECRETS_KEY!)).toBe(token);
  });

  it('accepts IPv4, IPv6 (bracketed too) and private addresses', async () => {
    for (const host of ['192.168.1.1', '10.0.0.1', 'fd00::1', '[fd00::2]', '2606:4700::1111']) {
      const res = await h.createFirewall(tenant.auth, valid({ host }));
      expect([host, res.status]).toEqual([host, 201]);
    }
  });

  it.each([
    ['name missing', { name: undefined }, 'missing_required_param', 'name'],
    ['name empty', { name: ' ' }, 'parameter_invalid', 'name'],
    ['name too long', { name: 'n'.repeat(101) }, 'parameter_invalid', 'name'],
    ['type missing', { type: undefined }, 'missing_required_param', 'type'],
    ['type unknown', { type: 'cisco' }, 'parameter_invalid', 'type'],
    ['host missing', { host: undefined }, 'missing_required_param', 'host'],
    ['host with a scheme', { host: 'https://fw.example' }, 'parameter_invalid', 'host'],
    ['host with spaces', { host: 'fw example' }, 'parameter_invalid', 'host'],
    ['port zero', { port: 0 }, 'parameter_invalid', 'port'],
    ['port above 65535', { port: 65536 }, 'parameter_invalid', 'port'],
    ['port fractional', { port: 44.3 }, 'parameter_invalid_integer', 'port'],
    ['port a string', { port: '443' }, 'parameter_invalid', 'port'],
    ['api_token missing', { api_token: undefined }, 'missing_required_param', 'api_token'],
    ['api_token empty', { api_token: '' }, 'parameter_invalid', 'api_token'],
    ['verify_ssl a string', { verify_ssl: 'yes' }, 'parameter_invalid', 'verify_ssl'],
    ['unknown field', { password: 'x' }, 'parameter_unknown', 'password'],
  ])('400 for %s', async (_label, over, code, param) => {
    const body = JSON.parse(JSON.stringify(valid(over))); // drops undefined fields
    expectError(await h.createFirewall(tenant.auth, body), 400, code, param);
  });

  it('400 naming the allowed types for an unknown type', async () => {
    const err = expectError(
      await h.createFirewall(tenant.auth, valid({ type: 'checkpoint' })),
      400,
      'parameter_invalid',
      'type',
    );
    expect(err.message).toMatch(/palo_alto/);
    expect(err.message).toMatch(/fortinet/);
  });

  it('400 url_not_allowed for metadata and link-local hosts', async () => {
    for (const host of ['169.254.169.254', '169.254.10.10', 'metadata.google.internal']) {
      expectError(await h.createFirewall(tenant.auth, valid({ host })), 400, 'url_not_allowed', 'host');
    }
  });

  it('loopback is refused without OUTBOUND_ALLOWED_HOSTS_FIREWALL and accepted with it', async () => {
    // the webhook list names loopback too: it never exempts a firewall host (docs/security.md)
    const strict = createApp({
      config: {
        ...h.ctx.config,
        OUTBOUND_ALLOWED_HOSTS_FIREWALL: '',
        OUTBOUND_ALLOWED_HOSTS: '',
        OUTBOUND_ALLOWED_HOSTS_WEBHOOK: '127.0.0.1,localhost,::1',
      },
      prisma: h.ctx.db.prisma,
      logger: h.ctx.logger,
      pingRedis: () => h.redis.ping(),
      redis: h.redis,
    });
    for (const host of ['127.0.0.1', 'localhost', '::1']) {
      const res = await request(strict).post('/firewalls/v1').set('Authorization', tenant.auth).send(valid({ host }));
      expectError(res, 400, 'url_not_allowed', 'host');
    }
    const privateOk = await request(strict)
      .post('/firewalls/v1')
      .set('Authorization', tenant.auth)
      .send(valid({ host: '172.16.0.9' }));
    expect(privateOk.status).toBe(201);
    expect((await h.createFirewall(tenant.auth, valid({ host: '127.0.0.1' }))).status).toBe(201);
  });

  it('the deprecated OUTBOUND_ALLOWED_HOSTS still exempts firewall hosts (it counts for firewalls only)', async () => {
    const legacy = createApp({
      config: { ...h.ctx.config, OUTBOUND_ALLOWED_HOSTS_FIREWALL: '', OUTBOUND_ALLOWED_HOSTS: '127.0.0.1,localhost' },
      prisma: h.ctx.db.prisma,
      logger: h.ctx.logger,
      pingRedis: () => h.redis.ping(),
      redis: h.redis,
    });
    const res = await request(legacy)
      .post('/firewalls/v1')
      .set('Authorization', tenant.auth)
      .send(valid({ name: unique('legacy'), host: '127.0.0.1' }));
    expect(res.status).toBe(201);
  });

  it('409 resource_already_exists for a duplicate name within the tenant; another tenant may reuse it', async () => {
    const name = unique('same');
    expect((await h.createFirewall(tenant.auth, valid({ name }))).status).toBe(201);
    expectError(await h.createFirewall(tenant.auth, valid({ name })), 409, 'resource_already_exists', 'name');
    const other = await h.registerTenant();
    expect((await h.createFirewall(other.auth, valid({ name }))).status).toBe(201);
  });
});

describe('GET /firewalls/v1 and /firewalls/v1/{id}', () => {
  it('lists only the tenant firewalls, paginated, and retrieves one', async () => {
    const own = await h.registerTenant();
    const a = await h.createFirewall(own.auth, valid());
    const b = await h.createFirewall(own.auth, valid({ type: 'fortinet' }));
    const list = await h.call('get', '/firewalls/v1', { auth: own.auth });
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ object: 'list', url: '/firewalls/v1', has_more: false });
    expect(list.body.data.map((f: { id: string }) => f.id)).toEqual([b.body.id, a.body.id]);
    const page = await h.call('get', '/firewalls/v1', {
      auth: own.auth,
      query: { limit: '1', starting_after: b.body.id },
    });
    expect(page.body.data.map((f: { id: string }) => f.id)).toEqual([a.body.id]);
    const one = await h.call('get', fw(a.body.id), { auth: own.auth });
    expect(one.status).toBe(200);
    expect(one.body).toEqual(a.body);
  });

  it('400 for a bad limit; 404 for an unknown id', async () => {
    expectError(
      await h.call('get', '/firewalls/v1', { auth: tenant.auth, query: { limit: '101' } }),
      400,
      'parameter_invalid',
      'limit',
    );
    expectError(await h.call('get', fw('fw_unknown'), { auth: tenant.auth }), 404, 'resource_missing', 'id');
  });
});

describe('DELETE /firewalls/v1/{id}', () => {
  it('deletes, then the firewall is 404; an unknown id is 404', async () => {
    const created = await h.createFirewall(tenant.auth, valid());
    const res = await h.call('delete', fw(created.body.id), { auth: tenant.auth });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: created.body.id, object: 'firewall', deleted: true });
    expectError(await h.call('get', fw(created.body.id), { auth: tenant.auth }), 404, 'resource_missing', 'id');
    expectError(await h.call('delete', fw(created.body.id), { auth: tenant.auth }), 404, 'resource_missing', 'id');
  });
});

it('DELETE is 409 policy_assigned while a policy is assigned to the firewall, and works once it is unassigned', async () => {
  const created = await h.createFirewall(tenant.auth, valid());
  const policy = await h.createPolicy(tenant.auth, {
    name: unique('pol'),
    rules: [{ action: 'block', domains: ['x.example'] }],
  });
  await h.call('post', `/policies/v1/url-filter/${policy.body.id}/assign`, {
    auth: tenant.auth,
    body: { firewall_ids: [created.body.id] },
  });
  const err = expectError(
    await h.call('delete', fw(created.body.id), { auth: tenant.auth }),
    409,
    'policy_assigned',
    'id',
  );
  expect(err.message).toMatch(/unassign/);
  expect((await h.call('get', fw(created.body.id), { auth: tenant.auth })).status).toBe(200);
  // the worker's removal deletes the assignment; then the firewall can go
  await h.ctx.db.prisma.policyAssignment.deleteMany({ where: { firewall_id: created.body.id } });
  expect((await h.call('delete', fw(created.body.id), { auth: tenant.auth })).status).toBe(200);
});

it('no api_token of this suite appears in any response or captured log line', () => {
  h.assertNoSecretLeaks();
});
