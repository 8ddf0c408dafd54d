import { JSON_BODY_MAX_DEPTH } from '@risk/contracts';
import request from 'supertest';
import { createHarness, idem, type Harness } from './harness';

// Request bodies nested deeper than JSON_BODY_MAX_DEPTH (docs/security.md "JSON nesting depth"): thousands of levels
// once overflowed the stack in the metadata size refine (JSON.stringify) or in canonical JSON (the idempotency hash)
// and answered 500 with a stack logged at error level. Every body is now refused with a 400 naming the first value
// too deep, before anything walks it, and nothing is stored. Also: a nested `__proto__` key counts in the
// idempotency hash, so a different body under the same key is a mismatch rather than a replay.
let h: Harness;
let threatId: string;
const auth = () => ({ Authorization: `Bearer ${h.key}` });
beforeAll(async () => {
  h = await createHarness('body-depth');
  const threat = await request(h.app)
    .post('/v1/threats')
    .set(auth())
    .set('Idempotency-Key', idem())
    .send({ category: 'malicious_model', title: 'deep', severity: 'high' });
  expect(threat.status).toBe(201);
  threatId = threat.body.id;
});
afterAll(() => h.close());

async function rowCounts() {
  const { rows } = await h.ctx.db.pool.query(
    `SELECT (SELECT count(*) FROM signals)::int AS signals, (SELECT count(*) FROM threats)::int AS threats,
            (SELECT count(*) FROM events)::int AS events, (SELECT count(*) FROM idempotency_keys)::int AS keys`,
  );
  return rows[0];
}

const errorLogLines = () => h.ctx.logLines.filter((l) => (JSON.parse(l) as { level?: string }).level === 'error');

/** `depth` levels of arrays (`[[…]]`) or of objects (`{"a":{"a":…}}`), as raw JSON text */
const nested = (depth: number, shape: 'arrays' | 'objects') =>
  shape === 'arrays' ? '['.repeat(depth) + ']'.repeat(depth) : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);

/** the path below a field whose value (at `fieldDepth`; the body is depth 1) is `nested(…)`, to the first value too deep */
const tail = (fieldDepth: number, shape: 'arrays' | 'objects') =>
  (shape === 'arrays' ? '[0]' : '.a').repeat(JSON_BODY_MAX_DEPTH + 1 - fieldDepth);

const signalJson = (fingerprint: string, metadataJson: string) =>
  `{"fingerprint":"${fingerprint}","asset_type":"model","org_id":"${h.orgId}",` +
  `"observed_at":${Math.floor(Date.now() / 1000) - 10},"metadata":${metadataJson}}`;

/** route → the body with `inner` as the value of a metadata field, and the path of that field (with its depth) */
const routes: Array<[string, () => string, (inner: string) => string, string, number]> = [
  ['/v1/signals', () => '/v1/signals', (x) => signalJson('deep:one', `{"x":${x}}`), 'metadata.x', 3],
  [
    '/v1/signals/bulk',
    () => '/v1/signals/bulk',
    (x) => `{"signals":[${signalJson('deep:bulk', `{"x":${x}}`)}]}`,
    'signals[0].metadata.x',
    5,
  ],
  [
    '/v1/threats',
    () => '/v1/threats',
    (x) => `{"category":"malicious_model","title":"deep","severity":"high","metadata":{"x":${x}}}`,
    'metadata.x',
    3,
  ],
  ['/v1/threats/{id}', () => `/v1/threats/${threatId}`, (x) => `{"metadata":{"x":${x}}}`, 'metadata.x', 3],
];

const postRaw = (path: string, json: string, key = idem()) =>
  request(h.app).post(path).set(auth()).set('Idempotency-Key', key).set('Content-Type', 'application/json').send(json);

