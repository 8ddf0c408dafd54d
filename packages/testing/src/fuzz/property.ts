import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import request from 'supertest';
import {
  authorizationArb,
  HOSTILE_QUERY_KEYS,
  hostileNestingBody,
  hostileSegment,
  hostileValue,
  prototypePolluted,
  withFieldsReplaced,
} from './arbitraries';
import { schemaArbitrary, type JsonSchema, type SchemaDocument } from './schema-arbitrary';

/**
 * The fuzz property over one route of an OpenAPI document (docs/reliability.md "Fuzz"), shared by the public and
 * the admin API's suites. Invariant: never a 5xx; a 4xx carries the error envelope and writes no row (the
 * suite's `rowCounts` is the same before and after); a 2xx is a status the document lists for the operation.
 */
export interface Parameter {
  name: string;
  in: string;
  schema?: JsonSchema;
}
export interface Operation {
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
  responses?: Record<string, unknown>;
}
export interface OpenApiDocument extends SchemaDocument {
  paths: Record<string, Record<string, Operation>>;
}
export interface Route {
  method: 'get' | 'post' | 'put' | 'delete';
  path: string;
  op: Operation;
}

export interface FuzzSuite {
  /** what supertest sends to (the app, in-process) */
  app: Parameters<typeof request>[0];
  doc: OpenApiDocument;
  /** valid Authorization values by name; a run uses one of them or a hostile one */
  auth: Record<string, string>;
  /** real values of path parameters by name, used now and then so requests get past the look-up */
  knownIds?: Record<string, string[]>;
  /** suite-specific bodies, besides those generated from the document's schema */
  extraBodies?: Array<fc.Arbitrary<unknown>>;
  /** a snapshot of the row counts (and anything else) a refused request must not change */
  rowCounts(): Promise<string>;
  runs: number;
  seed: number;
}

const METHODS = ['get', 'post', 'put', 'delete'] as const;

export function documentRoutes(doc: OpenApiDocument): Route[] {
  return Object.entries(doc.paths).flatMap(([path, ops]) =>
    METHODS.filter((m) => ops[m]).map((method) => ({ method, path, op: ops[method]! })),
  );
}

