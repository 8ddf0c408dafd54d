import request from 'supertest';
import { createHarness, enrichLikeWorker, idem, nowSeconds, projected, type Harness } from './harness';

let h: Harness;
const auth = () => ({ Authorization: `Bearer ${h.key}` });
const TOTAL = 250;
let newestFirst: string[];

beforeAll(async () => {
  h = await createHarness('listassets');
  // 250 assets in 5 bulk requests, so several share a created time (ties break on fingerprint)
  for (let batch = 0; batch < 5; batch++) {
    const signals = Array.from({ length: 50 }, (_, i) => ({
      fingerprint: `fp-${String(batch * 50 + i).padStart(4, '0')}`,
      asset_type: i % 2 === 0 ? 'model' : 'dataset',
      org_id: h.orgId,
      observed_at: nowSeconds() - 10,
      name: `org/asset-${batch * 50 + i}`,
    }));
    const res = await request(h.app)
      .post('/v1/signals/bulk')
      .set(auth())
      .set('Idempotency-Key', idem())
      .send({ signals });
    expect(res.status).toBe(202);
  }
  await projected(h); // the bulk's assets follow its 202 (docs/reliability.md "Asset projection")
  const rows = await h.ctx.db.prisma.asset.findMany({
    orderBy: [{ created: 'desc' }, { fingerprint: 'desc' }],
    select: { fingerprint: true },
  });
  newestFirst = rows.map((r) => r.fingerprint);
  expect(newestFirst).toHaveLength(TOTAL);
});
afterAll(() => h.close());

const list = (qs = '') => request(h.app).get(`/v1/assets${qs}`).set(auth());

test('lists newest first in the spec envelope with the default page of 20', async () => {
  const res = await list();
  expect(res.status).toBe(200);
  expect(res.body).toMatchObject({ object: 'list', has_more: true, url: '/v1/assets' });
  expect(res.body.data).toHaveLength(20);
  expect(res.body.data.map((a: { fingerprint: string }) => a.fingerprint)).toEqual(newestFirst.slice(0, 20));
  expect(res.body.next_cursor).toBe(newestFirst[19]);
});

test.each([
  ['1', 1, true],
  ['100', 100, true],
])('limit=%s returns %i items', async (limit, n, hasMore) => {
  const res = await list(`?limit=${limit}`);
  expect(res.status).toBe(200);
  expect(res.body.data).toHaveLength(n);
  expect(res.body.has_more).toBe(hasMore);
});

test.each(['0', '101', '-1', '1.5', 'ten'])('limit=%s is 400 naming limit', async (limit) => {
  const res = await list(`?limit=${limit}`);
  expect(res.status).toBe(400);
  expect(res.body.error).toMatchObject({ type: 'invalid_request_error', param: 'limit' });
  expect(['parameter_invalid', 'parameter_invalid_integer']).toContain(res.body.error.code);
});

test('starting_after and ending_before together are 400 parameters_exclusive', async () => {
  const res = await list(`?starting_after=${newestFirst[5]}&ending_before=${newestFirst[1]}`);
  expect(res.status).toBe(400);
  expect(res.body.error.code).toBe('parameters_exclusive');
});

test.each(['starting_after', 'ending_before'])(
  'an unknown %s cursor is 400 resource_missing naming it',
  async (param) => {
    const res = await list(`?${param}=nope`);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'resource_missing', param });
  },
);

test.each(['starting_after', 'ending_before'])(
  'a %s cursor with a NUL or control character is 400 naming it (not a failed query)',
  async (param) => {
    for (const value of ['%00', 'fp-0001%00', '%1B']) {
      const res = await list(`?${param}=${value}`);
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ type: 'invalid_request_error', code: 'parameter_invalid', param });
    }
  },
);

test('an unknown query parameter is 400 parameter_unknown', async () => {
  const res = await list('?colour=blue');
  expect(res.status).toBe(400);
  expect(res.body.error).toMatchObject({ code: 'parameter_unknown', param: 'colour' });
});

test('walking 250 items forward with starting_after and back with ending_before sees each once', async () => {
  const forward: string[] = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < 10; pages++) {
    const res = await list(`?limit=37${cursor ? `&starting_after=${encodeURIComponent(cursor)}` : ''}`);
    expect(res.status).toBe(200);
    forward.push(...res.body.data.map((a: { fingerprint: string }) => a.fingerprint));
    if (!res.body.has_more) {
      expect(res.body.next_cursor).toBeNull();
      break;
    }
    cursor = res.body.next_cursor;
  }
  expect(forward).toEqual(newestFirst);

  // backwards from the oldest: each page stays newest-first; continue with data[0]
  const backward: string[][] = [];
  let before = newestFirst[TOTAL - 1]!;
  const lastPage: string[] = [before];
  for (let pages = 0; pages < 10; pages++) {
    const res = await list(`?limit=37&ending_before=${encodeURIComponent(before)}`);
    expect(res.status).toBe(200);
    const fps = res.body.data.map((a: { fingerprint: string }) => a.fingerprint);
    backward.unshift(fps);
    if (!res.body.has_more) break;
    before = fps[0];
  }
  expect([...backward.flat(), ...lastPage]).toEqual(newestFirst);
});

