// Calls to the devices: POST /firewalls/v1/{id}/test and /configure-vendor-logging against both simulators
// (success, wrong API key, closed port, unresolvable host, self-signed certificate with verify_ssl on).
import { startFirewallSuite, fw, validFirewall, type FirewallSuite } from './firewall-suite';
import { closedPort, expectError, type AdminHarness, type Tenant } from './harness';
import type { Simulators, Vendor } from './simulators';

let suite: FirewallSuite;
let h: AdminHarness;
let tenant: Tenant;
let sims: Simulators;

beforeAll(async () => ({ h, tenant, sims } = suite = await startFirewallSuite('adminfwdevices')));
afterAll(() => suite.close());

const valid = (over: Record<string, unknown> = {}) => validFirewall(h, over);
const simFirewall = (vendor: Vendor, over: Record<string, unknown> = {}) => sims.createFirewall(tenant, vendor, over);

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
    const commitsBefore = sims.pan.state.jobs.length;
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
    expect(sims.pan.state.jobs.length).toBe(commitsBefore + 1);
    expect(sims.pan.state.dirty).toBe(false);
    const profiles = JSON.stringify(sims.pan.state.syslogProfiles());
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
    expect(sims.forti.state.syslogd).toMatchObject({
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
