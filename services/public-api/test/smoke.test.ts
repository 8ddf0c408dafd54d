import request from 'supertest';
import { createHarness, postSignal, signalBody, type Harness } from './harness';

let h: Harness;
beforeAll(async () => {
  h = await createHarness('smoke');
});
afterAll(() => h.close());

test('accepts a signal and reads it back', async () => {
  const body = signalBody(h.orgId);
  const res = await postSignal(h, body);
  expect(res.status).toBe(202);
  expect(res.body.enrichment).toEqual({ status: 'queued', reason: 'new_asset' });
  const got = await request(h.app).get(`/v1/signals/${res.body.id}`).set('Authorization', `Bearer ${h.key}`);
  expect(got.status).toBe(200);
  expect(got.body.fingerprint).toBe(body.fingerprint);
});
