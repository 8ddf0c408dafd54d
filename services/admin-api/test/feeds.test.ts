// Risk feeds for firewalls (docs/feeds.md): feed-token authentication, the four list formats, ETag/304, the block
// list's validation, and tenant isolation, against the real admin app, Postgres and Redis.
import { createAdminHarness, expectError, type AdminHarness, type Tenant } from './harness';
import { feedToken, observedApplication, setAssetScore } from './feed-fixtures';

let h: AdminHarness;
let a: Tenant;
let b: Tenant;
const L = '/feeds/v1/lists';

beforeAll(async () => {
  h = await createAdminHarness('adminfeeds', { deps: { feedCacheTtlMs: 0 } });
  a = await h.registerTenant();
  b = await h.registerTenant();
});
afterAll(async () => h?.close());

const lines = (text: string) => text.split('\n').filter(Boolean);

describe('feed token authentication', () => {
  it('Basic (id:secret) and Bearer secret read the feed; nothing else does', async () => {
    const t = await feedToken(h, a);
    expect(t.secret).toMatch(/^rkf_/);
    for (const auth of [t.basic, t.bearer]) {
      const res = await h.call('get', `${L}/panos-url/high`, { auth });
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    }
    const missing = await h.call('get', `${L}/panos-url/high`);
    expectError(missing, 401, 'token_missing');
    expect(missing.headers['www-authenticate']).toMatch(/^Basic realm="risk-feeds"/);
    expectError(await h.call('get', `${L}/panos-url/high`, { auth: 'Bearer rkf_wrong' }), 401, 'token_invalid');
    // the right secret under another token id is refused
    const other = await feedToken(h, a);
    const crossed = `Basic ${Buffer.from(`${other.id}:${t.secret}`).toString('base64')}`;
    expectError(await h.call('get', `${L}/panos-url/high`, { auth: crossed }), 401, 'token_invalid');
    // a tenant token is not a feed token, and a feed token opens no tenant route
    expectError(await h.call('get', `${L}/panos-url/high`, { auth: a.auth }), 401, 'token_invalid');
    expectError(await h.call('get', '/feeds/v1/tokens', { auth: t.bearer }), 401, 'token_invalid');
    // the list never shows a secret
    const listed = await h.call('get', '/feeds/v1/tokens', { auth: a.auth });
    expect(listed.status).toBe(200);
    expect(listed.text).not.toContain(t.secret);
    expect(listed.body.data.map((x: { id: string }) => x.id)).toEqual(expect.arrayContaining([t.id, other.id]));
  });

  it('revocation is immediate; rotation keeps the previous secret for the grace period', async () => {
    const t = await feedToken(h, a);
    const rotated = await h.call('post', `/feeds/v1/tokens/${t.id}/rotate`, { auth: a.auth });
    expect(rotated.status).toBe(200);
    expect(rotated.body.previous_expires_at).toEqual(expect.any(String));
    expect((await h.call('get', `${L}/fortigate-url/high`, { auth: `Bearer ${rotated.body.token}` })).status).toBe(200);
    expect((await h.call('get', `${L}/fortigate-url/high`, { auth: t.bearer })).status).toBe(200); // grace
    const revoked = await h.call('delete', `/feeds/v1/tokens/${t.id}`, { auth: a.auth });
    expect(revoked.body.status).toBe('revoked');
    expectError(
      await h.call('get', `${L}/fortigate-url/high`, { auth: `Bearer ${rotated.body.token}` }),
      401,
      'token_revoked',
    );
    expectError(await h.call('get', `${L}/fortigate-url/high`, { auth: t.bearer }), 401, 'token_revoked');
    // another tenant cannot revoke or rotate it
    expectError(await h.call('delete', `/feeds/v1/tokens/${t.id}`, { auth: b.auth }), 404, 'resource_missing', 'id');
  });

  it('a bad list name or severity is 400', async () => {
    const t = await feedToken(h, a);
    expectError(
      await h.call('get', `${L}/checkpoint-url/high`, { auth: t.bearer }),
      400,
      'parameter_invalid',
      'format',
    );
    expectError(
      await h.call('get', `${L}/panos-url/informational`, { auth: t.bearer }),
      400,
      'parameter_invalid',
      'severity',
    );
  });
});

