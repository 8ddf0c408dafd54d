import https from 'node:https';
import type { ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseAllowList } from '@risk/common/outbound';
import { currentSlowdown } from '@risk/time-budget';
import { ConnectorError } from './errors';
import { createConnector } from '../registry';
import { startPanosSimulator, type PanosSimulatorState } from '../vendors/palo-alto/simulator';
import { startFortinetSimulator, type FortinetSimulatorState } from '../vendors/fortinet/simulator';
import { evaluatePolicy, factsForHost, type PolicyModel } from '../policy/policy-model';
import { compilePanos } from '../vendors/palo-alto/compile';
import type { PanPushedObjects } from '../vendors/palo-alto/connector';
import { simulatorTls, type SimulatorHandle } from '../simulators/tls';

const KEY = 'sim-key-0123456789';
const context = { timeoutMs: 2000, allowList: parseAllowList('127.0.0.1,localhost'), pollIntervalMs: 10 };

// Test categories: the simulators' vendor databases and our evaluator must know the same facts.
const GAMBLING_HOST = 'casino-royal.test';
const extraCategories: Record<string, string[]> = { [GAMBLING_HOST]: ['gambling'] };

const policy: PolicyModel = {
  id: 'pol_test0000000001',
  name: 'AI governance',
  default_action: 'allow',
  version: 3,
  rules: [
    {
      id: 'r1',
      position: 1,
      name: 'allow enterprise chatgpt',
      action: 'allow',
      categories: [],
      domains: ['chatgpt.com'],
      min_risk_score: null,
      min_asset_severity: null,
      enabled: true,
    },
    {
      id: 'r2',
      position: 2,
      name: 'block chat assistants',
      action: 'block',
      categories: ['ai-chat-assistant'],
      domains: [],
      min_risk_score: null,
      min_asset_severity: null,
      enabled: true,
    },
    {
      id: 'r3',
      position: 3,
      name: 'alert code assistants',
      action: 'alert',
      categories: ['ai-code-assistant'],
      domains: ['*.internal-ai.example'],
      min_risk_score: null,
      min_asset_severity: null,
      enabled: true,
    },
    {
      id: 'r4',
      position: 4,
      name: 'disabled',
      action: 'block',
      categories: [],
      domains: ['cursor.com'],
      min_risk_score: null,
      min_asset_severity: null,
      enabled: false,
    },
    {
      id: 'r5',
      position: 5,
      name: 'gambling',
      action: 'block',
      categories: ['gambling'],
      domains: [],
      min_risk_score: null,
      min_asset_severity: null,
      enabled: true,
    },
  ],
};

const hosts = [
  'chatgpt.com',
  'www.chatgpt.com',
  'claude.ai',
  'chat.openai.com',
  'cursor.com',
  'api.cursor.com',
  'x.internal-ai.example',
  'internal-ai.example',
  'example.org',
  'huggingface.co',
  GAMBLING_HOST,
];

function ours(host: string) {
  const facts = factsForHost(host);
  facts.categories.push(...(extraCategories[host] ?? []));
  return evaluatePolicy(policy, facts).action;
}

