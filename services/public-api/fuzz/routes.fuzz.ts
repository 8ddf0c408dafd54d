import fc from 'fast-check';
import {
  describeRouteFuzz,
  fuzzSettings,
  withFieldsReplaced,
  type FuzzSuite,
  type OpenApiDocument,
} from '@risk/testing/src/fuzz';
import { buildPublicOpenApiDocument } from '../src/openapi';
import { createHarness, postSignal, signalBody, type Harness } from '../test/harness';

/**
 * Property-based requests over every route of the public API's OpenAPI document (docs/reliability.md "Fuzz"),
 * with the shared machinery of packages/testing/src/fuzz: path parameters with encoded slashes, dots and
 * unicode (or a real id), documented and hostile queries, bodies from the document's schemas (valid-looking,
 * fields replaced, any JSON, broken JSON), a huge Authorization header, a repeated Idempotency-Key.
 * FUZZ_RUNS (default 60) runs per route; FUZZ_SEED (default fixed) the seed.
 */
const { runs, seed } = fuzzSettings({ runs: 60 });
const doc = buildPublicOpenApiDocument('http://127.0.0.1:8080') as unknown as OpenApiDocument;

let h: Harness;
let suite: FuzzSuite;
beforeAll(async () => {
  h = await createHarness('fuzzpub');
  const fingerprint = 'npm:fuzz-known@1.0.0';
  const signal = await postSignal(h, signalBody(h.orgId, { fingerprint, name: 'fuzz-known' }));
  expect(signal.status).toBe(202);
  suite = {
    app: h.app,
    doc,
    auth: { live: `Bearer ${h.key}`, test: `Bearer ${await h.mintKey({ livemode: false })}` },
    knownIds: { fingerprint: [fingerprint], signal_id: [String(signal.body.id)] },
    // valid signals with fields replaced, and bulk envelopes of anything
    extraBodies: [
      withFieldsReplaced(fc.constant(signalBody(h.orgId))),
      fc.record({ signals: fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 3 }) }),
    ],
    rowCounts: async () => {
      const { rows } = await h.ctx.db.pool.query(
        `SELECT (SELECT count(*) FROM signals) s, (SELECT count(*) FROM assets) a, (SELECT count(*) FROM threats) t,
                (SELECT count(*) FROM webhook_endpoints) w, (SELECT count(*) FROM events) e,
                (SELECT count(*) FROM idempotency_keys WHERE status = 'in_flight') k,
                (SELECT max(updated) FROM threats) tu, (SELECT max(updated) FROM webhook_endpoints) wu`,
      );
      return JSON.stringify(rows[0]);
    },
    runs,
    seed,
  };
});
afterAll(() => h.close());

describeRouteFuzz({ doc, minRoutes: 10, suite: () => suite });
