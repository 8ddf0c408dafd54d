// PUT /firewalls/v1/{id}: partial updates, validation per field, the outbound guard, 409 renames, and the stored
// api_token that stays bound to its connection (a new host, port, type or weaker TLS needs the token again).
import { decryptSecret } from '@risk/common/crypto';
import { startPanosSimulator, type PanosSimulatorState, type SimulatorHandle } from '@risk/firewalls';
import { startFirewallSuite, fw, validFirewall, type FirewallSuite } from './firewall-suite';
import { expectError, unique, type AdminHarness, type Tenant } from './harness';
import type { Simulators, Vendor } from './simulators';

let suite: FirewallSuite;
let h: AdminHarness;
let tenant: Tenant;
let sims: Simulators;

beforeAll(async () => ({ h, tenant, sims } = suite = await startFirewallSuite('adminfwupdates')));
afterAll(() => suite.close());

const valid = (over: Record<string, unknown> = {}) => validFirewall(h, over);
const simFirewall = (vendor: Vendor, over: Record<string, unknown> = {}) => sims.createFirewall(tenant, vendor, over);

describe('PUT /firewalls/v1/{id}', () => {
  it('updates only the given fields; a connection change resets status to unknown', async () => {
    const created = await simFirewall('palo_alto');
    expect((await h.call('post', fw(created.id, '/test'), { auth: tenant.auth })).body.ok).toBe(true);
    const renamed = await h.call('put', fw(created.id), { auth: tenant.auth, body: { name: 'renamed-pa' } });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({
      name: 'renamed-pa',
      host: '127.0.0.1',
      port: sims.pan.port,
      status: 'connected',
      api_token_last4: sims.key.slice(-4),
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
// and have the next /test send the stored api_token there (docs/security.md "Tenant
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
    const panRequests = sims.pan.state.requests.length;
    expect((await h.call('post', fw(created.id, '/test'), { auth: tenant.auth })).body.ok).toBe(true);
    expect(sims.pan.state.requests.length).toBeGreaterThan(panRequests);
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
      port: sims.pan.port,
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
    const panRequests = sims.pan.state.requests.length;
    const test = await h.call('post', fw(created.id, '/test'), { auth: tenant.auth });
    expect(test.body).toMatchObject({ ok: true, status: 'connected' });
    expect(attacker.state.requests.length).toBeGreaterThan(0);
    expect(sims.pan.state.requests.length).toBe(panRequests);
    const row = await h.ctx.db.prisma.firewall.findUniqueOrThrow({ where: { id: created.id } });
    expect(decryptSecret(row.api_token_ciphertext, h.ctx.config.SECRETS_KEY!)).toBe(attackerKey);
  });

  it('a rename, or a PUT that repeats the current connection fields, needs no api_token and keeps the status', async () => {
    const created = await simFirewall('palo_alto');
    expect((await h.call('post', fw(created.id, '/test'), { auth: tenant.auth })).body.ok).toBe(true);
    const renamed = await h.call('put', fw(created.id), { auth: tenant.auth, body: { name: unique('renamed') } });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ status: 'connected', host: '127.0.0.1', port: sims.pan.port });
    // what a client read back (host in another case too) sent again unchanged
    const same = await h.call('put', fw(created.id), {
      auth: tenant.auth,
      body: { name: renamed.body.name, type: 'palo_alto', host: '127.0.0.1', port: sims.pan.port, verify_ssl: false },
    });
    expect(same.status).toBe(200);
    expect(same.body).toMatchObject({ status: 'connected', api_token_last4: sims.key.slice(-4) });
  });
});

it('no api_token of this suite appears in any response or captured log line', () => {
  h.assertNoSecretLeaks();
});
