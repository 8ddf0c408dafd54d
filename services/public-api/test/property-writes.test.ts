import { ZCreateThreatBody, ZCreateWebhookBody, ZUpdateThreatBody, ZUpdateWebhookBody } from '@risk/contracts';
import fc from 'fast-check';
import request from 'supertest';
import { z } from 'zod';
import { createHarness, idem, type Harness } from './harness';

// The POST routes besides signals (property.test.ts): random and mutated bodies never produce a 5xx
// and never write or change a row. A generated body is kept only when the route's own contract
// schema rejects it, so every request is invalid by construction.
let h: Harness;
let threatId: string;
let webhookId: string;
const auth = () => ({ Authorization: `Bearer ${h.key}` });

const THREAT = {
  category: 'malicious_model',
  title: 'Pickle payload in model weights',
  severity: 'high',
  description: 'The checkpoint runs code on load.',
  confidence: 0.8,
  affected_asset_types: ['model'],
  fingerprints: ['hf:evil/model'],
  attack_techniques: ['AML.T0010'],
  cve_id: 'CVE-2024-12345',
  remediation: 'Use safetensors.',
  source: 'https://example.org/advisory/1',
  risk_penalty: 30,
  metadata: { feed: 'internal' },
};
// live-mode keys need https; 127.0.0.1 is on the test OUTBOUND_ALLOWED_HOSTS_WEBHOOK list
const WEBHOOK = {
  url: 'https://127.0.0.1/hooks',
  events: ['threat.created'],
  description: 'SOC',
  metadata: { team: 'soc' },
};

beforeAll(async () => {
  h = await createHarness('propwrites');
  const threat = await request(h.app).post('/v1/threats').set(auth()).set('Idempotency-Key', idem()).send(THREAT);
  expect(threat.status).toBe(201);
  threatId = threat.body.id;
  const webhook = await request(h.app).post('/v1/webhooks').set(auth()).set('Idempotency-Key', idem()).send(WEBHOOK);
  expect(webhook.status).toBe(201);
  webhookId = webhook.body.id;
});
afterAll(() => h.close());

/** Row counts of every table a POST can write, plus the full rows the update routes target. */
async function snapshot() {
  const p = h.ctx.db.prisma;
  const [threats, webhooks, deliveries, events, outbox, keys, signals, threat, webhook] = await Promise.all([
    p.threat.count(),
    p.webhookEndpoint.count(),
    p.webhookDelivery.count(),
    p.event.count(),
    p.outboxMessage.count(),
    p.idempotencyKey.count(),
    p.signal.count(),
    p.threat.findUniqueOrThrow({ where: { id: threatId } }),
    p.webhookEndpoint.findUniqueOrThrow({ where: { id: webhookId } }),
  ]);
  return { threats, webhooks, deliveries, events, outbox, keys, signals, threat, webhook };
}

const nastyValue = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.double(),
  fc.integer({ min: -(2 ** 40), max: 2 ** 40 }),
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.array(fc.anything(), { maxLength: 3 }),
  fc.dictionary(fc.string(), fc.anything(), { maxKeys: 3 }),
  fc.constantFrom(
    '',
    '\u0000',
    '__proto__',
    'constructor',
    '${jndi:x}',
    "'; DROP TABLE threats; --",
    'http://169.254.169.254/',
    'CVE-1-1',
  ),
);

/**
 * What the API receives for a generated value: its JSON form (undefined members vanish, NaN and
 * Infinity become null). The oracle must judge that, not the value in memory: `{" ": undefined}` is
 * sent as `{}`, which a route may rightly accept.
 */
const onTheWire = (value: unknown): unknown => JSON.parse(JSON.stringify(value ?? null) ?? 'null');
const rejectedBy = (schema: z.ZodType) => (body: unknown) => !schema.safeParse(onTheWire(body)).success;

/** A valid body with one field replaced (or an unknown one added), kept only if `schema` rejects it. */
function mutated(base: Record<string, unknown>, schema: z.ZodType) {
  return fc
    .tuple(fc.constantFrom(...Object.keys(base), 'unknown'), nastyValue, fc.string({ minLength: 1, maxLength: 12 }))
    .map(([field, value, extra]) =>
      field === 'unknown' ? { ...base, [`x_${extra}`]: value } : { ...base, [field]: value },
    )
    .filter(rejectedBy(schema));
}

/** Raw body text; an empty body is no body, which update routes rightly read as `{}` (no change). */
const rawText = fc.string({ minLength: 1 }).map((raw) => ({ __raw: raw }));

/** Garbage of every JSON shape, or a string that is not JSON at all. */
const garbage = (schema: z.ZodType) =>
  fc.oneof(
    fc.anything().filter(rejectedBy(schema)),
    rawText.filter(({ __raw }) => !isJsonAccepted(__raw, schema)),
  );

function isJsonAccepted(raw: string, schema: z.ZodType): boolean {
  try {
    return schema.safeParse(JSON.parse(raw)).success;
  } catch {
    return false;
  }
}

const ROUTES: Array<{ name: string; path: () => string; body: fc.Arbitrary<unknown> }> = [
  {
    name: '/v1/threats',
    path: () => '/v1/threats',
    body: fc.oneof(mutated(THREAT, ZCreateThreatBody), garbage(ZCreateThreatBody)),
  },
  {
    name: '/v1/threats/{threat_id}',
    path: () => `/v1/threats/${threatId}`,
    body: fc.oneof(mutated(THREAT, ZUpdateThreatBody), garbage(ZUpdateThreatBody)),
  },
  {
    name: '/v1/webhooks',
    path: () => '/v1/webhooks',
    body: fc.oneof(mutated(WEBHOOK, ZCreateWebhookBody), garbage(ZCreateWebhookBody)),
  },
  {
    name: '/v1/webhooks/{webhook_id}',
    path: () => `/v1/webhooks/${webhookId}`,
    body: fc.oneof(mutated(WEBHOOK, ZUpdateWebhookBody), garbage(ZUpdateWebhookBody)),
  },
  {
    name: '/v1/webhooks/{webhook_id}/rotate_secret',
    path: () => `/v1/webhooks/${webhookId}/rotate_secret`,
    body: fc.oneof(
      fc
        .dictionary(fc.string({ minLength: 1 }), fc.anything(), { minKeys: 1, maxKeys: 3 })
        .filter(rejectedBy(z.strictObject({}))),
      garbage(z.strictObject({})),
    ),
  },
];

test.each(ROUTES.map((r) => [r.name, r] as const))(
  'random and mutated bodies on POST %s never 5xx and never write a row',
  async (_name, route) => {
    const before = await snapshot();
    await fc.assert(
      fc.asyncProperty(route.body, async (body) => {
        const raw =
          body !== null && typeof body === 'object' && '__raw' in body
            ? String((body as { __raw: unknown }).__raw)
            : undefined;
        const res = await request(h.app)
          .post(route.path())
          .set(auth())
          .set('Idempotency-Key', idem())
          .set('Content-Type', 'application/json')
          .send(raw ?? JSON.stringify(body ?? null));
        if (res.status >= 500 || res.status < 400) {
          throw new Error(
            `${route.path()} answered ${res.status} for ${(raw ?? JSON.stringify(body))?.slice(0, 300)}: ${JSON.stringify(res.body)}`,
          );
        }
        expect(res.body.error.request_id).toBe(res.headers['x-request-id']);
      }),
      { numRuns: 120 },
    );
    expect(await snapshot()).toEqual(before);
  },
);
