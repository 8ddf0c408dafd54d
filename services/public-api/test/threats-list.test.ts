import request from 'supertest';
import { createHarness, idem, type Harness } from './harness';
import { bearer as auth } from './threats-fixtures';

describe('GET /v1/threats', () => {
  const ids: string[] = [];
  let h2: Harness;
  beforeAll(async () => {
    h2 = await createHarness('threatlist');
    const mk = (over: Record<string, unknown>) =>
      request(h2.app)
        .post('/v1/threats')
        .set(auth(h2.key))
        .set('Idempotency-Key', idem())
        .send({ title: 't', ...over });
    const specs = [
      { category: 'malicious_model', severity: 'critical', affected_asset_types: ['model'] },
      { category: 'prompt_injection', severity: 'high', affected_asset_types: ['mcp_server', 'agent'] },
      { category: 'prompt_injection', severity: 'medium', affected_asset_types: [] },
      { category: 'tool_poisoning', severity: 'high', affected_asset_types: ['mcp_server'] },
      { category: 'malicious_model', severity: 'low', affected_asset_types: ['model', 'dataset'] },
    ];
    for (const s of specs) ids.push((await mk(s)).body.id);
  });
  afterAll(() => h2.close());

  const list = (qs: string) => request(h2.app).get(`/v1/threats${qs}`).set(auth(h2.key));

  test('lists newest first in the list envelope', async () => {
    const res = await list('');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object: 'list', url: '/v1/threats', has_more: false, next_cursor: null });
    expect(res.body.data.map((t: { id: string }) => t.id)).toEqual([...ids].reverse());
  });

  test.each([
    ['?category=prompt_injection', [2, 1]],
    ['?severity=high', [3, 1]],
    ['?affected_asset_type=mcp_server', [3, 1]],
    ['?affected_asset_type=model&severity=low', [4]],
    ['?category=malicious_model&affected_asset_type=dataset', [4]],
  ])('filters %s', async (qs, expected) => {
    const res = await list(qs);
    expect(res.status).toBe(200);
    expect(res.body.data.map((t: { id: string }) => t.id)).toEqual(expected.map((i) => ids[i]));
  });

  test('rejects an unknown filter value', async () => {
    const res = await list('?category=aliens');
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'parameter_invalid', param: 'category' });
  });

  test('pages forward with starting_after and back with ending_before', async () => {
    const newestFirst = [...ids].reverse();
    const p1 = await list('?limit=2');
    expect(p1.body.data.map((t: { id: string }) => t.id)).toEqual(newestFirst.slice(0, 2));
    expect(p1.body).toMatchObject({ has_more: true, next_cursor: newestFirst[1] });
    const p2 = await list(`?limit=2&starting_after=${p1.body.next_cursor}`);
    expect(p2.body.data.map((t: { id: string }) => t.id)).toEqual(newestFirst.slice(2, 4));
    const p3 = await list(`?limit=2&starting_after=${p2.body.next_cursor}`);
    expect(p3.body.data.map((t: { id: string }) => t.id)).toEqual(newestFirst.slice(4));
    expect(p3.body).toMatchObject({ has_more: false, next_cursor: null });
    const back = await list(`?limit=2&ending_before=${newestFirst[4]}`);
    expect(back.body.data.map((t: { id: string }) => t.id)).toEqual(newestFirst.slice(2, 4));
    expect(back.body.has_more).toBe(true);
    const both = await list(`?starting_after=${ids[0]}&ending_before=${ids[1]}`);
    expect(both.body.error).toMatchObject({ code: 'parameters_exclusive' });
    const unknown = await list('?starting_after=thr_missing');
    expect(unknown.body.error).toMatchObject({ code: 'resource_missing', param: 'starting_after' });
  });
});
