import request from 'supertest';
import { createHarness, postSignal, idem, signalBody, type Harness } from './harness';

// The literal formatter itself (= pg's escapeLiteral) is tested in packages/db/test/prepared.test.ts; here
// every awkward string must be stored byte for byte by the ingest statements.
describe('round trip through Postgres', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness('ingeststmts');
  });
  afterAll(() => h.close());

  test('quotes, backslashes, unicode and SQL fragments are stored exactly', async () => {
    const nasty = "O'Brien \\ \\' $1 $$ ; COMMIT; -- ünï 🚀 E'x'";
    const body = signalBody(h.orgId, {
      name: nasty,
      version: "1'2\\3",
      raw_manifest: `{"a":"${nasty.replace(/\\/g, '\\\\')}"}`,
      metadata: { k: nasty },
    });
    const res = await postSignal(h, body);
    expect(res.status).toBe(202);
    const row = await h.ctx.db.prisma.signal.findFirstOrThrow({ where: { id: res.body.id } });
    expect(row.name).toBe(nasty);
    expect(row.version).toBe("1'2\\3");
    expect(row.raw_manifest).toBe(body.raw_manifest);
    expect(row.metadata).toEqual({ k: nasty });
  });

  test('a NUL character is a 400 naming the parameter, and nothing is written', async () => {
    const before = await h.ctx.db.prisma.signal.count();
    const res = await request(h.app)
      .post('/v1/signals/bulk')
      .set('Authorization', `Bearer ${h.key}`)
      .set('Idempotency-Key', idem())
      .send({ signals: [signalBody(h.orgId), signalBody(h.orgId, { name: 'a\u0000b' })] });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'parameter_invalid', param: 'signals[1].name' });
    expect(await h.ctx.db.prisma.signal.count()).toBe(before);
    expect(await h.ctx.db.prisma.idempotencyKey.count({ where: { path: '/v1/signals/bulk' } })).toBe(0);
  });
});
