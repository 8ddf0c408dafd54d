// Firewalls: CRUD with validation per field, the outbound guard on host, 409 duplicate names, 404s, the
// encrypted api_token that never comes back, and test / configure-vendor-logging against both simulators
// (success, wrong API key, closed port, self-signed certificate with verify_ssl on).
import request from 'supertest';
import { decryptSecret } from '@risk/common';
import { createApp } from '../src/app';
import {
  startFortinetSimulator,
  startPanosSimulator,
  type FortinetSimulatorState,
  type PanosSimulatorState,
  type SimulatorHandle,
} from '@risk/firewalls';
import { closedPort, harnessWithTenant, expectError, unique, type AdminHarness, type Tenant } from './harness';

let h: AdminHarness;
let tenant: Tenant;
let pan: SimulatorHandle<PanosSimulatorState>;
let forti: SimulatorHandle<FortinetSimulatorState>;
let simKey: string;

beforeAll(async () => {
  ({ h, tenant } = await harnessWithTenant('adminfirewalls'));
  simKey = h.newApiToken();
  pan = await startPanosSimulator({ apiKey: simKey, commitPolls: 2 });
  forti = await startFortinetSimulator({ apiKey: simKey });
});
afterAll(async () => {
  await pan.close();
  await forti.close();
  await h.close();
});

const valid = (over: Record<string, unknown> = {}) => ({
  name: unique('fw'),
  type: 'palo_alto',
  host: '10.20.30.40',
  api_token: h.newApiToken(),
  ...over,
});
const fw = (id: string, suffix = '') => `/firewalls/v1/${id}${suffix}`;