describe('a body nested deeper than the limit is a 400 naming the field, never a 500, and stores nothing', () => {
  const cases = routes.flatMap(([label, path, body, field, fieldDepth]) =>
    [5_000, 100_000].flatMap((depth) =>
      (['arrays', 'objects'] as const).map((shape) => ({ label, path, body, field, fieldDepth, depth, shape })),
    ),
  );
  test.each(cases)('POST $label, $depth levels of $shape', async ({ path, body, field, fieldDepth, depth, shape }) => {
    const before = await rowCounts();
    const errorsBefore = errorLogLines().length;
    const res = await postRaw(path(), body(nested(depth, shape)));
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({
      type: 'invalid_request_error',
      code: 'parameter_invalid',
      param: field + tail(fieldDepth, shape),
      request_id: res.headers['x-request-id'],
    });
    expect(res.body.error.message).toContain(`at most ${JSON_BODY_MAX_DEPTH} levels deep`);
    expect(await rowCounts()).toEqual(before);
    // a client error: no stack at error level
    expect(errorLogLines().slice(errorsBefore)).toEqual([]);
  });

  test('every documented route that takes a JSON body refuses one nested 5 000 deep with the same 400', async () => {
    const doc = (await request(h.app).get('/v1/openapi.json')).body as {
      paths: Record<string, Record<string, { requestBody?: { content: Record<string, unknown> } }>>;
    };
    const operations = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops)
        .filter(([, op]) => op.requestBody?.content['application/json'])
        .map(([method]) => ({ method, path: path.replace(/\{[^}]+\}/g, 'x1') })),
    );
    expect(operations.length).toBeGreaterThan(10);
    const before = await rowCounts();
    const answers = [];
    for (const { method, path } of operations) {
      const agent = request(h.app);
      const res = await agent[method as 'post' | 'put' | 'patch' | 'delete'](path)
        .set(auth())
        .set('Idempotency-Key', idem())
        .set('Content-Type', 'application/json')
        .send(`{"x":${nested(5_000, 'arrays')}}`);
      answers.push(`${method} ${path} ${res.status} ${res.body.error?.code} ${res.body.error?.param}`);
    }
    const param = 'x' + tail(2, 'arrays');
    expect(answers).toEqual(operations.map(({ method, path }) => `${method} ${path} 400 parameter_invalid ${param}`));
    expect(await rowCounts()).toEqual(before);
  });

  test('a body nested exactly to the limit is accepted; one level more is refused', async () => {
    // the value of a signal's metadata field `x` is at depth 3 (body, metadata, x): 30 levels there reach the limit
    const atLimit = await postRaw('/v1/signals', signalJson('deep:limit', `{"x":${nested(30, 'arrays')}}`));
    expect(atLimit.status).toBe(202);
    const stored = await request(h.app).get(`/v1/signals/${atLimit.body.id}`).set(auth());
    expect(JSON.stringify(stored.body.metadata)).toBe(`{"x":${nested(30, 'arrays')}}`);
    const beyond = await postRaw('/v1/signals', signalJson('deep:limit', `{"x":${nested(31, 'arrays')}}`));
    expect(beyond.status).toBe(400);
    expect(beyond.body.error).toMatchObject({ code: 'parameter_invalid', param: 'metadata.x' + tail(3, 'arrays') });
  });
});

describe('a nested __proto__ key is content like any other', () => {
  const protoSignal = (fingerprint: string, x: number) =>
    signalJson(fingerprint, `{"a":{"__proto__":{"x":${x}}}}`).replace(/"observed_at":\d+/, '"observed_at":1700000000');

  test('the same Idempotency-Key with a body that differs only under __proto__ is 400 idempotency_replay_mismatch', async () => {
    const key = idem();
    const first = await postRaw('/v1/signals', protoSignal('proto:replay', 1), key);
    expect(first.status).toBe(202);
    const before = await rowCounts();
    const second = await postRaw('/v1/signals', protoSignal('proto:replay', 2), key);
    expect(second.status).toBe(400);
    expect(second.body.error).toMatchObject({ type: 'invalid_request_error', code: 'idempotency_replay_mismatch' });
    expect(await rowCounts()).toEqual(before);
    // the same body again is still a replay of the first answer
    const again = await postRaw('/v1/signals', protoSignal('proto:replay', 1), key);
    expect([again.status, again.body.id]).toEqual([202, first.body.id]);
  });

  test('the stored metadata keeps the key, and the content digest changes with what it holds', async () => {
    const one = await postRaw('/v1/signals', protoSignal('proto:digest', 1));
    const two = await postRaw('/v1/signals', protoSignal('proto:digest', 2));
    expect([one.status, two.status]).toEqual([202, 202]);
    const [a, b] = await Promise.all(
      [one, two].map(async (r) => (await request(h.app).get(`/v1/signals/${r.body.id}`).set(auth())).body),
    );
    expect(JSON.stringify(a.metadata)).toBe('{"a":{"__proto__":{"x":1}}}');
    expect(JSON.stringify(b.metadata)).toBe('{"a":{"__proto__":{"x":2}}}');
    expect(a.content_digest).not.toBe(b.content_digest);
  });
});