describe('feed content', () => {
  it('block list and risky application assets in each format; severity cuts; ETag and 304', async () => {
    const t = await feedToken(h, a);
    const added = await h.call('post', '/feeds/v1/block-list', {
      auth: a.auth,
      body: {
        entries: [
          { value: 'Shadow-AI.example.com' },
          { value: 'https://paste.example.org/ai/upload?x=1', note: 'exfil' },
        ],
      },
    });
    expect(added.status).toBe(200);
    expect(added.body.data.map((e: { kind: string; value: string }) => [e.kind, e.value])).toEqual([
      ['url', 'paste.example.org/ai/upload?x=1'],
      ['domain', 'shadow-ai.example.com'],
    ]);
    await observedApplication(h, { tenant: a, url: 'https://risky-llm.example.net/chat', score: 92 });
    const medium = await observedApplication(h, { tenant: a, url: 'https://meh-llm.example.net/', score: 50 });
    // a hostile source_url never reaches a list
    await observedApplication(h, { tenant: a, url: 'https://evil.example.net%0a*.com/', score: 99 });

    const panUrl = await h.call('get', `${L}/panos-url/high`, { auth: t.basic });
    expect(lines(panUrl.text)).toEqual(
      expect.arrayContaining([
        '*.risky-llm.example.net',
        '*.shadow-ai.example.com',
        'paste.example.org/ai/upload?x=1',
        'risky-llm.example.net',
        'shadow-ai.example.com',
      ]),
    );
    expect(panUrl.text).not.toMatch(/https?:\/\//); // PAN-OS URL lists hold no scheme
    expect(panUrl.text).not.toContain('meh-llm');
    expect(panUrl.text).not.toContain('evil');
    expect(lines(panUrl.text)).toEqual([...lines(panUrl.text)].sort()); // stable order
    expect(panUrl.headers['x-feed-entries']).toBe(String(lines(panUrl.text).length));
    expect(panUrl.headers['cache-control']).toBe('private, no-cache');

    const panDomain = await h.call('get', `${L}/panos-domain/high`, { auth: t.basic });
    expect(lines(panDomain.text)).toEqual(expect.arrayContaining(['risky-llm.example.net', 'shadow-ai.example.com']));
    expect(panDomain.text).not.toContain('*'); // the EDL expands subdomains itself
    expect(panDomain.text).not.toContain('/'); // URLs are not domains
    const fortiDomain = await h.call('get', `${L}/fortigate-domain/high`, { auth: t.basic });
    expect(lines(fortiDomain.text)).toEqual(
      expect.arrayContaining(['*.shadow-ai.example.com', 'shadow-ai.example.com']),
    );
    expect((await h.call('get', `${L}/panos-url/medium`, { auth: t.basic })).text).toContain('meh-llm.example.net');
    expect((await h.call('get', `${L}/panos-url/critical`, { auth: t.basic })).text).toContain('risky-llm.example.net');

    // ETag: an unchanged list is 304 without a body; a change gives a new tag
    const etag = panUrl.headers.etag as string;
    expect(etag).toMatch(/^"[0-9a-f]{40}"$/);
    const again = await h.call('get', `${L}/panos-url/high`, { auth: t.basic, headers: { 'If-None-Match': etag } });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    await setAssetScore(h, { fingerprint: medium, score: 75 });
    const changed = await h.call('get', `${L}/panos-url/high`, { auth: t.basic, headers: { 'If-None-Match': etag } });
    expect(changed.status).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    expect(changed.text).toContain('meh-llm.example.net');
  });

  it("a tenant never sees another tenant's block list or assets", async () => {
    await h.call('post', '/feeds/v1/block-list', {
      auth: b.auth,
      body: { entries: [{ value: 'tenant-b-only.example.com' }] },
    });
    await observedApplication(h, { tenant: b, url: 'https://b-risky.example.com/', score: 95 });
    const ta = await feedToken(h, a);
    const tb = await feedToken(h, b);
    for (const format of ['panos-url', 'panos-domain', 'fortigate-url', 'fortigate-domain']) {
      const ofA = await h.call('get', `${L}/${format}/low`, { auth: ta.bearer });
      expect(ofA.text).not.toContain('tenant-b-only');
      expect(ofA.text).not.toContain('b-risky');
      const ofB = await h.call('get', `${L}/${format}/low`, { auth: tb.bearer });
      expect(ofB.text).toContain('b-risky.example.com');
      expect(ofB.text).not.toContain('shadow-ai');
    }
    const listB = await h.call('get', '/feeds/v1/block-list', { auth: b.auth });
    expect(listB.body.data.map((e: { value: string }) => e.value)).toEqual(['tenant-b-only.example.com']);
    const entryOfB = listB.body.data[0].id as string;
    expectError(
      await h.call('delete', `/feeds/v1/block-list/${entryOfB}`, { auth: a.auth }),
      404,
      'resource_missing',
      'id',
    );
  });
});

describe('block list validation', () => {
  it.each([
    ['a line break', 'evil.example.com\nexample.org'],
    ['a wildcard', '*.example.com'],
    ['no public suffix', 'intranet'],
    ['an IP address', '10.0.0.1'],
    ['another scheme', 'ftp://example.com/x'],
    ['a space in the path', 'example.com/a b'],
    ['an overlong URL', `example.com/${'a'.repeat(300)}`],
  ])('%s → 400 naming the entry, nothing added', async (_name, value) => {
    const before = (await h.call('get', '/feeds/v1/block-list', { auth: a.auth })).body.data.length;
    const res = await h.call('post', '/feeds/v1/block-list', {
      auth: a.auth,
      body: { entries: [{ value: 'fine.example.com' }, { value }] },
    });
    expectError(res, 400, 'parameter_invalid', 'entries[1].value');
    expect((await h.call('get', '/feeds/v1/block-list', { auth: a.auth })).body.data.length).toBe(before);
  });
});
