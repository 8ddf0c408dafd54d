import fc from 'fast-check';
import request from 'supertest';
import { createHarness, idem, signalBody, type Harness } from '../test/harness';

/**
 * Property-based requests over every route of the public API's OpenAPI document (docs/reliability.md
 * "Fuzz"): path parameters with encoded slashes, dots and unicode, hostile queries and bodies, a huge
 * Authorization header, a repeated Idempotency-Key. Invariant: never a 5xx; a 4xx carries the error
 * envelope; a 2xx is a status the document lists; a refused request writes no row.
 * FUZZ_RUNS (default 80) sets the runs per route; FUZZ_SEED (default fixed) the seed.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 80);
const SEED = Number(process.env.FUZZ_SEED ?? 20261124);

let h: Harness;
let doc: { paths: Record<string, Record<string, { responses?: Record<string, unknown> }>> };
beforeAll(async () => {
  h = await createHarness('fuzzpub');
  doc = (await request(h.app).get('/v1/openapi.json')).body;
});
afterAll(() => h.close());

const hostileSegment = fc.oneof(
  fc.constantFrom('..', '.', '%2F', '%2e%2e%2f', 'a%2Fb', '%00', '%', '%ZZ', 'é', '🦙', 'hf:org/model', 'thr_x', ' '),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
);
const hostileValue = fc.oneof(
  fc.string({ maxLength: 60 }),
  fc.constantFrom('', '-1', '0', '1e309', 'NaN', 'true', '[]', '{}', "' OR 1=1 --", 'a'.repeat(5000)),
  fc.integer().map(String),
);
const queryKeys = fc.constantFrom(
  'limit',
  'starting_after',
  'ending_before',
  'expand[]',
  'format',
  'fingerprints',
  'lookup_name',
  'include_candidates',
  'intrinsic_risk_severity',
  'type',
  'status',
  'x',
  '__proto__',
  'constructor',
);
const body = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc
    .constant(signalBody('org_fuzzpub'))
    .chain((b) =>
      fc
        .record({ over: fc.dictionary(fc.constantFrom(...Object.keys(b), 'extra'), fc.jsonValue({ maxDepth: 2 })) })
        .map(({ over }) => ({ ...b, ...over })),
    ),
  fc.record({ signals: fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 3 }) }),
);

async function rowCounts(): Promise<string> {
  const { rows } = await h.ctx.db.pool.query(
    `SELECT (SELECT count(*) FROM signals) s, (SELECT count(*) FROM threats) t, (SELECT count(*) FROM webhook_endpoints) w,
            (SELECT count(*) FROM idempotency_keys WHERE status = 'in_flight') k`,
  );
  return JSON.stringify(rows[0]);
}

function routes(): Array<[string, string]> {
  return Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.keys(ops)
      .filter((m) => ['get', 'post', 'delete'].includes(m))
      .map((m): [string, string] => [m, path]),
  );
}

it('covers every route of the document', () => {
  expect(routes().length).toBeGreaterThan(10);
});

it('no request over any route answers 5xx, writes on refusal, or answers a 2xx the document does not list', async () => {
  for (const [method, path] of routes()) {
    const op = doc.paths[path]![method]!;
    const allowed = Object.keys(op.responses ?? {});
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          segment: hostileSegment,
          encode: fc.boolean(),
          query: fc.dictionary(queryKeys, hostileValue, { maxKeys: 3 }),
          body,
          auth: fc.constantFrom('valid', 'huge', 'garbage', 'none'),
          idemKeys: fc.constantFrom(1, 2, 0),
        }),
        async (c) => {
          const url =
            '/v1' +
            path
              .replace(/^\/v1/, '')
              .replace(/\{[^}]+\}/g, () =>
                c.encode ? encodeURIComponent(c.segment) : c.segment.replace(/[?#\s]/g, '_'),
              );
          const before = await rowCounts();
          let req = request(h.app)[method as 'get' | 'post' | 'delete'](url).query(c.query);
          if (c.auth === 'valid') req = req.set('Authorization', `Bearer ${h.key}`);
          if (c.auth === 'huge') req = req.set('Authorization', `Bearer rk_live_${'A'.repeat(8000)}`);
          if (c.auth === 'garbage') req = req.set('Authorization', 'Bearer \u00ff\u0100');
          if (c.idemKeys === 1) req = req.set('Idempotency-Key', idem());
          if (c.idemKeys === 2) req = req.set('Idempotency-Key', [idem(), idem()] as unknown as string); // sent as two header lines
          if (method === 'post') req = req.set('Content-Type', 'application/json').send(JSON.stringify(c.body));
          let res: request.Response;
          try {
            res = await req;
          } catch (err) {
            // a URL the HTTP client refuses to send never reached the server
            if (/Invalid URI|Request path contains unescaped|invalid character/i.test(String(err))) return;
            throw err;
          }
          const where = `${method.toUpperCase()} ${url} → ${res.status} ${res.text.slice(0, 300)}`;
          if (res.status >= 500) throw new Error(`5xx: ${where}`);
          if (res.status >= 400) {
            if (!(res.body?.error?.type && res.body?.error?.code && res.body?.error?.message))
              throw new Error(`4xx without the error envelope: ${where}`);
            const after = await rowCounts();
            if (after !== before) throw new Error(`a refused request wrote rows (${before} → ${after}): ${where}`);
          } else if (!allowed.includes(String(res.status))) throw new Error(`status not in the document: ${where}`);
        },
      ),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
  }
});
