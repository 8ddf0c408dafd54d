import { canonicalJson, sha256Hex } from '@risk/common/crypto';
import request from 'supertest';
import { createHarness, idem, type Harness } from './harness';

/**
 * The Idempotency-Key claim as a state machine with no state that holds forever (docs/reliability.md
 * "Idempotency claims"): an in-flight claim has a lease, a completion that cannot be stored releases the
 * claim, and the scope is the route as express matches it (case-insensitive, trailing slash optional).
 */
let h: Harness;
beforeAll(async () => {
  h = await createHarness('idemlease', { env: { IDEMPOTENCY_LEASE_MS: '5000' } });
});
afterAll(() => h.close());

const threat = () => ({ category: 'malicious_model', title: `lease ${idem()}`, severity: 'low' });

const post = (path: string, key: string, body: unknown) =>
  request(h.app)
    .post(path)
    .set('Authorization', `Bearer ${h.key}`)
    .set('Idempotency-Key', key)
    .send(body as object);

/** An in-flight claim as a request that died after claiming leaves it, `ageMs` old (scope path: relative to /v1). */
async function strandedClaim(path: string, key: string, body: unknown, ageMs: number): Promise<void> {
  await h.ctx.db.pool.query(
    `INSERT INTO idempotency_keys (org_id, livemode, method, path, key, request_hash, status, original_request_id, created)
     VALUES ($1, true, 'POST', $2, $3, $4, 'in_flight', 'req_dead', now() - make_interval(secs => $5::float8 / 1000))`,
    [h.orgId, path.slice('/v1'.length), key, sha256Hex(canonicalJson(body)), ageMs],
  );
}

describe.each([
  ['/v1/threats', threat, 201],
  [
    '/v1/signals',
    () => ({
      fingerprint: `hf:lease/${idem()}`,
      asset_type: 'model',
      org_id: h.orgId,
      observed_at: Math.floor(Date.now() / 1000),
    }),
    202,
  ],
] as const)('an in-flight claim on %s', (path, bodyOf, created) => {
  it('within its lease answers 409 idempotency_key_in_use', async () => {
    const key = idem();
    const body = bodyOf();
    await strandedClaim(path, key, body, 0);
    const res = await post(path, key, body);
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('idempotency_key_in_use');
  });

  it('past its lease is taken over by a retry, which runs and stores its response', async () => {
    const key = idem();
    const body = bodyOf();
    await strandedClaim(path, key, body, 6000);
    const res = await post(path, key, body);
    expect(res.status).toBe(created);
    const again = await post(path, key, body);
    expect(again.status).toBe(created);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body.id).toBe(res.body.id);
  });

  it('past its lease still refuses a different body (400 idempotency_replay_mismatch)', async () => {
    const key = idem();
    await strandedClaim(path, key, bodyOf(), 6000);
    const res = await post(path, key, bodyOf());
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('idempotency_replay_mismatch');
  });
});

it('a 2xx whose completion cannot be stored releases the claim, so a retry is not refused for 24 hours', async () => {
  const key = idem();
  // a fault in the database: the completion UPDATE of this one key fails
  await h.ctx.db.pool.query(`
    CREATE OR REPLACE FUNCTION fail_completion() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.key = '${key}' AND NEW.status = 'completed' THEN RAISE EXCEPTION 'disk full'; END IF;
      RETURN NEW;
    END $$;
    CREATE TRIGGER fail_completion BEFORE UPDATE ON idempotency_keys FOR EACH ROW EXECUTE FUNCTION fail_completion();`);
  try {
    const body = threat();
    const res = await post('/v1/threats', key, body);
    expect(res.status).toBe(201);
    const { rows } = await h.ctx.db.pool.query('SELECT status FROM idempotency_keys WHERE key = $1', [key]);
    expect(rows).toEqual([]);
    const retry = await post('/v1/threats', key, body);
    expect(retry.status).toBe(201);
  } finally {
    await h.ctx.db.pool.query('DROP TRIGGER fail_completion ON idempotency_keys; DROP FUNCTION fail_completion()');
  }
});

it.each(['/V1/THREATS', '/v1/threats/', '/v1/Threats'])(
  'the scope is the route as express matches it: %s and /v1/threats share one key',
  async (variant) => {
    const key = idem();
    const body = threat();
    const first = await post(variant, key, body);
    expect(first.status).toBe(201);
    const second = await post('/v1/threats', key, body);
    expect(second.status).toBe(201);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.body.id).toBe(first.body.id);
    const created = await h.ctx.db.prisma.threat.count({ where: { title: body.title } });
    expect(created).toBe(1);
  },
);

it('path parameters keep their case in the scope (two threats, one key each way)', async () => {
  const a = await post('/v1/threats', idem(), threat());
  expect(a.status).toBe(201);
  const key = idem();
  const update = { title: `renamed ${idem()}` };
  const first = await post(`/v1/threats/${a.body.id}`, key, update);
  expect(first.status).toBe(200);
  // the id in upper case names no threat: the same key there is a different request, not a replay
  const other = await post(`/v1/threats/${String(a.body.id).toUpperCase()}`, key, update);
  expect(other.headers['idempotent-replayed']).toBeUndefined();
  expect(other.status).toBe(404);
});