describe('PAN-OS connector against the simulator', () => {
  let sim: SimulatorHandle<PanosSimulatorState>;
  beforeAll(async () => {
    sim = await startPanosSimulator({ apiKey: KEY, categoryDb: { [GAMBLING_HOST]: ['gambling'] } });
  });
  afterAll(() => sim.close());
  const connector = (apiToken = KEY, port?: number) =>
    createConnector(
      { type: 'palo_alto', host: '127.0.0.1', port: port ?? sim.port, verify_ssl: false, api_token: apiToken },
      context,
    );

  it('reads model and version with show system info', async () => {
    await expect(connector().test()).resolves.toMatchObject({
      model: 'PA-VM',
      version: '10.2.9',
      hostname: 'PA-VM-SIM',
    });
  });

  it('reports a wrong API key as auth_rejected', async () => {
    await expect(connector('wrong').test()).rejects.toMatchObject({ reason: 'auth_rejected' });
  });

  it('reports a self-signed certificate as tls when verify_ssl is on', async () => {
    const strict = createConnector(
      { type: 'palo_alto', host: '127.0.0.1', port: sim.port, verify_ssl: true, api_token: KEY },
      context,
    );
    await expect(strict.test()).rejects.toMatchObject({ reason: 'tls' });
  });

  it('reports a closed port as tcp_refused and an unresolvable name as dns', async () => {
    const closed = await startPanosSimulator({ apiKey: KEY });
    const port = closed.port;
    await closed.close();
    await expect(connector(KEY, port).test()).rejects.toMatchObject({ reason: 'tcp_refused' });
    const dns = createConnector(
      { type: 'palo_alto', host: 'no-such-host.invalid', port: 443, verify_ssl: false, api_token: KEY },
      context,
    );
    await expect(dns.test()).rejects.toMatchObject({ reason: 'dns' });
  });

  it('refuses loopback without OUTBOUND_ALLOWED_HOSTS_FIREWALL', async () => {
    const guarded = createConnector(
      { type: 'palo_alto', host: '127.0.0.1', port: sim.port, verify_ssl: false, api_token: KEY },
      { ...context, allowList: parseAllowList('') },
    );
    await expect(guarded.test()).rejects.toMatchObject({ reason: 'outbound_blocked' });
  });

  it('pushes a syslog server profile and commits it', async () => {
    const result = await connector().configureLogging({
      syslog_server: '10.0.0.5',
      syslog_port: 514,
      mode: 'tls',
      facility: 'LOG_LOCAL4',
    });
    expect(result.vendor_config).toMatchObject({ transport: 'SSL', facility: 'LOG_LOCAL4' });
    const xml = JSON.stringify(sim.state.syslogProfiles());
    expect(xml).toContain('10.0.0.5');
    expect(xml).toContain('SSL');
  });

  it('applies a policy whose PAN-OS evaluation matches our first-match evaluation for every host', async () => {
    const pushed = await connector().applyUrlPolicy(policy, null);
    expect(pushed.vendor).toBe('palo_alto');
    for (const host of hosts) {
      expect([host, sim.state.evaluate(pushed.profile, host)]).toEqual([host, ours(host)]);
    }
    // re-push after an edit replaces objects and removes stale custom categories
    const smaller = { ...policy, version: 4, rules: policy.rules.filter((r) => r.id !== 'r3') };
    const again = await connector().applyUrlPolicy(smaller, pushed);
    expect(Object.keys(sim.state.customCategories()).sort()).toEqual(
      again.vendor === 'palo_alto' ? [...(again as PanPushedObjects).custom_categories].sort() : [],
    );
    await connector().removeUrlPolicy(again);
    expect(sim.state.customCategories()).toEqual({});
  });

  it('refuses a rule order PAN-OS cannot express', () => {
    const bad: PolicyModel = {
      ...policy,
      rules: [
        { ...policy.rules[0]!, domains: ['chat.openai.com'] },
        { ...policy.rules[1]!, categories: [], domains: ['*.openai.com'] },
      ],
    };
    expect(() => compilePanos(bad)).toThrow(/stricter action/);
  });
});

