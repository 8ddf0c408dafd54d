import request from 'supertest';
import { BODY_LIMIT, BULK_BODY_LIMIT } from '../src/app';
import { createHarness, idem, type Harness } from './harness';

// Body limits (issue: 10 MiB on POST /v1/signals/bulk, 2 MiB on every other route). signals-post.test.ts and
// signals-bulk.test.ts cover the two signal routes; here: the exact boundary, and the routes of other resources.
let h: Harness;
const auth = () => ({ Authorization: `Bearer ${h.key}` });
beforeAll(async () => {
  h = await createHarness('bodylimits');
});
afterAll(() => h.close());

/** A JSON object of exactly `bytes` bytes: `{"title":"xxx…"}`. */
function jsonOfSize(bytes: number): string {
  const shell = '{"title":""}';
  return `{"title":"${'x'.repeat(bytes - shell.length)}"}`;
}

const post = (path: string, raw: string) =>
  request(h.app)
    .post(path)
    .set(auth())
    .set('Idempotency-Key', idem())
    .set('Content-Type', 'application/json')
    .send(raw);

test('the limits are 2 MiB and 10 MiB', () => {
  expect(BODY_LIMIT).toBe(2 * 1024 * 1024);
  expect(BULK_BODY_LIMIT).toBe(10 * 1024 * 1024);
});

test.each(['/v1/threats', '/v1/webhooks', '/v1/signals'])(
  'POST %s: exactly 2 MiB is read; one byte more is 413 request_too_large',
  async (path) => {
    const atLimit = await post(path, jsonOfSize(BODY_LIMIT));
    expect(atLimit.status).toBe(400); // read and validated (the title field is wrong there), not refused for size
    expect(atLimit.body.error.code).not.toBe('request_too_large');
    const over = await post(path, jsonOfSize(BODY_LIMIT + 1));
    expect(over.status).toBe(413);
    expect(over.body.error).toMatchObject({ type: 'invalid_request_error', code: 'request_too_large' });
    expect(over.body.error.request_id).toBe(over.headers['x-request-id']);
  },
);

test('the 10 MiB bulk limit applies to the bulk route only: 3 MiB on bulk is read, on an update route it is 413', async () => {
  const bulk = await post('/v1/signals/bulk', jsonOfSize(3 * 1024 * 1024));
  expect(bulk.status).toBe(400);
  expect(bulk.body.error).toMatchObject({ code: 'missing_required_param', param: 'signals' }); // parsed, then validated
  const update = await post('/v1/threats/thr_x', jsonOfSize(3 * 1024 * 1024));
  expect(update.status).toBe(413);
  const bulkOver = await post('/v1/signals/bulk', jsonOfSize(BULK_BODY_LIMIT + 1));
  expect(bulkOver.status).toBe(413);
  expect(bulkOver.body.error.code).toBe('request_too_large');
  // paths match case-insensitively, as express routes do: the bulk route in capitals still gets its limit
  const shouted = await post('/V1/Signals/BULK', jsonOfSize(3 * 1024 * 1024));
  expect(shouted.status).toBe(400);
  expect(shouted.body.error).toMatchObject({ code: 'missing_required_param', param: 'signals' });
});

test('a refused body writes nothing', async () => {
  const p = h.ctx.db.prisma;
  const count = () =>
    Promise.all([p.threat.count(), p.webhookEndpoint.count(), p.signal.count(), p.idempotencyKey.count()]);
  const before = await count();
  expect((await post('/v1/threats', jsonOfSize(BODY_LIMIT + 10))).status).toBe(413);
  expect(await count()).toEqual(before);
});
