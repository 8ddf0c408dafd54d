// The tests both APIs' route fuzzers register (docs/reliability.md "Fuzz"): every route of the service's
// document is covered, each one fuzzed (never a 5xx, a refused request writes nothing, a 2xx the document
// lists), and over all routes some requests were accepted and most refused, which proves the requests reached
// the handlers and not only the validators. The service's file builds its FuzzSuite in a beforeAll.
import { documentRoutes, fuzzRoute, type FuzzSuite, type OpenApiDocument } from './property';

export function describeRouteFuzz(opts: {
  doc: OpenApiDocument;
  /** a floor on the route count, so an empty document cannot pass */
  minRoutes: number;
  /** the suite the service's beforeAll built */
  suite: () => FuzzSuite;
}): void {
  const routes = documentRoutes(opts.doc);
  /** answers by status class over all routes */
  const answered: Record<string, number> = {};

  it('covers every route of the document', () => {
    expect(routes.length).toBeGreaterThan(opts.minRoutes);
  });

  it.each(routes.map((r) => [r.method.toUpperCase(), r.path, r] as const))(
    '%s %s: never a 5xx, a refused request writes nothing, a 2xx the document lists',
    async (_m, _p, route) => {
      for (const [k, n] of Object.entries(await fuzzRoute(opts.suite(), route))) answered[k] = (answered[k] ?? 0) + n;
    },
  );

  it('got past validation: some requests were accepted, most refused', () => {
    expect(answered['2xx'] ?? 0).toBeGreaterThan(routes.length);
    expect(answered['4xx'] ?? 0).toBeGreaterThan(answered['2xx'] ?? 0);
    process.stdout.write(`fuzz answers by status class: ${JSON.stringify(answered)}\n`);
  });
}
