import { randomUUID } from 'node:crypto';
import { JSON_BODY_MAX_DEPTH } from '@risk/contracts';
import request from 'supertest';
import { createAdminHarness, type AdminHarness, type Tenant } from './harness';

// Request bodies nested deeper than JSON_BODY_MAX_DEPTH (docs/security.md "JSON nesting depth"): the admin API reads
// bodies with the same route builder as the public API, so every body-taking route refuses one with a 400 naming
// the first value too deep, before validation or the idempotency hash, and nothing is written.
let h: AdminHarness;
let tenant: Tenant;
beforeAll(async () => {
  h = await createAdminHarness('body-depth');
  tenant = await h.registerTenant();
});
afterAll(() => h.close());

async function rowCounts() {
  const { rows } = await h.ctx.db.pool.query(
    `SELECT (SELECT count(*) FROM tenants)::int AS tenants, (SELECT count(*) FROM firewalls)::int AS firewalls,
            (SELECT count(*) FROM url_filter_policies)::int AS policies, (SELECT count(*) FROM api_keys)::int AS keys,
            (SELECT count(*) FROM idempotency_keys)::int AS idempotency`,
  );
  return rows[0];
}

const errorLogLines = () => h.ctx.logLines.filter((l) => (JSON.parse(l) as { level?: string }).level === 'error');

/** `{"x":[[…]]}` with `depth` levels of arrays under x, as raw JSON text */
const deepBody = (depth: number) => `{"x":${'['.repeat(depth)}${']'.repeat(depth)}}`;
/** x's value is at depth 2 (the body is 1): the first value too deep is JSON_BODY_MAX_DEPTH - 1 levels below it */
const TOO_DEEP_PARAM = 'x' + '[0]'.repeat(JSON_BODY_MAX_DEPTH - 1);

function send(method: string, path: string, auth: string | null, json: string) {
  const agent = request(h.app);
  let req = agent[method as 'post' | 'put'](path)
    .set('Idempotency-Key', randomUUID())
    .set('Content-Type', 'application/json');
  if (auth) req = req.set('Authorization', auth);
  return req.send(json);
}

describe('a body nested deeper than the limit is a 400 naming the field on every admin route, and writes nothing', () => {
  test('every documented route that takes a JSON body, 5 000 levels deep', async () => {
    const doc = (await h.call('get', '/openapi.json')).body as {
      paths: Record<
        string,
        Record<string, { security: Array<Record<string, unknown>>; requestBody?: { content: Record<string, unknown> } }>
      >;
    };
    const authFor = (security: Array<Record<string, unknown>>) => {
      const scheme = Object.keys(security[0] ?? {})[0];
      return scheme === 'adminToken' ? h.adminAuth : scheme === 'tenantToken' ? tenant.auth : null;
    };
    const operations = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops)
        .filter(([, op]) => op.requestBody?.content['application/json'])
        .map(([method, op]) => ({ method, path: path.replace(/\{[^}]+\}/g, 'x1'), auth: authFor(op.security) })),
    );
    expect(operations.length).toBeGreaterThan(10);
    const before = await rowCounts();
    const errorsBefore = errorLogLines().length;
    const answers = [];
    for (const { method, path, auth } of operations) {
      const res = await send(method, path, auth, deepBody(5_000));
      answers.push(`${method} ${path} ${res.status} ${res.body.error?.code} ${res.body.error?.param}`);
    }
    expect(answers).toEqual(
      operations.map(({ method, path }) => `${method} ${path} 400 parameter_invalid ${TOO_DEEP_PARAM}`),
    );
    expect(await rowCounts()).toEqual(before);
    expect(errorLogLines().slice(errorsBefore)).toEqual([]);
  });

  test.each([
    [
      '/tenants/v1/register',
      () => h.adminAuth,
      (x: string) => `{"name":"deep","admin_email":"a@deep.example","x":${x}}`,
    ],
    ['/firewalls/v1', () => tenant.auth, (x: string) => `{"name":"fw","vendor":"fortinet","x":${x}}`],
  ])('POST %s with 100 000 levels in a field', async (path, auth, body) => {
    const before = await rowCounts();
    const res = await send('post', path, auth(), body('['.repeat(100_000) + ']'.repeat(100_000)));
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({
      type: 'invalid_request_error',
      code: 'parameter_invalid',
      param: TOO_DEEP_PARAM,
    });
    expect(res.body.error.request_id).toBe(res.headers['x-request-id']);
    expect(await rowCounts()).toEqual(before);
  });
});
