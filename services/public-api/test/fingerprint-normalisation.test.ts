// Fingerprints are normalised to Unicode NFC wherever they enter (docs/security.md "Fingerprints are
// Unicode-normalised"): `hf:café/model` sent composed (NFC) or decomposed (NFD) is one asset, found by either
// spelling in paths and look-ups, named by threats and suppression globs in the stored form; length limits apply to
// the normalised text. Real app, Postgres and Redis.
import request from 'supertest';
import { createHarness, postJson, postSignal, signalBody, type Harness } from './harness';

let h: Harness;
beforeAll(async () => {
  h = await createHarness('fingerprint-nfc');
});
afterAll(() => h.close());

const get = (path: string) => request(h.app).get(path).set('Authorization', `Bearer ${h.key}`);
let n = 0;
/** the same fingerprint composed and decomposed */
function spellings() {
  const base = `hf:caf\u00e9-${++n}-${Date.now()}/model`;
  const nfd = base.normalize('NFD');
  expect(nfd).not.toBe(base);
  return { nfc: base, nfd };
}

test('NFC and NFD spellings of a fingerprint are one asset, stored and answered in NFC', async () => {
  const { nfc, nfd } = spellings();
  const first = await postSignal(h, signalBody(h.orgId, { fingerprint: nfd }));
  expect(first.status).toBe(202);
  expect(first.body.fingerprint).toBe(nfc);
  expect((await postSignal(h, signalBody(h.orgId, { fingerprint: nfc }))).status).toBe(202);
  const assets = await h.ctx.db.prisma.asset.findMany({
    where: { fingerprint: { in: [nfc, nfd] } },
    select: { fingerprint: true, signal_count: true },
  });
  expect(assets).toEqual([{ fingerprint: nfc, signal_count: 2 }]);

  // either spelling finds it in a path and in the look-up
  for (const spelling of [nfc, nfd]) {
    const got = await get(`/v1/assets/${encodeURIComponent(spelling)}`);
    expect(got.status).toBe(200);
    expect(got.body.fingerprint).toBe(nfc);
    const looked = await get(`/v1/assets/lookup?fingerprints=${encodeURIComponent(spelling)}`);
    expect(looked.status).toBe(200);
    expect(looked.body.data[0]).toMatchObject({ match: 'exact', asset: { fingerprint: nfc } });
  }
});

test('the bulk route normalises each item', async () => {
  const { nfc, nfd } = spellings();
  const res = await postJson(h, '/v1/signals/bulk', { signals: [signalBody(h.orgId, { fingerprint: nfd })] });
  expect(res.status).toBe(202);
  expect(res.body.data[0].fingerprint).toBe(nfc);
});

test('a threat and a suppression glob name fingerprints in NFC, so they match the stored asset', async () => {
  const { nfc, nfd } = spellings();
  const threat = await postJson(h, '/v1/threats', {
    category: 'malicious_model',
    title: 'look-alike model',
    severity: 'high',
    fingerprints: [nfd],
    risk_penalty: 60,
  });
  expect(threat.status).toBe(201);
  expect(threat.body.fingerprints).toEqual([nfc]);
  const stored = await h.ctx.db.prisma.threat.findUniqueOrThrow({ where: { id: threat.body.id } });
  expect(stored.fingerprints).toEqual([nfc]);

  const glob = `${nfd.slice(0, nfd.indexOf('/'))}/*`;
  const suppression = await postJson(h, '/v1/suppressions', { fingerprint_glob: glob, reason: 'our own model' });
  expect(suppression.status).toBe(201);
  expect(suppression.body.fingerprint_glob).toBe(glob.normalize('NFC'));
  expect(suppression.body.fingerprint_glob.startsWith(nfc.slice(0, nfc.indexOf('/')))).toBe(true);
});

test('length limits apply to the normalised fingerprint', async () => {
  // 300 decomposed é: 600 code units as sent, 300 once composed (the limit is 512)
  const nfd = `x:${'e\u0301'.repeat(300)}`;
  expect(nfd.length).toBeGreaterThan(512);
  const res = await postSignal(h, signalBody(h.orgId, { fingerprint: nfd }));
  expect(res.status).toBe(202);
  expect(res.body.fingerprint).toBe(nfd.normalize('NFC'));
  // composed text over the limit is still refused
  const long = await postSignal(h, signalBody(h.orgId, { fingerprint: `x:${'\u00e9'.repeat(511)}` }));
  expect(long.status).toBe(400);
  expect(long.body.error).toMatchObject({ code: 'parameter_invalid', param: 'fingerprint' });
});

test('look-alike letters from another script stay a separate asset (recorded, not refused)', async () => {
  const latin = `hf:acme-${Date.now()}/llama`;
  const cyrillic = latin.replace('a', '\u0430'); // Cyrillic а
  for (const fingerprint of [latin, cyrillic])
    expect((await postSignal(h, signalBody(h.orgId, { fingerprint }))).status).toBe(202);
  const rows = await h.ctx.db.prisma.asset.findMany({ where: { fingerprint: { in: [latin, cyrillic] } } });
  expect(rows.map((r) => r.fingerprint).sort()).toEqual([latin, cyrillic].sort());
});