describe('FortiOS connector against the simulator', () => {
  let sim: SimulatorHandle<FortinetSimulatorState>;
  beforeAll(async () => {
    sim = await startFortinetSimulator({ apiKey: KEY, categoryDb: { [GAMBLING_HOST]: 11 } });
  });
  afterAll(() => sim.close());
  const connector = (apiToken = KEY) =>
    createConnector(
      { type: 'fortinet', host: '127.0.0.1', port: sim.port, verify_ssl: false, api_token: apiToken },
      context,
    );

  it('reads model and version from monitor/system/status', async () => {
    await expect(connector().test()).resolves.toMatchObject({
      model: 'FortiGate VM64',
      version: 'v7.4.3',
      hostname: 'FGT-SIM',
    });
  });

  it('reports a wrong token as auth_rejected', async () => {
    const err = await connector('nope')
      .test()
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConnectorError);
    expect(err).toMatchObject({ reason: 'auth_rejected' });
  });

  it('sets log.syslogd/setting', async () => {
    await connector().configureLogging({
      syslog_server: 'syslog.corp.example',
      syslog_port: 6514,
      mode: 'tls',
      facility: 'LOG_LOCAL7',
    });
    expect(sim.state.syslogd).toMatchObject({
      status: 'enable',
      server: 'syslog.corp.example',
      mode: 'reliable',
      port: 6514,
      facility: 'local7',
      'enc-algorithm': 'high',
    });
  });

  it('applies a policy whose FortiOS evaluation matches our first-match evaluation for every host', async () => {
    const pushed = await connector().applyUrlPolicy(policy, null);
    for (const host of hosts) {
      expect([host, sim.state.evaluate(pushed.profile, host)]).toEqual([host, ours(host)]);
    }
    const blockAll = { ...policy, default_action: 'block' as const, version: 4 };
    const again = await connector().applyUrlPolicy(blockAll, pushed);
    expect(sim.state.urlfilters).toHaveLength(1);
    // the one FortiOS gap: 'alert' (monitor) falls through to the category check; the compiler says so
    expect(again.warnings.join(' ')).toMatch(/monitor' continues/);
    for (const host of hosts.filter((h) => evaluatePolicy(blockAll, factsForHost(h)).rule_id !== 'r3')) {
      const facts = factsForHost(host);
      facts.categories.push(...(extraCategories[host] ?? []));
      expect([host, sim.state.evaluate(again.profile, host)]).toEqual([host, evaluatePolicy(blockAll, facts).action]);
    }
    await connector().removeUrlPolicy(again);
    expect(sim.state.urlfilters).toHaveLength(0);
    expect(sim.state.profiles).toHaveLength(0);
  });
});

describe.each(['palo_alto', 'fortinet'] as const)(
  '%s connector failure reasons against a server that is not a firewall API',
  (type) => {
    // an HTTPS server with the simulators' certificate whose behaviour each test sets
    let answer: (res: ServerResponse) => void = () => undefined;
    let server: https.Server;
    let port: number;
    beforeAll(async () => {
      server = https.createServer(simulatorTls(), (_req, res) => answer(res));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      port = (server.address() as AddressInfo).port;
    });
    afterAll(async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    });
    const connector = (timeoutMs = 2000) =>
      createConnector({ type, host: '127.0.0.1', port, verify_ssl: false, api_token: KEY }, { ...context, timeoutMs });

    it('a server that accepts the connection but never answers is timeout', async () => {
      answer = () => undefined; // hold the request open
      const started = Date.now();
      await expect(connector(300).test()).rejects.toMatchObject({
        reason: 'timeout',
        message: `127.0.0.1:${port} did not answer within 300 ms`,
      });
      // its own 300 ms, not a longer default (scaled for a busy machine, docs/security.md "Linear-time parsing and caps")
      expect(Date.now() - started).toBeLessThan(2000 * currentSlowdown());
    });

    it('an HTML page instead of the vendor API is unexpected_response', async () => {
      answer = (res) => {
        res.writeHead(200, { 'Content-Type': 'text/html' });
        res.end('<!doctype html><html><body>Welcome to nginx!</body></html>');
      };
      await expect(connector().test()).rejects.toMatchObject({
        reason: 'unexpected_response',
        message: expect.stringMatching(type === 'palo_alto' ? /without an XML <response>/ : /not JSON/),
      });
    });

    it('a redirect is unexpected_response and is not followed', async () => {
      answer = (res) => {
        res.writeHead(302, { Location: 'https://169.254.169.254/latest/meta-data/' });
        res.end();
      };
      await expect(connector().test()).rejects.toMatchObject({
        reason: 'unexpected_response',
        message: expect.stringMatching(/redirect \(302\)/),
      });
    });
  },
);
