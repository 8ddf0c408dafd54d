import type { Router } from 'express';
import request from 'supertest';
import { createHarness, type Harness } from './harness';

// GET /v1/openapi.json against the routes the app really serves: every /v1 route is documented (and
// nothing else), each with its parameters, body, responses in the error envelope and the bearer scheme.
let h: Harness;
let doc: OpenApiDoc;
beforeAll(async () => {
  h = await createHarness('openapi');
  const res = await request(h.app).get('/v1/openapi.json');
  expect(res.status).toBe(200);
  expect(res.headers['content-type']).toContain('application/json');
  doc = res.body;
});
afterAll(() => h.close());

interface Operation {
  security?: Array<Record<string, string[]>>;
  parameters?: Array<{ in: string; name: string; required?: boolean; schema?: unknown }>;
  requestBody?: { content: Record<string, { schema: unknown }> };
  responses: Record<string, { content?: Record<string, { schema: unknown }>; headers?: Record<string, unknown> }>;
}
interface OpenApiDoc {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: {
    schemas: Record<string, { properties?: Record<string, unknown>; required?: string[] }>;
    securitySchemes: Record<string, unknown>;
  };
}

type Layer = {
  route?: { path: string; methods: Record<string, boolean> };
  handle: { stack?: Layer[] };
  rawPath?: string;
  slash?: boolean;
};

/** `METHOD /path/{param}` of every route registered on the express app (mounted routers included). */
function servedRoutes(stack: Layer[], prefix = ''): string[] {
  return stack.flatMap((layer) => {
    if (layer.route) {
      const path = `${prefix}${layer.route.path}`.replace(/:([a-z0-9_]+)/g, '{$1}');
      return Object.keys(layer.route.methods).map((m) => `${m.toUpperCase()} ${path}`);
    }
    if (layer.handle.stack)
      return servedRoutes(layer.handle.stack, layer.slash || !layer.rawPath ? prefix : `${prefix}${layer.rawPath}`);
    return [];
  });
}

