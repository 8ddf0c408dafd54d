import { scaledByLoad, type TestContext } from '@risk/testing';
import { deliverWebhook } from '../src/jobs/webhook-delivery';
import { deliverySuite, startReceiver } from './webhook-delivery-fixtures';

jest.setTimeout(scaledByLoad(30_000));

describe('webhook delivery job', () => {
  const suite = deliverySuite('webhookdelivery-claims');
  const { servers, endpoint, emit, direct, threatEvent } = suite;
  let ctx: TestContext;
  beforeAll(() => {
    ctx = suite.ctx;
  });

  it('performs each attempt once even when its job is delivered twice', async () => {
    const receiver = await startReceiver([200]);
    servers.push(receiver.server);
    await endpoint('org_dupe', receiver.url);
    const { deliveries } = await emit([{ ...threatEvent(), org_id: 'org_dupe' }], false);
    const deps = direct();
    const job = { delivery_id: deliveries[0]!.delivery_id, attempt: 1 };
    const [a, b] = await Promise.all([deliverWebhook(deps, job), deliverWebhook(deps, job)]);
    expect([a.outcome, b.outcome].sort()).toEqual(['delivered', 'skipped']);
    expect(receiver.received).toHaveLength(1);
  });

  it('releases its claim when the attempt breaks before it is stored, so the job retry can perform it', async () => {
    const receiver = await startReceiver([200]);
    servers.push(receiver.server);
    const ep = await endpoint('org_broken', receiver.url);
    const { deliveries } = await emit([{ ...threatEvent(), org_id: 'org_broken' }], false);
    const deps = direct();
    const job = { delivery_id: deliveries[0]!.delivery_id, attempt: 1 };
    const good = ep.secret_ciphertext;
    await ctx.db.prisma.webhookEndpoint.update({ where: { id: ep.id }, data: { secret_ciphertext: 'v1.broken.x.y' } });
    await expect(deliverWebhook(deps, job)).rejects.toThrow();
    expect(await ctx.db.prisma.webhookDelivery.findUniqueOrThrow({ where: { id: job.delivery_id } })).toMatchObject({
      attempt_count: 0,
      status: 'pending',
    });
    await ctx.db.prisma.webhookEndpoint.update({ where: { id: ep.id }, data: { secret_ciphertext: good } });
    expect(await deliverWebhook(deps, job)).toMatchObject({ outcome: 'delivered', attempt: 1 });
    expect(receiver.received).toHaveLength(1);
  });
});
