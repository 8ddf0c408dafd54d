// GET /tools/v1/risk-score: the score, severity and factors for known AI services, look-alikes, IP literals,
// punycode hosts and credentials in the URL; 400 param url; and the action the tenant's assigned policies take.
import { harnessWithTenant, expectError, type AdminHarness, type Tenant } from './harness';

let h: AdminHarness;
let tenant: Tenant;
beforeAll(async () => ({ h, tenant } = await harnessWithTenant('adminriskscore')));
afterAll(() => h.close());

const score = (url: string, t: Tenant = tenant) =>
  h.call('get', '/tools/v1/risk-score', { auth: t.auth, query: { url } });
const codes = (body: { factors: Array<{ code: string }> }) => body.factors.map((f) => f.code);

describe('scoring', () => {
  it.each([
    ['https://chat.openai.com/c/123', 'chat.openai.com', 'openai.com', 'ai-chat-assistant', 'OpenAI'],
    ['api.anthropic.com', 'api.anthropic.com', 'anthropic.com', 'ai-api-platform', 'Anthropic'],
  ])(
    'a known AI service (%s) is informational with its category and vendor',
    async (url, host, domain, category, vendor) => {
      const res = await score(url);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        object: 'url_risk_score',
        url,
        host,
        registrable_domain: domain,
        ai_category: category,
        vendor,
        risk_score: 0,
        severity: 'informational',
        scoring_version: '1',
        action: null,
        policy_decisions: [],
      });
      expect(res.body.categories).toContain(category);
      expect(codes(res.body)).toEqual(['ai_service']);
    },
  );

  it('a look-alike of an AI brand (chatgpt-login.example) is medium with brand_impersonation', async () => {
    const res = await score('https://chatgpt-login.example/verify');
    expect(res.body).toMatchObject({
      registrable_domain: 'chatgpt-login.example',
      ai_category: null,
      vendor: null,
      severity: 'medium',
    });
    expect(res.body.risk_score).toBeGreaterThanOrEqual(40);
    expect(res.body.factors).toEqual(
      expect.arrayContaining([
        { code: 'brand_impersonation', points: 40, evidence: expect.stringContaining('"chatgpt"') },
      ]),
    );
  });

  it('a typosquat within edit distance is flagged', async () => {
    expect(codes((await score('https://chatgtp.com/')).body)).toContain('typosquat');
  });

  it.each([
    ['http://203.0.113.5/login', '203.0.113.5'],
    ['http://[2001:db8::1]:8443/', '2001:db8::1'],
    ['http://0x7f000001/', '127.0.0.1'],
  ])('an IP literal host (%s) scores ip_literal_host and has no registrable domain', async (url, host) => {
    const res = await score(url);
    expect(res.body).toMatchObject({ host, registrable_domain: null, categories: [] });
    expect(res.body.factors).toEqual(
      expect.arrayContaining([expect.objectContaining({ code: 'ip_literal_host', points: 30 })]),
    );
    expect(res.body.risk_score).toBeGreaterThanOrEqual(30);
  });

  it('a punycode homoglyph of a brand scores brand_homoglyph and mixed_script', async () => {
    const res = await score('https://xn--chtgpt-4nf.com/');
    expect(codes(res.body)).toEqual(expect.arrayContaining(['brand_homoglyph', 'mixed_script']));
    expect(res.body.severity).toBe('medium');
  });

  it('a plain IDN is flagged punycode only', async () => {
    const res = await score('https://bücher.example/');
    expect(res.body.host).toBe('xn--bcher-kva.example');
    expect(codes(res.body)).toContain('punycode');
    expect(codes(res.body)).not.toContain('brand_homoglyph');
  });

  it('credentials in the URL score userinfo_at and the password is never echoed', async () => {
    const res = await score('https://admin:hunter2secret@claude.ai.evil.example/login');
    expect(codes(res.body)).toEqual(expect.arrayContaining(['userinfo_at', 'brand_in_subdomain_or_path']));
    expect(res.body.registrable_domain).toBe('evil.example');
    expect(res.body.normalized_url).toBe('https://admin:***@claude.ai.evil.example/login');
    expect(res.text).not.toContain('hunter2secret');
    expect(h.ctx.logLines.join('\n')).not.toContain('hunter2secret');
  });

  it('a non-standard port, plain http and many subdomains on a suspicious TLD add up', async () => {
    const res = await score('http://a.b.c.d.login.example.tk:8080/');
    expect(codes(res.body)).toEqual(
      expect.arrayContaining(['nonstandard_port', 'no_tls', 'suspicious_tld', 'many_subdomains']),
    );
    expect(res.body.risk_score).toBe(res.body.factors.reduce((s: number, f: { points: number }) => s + f.points, 0));
  });

  it.each([
    ['missing', undefined, 'missing_required_param'],
    ['empty', '', 'missing_required_param'],
    ['without a host', 'http://', 'parameter_invalid'],
    ['with spaces in the host', 'https://exa mple.com', 'parameter_invalid'],
    ['with an unsupported scheme', 'ftp://files.example', 'parameter_invalid'],
  ])('400 param url when the url is %s', async (_label, url, code) => {
    const res = await h.call('get', '/tools/v1/risk-score', {
      auth: tenant.auth,
      query: url === undefined ? undefined : { url },
    });
    expectError(res, 400, code, 'url');
  });

  it('400 param url when url is given twice', async () => {
    expectError(
      await h.call('get', '/tools/v1/risk-score?url=a.example&url=b.example', { auth: tenant.auth }),
      400,
      'parameter_invalid',
      'url',
    );
  });
});