async function simFirewall(vendor: 'palo_alto' | 'fortinet', over: Record<string, unknown> = {}) {
  const port = vendor === 'palo_alto' ? pan.port : forti.port;
  const res = await h.createFirewall(tenant.auth, {
    name: unique(vendor),
    type: vendor,
    host: '127.0.0.1',
    port,
    api_token: simKey,
    verify_ssl: false,
    ...over,
  });
  expect(res.status).toBe(201);
  return res.body as { id: string };
}

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

  it('loopback is refused without OUTBOUND_ALLOWED_HOSTS and accepted with it', async () => {
    const strict = createApp({
      config: { ...h.ctx.config, OUTBOUND_ALLOWED_HOSTS: '' },
      db: h.ctx.db.prisma,
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

describe('PUT /firewalls/v1/{id}', () => {
  it('updates only the given fields; a connection change resets status to unknown', async () => {
    const created = await simFirewall('palo_alto');
    expect((await h.call('post', fw(created.id, '/test'), { auth: tenant.auth })).body.ok).toBe(true);
    const renamed = await h.call('put', fw(created.id), { auth: tenant.auth, body: { name: 'renamed-pa' } });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({
      name: 'renamed-pa',
      host: '127.0.0.1',
      port: pan.port,
      status: 'connected',
      api_token_last4: simKey.slice(-4),
    });
    const token = h.newApiToken();
    const rekeyed = await h.call('put', fw(created.id), { auth: tenant.auth, body: { api_token: token } });
    expect(rekeyed.body).toMatchObject({ name: 'renamed-pa', status: 'unknown', api_token_last4: token.slice(-4) });
    const row = await h.ctx.db.prisma.firewall.findUniqueOrThrow({ where: { id: created.id } });
    expect(decryptSecret(row.api_token_ciphertext, h.ctx.config.SECRETS_KEY!)).toBe(token);
    const empty = await h.call('put', fw(created.id), { auth: tenant.auth, body: {} });
    expect(empty.body).toMatchObject({ name: 'renamed-pa', status: 'unknown' });
  });

  it.each([
    ['type unknown', { type: 'juniper' }, 'parameter_invalid', 'type'],
    ['host invalid', { host: 'a b' }, 'parameter_invalid', 'host'],
    ['port zero', { port: 0 }, 'parameter_invalid', 'port'],
    ['api_token empty', { api_token: '' }, 'parameter_invalid', 'api_token'],
    ['verify_ssl a number', { verify_ssl: 1 }, 'parameter_invalid', 'verify_ssl'],
    ['unknown field', { status: 'connected' }, 'parameter_unknown', 'status'],
  ])('400 for %s', async (_label, body, code, param) => {
    const created = await h.createFirewall(tenant.auth, valid());
    expectError(await h.call('put', fw(created.body.id), { auth: tenant.auth, body }), 400, code, param);
  });

  it('400 url_not_allowed when the new host is a metadata address', async () => {
    const created = await h.createFirewall(tenant.auth, valid());
    expectError(
      await h.call('put', fw(created.body.id), { auth: tenant.auth, body: { host: '169.254.169.254' } }),
      400,
      'url_not_allowed',
      'host',
    );
    expect((await h.call('get', fw(created.body.id), { auth: tenant.auth })).body.host).toBe('10.20.30.40');
  });

  // NAT64 / 6to4 / Teredo addresses carry an IPv4 target the network translates to: 64:ff9b::a9fe:a9fe is
  // 169.254.169.254 behind NAT64, so each must be refused like the address it embeds
  it.each([
    '64:ff9b::a9fe:a9fe',
    '2002:a9fe:a9fe::1',
    '2001:0:4136:e378:8000:63bf:3fff:fdd2',
    'metadata.google.internal',
  ])('400 url_not_allowed for the host %s', async (host) => {
    const created = await h.createFirewall(tenant.auth, valid());
    expectError(
      await h.call('put', fw(created.body.id), { auth: tenant.auth, body: { host } }),
      400,
      'url_not_allowed',
      'host',
    );
  });

  it('409 when renaming onto another firewall name; 404 for an unknown id', async () => {
    const a = await h.createFirewall(tenant.auth, valid());
    const b = await h.createFirewall(tenant.auth, valid());
    expectError(
      await h.call('put', fw(b.body.id), { auth: tenant.auth, body: { name: a.body.name } }),
      409,
      'resource_already_exists',
      'name',
    );
    expectError(
      await h.call('put', fw('fw_unknown'), { auth: tenant.auth, body: { name: 'x' } }),
      404,
      'resource_missing',
      'id',
    );
  });
});

// The token redirect: a tenant-token holder must not be able to point a firewall at a host of their choosing
// and have the next /test send the stored api_token there (issue 10 item 5; docs/security.md "Tenant
// credentials and firewall tokens"). The "attacker" is a second PAN-OS simulator on localhost that records
// every request it receives.
describe('PUT /firewalls/v1/{id}: the stored api_token stays bound to its connection', () => {
  let attacker: SimulatorHandle<PanosSimulatorState>;
  let attackerKey: string;
  beforeAll(async () => {
    attackerKey = h.newApiToken();
    attacker = await startPanosSimulator({ apiKey: attackerKey });
  });
  afterAll(() => attacker.close());

  it('a new host without api_token is 400 naming api_token and changes nothing; /test still goes to the old host', async () => {
    const created = await simFirewall('palo_alto');
    expect((await h.call('post', fw(created.id, '/test'), { auth: tenant.auth })).body.ok).toBe(true);
    const before = (await h.call('get', fw(created.id), { auth: tenant.auth })).body;
    const err = expectError(
      await h.call('put', fw(created.id), {
        auth: tenant.auth,
        body: { name: 'moved', host: 'localhost', port: attacker.port },
      }),
      400,
      'missing_required_param',
      'api_token',
    );
    expect(err.type).toBe('invalid_request_error');
    expect(err.message).toMatch(/host, port requires api_token/);
    // nothing changed, not even the name sent along
    expect((await h.call('get', fw(created.id), { auth: tenant.auth })).body).toEqual(before);
    const panRequests = pan.state.requests.length;
    expect((await h.call('post', fw(created.id, '/test'), { auth: tenant.auth })).body.ok).toBe(true);
    expect(pan.state.requests.length).toBeGreaterThan(panRequests);
    expect(attacker.state.requests).toEqual([]);
  });

  it.each([
    ['host', { host: 'localhost' }, false],
    ['port', { port: 1 }, false],
    ['type', { type: 'fortinet' }, false],
    ['verify_ssl turned off', { verify_ssl: false }, true],
    ['verify_ssl turned on', { verify_ssl: true }, false],
  ])('400 for a %s change without api_token', async (_label, body, initialVerify) => {
    const created = await simFirewall('palo_alto', { verify_ssl: initialVerify });
    expectError(
      await h.call('put', fw(created.id), { auth: tenant.auth, body }),
      400,
      'missing_required_param',
      'api_token',
    );
    const row = await h.ctx.db.prisma.firewall.findUniqueOrThrow({ where: { id: created.id } });
    expect({ host: row.host, port: row.port, type: row.type, verify_ssl: row.verify_ssl }).toEqual({
      host: '127.0.0.1',
      port: pan.port,
      type: 'palo_alto',
      verify_ssl: initialVerify,
    });
  });

  it('with api_token the move is accepted, and the next /test goes to the new host with the new token', async () => {
    const created = await simFirewall('palo_alto');
    const moved = await h.call('put', fw(created.id), {
      auth: tenant.auth,
      body: { host: 'localhost', port: attacker.port, api_token: attackerKey },
    });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({
      host: 'localhost',
      port: attacker.port,
      status: 'unknown',
      api_token_last4: attackerKey.slice(-4),
    });
    const panRequests = pan.state.requests.length;
    const test = await h.call('post', fw(created.id, '/test'), { auth: tenant.auth });
    expect(test.body).toMatchObject({ ok: true, status: 'connected' });
    expect(attacker.state.requests.length).toBeGreaterThan(0);
    expect(pan.state.requests.length).toBe(panRequests);
    const row = await h.ctx.db.prisma.firewall.findUniqueOrThrow({ where: { id: created.id } });
    expect(decryptSecret(row.api_token_ciphertext, h.ctx.config.SECRETS_KEY!)).toBe(attackerKey);
  });

  it('a rename, or a PUT that repeats the current connection fields, needs no api_token and keeps the status', async () => {
    const created = await simFirewall('palo_alto');
    expect((await h.call('post', fw(created.id, '/test'), { auth: tenant.auth })).body.ok).toBe(true);
    const renamed = await h.call('put', fw(created.id), { auth: tenant.auth, body: { name: unique('renamed') } });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ status: 'connected', host: '127.0.0.1', port: pan.port });
    // what a client read back (host in another case too) sent again unchanged
    const same = await h.call('put', fw(created.id), {
      auth: tenant.auth,
      body: { name: renamed.body.name, type: 'palo_alto', host: '127.0.0.1', port: pan.port, verify_ssl: false },
    });
    expect(same.status).toBe(200);
    expect(same.body).toMatchObject({ status: 'connected', api_token_last4: simKey.slice(-4) });
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

describe.each([
  ['PAN-OS', 'palo_alto' as const, { model: 'PA-VM', version: '10.2.9', hostname: 'PA-VM-SIM' }],
  ['FortiOS', 'fortinet' as const, { model: 'FortiGate VM64', version: 'v7.4.3', hostname: 'FGT-SIM' }],
])('POST /firewalls/v1/{id}/test against the %s simulator', (_name, vendor, info) => {
  it('ok:true with model, version and latency, stored on the firewall', async () => {
    const created = await simFirewall(vendor);
    const res = await h.call('post', fw(created.id, '/test'), { auth: tenant.auth });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      object: 'firewall_test',
      firewall_id: created.id,
      ok: true,
      status: 'connected',
      error: null,
      ...info,
    });
    expect(res.body.latency_ms).toBeGreaterThanOrEqual(0);
    const stored = await h.call('get', fw(created.id), { auth: tenant.auth });
    expect(stored.body).toMatchObject({
      status: 'connected',
      model: info.model,
      version: info.version,
      last_test: { ok: true, error: null, latency_ms: res.body.latency_ms },
    });
  });

  it('a wrong API key is 200 ok:false auth_rejected, stored as status error', async () => {
    const created = await simFirewall(vendor, { api_token: h.newApiToken() });
    const res = await h.call('post', fw(created.id, '/test'), { auth: tenant.auth });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      ok: false,
      status: 'error',
      model: null,
      error: {
        reason: 'auth_rejected',
        message: expect.stringMatching(vendor === 'palo_alto' ? /PAN-OS rejected the API key/ : /FortiOS/i),
      },
    });
    const stored = await h.call('get', fw(created.id), { auth: tenant.auth });
    expect(stored.body).toMatchObject({
      status: 'error',
      last_test: { ok: false, error: expect.stringMatching(/^auth_rejected: /) },
    });
  });

  it('an unreachable host (closed port) is ok:false tcp_refused naming the address', async () => {
    const port = await closedPort();
    const created = await simFirewall(vendor, { port });
    const res = await h.call('post', fw(created.id, '/test'), { auth: tenant.auth });
    expect(res.body).toMatchObject({
      ok: false,
      status: 'error',
      error: { reason: 'tcp_refused', message: `connection refused by 127.0.0.1:${port}` },
    });
  });

  it('a host name that does not resolve is ok:false dns naming the host', async () => {
    const created = await simFirewall(vendor, { host: 'no-such-firewall.invalid' });
    const res = await h.call('post', fw(created.id, '/test'), { auth: tenant.auth });
    expect(res.body).toMatchObject({
      ok: false,
      status: 'error',
      error: { reason: 'dns', message: expect.stringMatching(/^could not resolve no-such-firewall\.invalid/) },
    });
  });

  it('a self-signed certificate with verify_ssl on is ok:false tls', async () => {
    const created = await simFirewall(vendor, { verify_ssl: true });
    const res = await h.call('post', fw(created.id, '/test'), { auth: tenant.auth });
    expect(res.body).toMatchObject({
      ok: false,
      error: { reason: 'tls', message: expect.stringMatching(/TLS handshake with 127\.0\.0\.1:\d+ failed/) },
    });
  });

  it('404 for an unknown firewall', async () => {
    expectError(await h.call('post', fw('fw_unknown', '/test'), { auth: tenant.auth }), 404, 'resource_missing', 'id');
  });
});

describe('POST /firewalls/v1/{id}/configure-vendor-logging', () => {
  it('PAN-OS: pushes a syslog server profile with defaults (514, UDP, LOG_USER) and commits', async () => {
    const created = await simFirewall('palo_alto');
    const commitsBefore = pan.state.jobs.length;
    const res = await h.call('post', fw(created.id, '/configure-vendor-logging'), {
      auth: tenant.auth,
      body: { syslog_server: '10.9.8.7' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      object: 'firewall_logging',
      firewall_id: created.id,
      ok: true,
      error: null,
      config: { syslog_server: '10.9.8.7', syslog_port: 514, mode: 'udp', facility: 'LOG_USER' },
      vendor_config: { transport: 'UDP', port: 514, facility: 'LOG_USER', syslog_server_profile: 'risk-intel-syslog' },
    });
    expect(pan.state.jobs.length).toBe(commitsBefore + 1);
    expect(pan.state.dirty).toBe(false);
    const profiles = JSON.stringify(pan.state.syslogProfiles());
    expect(profiles).toContain('10.9.8.7');
    const stored = await h.call('get', fw(created.id), { auth: tenant.auth });
    expect(stored.body.logging).toMatchObject({
      status: 'configured',
      error: null,
      config: { syslog_server: '10.9.8.7', mode: 'udp' },
    });
  });

  it('FortiOS: sets log.syslogd/setting with the mode and facility asked for', async () => {
    const created = await simFirewall('fortinet');
    const res = await h.call('post', fw(created.id, '/configure-vendor-logging'), {
      auth: tenant.auth,
      body: { syslog_server: 'syslog.corp.example', syslog_port: 6514, mode: 'tls', facility: 'LOG_LOCAL5' },
    });
    expect(res.body).toMatchObject({
      ok: true,
      vendor_config: { path: 'log.syslogd/setting', server: 'syslog.corp.example', port: 6514, facility: 'local5' },
    });
    expect(forti.state.syslogd).toMatchObject({
      status: 'enable',
      server: 'syslog.corp.example',
      port: 6514,
      facility: 'local5',
      mode: 'reliable',
      'enc-algorithm': 'high',
    });
  });

  it.each(['palo_alto', 'fortinet'] as const)(
    '%s: a wrong key is ok:false auth_rejected, recorded as failed',
    async (vendor) => {
      const created = await simFirewall(vendor, { api_token: h.newApiToken() });
      const res = await h.call('post', fw(created.id, '/configure-vendor-logging'), {
        auth: tenant.auth,
        body: { syslog_server: '10.1.1.1', mode: 'tcp' },
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ ok: false, vendor_config: null, error: { reason: 'auth_rejected' } });
      const stored = await h.call('get', fw(created.id), { auth: tenant.auth });
      expect(stored.body.logging).toMatchObject({ status: 'failed', error: expect.stringMatching(/^auth_rejected: /) });
    },
  );

  it.each(['palo_alto', 'fortinet'] as const)('%s: an unreachable host is ok:false tcp_refused', async (vendor) => {
    const created = await simFirewall(vendor, { port: await closedPort() });
    const res = await h.call('post', fw(created.id, '/configure-vendor-logging'), {
      auth: tenant.auth,
      body: { syslog_server: '10.1.1.1' },
    });
    expect(res.body).toMatchObject({ ok: false, error: { reason: 'tcp_refused' } });
  });

  it.each([
    ['syslog_server missing', {}, 'missing_required_param', 'syslog_server'],
    ['syslog_server invalid', { syslog_server: 'not a host' }, 'parameter_invalid', 'syslog_server'],
    [
      'syslog_server too long for the vendors',
      { syslog_server: `${'a'.repeat(60)}.example` },
      'parameter_invalid',
      'syslog_server',
    ],
    ['syslog_port zero', { syslog_server: '10.0.0.1', syslog_port: 0 }, 'parameter_invalid', 'syslog_port'],
    ['syslog_port a string', { syslog_server: '10.0.0.1', syslog_port: '514' }, 'parameter_invalid', 'syslog_port'],
    ['mode unknown', { syslog_server: '10.0.0.1', mode: 'ssl' }, 'parameter_invalid', 'mode'],
    ['facility unknown', { syslog_server: '10.0.0.1', facility: 'LOG_LOCAL8' }, 'parameter_invalid', 'facility'],
    ['unknown field', { syslog_server: '10.0.0.1', format: 'IETF' }, 'parameter_unknown', 'format'],
  ])('400 for %s', async (_label, body, code, param) => {
    const created = await h.createFirewall(tenant.auth, valid());
    expectError(
      await h.call('post', fw(created.body.id, '/configure-vendor-logging'), { auth: tenant.auth, body }),
      400,
      code,
      param,
    );
  });

  it('404 for an unknown firewall', async () => {
    expectError(
      await h.call('post', fw('fw_unknown', '/configure-vendor-logging'), {
        auth: tenant.auth,
        body: { syslog_server: '10.0.0.1' },
      }),
      404,
      'resource_missing',
      'id',
    );
  });
});

it('no api_token of this suite appears in any response or captured log line', () => {
  expect(h.ctx.logLines.some((l) => l.includes('firewall test') && l.includes('auth_rejected'))).toBe(true);
  h.assertNoSecretLeaks();
});
