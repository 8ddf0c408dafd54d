import { newId } from '@risk/db';
import request from 'supertest';
import { createHarness, postSignal, signalBody, type Harness } from './harness';

let h: Harness;
const auth = () => ({ Authorization: `Bearer ${h.key}` });
beforeAll(async () => {
  h = await createHarness('signals-get');
});
afterAll(() => h.close());

describe('GET /v1/signals/{signal_id}', () => {
  test("a signal is readable by its org only; another org's key gets 404", async () => {
    const created = await postSignal(h, signalBody(h.orgId));
    const mine = await request(h.app).get(`/v1/signals/${created.body.id}`).set(auth());
    expect(mine.status).toBe(200);
    const { enrichment: _e, ...signal } = created.body;
    expect(mine.body).toEqual(signal);
    const otherKey = await h.mintKey({ orgId: 'org_other', scopes: ['signals:read'] });
    const theirs = await request(h.app)
      .get(`/v1/signals/${created.body.id}`)
      .set('Authorization', `Bearer ${otherKey}`);
    expect(theirs.status).toBe(404);
    expect(theirs.body.error).toMatchObject({ type: 'not_found_error', code: 'resource_missing', param: 'signal_id' });
    const testMode = await h.mintKey({ livemode: false, scopes: ['signals:read'] });
    expect(
      (await request(h.app).get(`/v1/signals/${created.body.id}`).set('Authorization', `Bearer ${testMode}`)).status,
    ).toBe(404);
  });

  test('an unknown id is 404; an over-long id is 400', async () => {
    expect(
      (
        await request(h.app)
          .get(`/v1/signals/${newId('sig')}`)
          .set(auth())
      ).status,
    ).toBe(404);
    const long = await request(h.app)
      .get(`/v1/signals/${'s'.repeat(300)}`)
      .set(auth());
    expect(long.status).toBe(400);
    expect(long.body.error.param).toBe('signal_id');
  });
});
