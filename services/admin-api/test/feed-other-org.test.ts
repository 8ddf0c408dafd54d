// Another org's signal for a tenant's application asset (docs/security.md "Display fields and feeds"): the tenant's
// risk feed (every format and severity), the URL risk score's feed matches and the org's own views of the asset are
// left exactly as they were, whatever URL, name or version the other org sends. Signals go through the real public
// API ingest into the same Postgres the admin API's feed reads.
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { createAdminHarness, unique, type AdminHarness, type Tenant } from './harness';
import { feedToken, setAssetScore } from './feed-fixtures';
import { publicApiOn, type PublicApiOnHarness } from './public-api';

let h: AdminHarness;
let pub: PublicApiOnHarness;
let a: Tenant;
let b: Tenant;
let keyA: string;
let keyB: string;

const FORMATS = ['panos-url', 'panos-domain', 'fortigate-url', 'fortigate-domain'] as const;
const SEVERITIES = ['low', 'medium', 'high', 'critical'] as const;

async function mintKey(t: Tenant): Promise<string> {
  const res = await h.call('post', '/keys/v1', {
    auth: t.auth,
    body: { name: 'ingest', scopes: ['signals:write', 'assets:read'] },
    headers: { 'Idempotency-Key': randomUUID() },
  });
  if (res.status !== 201) throw new Error(`key: ${res.status} ${res.text}`);
  return res.body.key as string;
}

const postSignal = (key: string, body: Record<string, unknown>) =>
  request(pub.app)
    .post('/v1/signals')
    .set('Authorization', `Bearer ${key}`)
    .set('Idempotency-Key', randomUUID())
    .send(body);

const getPublic = (key: string, path: string) => request(pub.app).get(path).set('Authorization', `Bearer ${key}`);

beforeAll(async () => {
  h = await createAdminHarness('adminfeedotherorg', { deps: { feedCacheTtlMs: 0 } });
  pub = publicApiOn(h, 'test-admin-feed-other-org');
  a = await h.registerTenant();
  b = await h.registerTenant();
  [keyA, keyB] = await Promise.all([mintKey(a), mintKey(b)]);
});
afterAll(async () => {
  await pub?.close();
  await h?.close();
});

it("another org's signal for the tenant's application leaves its feeds, feed matches and asset view unchanged", async () => {
  const fingerprint = `app:${unique('shadow-chat')}`;
  const observedAt = Math.floor(Date.now() / 1000) - 60;
  const own = await postSignal(keyA, {
    fingerprint,
    asset_type: 'application',
    org_id: a.org_id,
    observed_at: observedAt,
    name: 'Shadow Chat',
    version: '1.0.0',
    source_url: 'https://shadow-ai.example.com/chat',
  });
  expect(own.status).toBe(202);
  // enrichment found it high-risk (the score is shared intelligence; only the URL is per org)
  await setAssetScore(h, { fingerprint, score: 85 });

  const token = await feedToken(h, a);
  const readFeeds = async () => {
    const out: Record<string, string> = {};
    for (const format of FORMATS)
      for (const severity of SEVERITIES) {
        const res = await h.call('get', `/feeds/v1/lists/${format}/${severity}`, { auth: token.bearer });
        expect(res.status).toBe(200);
        out[`${format}/${severity}`] = res.text;
      }
    return out;
  };
  const scoreOf = async (url: string) => {
    const res = await h.call('get', '/tools/v1/risk-score', { auth: a.auth, query: { url } });
    expect(res.status).toBe(200);
    return res.body;
  };
  const before = await readFeeds();
  expect(before['fortigate-domain/medium']).toContain('shadow-ai.example.com');
  const scoresBefore = [
    await scoreOf('https://shadow-ai.example.com/chat'),
    await scoreOf('https://login.microsoftonline.com/'),
  ];

  // tenant B, which never saw A's data, observes the same fingerprint with its own URL, name and version
  const other = await postSignal(keyB, {
    fingerprint,
    asset_type: 'application',
    org_id: b.org_id,
    observed_at: observedAt + 30,
    name: 'Microsoft 365 Copilot (approved)',
    version: '9.9.9',
    source_url: 'https://login.microsoftonline.com/',
  });
  expect(other.status).toBe(202);

  const after = await readFeeds();
  expect(after).toEqual(before);
  for (const text of Object.values(after)) expect(text).not.toContain('microsoftonline');
  expect([
    await scoreOf('https://shadow-ai.example.com/chat'),
    await scoreOf('https://login.microsoftonline.com/'),
  ]).toEqual(scoresBefore);

  // A's views show A's own name and version: get, list and look-up
  const got = await getPublic(keyA, `/v1/assets/${encodeURIComponent(fingerprint)}`);
  expect(got.status).toBe(200);
  expect(got.body).toMatchObject({ name: 'Shadow Chat', version: '1.0.0' });
  const listed = await getPublic(keyA, '/v1/assets?asset_type=application&limit=100');
  expect(listed.status).toBe(200);
  expect(listed.body.data.find((x: { fingerprint: string }) => x.fingerprint === fingerprint)).toMatchObject({
    name: 'Shadow Chat',
    version: '1.0.0',
  });
  const looked = await getPublic(keyA, `/v1/assets/lookup?fingerprints=${encodeURIComponent(fingerprint)}`);
  expect(looked.status).toBe(200);
  expect(looked.body.data[0].asset).toMatchObject({ name: 'Shadow Chat', version: '1.0.0' });

  // the shared row follows its first observer, A: B did not rename it for anyone
  const shared = await h.ctx.db.prisma.asset.findUniqueOrThrow({
    where: { livemode_fingerprint: { livemode: true, fingerprint } },
    select: { name: true, version: true, source_url: true },
  });
  expect(shared).toEqual({ name: 'Shadow Chat', version: '1.0.0', source_url: 'https://shadow-ai.example.com/chat' });
  // B sees what B sent
  const seenByB = await getPublic(keyB, `/v1/assets/${encodeURIComponent(fingerprint)}`);
  expect(seenByB.body).toMatchObject({ name: 'Microsoft 365 Copilot (approved)', version: '9.9.9' });
});

it("the first observer's own newer signal still updates the shared fields", async () => {
  const fingerprint = `app:${unique('renamed')}`;
  const at = Math.floor(Date.now() / 1000) - 60;
  const base = { fingerprint, asset_type: 'application', org_id: a.org_id };
  expect((await postSignal(keyA, { ...base, observed_at: at, name: 'Old', version: '1' })).status).toBe(202);
  expect(
    (await postSignal(keyB, { ...base, org_id: b.org_id, observed_at: at + 1, name: 'B name', version: '7' })).status,
  ).toBe(202);
  expect((await postSignal(keyA, { ...base, observed_at: at + 2, version: '2' })).status).toBe(202);
  const shared = await h.ctx.db.prisma.asset.findUniqueOrThrow({
    where: { livemode_fingerprint: { livemode: true, fingerprint } },
    select: { name: true, version: true },
  });
  // A's field left out keeps A's earlier value; B's name never replaced it
  expect(shared).toEqual({ name: 'Old', version: '2' });
  const seenByA = await getPublic(keyA, `/v1/assets/${encodeURIComponent(fingerprint)}`);
  expect(seenByA.body).toMatchObject({ name: 'Old', version: '2' });
});
