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

  test('signals of earlier months are read by id, from their month or, when created strays from the id, any', async () => {
    // signals are partitioned by month (docs/scaling.md): an id carries its time (10 base32 characters of epoch ms
    // after the prefix); an id minted three months ago, as ingest would have then
    const alphabet = '0123456789abcdefghjkmnpqrstvwxyz';
    const now = new Date();
    const past = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 3, 15, 12);
    let time = '';
    for (let ms = past, i = 0; i < 10; i++, ms = Math.floor(ms / 32)) time = alphabet[ms % 32] + time;
    const id = `sig_${time}${newId('sig').slice(14)}`;
    await h.ctx.db.pool.query(
      `INSERT INTO signals (id, org_id, livemode, fingerprint, asset_type, observed_at, content_digest, created)
       VALUES ($1, $2, true, 'fp-months-ago', 'mcp_server', $3, repeat('a', 64), $3)`,
      [id, h.orgId, new Date(past)],
    );
    const old = await request(h.app).get(`/v1/signals/${id}`).set(auth());
    expect(old.status).toBe(200);
    expect(old.body).toMatchObject({ id, fingerprint: 'fp-months-ago', created: past / 1000 });

    // a signal moved two months back, away from its id's month: found by the unbounded read
    const moved = await postSignal(h, signalBody(h.orgId));
    await h.ctx.db.pool.query(`UPDATE signals SET created = created - interval '62 days' WHERE id = $1`, [
      moved.body.id,
    ]);
    const res = await request(h.app).get(`/v1/signals/${moved.body.id}`).set(auth());
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(moved.body.id);
    expect(res.body.created).toBeLessThan(moved.body.created - 60 * 86_400);
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
