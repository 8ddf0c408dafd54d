import { encryptSecret } from '@risk/common/crypto';
import { recordEvents, recordEventsWithDeliveries } from '@risk/common/events';
import { fanOutEvents, fanOutEventsPg } from '@risk/db';
import { ID_PREFIXES, newId } from '@risk/db';
import { createTestContext, type TestContext } from '@risk/testing';
import {
  EXAMPLE_ASSET_ENRICHED_OBJECT,
  EXAMPLE_THREAT,
  EXAMPLE_WEBHOOK_ENDPOINT,
  WEBHOOK_EVENTS,
} from '@risk/contracts';

// catalogue-shaped payloads (the audience rule reads only type, mode, org and fingerprint)
const threat = (id: string, livemode = false) => ({ ...EXAMPLE_THREAT, id, livemode });
const asset = (fingerprint: string) => ({ ...EXAMPLE_ASSET_ENRICHED_OBJECT, fingerprint });
const endpointDisabled = {
  object: { ...EXAMPLE_WEBHOOK_ENDPOINT, status: 'disabled' as const, disabled_reason: 'the endpoint answered 410 Gone' },
  extra: { previous_attributes: { status: 'enabled' as const, disabled_reason: null } },
};
const riskChanged = WEBHOOK_EVENTS['asset.risk_changed'].example.data;