const documented = () =>
  Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`));
const operations = () =>
  Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => ({ method, path, op, name: `${method.toUpperCase()} ${path}` })),
  );

/** The spec's route tables (part 4) for /v1. */
const SPEC_ROUTES = [
  'POST /v1/signals',
  'POST /v1/signals/bulk',
  'GET /v1/signals/{signal_id}',
  'GET /v1/assets',
  'GET /v1/assets/lookup',
  'GET /v1/assets/{fingerprint}',
  'GET /v1/assets/{fingerprint}/findings',
  'GET /v1/assets/{fingerprint}/aibom',
  'GET /v1/assets/{fingerprint}/threats',
  'POST /v1/threats',
  'GET /v1/threats',
  'GET /v1/threats/{threat_id}',
  'POST /v1/threats/{threat_id}',
  'POST /v1/webhooks',
];
/** Authenticated routes that check no scope (docs/webhooks.md "Events"): no 403 to document. */
const NO_SCOPE = new Set(['GET /v1/events', 'GET /v1/events/{event_id}']);
/** POST routes whose body is the empty object. */
const EMPTY_BODY = new Set(['POST /v1/webhooks/{webhook_id}/rotate_secret']);
/** POSTs whose body is the bytes of a file, not JSON (docs/artifacts.md "Artifacts in the API") */
const STREAMED_BODY = new Set(['POST /v1/artifacts']);
const ERROR_REF = '#/components/schemas/ErrorEnvelope';

test('is OpenAPI 3.1 with the bearer scheme and the error envelope', () => {
  expect(doc.openapi).toBe('3.1.0');
  expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: 'http', scheme: 'bearer' });
  const envelope = doc.components.schemas.ErrorEnvelope!;
  expect(envelope.required).toEqual(['error']);
  const inner = envelope.properties!.error as { properties: Record<string, unknown>; required: string[] };
  expect(Object.keys(inner.properties).sort()).toEqual(['code', 'message', 'param', 'request_id', 'type']);
  expect(inner.required.sort()).toEqual(['code', 'message', 'request_id', 'type']);
});

test('documents exactly the /v1 routes the app serves, and every route of the spec', () => {
  const served = servedRoutes((h.app as unknown as { router: Router & { stack: Layer[] } }).router.stack)
    .filter((r) => r.split(' ')[1]!.startsWith('/v1/') && r !== 'GET /v1/openapi.json')
    .sort();
  expect(served.length).toBeGreaterThanOrEqual(SPEC_ROUTES.length);
  expect(documented().sort()).toEqual(served);
  expect(documented()).toEqual(expect.arrayContaining(SPEC_ROUTES));
});

test('every operation needs the bearer key and answers its errors in the envelope', () => {
  for (const { name, op } of operations()) {
    expect([name, op.security]).toEqual([name, [{ apiKey: [] }]]);
    const statuses = Object.keys(op.responses);
    const expected = ['400', '401', '500', ...(NO_SCOPE.has(name) ? [] : ['403'])];
    expect([name, statuses]).toEqual([name, expect.arrayContaining(expected)]);
    for (const [status, response] of Object.entries(op.responses)) {
      if (Number(status) >= 400)
        expect([name, status, response.content?.['application/json']?.schema]).toEqual([
          name,
          status,
          { $ref: ERROR_REF },
        ]);
      else expect([name, status, Object.keys(response.content ?? {}).length > 0]).toEqual([name, status, true]);
    }
  }
});

test('every operation documents 429 rate_limited with Retry-After, RateLimit and RateLimit-Policy', () => {
  for (const { name, op } of operations()) {
    const tooMany = op.responses['429'];
    expect([name, tooMany?.content?.['application/json']?.schema]).toEqual([name, { $ref: ERROR_REF }]);
    expect([name, Object.keys(tooMany?.headers ?? {}).sort()]).toEqual([
      name,
      ['RateLimit', 'RateLimit-Policy', 'Retry-After'],
    ]);
  }
});

test('every path parameter is declared and required', () => {
  for (const { name, path, op } of operations()) {
    const inPath = [...path.matchAll(/\{([a-z0-9_]+)\}/g)].map((m) => m[1]);
    const declared = (op.parameters ?? []).filter((p) => p.in === 'path');
    expect([name, declared.map((p) => p.name)]).toEqual([name, inPath]);
    for (const p of declared) expect([name, p.name, p.required]).toEqual([name, p.name, true]);
  }
});

test('every POST documents its JSON body, the Idempotency-Key header, 409 idempotency_key_in_use and 413', () => {
  const posts = operations().filter((o) => o.method === 'post');
  expect(posts.length).toBeGreaterThanOrEqual(7);
  for (const { name, op } of posts) {
    const header = (op.parameters ?? []).find((p) => p.in === 'header' && p.name === 'Idempotency-Key');
    expect([name, header?.required]).toEqual([name, true]);
    const mediaType = STREAMED_BODY.has(name) ? 'application/octet-stream' : 'application/json';
    if (!EMPTY_BODY.has(name))
      expect([name, op.requestBody?.content[mediaType]?.schema]).toEqual([name, expect.anything()]);
    expect([name, Object.keys(op.responses)]).toEqual([name, expect.arrayContaining(['409', '413'])]);
  }
});

test('query parameters of the list and look-up routes are documented', () => {
  const names = (path: string) =>
    (doc.paths[path]!.get!.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
  expect(names('/v1/assets')).toEqual(
    expect.arrayContaining([
      'limit',
      'starting_after',
      'ending_before',
      'asset_type',
      'enrichment_status',
      'intrinsic_risk_severity',
      'expand[]',
    ]),
  );
  expect(names('/v1/assets/lookup')).toEqual(
    expect.arrayContaining([
      'fingerprints',
      'lookup_name',
      'lookup_version',
      'lookup_ecosystem',
      'lookup_fingerprint',
      'include_candidates',
      'expand[]',
    ]),
  );
  expect(names('/v1/assets/{fingerprint}/findings')).toEqual(
    expect.arrayContaining(['limit', 'starting_after', 'ending_before', 'expand[]']),
  );
  expect(names('/v1/assets/{fingerprint}/aibom')).toEqual(['format']);
  const aibom = doc.paths['/v1/assets/{fingerprint}/aibom']!.get!.responses['200']!.content!;
  expect(Object.keys(aibom)).toEqual(
    expect.arrayContaining(['application/json', 'application/spdx+json', 'text/plain']),
  );
});

test('every $ref resolves to a component', () => {
  const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]!);
  expect(refs.length).toBeGreaterThan(0);
  expect([...new Set(refs)].filter((r) => !(r in doc.components.schemas))).toEqual([]);
});
