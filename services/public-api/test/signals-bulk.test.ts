import request from 'supertest';
import { contentDigest } from '../src/domain/signals/ingest-signals';
import { createHarness, idem, projected, signalBody, type Harness } from './harness';

let h: Harness;
const auth = () => ({ Authorization: `Bearer ${h.key}` });
beforeAll(async () => {
  h = await createHarness('signals-bulk');
});
afterAll(() => h.close());

const bulk = (signals: unknown[], key = h.key) =>
  request(h.app)
    .post('/v1/signals/bulk')
    .set('Authorization', `Bearer ${key}`)
    .set('Idempotency-Key', idem())
    .send({ signals });

describe('POST /v1/signals/bulk', () => {
  test('500 signals are stored in one request with a fixed number of statements', async () => {
    const signals = Array.from({ length: 500 }, (_, i) =>
      signalBody(h.orgId, { fingerprint: `bulk-${i % 250}-${h.orgId}` }),
    );
    const res = await bulk(signals);
    expect(res.status).toBe(202);
    expect(res.body.object).toBe('signal_batch');
    expect(res.body.data).toHaveLength(500);
    expect(res.body.enrichment_queued).toBe(250);
    expect(res.body.data[0].enrichment).toEqual({ status: 'queued', reason: 'new_asset' });
    // each fingerprint appears twice with equal content: both report the asset's decision
    expect(res.body.data[250].enrichment).toEqual({ status: 'queued', reason: 'new_asset' });
    expect(await h.ctx.db.prisma.signal.count({ where: { fingerprint: { startsWith: 'bulk-' } } })).toBe(500);
    await projected(h); // the assets follow the 202 (docs/reliability.md "Asset projection")
    const asset = await h.ctx.db.prisma.asset.findUniqueOrThrow({
      where: { livemode_fingerprint: { livemode: true, fingerprint: `bulk-0-${h.orgId}` } },
    });
    expect(asset.signal_count).toBe(2);
  });

  test('the 202 is compact: one receipt per signal in request order, the full signal at GET /v1/signals/{id}', async () => {
    const signals = Array.from({ length: 7 }, (_, i) =>
      signalBody(h.orgId, { fingerprint: `compact-${i}-${h.orgId}` }),
    );
    const key = idem();
    const send = () =>
      request(h.app).post('/v1/signals/bulk').set(auth()).set('Idempotency-Key', key).send({ signals });
    const res = await send();
    expect(res.status).toBe(202);
    expect(Object.keys(res.body).sort()).toEqual(['data', 'enrichment_queued', 'object']);
    expect(res.body.data).toHaveLength(7);
    res.body.data.forEach((item: Record<string, unknown>, i: number) => {
      // exactly these fields: no echo of the body (raw_manifest, metadata, name …)
      expect(Object.keys(item).sort()).toEqual([
        'content_digest',
        'created',
        'enrichment',
        'fingerprint',
        'id',
        'object',
      ]);
      expect(item).toEqual({
        id: expect.stringMatching(/^sig_/),
        object: 'signal',
        fingerprint: signals[i]!.fingerprint,
        content_digest: contentDigest(signals[i] as never),
        created: expect.any(Number),
        enrichment: { status: 'queued', reason: 'new_asset' },
      });
    });
    const full = await request(h.app).get(`/v1/signals/${res.body.data[3].id}`).set(auth());
    expect(full.status).toBe(200);
    expect(full.body).toMatchObject({
      id: res.body.data[3].id,
      fingerprint: signals[3]!.fingerprint,
      raw_manifest: signals[3]!.raw_manifest,
      metadata: signals[3]!.metadata,
      content_digest: res.body.data[3].content_digest,
      created: res.body.data[3].created,
    });
    // the Idempotency-Key stores (and replays) the compact body, byte for byte
    const stored = await h.ctx.db.prisma.idempotencyKey.findFirstOrThrow({ where: { key, org_id: h.orgId } });
    expect(JSON.parse(stored.response_body!)).toEqual(res.body);
    const replay = await send();
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.text).toBe(res.text);
  });

  test('within a batch, an earlier signal whose content the later one replaces is superseded', async () => {
    const first = signalBody(h.orgId);
    const second = { ...first, version: '9.9.9' };
    const res = await bulk([first, second]);
    expect(res.status).toBe(202);
    expect(res.body.data.map((s: { enrichment: { reason: string } }) => s.enrichment.reason)).toEqual([
      'superseded_in_batch',
      'new_asset',
    ]);
    expect(res.body.enrichment_queued).toBe(1);
  });

  test.each([
    ['an empty list', [], 'parameter_invalid', 'signals'],
    ['501 signals', Array.from({ length: 501 }, () => ({})), 'parameter_invalid', 'signals'],
  ])('%s is 400', async (_label, signals, code, param) => {
    const res = await bulk(signals);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code, param });
  });

  test('one bad item rejects the whole batch and names it (signals[12].observed_at)', async () => {
    const signals = Array.from({ length: 20 }, () => signalBody(h.orgId));
    signals[12]!.observed_at = 'yesterday';
    const before = await h.ctx.db.prisma.signal.count();
    const res = await bulk(signals);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'parameter_invalid', param: 'signals[12].observed_at' });
    delete signals[12]!.observed_at;
    signals[3]!.extra = true;
    const unknown = await bulk(signals);
    expect(unknown.body.error).toMatchObject({ code: 'parameter_unknown', param: 'signals[3].extra' });
    expect(await h.ctx.db.prisma.signal.count()).toBe(before);
  });

  test('an item of another org is 403 org_mismatch naming it, and nothing is written', async () => {
    const signals = Array.from({ length: 5 }, () => signalBody(h.orgId));
    signals[4]!.org_id = 'org_other';
    const before = await h.ctx.db.prisma.signal.count();
    const res = await bulk(signals);
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({ code: 'org_mismatch', param: 'signals[4].org_id' });
    expect(await h.ctx.db.prisma.signal.count()).toBe(before);
  });

  test('an unknown top-level field and a missing signals list are 400', async () => {
    const extra = await request(h.app)
      .post('/v1/signals/bulk')
      .set(auth())
      .set('Idempotency-Key', idem())
      .send({ signals: [signalBody(h.orgId)], x: 1 });
    expect(extra.body.error).toMatchObject({ code: 'parameter_unknown', param: 'x' });
    const missing = await request(h.app).post('/v1/signals/bulk').set(auth()).set('Idempotency-Key', idem()).send({});
    expect(missing.body.error).toMatchObject({ code: 'missing_required_param', param: 'signals' });
  });

  test('bulk bodies may be up to 10 MiB; beyond is 413', async () => {
    const manifest = 'm'.repeat(900 * 1024);
    const ok = await bulk(Array.from({ length: 9 }, () => signalBody(h.orgId, { raw_manifest: manifest })));
    expect(ok.status).toBe(202);
    const tooLarge = await bulk(Array.from({ length: 12 }, () => signalBody(h.orgId, { raw_manifest: manifest })));
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.body.error.code).toBe('request_too_large');
  });
});
