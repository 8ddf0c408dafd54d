// Bull Board and cross-site requests (docs/security.md "Bull Board and CSRF"): the board takes the admin token as a
// Basic password, which a browser caches and repeats on any request to the board, so a cross-site form's empty POST
// once queued a job. A state-changing request now needs a same-origin Origin or Sec-Fetch-Site, or the board's CSRF
// header; reads are unchanged.
import { QUEUES } from '@risk/common/queue';
import request from 'supertest';
import { createAdminHarness, expectError, type AdminHarness } from './harness';

let h: AdminHarness;
let basic: string;
beforeAll(async () => {
  h = await createAdminHarness('queuesboardcsrf');
  basic = `Basic ${Buffer.from(`operator:${h.ctx.config.ADMIN_API_TOKEN}`).toString('base64')}`;
});
afterAll(() => h.close());

const HOST = 'admin.risk.test';
const ADD = `/admin/queues/api/queues/${QUEUES.firewallSync}/add`;

async function waiting(): Promise<number> {
  const res = await request(h.app).get('/admin/queues/api/queues').set('Authorization', basic);
  expect(res.status).toBe(200);
  const queues = res.body.queues as Array<{ name: string; counts: Record<string, number> }>;
  return queues.find((q) => q.name === QUEUES.firewallSync)!.counts.waiting!;
}

/** a POST to the board's add-job route with the browser's cached Basic credentials and `headers` */
const add = (headers: Record<string, string>, body?: string) => {
  let req = request(h.app).post(ADD).set('Host', HOST).set('Authorization', basic);
  for (const [name, value] of Object.entries(headers)) req = req.set(name, value);
  return body === undefined ? req : req.send(body);
};

describe('Bull Board state-changing requests', () => {
  it('refuses a cross-site form POST carrying cached Basic credentials, and queues nothing', async () => {
    const before = await waiting();
    const attacks: Array<Record<string, string>> = [
      // the audit's request: a foreign page's form
      {
        Origin: 'https://evil.example',
        'Sec-Fetch-Site': 'cross-site',
        'Content-Type': 'application/x-www-form-urlencoded',
      },
      { Origin: 'null', 'Content-Type': 'application/x-www-form-urlencoded' },
      { 'Sec-Fetch-Site': 'same-site', 'Content-Type': 'text/plain' },
      // an older browser that sends neither header on a form POST
      { 'Content-Type': 'application/x-www-form-urlencoded' },
      // the CSRF header does not excuse a foreign origin
      { Origin: 'https://evil.example', 'X-Queues-Board-CSRF': '1', 'Content-Type': 'application/json' },
    ];
    for (const headers of attacks) {
      const res = await add(headers, '');
      expectError(res, 403, 'csrf_check_failed');
    }
    for (const method of ['put', 'patch', 'delete'] as const) {
      const agent = request(h.app);
      const res = await agent[method](`/admin/queues/api/queues/${QUEUES.firewallSync}/pause`)
        .set('Host', HOST)
        .set('Authorization', basic)
        .set('Origin', 'https://evil.example');
      expectError(res, 403, 'csrf_check_failed');
    }
    expect(await waiting()).toBe(before);
  });

  it("accepts the board's own page (same origin) and a script sending the CSRF header", async () => {
    const before = await waiting();
    const job = JSON.stringify({ name: 'manual', data: {} });
    const json = { 'Content-Type': 'application/json' };
    expect((await add({ ...json, Origin: `http://${HOST}`, 'Sec-Fetch-Site': 'same-origin' }, job)).status).toBe(200);
    expect((await add({ ...json, 'Sec-Fetch-Site': 'same-origin' }, job)).status).toBe(200);
    expect((await add({ ...json, Origin: `http://${HOST}` }, job)).status).toBe(200);
    expect((await add({ ...json, 'X-Queues-Board-CSRF': '1' }, job)).status).toBe(200);
    expect(await waiting()).toBe(before + 4);
  });

  it('leaves reads alone and still asks for the admin token first', async () => {
    const page = await request(h.app)
      .get('/admin/queues/api/queues')
      .set('Authorization', basic)
      .set('Sec-Fetch-Site', 'cross-site');
    expect(page.status).toBe(200);
    // no credential: 401 before any CSRF check
    const anonymous = await request(h.app).post(ADD).set('Origin', 'https://evil.example').send('');
    expect(anonymous.status).toBe(401);
  });
});
