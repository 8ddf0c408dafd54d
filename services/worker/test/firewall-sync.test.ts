import { createApp as createAdminApp } from '@risk/admin-api';
import { startFortinetSimulator, startPanosSimulator } from '@risk/firewalls';
import { UnrecoverableError } from 'bullmq';
import request from 'supertest';
import { createFirewallSyncProcessor } from '../src/jobs/firewall-sync';
import { startWorker, type RunningWorker } from '../src';
import { createWorkerHarness, waitFor, type WorkerHarness } from './harness';

const SIM_KEY = 'sim-key-for-worker-sync-0001';

describe('URL-filter policy sync through the worker (admin API → outbox → queue → firewall simulators)', () => {
  let h: WorkerHarness;
  let worker: RunningWorker;
  let pan: Awaited<ReturnType<typeof startPanosSimulator>>;
  let forti: Awaited<ReturnType<typeof startFortinetSimulator>>;
  let admin: ReturnType<typeof createAdminApp>;

  beforeAll(async () => {
    h = await createWorkerHarness('fwsync');
    pan = await startPanosSimulator({ apiKey: SIM_KEY });
    forti = await startFortinetSimulator({ apiKey: SIM_KEY });
    admin = createAdminApp({
      config: h.ctx.config,
      db: h.ctx.db.prisma,
      logger: h.ctx.logger,
      pingRedis: () => h.producer.connection.ping(),
    });
    worker = startWorker(h.deps, { maintenance: false });
  });
  afterAll(async () => {
    await worker.close();
    await pan.close();
    await forti.close();
    await h.close();
  });

  it('assign pushes the policy to both vendors, a change re-syncs with the new version, unassign removes it', async () => {
    const reg = await request(admin)
      .post('/tenants/v1/register')
      .set('Authorization', `Bearer ${h.ctx.config.ADMIN_API_TOKEN}`)
      .send({ name: 'sync-co', admin_email: 'ops@sync-co.example' });
    expect(reg.status).toBe(201);
    const auth = `Bearer ${reg.body.tenant_token.token}`;
    const fws: string[] = [];
    for (const [type, sim] of [
      ['palo_alto', pan],
      ['fortinet', forti],
    ] as const) {
      const fw = await request(admin)
        .post('/firewalls/v1')
        .set('Authorization', auth)
        .send({ name: type, type, host: '127.0.0.1', port: sim.port, api_token: SIM_KEY, verify_ssl: false });
      expect(fw.status).toBe(201);
      fws.push(fw.body.id as string);
    }
    const policy = await request(admin)
      .post('/policies/v1/url-filter')
      .set('Authorization', auth)
      .send({ name: 'AI', default_action: 'allow', rules: [{ action: 'block', domains: ['*.deepseek.com'] }] });
    expect(policy.status).toBe(201);
    const assigned = await request(admin)
      .post(`/policies/v1/url-filter/${policy.body.id}/assign`)
      .set('Authorization', auth)
      .send({ firewall_ids: fws });
    expect(assigned.status).toBe(200);

    const synced = (version: number) =>
      waitFor(`assignments synced at version ${version}`, async () => {
        const rows = await h.ctx.db.prisma.policyAssignment.findMany({ where: { policy_id: policy.body.id } });
        return (
          rows.length === 2 && rows.every((r) => r.sync_status === 'synced' && r.synced_version === version) && rows
        );
      });
    await synced(policy.body.version);
    expect(JSON.stringify(pan.state.customCategories())).toContain('deepseek.com');
    expect(forti.state.profiles).toHaveLength(1);

    const rule = await request(admin)
      .post(`/policies/v1/url-filter/${policy.body.id}/rules`)
      .set('Authorization', auth)
      .send({ action: 'block', domains: ['chat.mistral.ai'] });
    expect(rule.status).toBe(201);
    const current = await request(admin).get(`/policies/v1/url-filter/${policy.body.id}`).set('Authorization', auth);
    expect(current.body.version).toBeGreaterThan(policy.body.version);
    await synced(current.body.version);
    expect(JSON.stringify(pan.state.customCategories())).toContain('chat.mistral.ai');

    const un = await request(admin)
      .delete(`/policies/v1/url-filter/${policy.body.id}/assign/${fws[0]}`)
      .set('Authorization', auth);
    expect(un.status).toBe(200);
    await waitFor(
      'assignment removed',
      async () => (await h.ctx.db.prisma.policyAssignment.count({ where: { firewall_id: fws[0] } })) === 0,
    );
    expect(pan.state.customCategories()).toEqual({});
  });
  it('a firewall that rejects the key ends failed with auth_rejected, and the job is not retried', async () => {
    const reg = await request(admin)
      .post('/tenants/v1/register')
      .set('Authorization', `Bearer ${h.ctx.config.ADMIN_API_TOKEN}`)
      .send({ name: 'wrong-key-co', admin_email: 'ops@wrong-key-co.example' });
    const auth = `Bearer ${reg.body.tenant_token.token}`;
    const fw = await request(admin).post('/firewalls/v1').set('Authorization', auth).send({
      name: 'pa-wrong-key',
      type: 'palo_alto',
      host: '127.0.0.1',
      port: pan.port,
      api_token: 'not-the-sim-key-0000',
      verify_ssl: false,
    });
    const policy = await request(admin)
      .post('/policies/v1/url-filter')
      .set('Authorization', auth)
      .send({ name: 'AI', rules: [{ action: 'block', domains: ['grok.com'] }] });
    const assigned = await request(admin)
      .post(`/policies/v1/url-filter/${policy.body.id}/assign`)
      .set('Authorization', auth)
      .send({ firewall_ids: [fw.body.id] });
    const assignmentId = assigned.body.assignments[0].id as string;
    const failed = await waitFor('assignment failed', async () => {
      const row = await h.ctx.db.prisma.policyAssignment.findUnique({ where: { id: assignmentId } });
      return row?.sync_status === 'failed' && row;
    });
    expect(failed.last_error).toMatch(/^auth_rejected: PAN-OS rejected the API key/);
    expect(failed.synced_version).toBeNull();
    // the job handler marks a permanent failure unrecoverable, so BullMQ does not retry it
    const processor = createFirewallSyncProcessor(h.deps);
    await expect(
      processor({ data: { assignment_id: assignmentId, action: 'apply', version: 1 } }),
    ).rejects.toBeInstanceOf(UnrecoverableError);
    const res = await request(admin).get(`/policies/v1/url-filter/${policy.body.id}`).set('Authorization', auth);
    expect(res.body.assignments[0]).toMatchObject({ sync_status: 'failed', target_version: 1, synced_version: null });
    expect(JSON.stringify(res.body)).not.toContain('not-the-sim-key-0000');
  });
});