/** recordEvents fans events out to webhook endpoints in the caller's transaction (audience rule). */
describe('event fan-out to webhook deliveries', () => {
  let ctx: TestContext;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    ctx = await createTestContext('webhookfanout');
    const db = ctx.db.prisma;
    const mk = async (name: string, org_id: string, events: string[], status = 'enabled') => {
      ids[name] = newId(ID_PREFIXES.webhookEndpoint);
      await db.webhookEndpoint.create({
        data: {
          id: ids[name]!,
          org_id,
          livemode: false,
          url: 'http://127.0.0.1:9/hook',
          events,
          status,
          secret_ciphertext: encryptSecret('whsec_x', ctx.config.SECRETS_KEY!),
        },
      });
    };
    await mk('a_all', 'org_a', ['*']);
    await mk('a_threats', 'org_a', ['threat.created', 'threat.updated']);
    await mk('b_assets', 'org_b', ['asset.enriched', 'asset.risk_changed']);
    await mk('b_all', 'org_b', ['*']);
    await mk('c_disabled', 'org_c', ['*'], 'disabled');
    await mk('d_all', 'org_d', ['*']);
    // org_b has submitted signals for fp-b
    await db.asset.create({
      data: {
        livemode: false,
        fingerprint: 'fp-b',
        asset_type: 'model',
        latest_signal_id: 'sig_x',
        latest_digest: 'd1',
        first_seen: new Date(),
        last_seen: new Date(),
        orgs: { create: [{ org_id: 'org_b' }] },
      },
    });
  });
  afterAll(() => ctx.close());

  async function endpointsFor(eventId: string): Promise<string[]> {
    const rows = await ctx.db.prisma.webhookDelivery.findMany({
      where: { event_id: eventId },
      select: { endpoint_id: true },
    });
    const names = Object.fromEntries(Object.entries(ids).map(([k, v]) => [v, k]));
    return rows.map((r) => names[r.endpoint_id]!).sort();
  }

  it('sends events without org or fingerprint to every org, matching type or "*", enabled endpoints only', async () => {
    const [id] = await ctx.db.prisma.$transaction((tx) =>
      recordEvents(tx, [{ type: 'threat.created', livemode: false, object: threat('thr_1') }]),
    );
    expect(await endpointsFor(id!)).toEqual(['a_all', 'a_threats', 'b_all', 'd_all']);
  });

  it('sends asset events only to orgs that submitted signals for the asset', async () => {
    const [id] = await ctx.db.prisma.$transaction((tx) =>
      recordEvents(tx, [
        {
          type: 'asset.enriched',
          livemode: false,
          fingerprint: 'fp-b',
          object: asset('fp-b'),
        },
      ]),
    );
    expect(await endpointsFor(id!)).toEqual(['b_all', 'b_assets']);
  });

  it('never sends an event to an endpoint of the other mode (test mode is a sandbox)', async () => {
    // every endpoint here is a test-mode endpoint; org_b observed the test-mode asset fp-b
    const ids = await ctx.db.prisma.$transaction((tx) =>
      recordEvents(tx, [
        { type: 'threat.created', livemode: true, object: threat('thr_live', true) },
        { type: 'asset.enriched', livemode: true, fingerprint: 'fp-b', object: asset('fp-b') },
        { type: 'webhook_endpoint.disabled', livemode: true, org_id: 'org_a', ...endpointDisabled },
      ]),
    );
    for (const id of ids) expect(await endpointsFor(id)).toEqual([]);
  });

  it('sends org events to that org only', async () => {
    const [id] = await ctx.db.prisma.$transaction((tx) =>
      recordEvents(tx, [
        { type: 'webhook_endpoint.disabled', livemode: false, org_id: 'org_d', ...endpointDisabled },
      ]),
    );
    expect(await endpointsFor(id!)).toEqual(['d_all']);
  });

  it('writes one outbox row per delivery in the same transaction, and a rolled-back change leaves neither', async () => {
    const recorded = await ctx.db.prisma.$transaction((tx) =>
      recordEventsWithDeliveries(tx, [
        {
          type: 'threat.updated',
          livemode: false,
          object: threat('thr_2'),
          extra: { previous_attributes: { title: 'before' } },
        },
        {
          type: 'asset.risk_changed',
          livemode: false,
          fingerprint: 'fp-b',
          object: asset('fp-b'),
          extra: { previous_attributes: riskChanged.previous_attributes, summary: riskChanged.summary },
        },
      ]),
    );
    expect(recorded.event_ids).toHaveLength(2);
    expect(recorded.deliveries).toHaveLength(4 + 2);
    const outbox = await ctx.db.prisma.outboxMessage.findMany({
      where: { id: { in: recorded.deliveries.map((d) => d.outbox_id) } },
    });
    expect(outbox.map((o) => (o.payload as { delivery_id: string }).delivery_id).sort()).toEqual(
      recorded.deliveries.map((d) => d.delivery_id).sort(),
    );
    expect(outbox.every((o) => o.kind === 'webhook_delivery')).toBe(true);
    // delivery ids have the platform's time-sortable id shape
    for (const d of recorded.deliveries) expect(d.delivery_id).toMatch(/^whd_[0-9a-hjkmnp-tv-z]{26}$/);

    const before = await ctx.db.prisma.webhookDelivery.count();
    await expect(
      ctx.db.prisma.$transaction(async (tx) => {
        await recordEvents(tx, [{ type: 'threat.created', livemode: false, object: threat('thr_3') }]);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await ctx.db.prisma.webhookDelivery.count()).toBe(before);
  });

  it('fanning the same event out twice creates no duplicate deliveries', async () => {
    const [id] = await ctx.db.prisma.$transaction((tx) =>
      recordEvents(tx, [{ type: 'threat.created', livemode: false, object: threat('thr_4') }]),
    );
    const again = await ctx.db.prisma.$transaction((tx) => fanOutEvents(tx, [id!]));
    expect(again).toEqual([]);
    expect(await ctx.db.prisma.webhookDelivery.count({ where: { event_id: id! } })).toBe(4);
  });

  it('fans out events inserted with plain SQL on a pg client (bulk ingest path)', async () => {
    const client = await ctx.db.pool.connect();
    try {
      await client.query('BEGIN');
      const id = newId(ID_PREFIXES.event);
      await client.query(
        `INSERT INTO events (id, type, livemode, org_id, fingerprint, data) VALUES ($1, 'asset.created', false, NULL, 'fp-b', '{}'::jsonb)`,
        [id],
      );
      const deliveries = await fanOutEventsPg(client, [id]);
      await client.query('COMMIT');
      expect(deliveries).toHaveLength(1); // org_b's '*' endpoint; b_assets is not subscribed to asset.created
      expect(await endpointsFor(id)).toEqual(['b_all']);
    } finally {
      client.release();
    }
  });
});
