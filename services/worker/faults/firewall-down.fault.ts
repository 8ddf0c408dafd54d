import { JOBS, QueueProducer } from '@risk/common/queue';
import https from 'node:https';
import { freePort } from '../test/worker-process';
import { startAdminApi, startPanosSimulator } from './more-processes';
import { createStack, kill, waitFor, type Child, type Stack } from './processes';

// Case g (docs/reliability.md "Fault suite"): a firewall (the PAN-OS simulator, a child through its CLI entry)
// is down while a policy is assigned, reordered and unassigned. Each assignment converges to the policy's latest
// version (the device holds that version, and no older push lands after it) or, for a removal whose retries are
// spent while the firewall stays down, to `removal_failed` with its error; never to an older version.
// FIREWALL_SYNC_BACKOFF_MS shortens the sync retries (1, 2, 4, 8 s between 5 attempts: a 15 s window, in which
// the simulator, a tsx process, starts even on a loaded machine; an apply whose retries are spent first ends
// `failed`, which the invariants pass re-queues after its cool-down, docs/reliability.md "Invariants" and
// services/worker/test/firewall-outage.test.ts).
describe('fault: a firewall down while a policy is assigned, reordered and unassigned', () => {
  let stack: Stack;
  let admin: string;
  let auth: string;
  let simPort: number;
  let sim: Child | undefined;
  const simKey = 'fault-sim-key-0001';
  let producer: QueueProducer;

  beforeAll(async () => {
    stack = await createStack('fault-firewall');
    ({ url: admin } = await startAdminApi(stack));
    stack.startWorker({ FIREWALL_SYNC_BACKOFF_MS: '1000' });
    simPort = await freePort();
    producer = new QueueProducer({ url: stack.redis.url, prefix: stack.env.REDIS_PREFIX! }, 'fault-count');
    await producer.ping(3000);
    const tenant = await call(
      'POST',
      '/tenants/v1/register',
      { name: 'fw-fault', admin_email: 'ops@fw.example' },
      `Bearer ${stack.env.ADMIN_API_TOKEN}`,
    );
    expect(tenant.status).toBe(201);
    auth = `Bearer ${(tenant.body.tenant_token as { token: string }).token}`;
  });
  afterAll(async () => {
    await producer?.close();
    await stack?.close();
  });

  async function call(method: string, pathname: string, body?: unknown, authorization = auth) {
    const res = await fetch(`${admin}${pathname}`, {
      method,
      headers: { authorization, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }
  const simUp = async () => {
    sim = await startPanosSimulator(stack, { port: simPort, apiKey: simKey });
  };
  const simDown = async () => {
    if (sim) await kill(sim);
    sim = undefined;
  };
  /** the simulator's running configuration (XML), read over its API */
  const deviceConfig = () =>
    new Promise<string>((resolve, reject) => {
      const url = `https://127.0.0.1:${simPort}/api/?type=config&action=show&xpath=/config`;
      https
        .get(url, { rejectUnauthorized: false, headers: { 'x-pan-key': simKey } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve(Buffer.concat(chunks).toString()));
        })
        .on('error', reject);
    });
  const assignment = async (policyId: string) => {
    const { rows } = await stack.ctx.db.pool.query<{
      sync_status: string;
      target_version: number;
      synced_version: number | null;
      last_error: string | null;
    }>(`SELECT sync_status, target_version, synced_version, last_error FROM policy_assignments WHERE policy_id = $1`, [
      policyId,
    ]);
    return rows[0];
  };
  /** jobs of the firewall-sync queue not yet finished (waiting, delayed, active) */
  const openJobs = async () => {
    const counts = await producer
      .queue(JOBS.firewallSync.queue)
      .getJobCounts('waiting', 'delayed', 'active', 'prioritized');
    return Object.values(counts).reduce((a, b) => a + b, 0);
  };

  let firewallId: string;
  const newPolicy = async (name: string) => {
    const res = await call('POST', '/policies/v1/url-filter', {
      name,
      default_action: 'allow',
      rules: [
        { name: 'allow chatgpt', action: 'allow', domains: ['chatgpt.com'] },
        { name: 'block chat assistants', action: 'block', categories: ['ai-chat-assistant'] },
        { name: 'alert code assistants', action: 'alert', categories: ['ai-code-assistant'] },
      ],
    });
    expect(res.status).toBe(201);
    return res.body as { id: string; version: number; rules: Array<{ id: string }> };
  };
  const reorder = async (policyId: string, expected: number) => {
    const current = (await call('GET', `/policies/v1/url-filter/${policyId}`)).body as { rules: Array<{ id: string }> };
    const ids = current.rules.map((r) => r.id);
    const res = await call('POST', `/policies/v1/url-filter/${policyId}/rules/reorder`, {
      rule_ids: [ids[1], ids[0], ...ids.slice(2)],
      expected_version: expected,
    });
    expect(res.status).toBe(200);
    return res.body.version as number;
  };

  it('assigned and reordered twice while down, the firewall back: synced at the latest version, never an older one', async () => {
    const fw = await call('POST', '/firewalls/v1', {
      name: 'pa-fault',
      type: 'palo_alto',
      host: '127.0.0.1',
      port: simPort,
      api_token: simKey,
      verify_ssl: false,
    });
    expect(fw.status).toBe(201);
    firewallId = fw.body.id as string;
    const policy = await newPolicy('down-then-up');
    expect(
      (await call('POST', `/policies/v1/url-filter/${policy.id}/assign`, { firewall_ids: [firewallId] })).status,
    ).toBe(200);
    // the first attempts fail (connection refused) before the policy changes twice
    await waitFor('a refused push', async () => (await assignment(policy.id))?.last_error != null, {
      timeoutMs: 20_000,
      intervalMs: 50,
    });
    const v2 = await reorder(policy.id, policy.version);
    const v3 = await reorder(policy.id, v2);
    expect(v3).toBe(policy.version + 2);

    await simUp();
    const seen: Array<number | null> = [];
    await waitFor(
      'the assignment synced at the latest version',
      async () => {
        const a = await assignment(policy.id);
        seen.push(a?.synced_version ?? null);
        return a?.sync_status === 'synced' && a.synced_version === v3;
      },
      { timeoutMs: 60_000, intervalMs: 50 },
    );
    // every job of the three versions has run out, and the assignment and the device still hold v3
    await waitFor('no sync job left', async () => (await openJobs()) === 0, { timeoutMs: 30_000, intervalMs: 100 });
    expect(await assignment(policy.id)).toMatchObject({
      sync_status: 'synced',
      target_version: v3,
      synced_version: v3,
    });
    const device = await deviceConfig();
    expect(device).toContain(`risk-intel policy ${policy.id} v${v3}`);
    expect(device).not.toMatch(new RegExp(`risk-intel policy ${policy.id} v(?!${v3}\\b)\\d`));
    // once synced, never an older version afterwards
    const firstSynced = seen.findIndex((v) => v !== null);
    expect(seen.slice(firstSynced).every((v) => v === v3)).toBe(true);
  });

  it('reordered and unassigned while down and staying down: ends removal_failed, never pushed back; recovers by re-unassigning', async () => {
    const policy = await newPolicy('up-then-down');
    expect(
      (await call('POST', `/policies/v1/url-filter/${policy.id}/assign`, { firewall_ids: [firewallId] })).status,
    ).toBe(200);
    await waitFor('synced', async () => (await assignment(policy.id))?.sync_status === 'synced', {
      timeoutMs: 30_000,
      intervalMs: 50,
    });

    await simDown();
    const v2 = await reorder(policy.id, policy.version);
    await waitFor('a refused push of v2', async () => (await assignment(policy.id))?.last_error != null, {
      timeoutMs: 20_000,
      intervalMs: 50,
    });
    expect((await call('DELETE', `/policies/v1/url-filter/${policy.id}/assign/${firewallId}`)).status).toBe(200);
    await waitFor(
      'the removal to give up',
      async () => (await assignment(policy.id))?.sync_status === 'removal_failed',
      { timeoutMs: 60_000, intervalMs: 100 },
    );
    await waitFor('no sync job left', async () => (await openJobs()) === 0, { timeoutMs: 30_000, intervalMs: 100 });
    const failed = await assignment(policy.id);
    expect(failed).toMatchObject({ sync_status: 'removal_failed' });
    expect(failed!.last_error).toMatch(/tcp_refused|refused/i);
    expect(failed!.synced_version).toBe(policy.version); // v2 was never pushed, v1 stays recorded
    expect(v2).toBe(policy.version + 1);
    const refused = await call('DELETE', `/policies/v1/url-filter/${policy.id}`);
    expect(refused.status).toBe(409);
    expect((refused.body.error as { code: string }).code).toBe('policy_removal_failed');

    // the firewall back: unassigning again removes what was pushed, and the assignment is gone
    await simUp();
    expect((await call('DELETE', `/policies/v1/url-filter/${policy.id}/assign/${firewallId}`)).status).toBe(200);
    await waitFor('the removal to finish', async () => (await assignment(policy.id)) === undefined, {
      timeoutMs: 30_000,
      intervalMs: 100,
    });
    expect(await deviceConfig()).not.toContain(`risk-intel policy ${policy.id} `);
    expect((await call('DELETE', `/policies/v1/url-filter/${policy.id}`)).status).toBe(200);
  });
});
