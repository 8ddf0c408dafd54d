import { ZCreateSignalBody } from '@risk/contracts';
import fc from 'fast-check';
import request from 'supertest';
import { createHarness, postSignal, enrichLikeWorker, idem, signalBody, type Harness } from './harness';

// Random and mutated bodies must never produce a 5xx and never write a row. Every generated body
// is invalid by construction (an unknown field, a wrong type, or garbage), so nothing may be stored.
let h: Harness;
beforeAll(async () => {
  h = await createHarness('property');
});
afterAll(() => h.close());

async function rowCounts() {
  const p = h.ctx.db.prisma;
  const [signals, assets, outbox, events, keys] = await Promise.all([
    p.signal.count(),
    p.asset.count(),
    p.outboxMessage.count(),
    p.event.count(),
    p.idempotencyKey.count(),
  ]);
  return { signals, assets, outbox, events, keys };
}

const FIELDS = [
  'fingerprint',
  'asset_type',
  'org_id',
  'observed_at',
  'name',
  'version',
  'source_url',
  'raw_manifest',
  'metadata',
] as const;
const nastyValue = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.double(),
  fc.integer({ min: -(2 ** 40), max: 2 ** 40 }).map((n) => n * 1000),
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.array(fc.anything(), { maxLength: 3 }),
  fc.dictionary(fc.string(), fc.anything(), { maxKeys: 3 }),
  fc.constantFrom('', '\u0000', '__proto__', 'constructor', '${jndi:x}', "'; DROP TABLE signals; --"),
);

// a valid signal with one field replaced by another value, or an extra unknown field; kept only when
// the contract rejects it (an integer observed_at in the past, say, is a valid value, not a mutation)
const mutatedSignal = fc
  .tuple(fc.constantFrom(...FIELDS, 'unknown'), nastyValue, fc.string({ minLength: 1, maxLength: 12 }))
  .map(([field, value, extra]) => {
    const body: Record<string, unknown> = signalBody(h.orgId);
    if (field === 'unknown') body[`x_${extra}`] = value;
    else body[field] = value;
    return body;
  })
  // judged in its JSON form, which is what the API receives (undefined members vanish, NaN/Infinity become null)
  .filter((body) => !ZCreateSignalBody.safeParse(JSON.parse(JSON.stringify(body))).success);

const randomBody = fc.oneof(
  fc.anything(),
  fc.json().map((j) => ({ __raw: j })),
  mutatedSignal,
);

test('random and mutated bodies on POST /v1/signals and /bulk never 5xx and never write a row', async () => {
  const before = await rowCounts();
  await fc.assert(
    fc.asyncProperty(randomBody, fc.boolean(), async (body, asBulk) => {
      const path = asBulk ? '/v1/signals/bulk' : '/v1/signals';
      const req = request(h.app).post(path).set('Authorization', `Bearer ${h.key}`).set('Idempotency-Key', idem());
      let res;
      if (body && typeof body === 'object' && '__raw' in (body as object)) {
        res = await req.set('Content-Type', 'application/json').send(String((body as { __raw: string }).__raw));
      } else {
        const payload = asBulk ? { signals: [signalBody(h.orgId), body] } : body;
        res = await req.set('Content-Type', 'application/json').send(JSON.stringify(payload ?? null));
      }
      if (res.status >= 500 || res.status < 400) {
        throw new Error(
          `${path} answered ${res.status} for ${JSON.stringify(body)?.slice(0, 300)}: ${JSON.stringify(res.body)}`,
        );
      }
      expect(res.body.error.request_id).toBe(res.headers['x-request-id']);
    }),
    { numRuns: 300 },
  );
  expect(await rowCounts()).toEqual(before);
});

test('random query strings on the asset routes never 5xx', async () => {
  const enrichedFp = await enrichedAsset();
  const key = fc.constantFrom(
    'limit',
    'starting_after',
    'ending_before',
    'expand[]',
    'asset_type',
    'enrichment_status',
    'fingerprints',
    'lookup_name',
    'lookup_version',
    'lookup_ecosystem',
    'lookup_fingerprint',
    'include_candidates',
    'format',
    'x',
  );
  // printable text, and any 7-bit character (NUL and other control characters included)
  const value = fc.oneof(fc.string({ maxLength: 20 }), fc.string({ maxLength: 20, unit: 'binary-ascii' }));
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom(
        '/v1/assets',
        '/v1/assets/lookup',
        '/v1/assets/fp%2Fx',
        `/v1/assets/${encodeURIComponent(enrichedFp)}/findings`,
        `/v1/assets/${encodeURIComponent(enrichedFp)}/threats`,
        '/v1/assets/fp/aibom',
      ),
      fc.array(fc.tuple(key, value), { maxLength: 6 }),
      async (path, pairs) => {
        const qs = pairs.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&');
        const res = await request(h.app).get(`${path}?${qs}`).set('Authorization', `Bearer ${h.key}`);
        if (res.status >= 500) throw new Error(`${path}?${qs} answered ${res.status}: ${JSON.stringify(res.body)}`);
      },
    ),
    { numRuns: 300 },
  );
});

/** An enriched asset, so the findings and threats routes get as far as their queries. */
async function enrichedAsset(): Promise<string> {
  const body = signalBody(h.orgId);
  const res = await postSignal(h, body);
  expect(res.status).toBe(202);
  await enrichLikeWorker(h, body.fingerprint as string);
  return body.fingerprint as string;
}