test('filters by asset_type, enrichment_status and intrinsic_risk_severity', async () => {
  const models = await list('?asset_type=model&limit=100');
  expect(models.body.data.every((a: { asset_type: string }) => a.asset_type === 'model')).toBe(true);
  expect(models.body.data).toHaveLength(100);
  await enrichLikeWorker(h, 'fp-0007');
  const enriched = await list('?enrichment_status=enriched');
  expect(enriched.body.data.map((a: { fingerprint: string }) => a.fingerprint)).toEqual(['fp-0007']);
  const severity = enriched.body.data[0].intrinsic_risk_severity;
  const bySeverity = await list(`?intrinsic_risk_severity=${severity}`);
  expect(bySeverity.body.data.map((a: { fingerprint: string }) => a.fingerprint)).toContain('fp-0007');
  const pendingOnly = await list('?enrichment_status=pending&limit=100');
  expect(pendingOnly.body.data.find((a: { fingerprint: string }) => a.fingerprint === 'fp-0007')).toBeUndefined();
});

test.each([
  ['asset_type', 'spaceship'],
  ['enrichment_status', 'done'],
  ['intrinsic_risk_severity', 'extreme'],
])('an invalid %s is 400 naming it', async (param, value) => {
  const res = await list(`?${param}=${value}`);
  expect(res.status).toBe(400);
  expect(res.body.error).toMatchObject({ code: 'parameter_invalid', param });
});

test('a cursor is resolved without the filters (an item that stopped matching still works)', async () => {
  const res = await list(`?enrichment_status=pending&limit=5&starting_after=fp-0007`);
  expect(res.status).toBe(200);
  expect(res.body.data.length).toBe(5);
});

test('expand[]=findings and expand[]=aibom work on the list (also as data.findings)', async () => {
  const res = await list('?enrichment_status=enriched&expand[]=data.findings&expand[]=aibom');
  expect(res.status).toBe(200);
  expect(Array.isArray(res.body.data[0].findings)).toBe(true);
  expect(res.body.data[0].aibom).toMatchObject({ object: 'aibom' });
  const bad = await list('?expand[]=signals');
  expect(bad.status).toBe(400);
  expect(bad.body.error.param).toBe('expand');
});

const fps = (res: { body: { data: Array<{ fingerprint: string }> } }) => res.body.data.map((a) => a.fingerprint);

test('page edges: a full last page has has_more false and next_cursor null; past either end is an empty page', async () => {
  const last = await list(`?limit=100&starting_after=${newestFirst[149]}`);
  expect(fps(last)).toEqual(newestFirst.slice(150));
  expect(last.body).toMatchObject({ has_more: false, next_cursor: null });
  const afterOldest = await list(`?starting_after=${newestFirst[TOTAL - 1]}`);
  expect(afterOldest.body).toMatchObject({ object: 'list', data: [], has_more: false, next_cursor: null });
  const beforeNewest = await list(`?ending_before=${newestFirst[0]}`);
  expect(beforeNewest.body).toMatchObject({ object: 'list', data: [], has_more: false, next_cursor: null });
});

test('ending_before pages stay newest first; has_more says whether newer items remain', async () => {
  const middle = await list(`?limit=100&ending_before=${newestFirst[150]}`);
  expect(fps(middle)).toEqual(newestFirst.slice(50, 150));
  expect(middle.body.has_more).toBe(true);
  const top = await list(`?limit=100&ending_before=${newestFirst[100]}`);
  expect(fps(top)).toEqual(newestFirst.slice(0, 100));
  expect(top.body.has_more).toBe(false);
  const one = await list(`?limit=1&ending_before=${newestFirst[10]}`);
  expect(fps(one)).toEqual([newestFirst[9]]);
  expect(one.body.has_more).toBe(true);
});

test('filters combine, and apply to cursor pages too', async () => {
  const page1 = await list('?asset_type=dataset&enrichment_status=pending&limit=50');
  expect(page1.status).toBe(200);
  expect(
    page1.body.data.every(
      (a: { asset_type: string; enrichment_status: string }) =>
        a.asset_type === 'dataset' && a.enrichment_status === 'pending',
    ),
  ).toBe(true);
  const page2 = await list(
    `?asset_type=dataset&enrichment_status=pending&limit=100&starting_after=${page1.body.next_cursor}`,
  );
  const all = [...fps(page1), ...fps(page2)];
  const expected = await h.ctx.db.prisma.asset.count({
    where: { asset_type: 'dataset', enrichment_status: 'pending' },
  });
  expect(expected).toBeGreaterThan(100); // 125 datasets, less any a test above enriched
  expect(all).toHaveLength(expected);
  expect(new Set(all).size).toBe(expected);
  expect(page2.body.has_more).toBe(false);
});

test('a repeated single-valued parameter is 400, not silently the first or last value', async () => {
  const res = await list('?limit=1&limit=2');
  expect(res.status).toBe(400);
  expect(res.body.error).toMatchObject({ type: 'invalid_request_error', param: 'limit' });
  const cursor = await list(`?starting_after=${newestFirst[1]}&starting_after=${newestFirst[2]}`);
  expect(cursor.status).toBe(400);
  expect(cursor.body.error.param).toBe('starting_after');
});
