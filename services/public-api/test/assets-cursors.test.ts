import request from 'supertest';
import { createHarness, enrichLikeWorker, postSignal, signalBody, type Harness } from './harness';

let h: Harness;
const auth = () => ({ Authorization: `Bearer ${h.key}` });
beforeAll(async () => {
  h = await createHarness('assets-cursors');
});
afterAll(() => h.close());

describe('asset sub-resources: cursors and bad parameters', () => {
  let fp: string;
  let otherFp: string;
  let findingIds: string[];
  const path = (f: string, suffix = '') => `/v1/assets/${encodeURIComponent(f)}${suffix}`;
  const get = (url: string) => request(h.app).get(url).set(auth());

  beforeAll(async () => {
    const body = signalBody(h.orgId, { fingerprint: `pkg:npm/@scope/pager@1.0.0#${Date.now()}` });
    fp = body.fingerprint as string;
    await postSignal(h, body);
    await enrichLikeWorker(h, fp);
    const other = signalBody(h.orgId);
    otherFp = other.fingerprint as string;
    await postSignal(h, other);
    await enrichLikeWorker(h, otherFp);
    findingIds = (await get(`${path(fp, '/findings')}?limit=100`)).body.data.map((f: { id: string }) => f.id);
    expect(findingIds.length).toBeGreaterThanOrEqual(2);
    // threats listing the fingerprint, so the asset's threat list has several pages of one
    await h.ctx.db.prisma.threat.createMany({
      data: [1, 2, 3].map((n) => ({
        id: `thr_0000000000pg${n}00000000000000`,
        livemode: true,
        created_by_org: h.orgId,
        category: 'other',
        title: `pager ${n}`,
        severity: 'low',
        fingerprints: [fp],
        created: new Date(Date.now() - n * 1000),
      })),
    });
  });

  test('findings walk forward and back one at a time and see every finding once', async () => {
    const forward: string[] = [];
    let cursor: string | undefined;
    for (let i = 0; i < findingIds.length + 1; i++) {
      const res = await get(`${path(fp, '/findings')}?limit=1${cursor ? `&starting_after=${cursor}` : ''}`);
      expect(res.status).toBe(200);
      forward.push(...res.body.data.map((f: { id: string }) => f.id));
      if (!res.body.has_more) break;
      cursor = res.body.next_cursor;
    }
    expect(forward).toEqual(findingIds);
    const backward: string[] = [];
    let before = findingIds[findingIds.length - 1]!;
    for (let i = 0; i < findingIds.length; i++) {
      const res = await get(`${path(fp, '/findings')}?limit=1&ending_before=${before}`);
      backward.unshift(...res.body.data.map((f: { id: string }) => f.id));
      if (!res.body.has_more) break;
      before = res.body.data[0].id;
    }
    expect([...backward, findingIds[findingIds.length - 1]]).toEqual(findingIds);
  });

  test("a finding cursor is resolved within its asset: another asset's finding id is an unknown cursor", async () => {
    const foreign = (await get(`${path(otherFp, '/findings')}?limit=1`)).body.data[0].id;
    for (const param of ['starting_after', 'ending_before']) {
      const res = await get(`${path(fp, '/findings')}?${param}=${foreign}`);
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ type: 'invalid_request_error', code: 'resource_missing', param });
      expect(res.body.error.request_id).toBe(res.headers['x-request-id']);
    }
    const both = await get(`${path(fp, '/findings')}?starting_after=${findingIds[0]}&ending_before=${findingIds[1]}`);
    expect(both.body.error).toMatchObject({ code: 'parameters_exclusive' });
  });

  test('asset threats page with both cursors', async () => {
    const all = (await get(path(fp, '/threats'))).body.data.map((t: { id: string }) => t.id);
    expect(all).toEqual([
      'thr_0000000000pg100000000000000',
      'thr_0000000000pg200000000000000',
      'thr_0000000000pg300000000000000',
    ]);
    const first = await get(`${path(fp, '/threats')}?limit=2`);
    expect(first.body).toMatchObject({ has_more: true, next_cursor: all[1], url: path(fp, '/threats') });
    const second = await get(`${path(fp, '/threats')}?limit=2&starting_after=${first.body.next_cursor}`);
    expect(second.body.data.map((t: { id: string }) => t.id)).toEqual([all[2]]);
    expect(second.body).toMatchObject({ has_more: false, next_cursor: null });
    const back = await get(`${path(fp, '/threats')}?limit=1&ending_before=${all[2]}`);
    expect(back.body.data.map((t: { id: string }) => t.id)).toEqual([all[1]]);
    expect(back.body.has_more).toBe(true);
    const unknown = await get(`${path(fp, '/threats')}?starting_after=thr_nope`);
    expect(unknown.body.error).toMatchObject({ code: 'resource_missing', param: 'starting_after' });
  });

  test('expand is given as expand[] or expand, repeats are harmless, and data.<field> is only for lists', async () => {
    const plain = await get(`${path(fp)}?expand=findings`);
    expect(Array.isArray(plain.body.findings)).toBe(true);
    const twice = await get(`${path(fp)}?expand[]=aibom&expand[]=aibom`);
    expect(twice.body.aibom).toMatchObject({ object: 'aibom' });
    const dataForm = await get(`${path(fp)}?expand[]=data.findings`);
    expect(dataForm.status).toBe(400);
    expect(dataForm.body.error).toMatchObject({ code: 'parameter_invalid', param: 'expand' });
  });

  test.each([
    ['an expand on the threats list', '/threats?expand[]=findings', 'parameter_unknown', 'expand'],
    ['an unknown parameter on the AI-BOM', '/aibom?fmt=json', 'parameter_unknown', 'fmt'],
    ['format given twice', '/aibom?format=json&format=spdx_tv', 'parameter_invalid', 'format'],
    ['an empty format', '/aibom?format=', 'parameter_invalid', 'format'],
    ['format cyclonedx (not a format name)', '/aibom?format=cyclonedx', 'parameter_invalid', 'format'],
    ['an unsupported findings expand', '/findings?expand[]=findings', 'parameter_invalid', 'expand'],
    ['a findings limit of 0', '/findings?limit=0', 'parameter_invalid', 'limit'],
    ['a findings limit of 101', '/findings?limit=101', 'parameter_invalid', 'limit'],
    ['a NUL in a findings cursor', '/findings?starting_after=fnd_%00', 'parameter_invalid', 'starting_after'],
    ['a NUL in a threats cursor', '/threats?ending_before=thr_%00', 'parameter_invalid', 'ending_before'],
  ])('%s is 400 in the envelope', async (_label, suffix, code, param) => {
    const res = await get(path(fp, suffix));
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ type: 'invalid_request_error', code, param });
    expect(res.body.error.request_id).toBe(res.headers['x-request-id']);
  });

  test('a fingerprint over 512 characters or with a control character is 400 naming fingerprint', async () => {
    for (const bad of ['x'.repeat(513), 'a\u0001b']) {
      for (const suffix of ['', '/findings', '/aibom', '/threats']) {
        const res = await get(path(bad, suffix));
        expect([suffix, res.status, res.body.error.param]).toEqual([suffix, 400, 'fingerprint']);
      }
    }
  });
});
