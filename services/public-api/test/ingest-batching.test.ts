import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHarness, idem, signalBody, type Harness } from './harness';

// The MicroBatch primitive itself is tested in packages/db/src/micro-batch.test.ts.
describe('concurrent POST /v1/signals share transactions without sharing fate', () => {
  let h: Harness;
  let server: http.Server;
  let base: string;
  beforeAll(async () => {
    h = await createHarness('batching');
    server = http.createServer(h.app);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((r) => server.close(r));
    await h.close();
  });

  const post = (key: string, apiKey: string, body: unknown) =>
    fetch(`${base}/v1/signals`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', 'idempotency-key': key },
      body: JSON.stringify(body),
    });

  test('30 requests of two orgs at once: each stored once with its own response, org, livemode and replay', async () => {
    const testKey = await h.mintKey({ orgId: 'org_other', livemode: false });
    const sends = Array.from({ length: 30 }, (_, i) => {
      const org = i % 2 === 0 ? h.orgId : 'org_other';
      return { key: idem(), apiKey: i % 2 === 0 ? h.key : testKey, body: signalBody(org) };
    });
    const responses = await Promise.all(sends.map((s) => post(s.key, s.apiKey, s.body)));
    const bodies = await Promise.all(responses.map((r) => r.json() as Promise<Record<string, unknown>>));
    responses.forEach((r) => expect(r.status).toBe(202));
    bodies.forEach((b, i) => {
      expect(b).toMatchObject({
        fingerprint: sends[i]!.body.fingerprint,
        org_id: sends[i]!.body.org_id,
        livemode: i % 2 === 0,
      });
      expect(b.enrichment).toEqual({ status: 'queued', reason: 'new_asset' });
    });
    const fps = sends.map((s) => s.body.fingerprint as string);
    expect(await h.ctx.db.prisma.signal.count({ where: { fingerprint: { in: fps } } })).toBe(30);
    const orgs = await h.ctx.db.prisma.assetOrg.findMany({ where: { fingerprint: { in: fps } } });
    expect(orgs).toHaveLength(30);
    for (const o of orgs) expect(o.org_id).toBe(sends[fps.indexOf(o.fingerprint)]!.body.org_id);
    const events = await h.ctx.db.prisma.event.findMany({ where: { fingerprint: { in: fps } } });
    expect(events).toHaveLength(30);
    for (const e of events) expect(e.livemode).toBe(fps.indexOf(e.fingerprint!) % 2 === 0);
    // every request replays its own response
    const replays = await Promise.all(sends.map((s) => post(s.key, s.apiKey, s.body)));
    for (const [i, r] of replays.entries()) {
      expect(r.headers.get('idempotent-replayed')).toBe('true');
      expect(await r.json()).toEqual(bodies[i]);
    }
  });

  test('a taken key among fresh requests replays alone; the others are stored normally', async () => {
    const taken = { key: idem(), body: signalBody(h.orgId) };
    const first = await post(taken.key, h.key, taken.body);
    expect(first.status).toBe(202);
    const firstBody = await first.json();
    const fresh = Array.from({ length: 6 }, () => ({ key: idem(), body: signalBody(h.orgId) }));
    const [again, ...others] = await Promise.all([taken, ...fresh].map((s) => post(s.key, h.key, s.body)));
    expect(again!.status).toBe(202);
    expect(again!.headers.get('idempotent-replayed')).toBe('true');
    expect(await again!.json()).toEqual(firstBody);
    for (const r of others) {
      expect(r.status).toBe(202);
      expect(r.headers.get('idempotent-replayed')).toBeNull();
    }
    expect(await h.ctx.db.prisma.signal.count({ where: { fingerprint: taken.body.fingerprint as string } })).toBe(1);
    const claims = await h.ctx.db.prisma.idempotencyKey.findMany({ where: { key: { in: fresh.map((f) => f.key) } } });
    expect(claims.map((c) => c.status)).toEqual(fresh.map(() => 'completed'));
  });
});
