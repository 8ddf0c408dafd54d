// GET /tools/v1/risk-score with min_asset_severity rules (docs/admin-api.md "URL risk score", docs/feeds.md "Why
// a URL is in a feed"): a URL whose host is in the tenant's risk feed at or above the rule's severity matches it,
// and the decision names the feed entry and why it is there (an asset, the block list). The feed the firewalls
// pull and the route agree, because both come from the same entries. Another tenant's assets never count.
import { startPanosSimulator, type PanosSimulatorState, type SimulatorHandle } from '@risk/firewalls';
import { harnessWithTenant, unique, type AdminHarness, type Tenant } from './harness';
import { feedToken, observedApplication } from './feed-fixtures';

let h: AdminHarness;
let a: Tenant;
let b: Tenant;
let pan: SimulatorHandle<PanosSimulatorState>;
let policyId: string;
let highFp: string;
const P = '/policies/v1/url-filter';

const score = (url: string, t: Tenant = a) => h.call('get', '/tools/v1/risk-score', { auth: t.auth, query: { url } });

beforeAll(async () => {
  ({ h, tenant: a } = await harnessWithTenant('adminriskfeed', { deps: { feedCacheTtlMs: 0 } }));
  b = await h.registerTenant();
  const simKey = h.newApiToken();
  pan = await startPanosSimulator({ apiKey: simKey });
  const fw = await h.createFirewall(a.auth, {
    name: unique('pan'),
    type: 'palo_alto',
    host: '127.0.0.1',
    port: pan.port,
    api_token: simKey,
    verify_ssl: false,
  });
  const policy = await h.createPolicy(a.auth, {
    name: unique('feed-rules'),
    default_action: 'allow',
    rules: [
      { name: 'allow docs', action: 'allow', domains: ['docs.example.org'] },
      { name: 'block high-risk assets', action: 'block', min_asset_severity: 'high' },
      { name: 'watch medium', action: 'alert', min_asset_severity: 'medium' },
    ],
  });
  policyId = policy.body.id as string;
  await h.call('post', `${P}/${policyId}/assign`, { auth: a.auth, body: { firewall_ids: [fw.body.id] } });
  highFp = await observedApplication(h, { tenant: a, url: 'https://shadow-llm.example.net/v1/chat', score: 85 });
  await observedApplication(h, { tenant: a, url: 'https://meh-llm.example.net/', score: 50 });
  await observedApplication(h, { tenant: b, url: 'https://b-only-llm.example.com/', score: 95 });
  await h.call('post', '/feeds/v1/block-list', {
    auth: a.auth,
    body: { entries: [{ value: 'https://paste.example.org/ai/upload' }, { value: 'blocked-ai.example.com' }] },
  });
});
afterAll(async () => {
  await pan?.close();
  await h?.close();
});

describe('min_asset_severity rules in the risk-score decisions', () => {
  it('a host of a high-risk asset (or its subdomain) matches the high rule, naming the asset', async () => {
    for (const url of ['https://shadow-llm.example.net/other', 'https://api.shadow-llm.example.net/']) {
      const res = await score(url);
      expect(res.status).toBe(200);
      expect(res.body.action).toBe('block');
      expect(res.body.policy_decisions).toEqual([
        expect.objectContaining({
          policy_id: policyId,
          action: 'block',
          rule_id: expect.any(String),
          matched_on: 'min_asset_severity',
          feed_match: {
            severity: 'high',
            entry_type: 'domain',
            entry: 'shadow-llm.example.net',
            origin: 'asset',
            asset_fingerprint: highFp,
            ai_category: null,
            score: 85,
          },
        }),
      ]);
    }
  });

  it('a medium-risk asset misses the high rule and matches the later medium rule', async () => {
    const res = await score('https://meh-llm.example.net/x');
    expect(res.body.policy_decisions[0]).toMatchObject({
      action: 'alert',
      matched_on: 'min_asset_severity',
      feed_match: { severity: 'medium', origin: 'asset', entry: 'meh-llm.example.net', score: 50 },
    });
  });

  it('block-list entries are in every cut: a domain and a URL (its path, the paths below, any query)', async () => {
    const domain = await score('https://www.blocked-ai.example.com/');
    expect(domain.body.policy_decisions[0]).toMatchObject({
      action: 'block',
      feed_match: { severity: 'critical', origin: 'block_list', entry: 'blocked-ai.example.com', score: null },
    });
    for (const url of [
      'https://paste.example.org/ai/upload',
      'https://paste.example.org/ai/upload/file.txt',
      'http://paste.example.org/ai/upload?id=1',
    ]) {
      expect([url, (await score(url)).body.policy_decisions[0]]).toEqual([
        url,
        expect.objectContaining({
          matched_on: 'min_asset_severity',
          feed_match: expect.objectContaining({ entry_type: 'url', entry: 'paste.example.org/ai/upload' }),
        }),
      ]);
    }
    for (const url of ['https://paste.example.org/ai/uploader', 'https://paste.example.org/other']) {
      expect([url, (await score(url)).body.policy_decisions[0].matched_on]).toEqual([url, 'default']);
    }
  });

  it("an earlier domain rule wins; another tenant's risky asset does not count; unknown hosts take the default", async () => {
    expect((await score('https://docs.example.org/')).body.policy_decisions[0]).toMatchObject({
      action: 'allow',
      matched_on: 'domain',
      feed_match: null,
    });
    const other = await score('https://b-only-llm.example.com/');
    expect(other.body.policy_decisions[0]).toMatchObject({ matched_on: 'default', feed_match: null });
    // tenant b has no assigned policy: no decisions at all, and its own asset is not revealed through a
    expect((await score('https://shadow-llm.example.net/', b)).body.policy_decisions).toEqual([]);
  });

  it('agrees with the feed the firewall pulls: a host the route matches at high is a line of the high feed', async () => {
    const t = await feedToken(h, a);
    const high = await h.call('get', '/feeds/v1/lists/panos-url/high', { auth: t.basic });
    expect(high.status).toBe(200);
    const lines = high.text.split('\n');
    for (const [host, listed] of [
      ['shadow-llm.example.net', true],
      ['meh-llm.example.net', false],
      ['blocked-ai.example.com', true],
      ['b-only-llm.example.com', false],
    ] as const) {
      const decision = (await score(`https://${host}/`)).body.policy_decisions[0];
      const matchedHigh = decision.feed_match?.severity === 'high' || decision.feed_match?.severity === 'critical';
      expect([host, lines.includes(host), matchedHigh]).toEqual([host, listed, listed]);
    }
  });
});
