import { JOBS } from '@risk/common/queue';
import { ASSET_TYPE_VALUES } from '@risk/contracts';
import { ASSET_TYPES } from '@risk/enrichment';
import request from 'supertest';
import { contentDigest } from '../src/domain/signals/ingest-signals';
import { createHarness, enrichLikeWorker, idem, nowSeconds, postSignal, signalBody, type Harness } from './harness';

let h: Harness;
const auth = () => ({ Authorization: `Bearer ${h.key}` });
beforeAll(async () => {
  h = await createHarness('signals-post');
});
afterAll(() => h.close());

async function waitingJobIds(): Promise<string[]> {
  const jobs = await h.producer.queue(JOBS.enrichment.queue).getJobs(['waiting', 'delayed', 'prioritized']);
  return jobs.map((j) => j.id!);
}

test('the contract lists the same asset types as the enrichment engine', () => {
  expect([...ASSET_TYPE_VALUES]).toEqual([...ASSET_TYPES]);
});

describe('POST /v1/signals', () => {
  test('202 with the stored signal; a new asset is pending, its job is in the queue and its outbox row processed', async () => {
    const body = signalBody(h.orgId);
    const res = await postSignal(h, body);
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({
      object: 'signal',
      fingerprint: body.fingerprint,
      org_id: h.orgId,
      observed_at: body.observed_at,
      name: body.name,
      metadata: body.metadata,
      livemode: true,
      enrichment: { status: 'queued', reason: 'new_asset' },
    });
    expect(res.body.id).toMatch(/^sig_/);
    expect(res.body.content_digest).toBe(contentDigest(body as never));
    expect(res.body.content_digest).toMatch(/^[0-9a-f]{64}$/); // the documented form, as in the examples
    const asset = await h.ctx.db.prisma.asset.findUniqueOrThrow({
      where: { livemode_fingerprint: { livemode: true, fingerprint: body.fingerprint as string } },
    });
    expect(asset).toMatchObject({
      enrichment_status: 'pending',
      normalized_name: 'server-filesystem',
      signal_count: 1,
      latest_signal_id: res.body.id,
    });
    const outbox = await h.ctx.db.prisma.outboxMessage.findMany({
      where: { payload: { path: ['fingerprint'], equals: body.fingerprint as string } },
    });
    expect(outbox).toHaveLength(1);
    expect(outbox[0]!.processed_at).not.toBeNull();
    // the job is named after its outbox row (one job per row) and carries the row's payload
    expect(outbox[0]!.payload).toEqual({
      livemode: true,
      fingerprint: body.fingerprint,
      digest: res.body.content_digest,
      reason: 'new_asset',
      request_id: res.headers['x-request-id'],
    });
    expect(await waitingJobIds()).toContain(JOBS.enrichment.jobId(outbox[0]!.id));
    const orgs = await h.ctx.db.prisma.assetOrg.findMany({ where: { fingerprint: body.fingerprint as string } });
    expect(orgs).toEqual([expect.objectContaining({ org_id: h.orgId, signal_count: 1 })]);
    const events = await h.ctx.db.prisma.event.findMany({ where: { fingerprint: body.fingerprint as string } });
    expect(events).toEqual([expect.objectContaining({ type: 'asset.created', org_id: null, livemode: true })]);
  });

  test('the digest ignores key order in metadata and differs when content differs', () => {
    const a = signalBody('o', { metadata: { a: 1, b: { c: 2, d: 3 } } });
    const b = { ...a, metadata: { b: { d: 3, c: 2 }, a: 1 } };
    expect(contentDigest(a as never)).toBe(contentDigest(b as never));
    expect(contentDigest({ ...a, version: '2' } as never)).not.toBe(contentDigest(a as never));
  });

  test('the enrichment trigger rules decide queued or skipped', async () => {
    const body = signalBody(h.orgId);
    const fp = body.fingerprint as string;
    const prisma = h.ctx.db.prisma;
    expect((await postSignal(h, body)).body.enrichment).toEqual({ status: 'queued', reason: 'new_asset' });
    // same content while the job waits: nothing new to do
    expect((await postSignal(h, body)).body.enrichment).toEqual({
      status: 'skipped',
      reason: 'enrichment_in_progress',
    });
    await enrichLikeWorker(h, fp);
    expect((await postSignal(h, body)).body.enrichment).toEqual({ status: 'skipped', reason: 'up_to_date' });
    // enriched longer ago than ENRICHMENT_TTL_DAYS (7)
    await prisma.asset.update({
      where: { livemode_fingerprint: { livemode: true, fingerprint: fp } },
      data: { enriched_at: new Date(Date.now() - 8 * 86_400_000) },
    });
    expect((await postSignal(h, body)).body.enrichment).toEqual({ status: 'queued', reason: 'ttl_expired' });
    expect(
      (await prisma.asset.findUniqueOrThrow({ where: { livemode_fingerprint: { livemode: true, fingerprint: fp } } }))
        .enrichment_status,
    ).toBe('stale');
    await enrichLikeWorker(h, fp);
    // new content
    expect((await postSignal(h, { ...body, raw_manifest: '{"name":"x","version":"3.0.0"}' })).body.enrichment).toEqual({
      status: 'queued',
      reason: 'content_changed',
    });
    expect(
      (await prisma.asset.findUniqueOrThrow({ where: { livemode_fingerprint: { livemode: true, fingerprint: fp } } }))
        .enrichment_status,
    ).toBe('stale');
    // a failed asset is retried
    await prisma.asset.update({
      where: { livemode_fingerprint: { livemode: true, fingerprint: fp } },
      data: { enrichment_status: 'failed' },
    });
    expect((await postSignal(h, body)).body.enrichment).toEqual({ status: 'queued', reason: 'enrichment_failed' });
    expect(
      (await prisma.asset.findUniqueOrThrow({ where: { livemode_fingerprint: { livemode: true, fingerprint: fp } } }))
        .enrichment_status,
    ).toBe('pending');
    const asset = await prisma.asset.findUniqueOrThrow({
      where: { livemode_fingerprint: { livemode: true, fingerprint: fp } },
    });
    expect(asset.signal_count).toBe(6);
  });

  test('two first signals for the same new asset at once both succeed; one job is queued', async () => {
    const body = signalBody(h.orgId);
    const results = await Promise.all(Array.from({ length: 6 }, () => postSignal(h, body)));
    expect(results.map((r) => r.status)).toEqual(Array(6).fill(202));
    const reasons = results.map((r) => r.body.enrichment.reason).sort();
    expect(reasons.filter((r) => r === 'new_asset')).toHaveLength(1);
    const asset = await h.ctx.db.prisma.asset.findUniqueOrThrow({
      where: { livemode_fingerprint: { livemode: true, fingerprint: body.fingerprint as string } },
    });
    expect(asset.signal_count).toBe(6);
  });

  test("org_id other than the key's org is 403 org_mismatch and writes nothing", async () => {
    const body = signalBody('org_someone_else');
    const res = await postSignal(h, body);
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({ type: 'permission_error', code: 'org_mismatch', param: 'org_id' });
    expect(await h.ctx.db.prisma.signal.count({ where: { fingerprint: body.fingerprint as string } })).toBe(0);
  });

  const tooBig = 'x'.repeat(1024 * 1024 + 1);
  test.each([
    ['a missing fingerprint', { fingerprint: undefined }, 'missing_required_param', 'fingerprint'],
    ['a missing asset_type', { asset_type: undefined }, 'missing_required_param', 'asset_type'],
    ['a missing org_id', { org_id: undefined }, 'missing_required_param', 'org_id'],
    ['a missing observed_at', { observed_at: undefined }, 'missing_required_param', 'observed_at'],
    ['an unknown asset_type', { asset_type: 'spaceship' }, 'parameter_invalid', 'asset_type'],
    ['a fractional observed_at', { observed_at: 1700000000.5 }, 'parameter_invalid_integer', 'observed_at'],
    ['observed_at as a string', { observed_at: '1700000000' }, 'parameter_invalid', 'observed_at'],
    ['observed_at in milliseconds (far future)', { observed_at: Date.now() }, 'parameter_invalid', 'observed_at'],
    ['observed_at 10 minutes ahead', { observed_at: nowSeconds() + 600 }, 'parameter_invalid', 'observed_at'],
    ['an unknown field', { colour: 'blue' }, 'parameter_unknown', 'colour'],
    ['metadata that is not an object', { metadata: [1, 2] }, 'parameter_invalid', 'metadata'],
    ['metadata over 16 KiB', { metadata: { blob: 'x'.repeat(17 * 1024) } }, 'parameter_invalid', 'metadata'],
    ['raw_manifest that is not a string', { raw_manifest: { a: 1 } }, 'parameter_invalid', 'raw_manifest'],
    ['raw_manifest over 1 MiB', { raw_manifest: tooBig }, 'parameter_invalid', 'raw_manifest'],
    ['a source_url that is not http(s)', { source_url: 'ftp://x/y' }, 'parameter_invalid', 'source_url'],
    ['an empty fingerprint', { fingerprint: '' }, 'parameter_invalid', 'fingerprint'],
  ])('%s is 400 %s', async (_label, over, code, param) => {
    const body = { ...signalBody(h.orgId), ...over };
    const before = await h.ctx.db.prisma.signal.count();
    const res = await postSignal(h, body);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ type: 'invalid_request_error', code, param });
    expect(res.body.error.request_id).toBe(res.headers['x-request-id']);
    expect(await h.ctx.db.prisma.signal.count()).toBe(before);
  });

  test('observed_at up to 5 minutes ahead is accepted', async () => {
    const res = await postSignal(h, signalBody(h.orgId, { observed_at: nowSeconds() + 240 }));
    expect(res.status).toBe(202);
  });

  test('malformed JSON is 400 invalid_json; a non-JSON content type is 415', async () => {
    const res = await request(h.app)
      .post('/v1/signals')
      .set(auth())
      .set('Idempotency-Key', idem())
      .set('Content-Type', 'application/json')
      .send('{"fingerprint": ');
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_json');
    const form = await request(h.app)
      .post('/v1/signals')
      .set(auth())
      .set('Idempotency-Key', idem())
      .type('form')
      .send('a=b');
    expect(form.status).toBe(415);
  });

  test('a body over 2 MiB is 413 request_too_large in the envelope', async () => {
    const res = await postSignal(h, signalBody(h.orgId, { raw_manifest: 'x'.repeat(2 * 1024 * 1024 + 10) }));
    expect(res.status).toBe(413);
    expect(res.body.error).toMatchObject({ type: 'invalid_request_error', code: 'request_too_large' });
  });
});