function pathParamArb(suite: FuzzSuite, name: string): fc.Arbitrary<string> {
  const hostile = fc
    .tuple(hostileSegment, fc.boolean())
    .map(([segment, encode]) => (encode ? encodeURIComponent(segment) : segment.replace(/[?#\s]/g, '_')))
    // an empty segment addresses another route (`/v1/threats/` is `/v1/threats`), which its own fuzz covers
    .filter((segment) => segment !== '');
  const known = suite.knownIds?.[name] ?? [];
  return known.length ? fc.oneof(hostile, fc.constantFrom(...known.map(encodeURIComponent))) : hostile;
}

function queryArb(suite: FuzzSuite, op: Operation): fc.Arbitrary<Record<string, unknown>> {
  const documented = (op.parameters ?? []).filter((p) => p.in === 'query');
  const valid = fc.record(
    Object.fromEntries(documented.map((p) => [p.name, schemaArbitrary(suite.doc, p.schema ?? {})])),
    { requiredKeys: [] },
  );
  const keys = [...documented.map((p) => p.name), ...HOSTILE_QUERY_KEYS];
  const hostile = fc.dictionary(fc.constantFrom(...keys), hostileValue, { maxKeys: 3 });
  return fc.oneof(valid, hostile);
}

function bodyArb(suite: FuzzSuite, op: Operation): fc.Arbitrary<string> {
  const schema = op.requestBody?.content?.['application/json']?.schema;
  const fromSchema = schema ? [schemaArbitrary(suite.doc, schema)] : [];
  const json = fc.oneof(
    ...fromSchema.map((arbitrary) => ({ arbitrary, weight: 3 })),
    ...fromSchema.map((a) => withFieldsReplaced(a)),
    fc.jsonValue({ maxDepth: 3 }),
    ...(suite.extraBodies ?? []),
  );
  return fc.oneof(
    { arbitrary: json.map((v) => JSON.stringify(v) ?? 'null'), weight: 9 },
    fc.constantFrom('{"a":', '', '\u0000', '[]'.repeat(2000), `{"x":"${'a'.repeat(300_000)}"}`),
  );
}

export function caseArb(suite: FuzzSuite, route: Route) {
  const names = templateParams(route.path);
  const params = fc.tuple(...names.map((n) => pathParamArb(suite, n)));
  const hasBody = route.method === 'post' || route.method === 'put';
  const anyCase = fc.record({
    params,
    query: queryArb(suite, route.op),
    body: hasBody ? bodyArb(suite, route.op) : fc.constant(undefined),
    auth: authorizationArb(suite.auth),
    idemKeys: fc.constantFrom(0, 1, 1, 2, 3),
  });
  if (!hasBody) return anyCase;
  // a valid-looking body with a value nested at or far past the depth limit, or `__proto__` keys, sent with a valid
  // credential and Idempotency-Key so that it reaches the body reader, validation and the idempotency hash
  const schema = route.op.requestBody?.content?.['application/json']?.schema;
  // (real ids where the suite has them: an empty or dotted segment could turn the URL into another route)
  const knownParams = fc.tuple(
    ...names.map((n) => {
      const known = suite.knownIds?.[n] ?? [];
      return known.length ? fc.constantFrom(...known.map(encodeURIComponent)) : fc.constant('x1');
    }),
  );
  const nestingCase = fc.record({
    params: knownParams,
    query: fc.constant({}),
    body: hostileNestingBody(schema ? schemaArbitrary(suite.doc, schema) : fc.constant({})),
    auth: fc.constantFrom(...Object.values(suite.auth)),
    idemKeys: fc.constant(1),
  });
  return fc.oneof({ arbitrary: anyCase, weight: 4 }, { arbitrary: nestingCase, weight: 1 });
}

/** `{id}`: a whole path segment in OpenAPI templates (no regular expression: `pnpm check:redos`) */
const isTemplate = (segment: string) => segment.startsWith('{') && segment.endsWith('}');
const templateParams = (path: string) =>
  path
    .split('/')
    .filter(isTemplate)
    .map((segment) => segment.slice(1, -1));

// a UUID, as the public API requires (a malformed key is one of the hostile headers below)
const idem = () => randomUUID();

/**
 * Runs the property over one route; a failure names the route, FUZZ_SEED and the counterexample. Returns how
 * many answers of each status class it got, so a suite can show its requests got past validation at all.
 */
export async function fuzzRoute(suite: FuzzSuite, route: Route): Promise<Record<string, number>> {
  const classes: Record<string, number> = {};
  const allowed = Object.keys(route.op.responses ?? {});
  const property = fc.asyncProperty(caseArb(suite, route), async (c) => {
    let i = 0;
    const url = route.path
      .split('/')
      .map((segment) => (isTemplate(segment) ? (c.params[i++] ?? '') : segment))
      .join('/');
    const before = await suite.rowCounts();
    const agent = request(suite.app);
    let req = agent[route.method](url).query(c.query as Record<string, string>);
    if (c.auth !== undefined) req = req.set('Authorization', c.auth);
    if (c.idemKeys === 1) req = req.set('Idempotency-Key', idem());
    if (c.idemKeys === 2) req = req.set('Idempotency-Key', [idem(), idem()] as unknown as string); // two header lines
    if (c.idemKeys === 3) req = req.set('Idempotency-Key', 'x'.repeat(300));
    if (c.body !== undefined) req = req.set('Content-Type', 'application/json').send(c.body);
    let res: request.Response;
    try {
      res = await req;
    } catch (err) {
      // a URL the HTTP client refuses to send never reached the server
      if (/Invalid URI|Request path contains unescaped|invalid character/i.test(String(err))) return;
      throw err;
    }
    const statusClass = `${String(res.status)[0]}xx`;
    classes[statusClass] = (classes[statusClass] ?? 0) + 1;
    const where = `${route.method.toUpperCase()} ${url.slice(0, 200)} → ${res.status} ${res.text.slice(0, 300)}`;
    if (res.status >= 500) throw new Error(`5xx: ${where}`);
    if (prototypePolluted()) throw new Error(`Object.prototype polluted: ${where}`);
    if (res.status >= 400) {
      const e = (res.body as { error?: { type?: string; code?: string; message?: string } } | undefined)?.error;
      if (!(e?.type && e.code && e.message)) throw new Error(`4xx without the error envelope: ${where}`);
      const after = await suite.rowCounts();
      if (after !== before) throw new Error(`a refused request wrote rows (${before} → ${after}): ${where}`);
    } else if (!allowed.includes(String(res.status))) throw new Error(`status not in the document: ${where}`);
  });
  try {
    await fc.assert(property, { numRuns: suite.runs, seed: suite.seed, endOnFailure: true });
    return classes;
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    throw new Error(
      `fuzz ${route.method.toUpperCase()} ${route.path} failed; replay with FUZZ_SEED=${suite.seed} FUZZ_RUNS=${suite.runs}\n${message}`,
      { cause: err },
    );
  }
}

/** FUZZ_RUNS and FUZZ_SEED from the environment (fixed defaults: a CI run is reproducible) */
export function fuzzSettings(defaults: { runs: number; seed?: number }): { runs: number; seed: number } {
  return {
    runs: Number(process.env.FUZZ_RUNS ?? defaults.runs),
    seed: Number(process.env.FUZZ_SEED ?? defaults.seed ?? 20261124),
  };
}