describe("the tenant's assigned policies", () => {
  it('null action without an assigned policy; the strictest decision among assigned policies otherwise', async () => {
    const t = await h.registerTenant();
    const fw = (
      await h.createFirewall(t.auth, { name: 'fw', type: 'fortinet', host: '10.0.0.1', api_token: h.newApiToken() })
    ).body.id;
    const chat = await h.createPolicy(t.auth, {
      name: 'chat',
      rules: [
        { action: 'allow', domains: ['chatgpt.com'] },
        { action: 'block', categories: ['ai-chat-assistant'] },
        { action: 'alert', min_risk_score: 40 },
      ],
    });
    // a policy that is not assigned does not count
    expect((await score('https://claude.ai/', t)).body).toMatchObject({ action: null, policy_decisions: [] });

    await h.call('post', `/policies/v1/url-filter/${chat.body.id}/assign`, {
      auth: t.auth,
      body: { firewall_ids: [fw] },
    });
    const claude = await score('https://claude.ai/', t);
    expect(claude.body).toMatchObject({
      action: 'block',
      policy_decisions: [
        {
          policy_id: chat.body.id,
          policy_name: 'chat',
          action: 'block',
          rule_id: chat.body.rules[1].id,
          matched_on: 'category',
        },
      ],
    });
    const chatgpt = await score('https://chatgpt.com/', t);
    expect(chatgpt.body).toMatchObject({
      action: 'allow',
      policy_decisions: [{ rule_id: chat.body.rules[0].id, matched_on: 'domain' }],
    });
    const lookalike = await score('https://chatgpt-login.example/verify', t);
    expect(lookalike.body).toMatchObject({
      action: 'alert',
      policy_decisions: [{ rule_id: chat.body.rules[2].id, matched_on: 'min_risk_score' }],
    });
    const plain = await score('https://example.org/', t);
    expect(plain.body).toMatchObject({ action: 'allow', policy_decisions: [{ rule_id: null, matched_on: 'default' }] });

    // a second assigned policy that blocks everything by default: the strictest action wins
    const strict = await h.createPolicy(t.auth, { name: 'strict', default_action: 'block' });
    await h.call('post', `/policies/v1/url-filter/${strict.body.id}/assign`, {
      auth: t.auth,
      body: { firewall_ids: [fw] },
    });
    const both = await score('https://chatgpt.com/', t);
    expect(both.body.action).toBe('block');
    expect(
      both.body.policy_decisions.map((d: { policy_name: string; action: string }) => [d.policy_name, d.action]).sort(),
    ).toEqual([
      ['chat', 'allow'],
      ['strict', 'block'],
    ]);
  });

  it('a disabled rule is skipped', async () => {
    const t = await h.registerTenant();
    const fw = (
      await h.createFirewall(t.auth, { name: 'fw', type: 'palo_alto', host: '10.0.0.2', api_token: h.newApiToken() })
    ).body.id;
    const policy = await h.createPolicy(t.auth, {
      name: 'p',
      rules: [{ action: 'block', domains: ['*.example.net'], enabled: false }],
    });
    await h.call('post', `/policies/v1/url-filter/${policy.body.id}/assign`, {
      auth: t.auth,
      body: { firewall_ids: [fw] },
    });
    expect((await score('https://www.example.net/', t)).body).toMatchObject({
      action: 'allow',
      policy_decisions: [{ matched_on: 'default' }],
    });
  });
});
