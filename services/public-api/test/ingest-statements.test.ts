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

  test("a bulk request's signals go in with COPY byte for byte: escapes, line breaks, tabs, \\N, empty and null", async () => {
    // COPY's text format gives backslash, tab, line breaks and \N a meaning (docs/data-access.md "COPY")
    const awkward = ['a\tb', 'line1\nline2\r\nend', '\\N', '\\', 'back\\slash \\t not a tab', "O'Brien ünï 🚀", ''];
    const signals = awkward.map((text, i) =>
      signalBody(h.orgId, {
        fingerprint: `copy-${i}-${h.orgId}`,
        name: text,
        version: text,
        source_url: `https://example.com/${encodeURIComponent(text)}`,
        raw_manifest: JSON.stringify({ text }),
        metadata: { text, nested: [{ t: `\t${text}\n` }] },
        // the empty text: name, version and source_url omitted, stored as null
        ...(text === '' ? { name: undefined, version: undefined, source_url: undefined } : {}),
      }),
    );
    const res = await request(h.app)
      .post('/v1/signals/bulk')
      .set('Authorization', `Bearer ${h.key}`)
      .set('Idempotency-Key', idem())
      .send({ signals });
    expect([res.status, res.body.error]).toEqual([202, undefined]);
    const ids = res.body.data.map((r: { id: string }) => r.id);
    const rows = await h.ctx.db.prisma.signal.findMany({ where: { id: { in: ids } } });
    const byId = new Map(rows.map((r) => [r.id, r]));
    signals.forEach((sent, i) => {
      const row = byId.get(ids[i])!;
      expect([row.fingerprint, row.name, row.version, row.source_url, row.raw_manifest, row.metadata]).toEqual([
        sent.fingerprint,
        sent.name ?? null,
        sent.version ?? null,
        sent.source_url ?? null,
        sent.raw_manifest,
        sent.metadata,
      ]);
      expect(row.observed_at.toISOString()).toBe(new Date(Number(sent.observed_at) * 1000).toISOString());
    });
    // the same rows as the single-signal path stores: what GET /v1/signals/{id} renders is unchanged
    const one = await request(h.app).get(`/v1/signals/${ids[1]}`).set('Authorization', `Bearer ${h.key}`);
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({
      id: ids[1],
      name: awkward[1],
      version: awkward[1],
      metadata: signals[1]!.metadata,
    });
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
