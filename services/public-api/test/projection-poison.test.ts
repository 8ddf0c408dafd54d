// A signal whose projection fails on its data never holds back the signals accepted after it
// (docs/reliability.md "A signal that cannot be applied"): it is tried alone, counted, and set aside after
// PROJECTION_MAX_ATTEMPTS with its error; the others are applied, and the set-aside signal stays stored.
import { PROJECTION_MAX_ATTEMPTS } from '@risk/db';
import request from 'supertest';
import { drainProjections, isDataFailure } from '../src/domain/signals/projector';
import { createHarness, idem, projectorDeps, signalBody, type Harness } from './harness';

let h: Harness;
beforeAll(async () => {
  h = await createHarness('projectionpoison');
  // stands for any input the projection cannot apply: a data exception raised for one fingerprint's asset row
  await h.ctx.db.pool.query(`
    CREATE FUNCTION poison_asset() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.fingerprint LIKE 'poison:%' THEN RAISE EXCEPTION 'poisoned asset %', NEW.fingerprint USING ERRCODE = '22023'; END IF;
      RETURN NEW;
    END $$;
    CREATE TRIGGER poison_asset BEFORE INSERT ON assets FOR EACH ROW EXECUTE FUNCTION poison_asset();`);
});
afterAll(() => h.close());

const deps = () => projectorDeps(h);
const bulk = (signals: unknown[]) =>
  request(h.app)
    .post('/v1/signals/bulk')
    .set('Authorization', `Bearer ${h.key}`)
    .set('Idempotency-Key', idem())
    .send({ signals });

test('the poisoned signal is set aside after its attempts; signals before and after it in the same and later requests are applied', async () => {
  const before = signalBody(h.orgId);
  const poison = signalBody(h.orgId, { fingerprint: `poison:${Date.now()}` });
  const after = signalBody(h.orgId);
  expect((await bulk([before, poison, after])).status).toBe(202);
  const later = signalBody(h.orgId);
  expect((await bulk([later])).status).toBe(202);

  await drainProjections(deps()); // returns: nothing left but the set-aside marker

  const fps = [before, after, later].map((s) => s.fingerprint as string);
  expect(await h.ctx.db.prisma.asset.count({ where: { fingerprint: { in: fps } } })).toBe(3);
  expect(await h.ctx.db.prisma.asset.count({ where: { fingerprint: poison.fingerprint as string } })).toBe(0);
  const markers = await h.ctx.db.prisma.signalProjection.findMany();
  expect(markers).toHaveLength(1);
  expect(markers[0]).toMatchObject({ attempts: PROJECTION_MAX_ATTEMPTS, failed_at: expect.any(Date) });
  expect(markers[0]!.error).toContain('poisoned asset');
  // the accepted signal itself is kept: an operator re-queues it by clearing failed_at
  const stored = await h.ctx.db.prisma.signal.findFirst({ where: { id: markers[0]!.signal_id } });
  expect(stored?.fingerprint).toBe(poison.fingerprint);

  // later bulks keep flowing past it
  const next = signalBody(h.orgId);
  expect((await bulk([next])).status).toBe(202);
  await drainProjections(deps());
  expect(await h.ctx.db.prisma.asset.count({ where: { fingerprint: next.fingerprint as string } })).toBe(1);
});

test('only data failures are counted against a signal: a lost connection or a deadlock is retried as it is', () => {
  expect(isDataFailure(Object.assign(new Error('bad value'), { code: '22023' }))).toBe(true);
  expect(isDataFailure(Object.assign(new Error('duplicate'), { code: '23505' }))).toBe(true);
  expect(isDataFailure(new TypeError('x is undefined'))).toBe(true);
  expect(isDataFailure(Object.assign(new Error('terminating connection'), { code: '57P01' }))).toBe(false);
  expect(isDataFailure(Object.assign(new Error('deadlock'), { code: '40P01' }))).toBe(false);
  expect(isDataFailure(Object.assign(new Error('connect'), { code: 'ECONNREFUSED' }))).toBe(false);
  expect(isDataFailure(new Error('Connection terminated unexpectedly'))).toBe(false);
});
