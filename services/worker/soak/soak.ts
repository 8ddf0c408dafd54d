// `pnpm soak` (docs/reliability.md "Soak"; not in CI): the whole stack as child processes (public API, admin API,
// worker, a PAN-OS simulator) plus a local webhook receiver, SOAK_RATE requests/s (default 50) of mixed traffic
// for SOAK_SECONDS (default 600) on loopback, a line of figures every SOAK_REPORT_SECONDS (30), then a drain and
// the reconciliation. Prints a markdown report (also written to SOAK_REPORT, default <tmp>/soak-report.md); exits
// 1 when the reconciliation or the RSS check fails.
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { execSync } from 'node:child_process';
import { mintApiKey } from '@risk/common/api-keys';
import { QueueProducer } from '@risk/common/queue';
import { SCOPES } from '@risk/contracts';
import { freePort } from '../test/worker-process';
import { startAdminApi, startPanosSimulator, WebhookReceiver } from '../faults/more-processes';
import { createStack, waitFor, type Child } from '../faults/processes';
import { heapUsedMiB, queueLag, rssMiB, type Lag } from './monitor';
import { reconcile, renderReport } from './report';
import { drive, type Target, type TrafficState } from './traffic';

const SECONDS = Number(process.env.SOAK_SECONDS ?? 600);
const RATE = Number(process.env.SOAK_RATE ?? 50);
const EVERY = Number(process.env.SOAK_REPORT_SECONDS ?? 30);
// two minutes: the first minutes' backlog (docs/reliability.md "Soak run") grows every heap once
const WARMUP = Number(process.env.SOAK_WARMUP_SECONDS ?? Math.min(120, SECONDS / 5));
const DRAIN = Number(process.env.SOAK_DRAIN_SECONDS ?? 600);
const SIM_KEY = 'soak-sim-key-0001';
/** the soak's own scrape token: /metrics gives each API's V8 heap in use */
const METRICS_TOKEN = randomUUID();

async function main(): Promise<void> {
  const stack = await createStack('soak');
  // production-like worker settings (the fault suite's are tuned for crashes); limits lifted as for benches
  // (docs/performance.md): the soak measures the platform, not the rate limiter refusing its one client
  Object.assign(stack.env, {
    WORKER_LOCK_DURATION_MS: '30000',
    WORKER_STALLED_INTERVAL_MS: '30000',
    OUTBOX_RELAY_INTERVAL_MS: '1000',
    THREAT_WRITES_PER_ORG_PER_HOUR: '0',
    WEBHOOK_RETRY_SCALE: '0.001',
    FIREWALL_SYNC_BACKOFF_MS: '1000',
    LOG_LEVEL: 'error',
    METRICS_TOKEN,
  });
  const receiver = await WebhookReceiver.create();
  receiver.failRate = 0.02;
  await receiver.up();
  const producer = new QueueProducer({ url: stack.redis.url, prefix: stack.env.REDIS_PREFIX! }, 'soak-monitor');
  // Ctrl-C stops the children and drops the scratch database instead of leaving them behind
  const interrupted = () => void stack.close().finally(() => process.exit(130));
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  try {
    const api = await stack.startApi();
    const workerHealth = `http://127.0.0.1:${await freePort()}`; // its /metrics, for the heap figure
    const worker = stack.startWorker({ WORKER_HEALTH_PORT: new URL(workerHealth).port });
    const admin = await startAdminApi(stack);
    const simPort = await freePort();
    const sim = await startPanosSimulator(stack, { port: simPort, apiKey: SIM_KEY });
    const target = await setUp(stack, admin.url, simPort, receiver);
    const processes: Record<string, Child> = { 'public-api': api, worker, 'admin-api': admin.child, simulator: sim };

    const state: TrafficState = {
      samples: [],
      signalsAccepted: 0,
      fingerprints: [],
      signalIds: [],
      threatIds: [],
      skipped: 0,
      inFlight: 0,
    };
    const rss: Record<string, number[]> = Object.fromEntries(Object.keys(processes).map((n) => [n, []]));
    const scraped: Record<string, string> = {
      'public-api': stack.apiUrl,
      worker: workerHealth,
      'admin-api': admin.url,
    };
    const heap: Record<string, number[]> = Object.fromEntries(Object.keys(scraped).map((n) => [n, []]));
    const lines: string[] = [];
    const started = performance.now();
    const sample = async () => {
      const t = Math.round((performance.now() - started) / 1000);
      const now = Object.fromEntries(Object.entries(processes).map(([n, c]) => [n, rssMiB(c.pid)]));
      if (t >= WARMUP) for (const [n, v] of Object.entries(now)) if (v !== null) rss[n]!.push(v);
      const heapNow: Record<string, number | null> = {};
      for (const [n, url] of Object.entries(scraped)) heapNow[n] = await heapUsedMiB(url, METRICS_TOKEN);
      if (t >= WARMUP) for (const [n, v] of Object.entries(heapNow)) if (v !== null) heap[n]!.push(v);
      const lag: Lag = await queueLag(stack.ctx.db.pool, producer);
      const line = `t=${t}s requests=${state.samples.length} in_flight=${state.inFlight} rss_mib=${JSON.stringify(now)} heap_used_mib=${JSON.stringify(heapNow)} lag=${JSON.stringify(lag)}`;
      lines.push(line);
      console.log(line);
    };
    const timer = setInterval(() => void sample().catch((err) => console.error('sample failed', err)), EVERY * 1000);
    console.log(`soak: ${RATE} req/s for ${SECONDS} s (warm-up ${WARMUP} s)`);
    await drive(target, state, { rate: RATE, seconds: SECONDS });
    clearInterval(timer);
    await sample();
    const drainStarted = performance.now();
    const drained = await waitFor(
      'the stack to drain',
      async () => {
        const lag = await queueLag(stack.ctx.db.pool, producer);
        const open = await stack.ctx.db.pool.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM webhook_deliveries WHERE status IN ('pending', 'retrying')`,
        );
        return (
          lag.unenriched === 0 &&
          lag.outbox === 0 &&
          open.rows[0]!.n === 0 &&
          Object.values(lag.queued).every((n) => n === 0)
        );
      },
      { timeoutMs: DRAIN * 1000, intervalMs: 1000 },
    ).then(
      () => true,
      () => false,
    );
    const drainS = Math.round((performance.now() - drainStarted) / 1000);
    const recon = await reconcile(stack.ctx.db.pool, { state, receiver, policyId: target.policyId });
    const commit = execSync('git rev-parse --short HEAD', { encoding: 'utf8' }).trim();
    const report = renderReport({
      state,
      rss,
      heap,
      recon,
      lines,
      drained,
      drainS,
      rate: RATE,
      seconds: SECONDS,
      warmup: WARMUP,
      commit,
    });
    const file = process.env.SOAK_REPORT ?? path.join(os.tmpdir(), 'soak-report.md');
    writeFileSync(file, report.markdown);
    console.log(report.markdown);
    console.log(`report written to ${file}`);
    process.exitCode = report.pass ? 0 : 1;
  } finally {
    await producer.close();
    await receiver.down();
    await stack.close();
  }
}

/** A webhook endpoint on the receiver (test mode), a tenant with a firewall on the simulator and an assigned policy. */
async function setUp(
  stack: Awaited<ReturnType<typeof createStack>>,
  adminUrl: string,
  simPort: number,
  receiver: WebhookReceiver,
): Promise<Target> {
  const { key } = await mintApiKey(stack.ctx.db.prisma, { org_id: stack.orgId, scopes: [...SCOPES], livemode: false });
  const call = async (url: string, auth: string, body: unknown, method = 'POST') => {
    const res = await fetch(url, {
      method,
      headers: { authorization: auth, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
      body: JSON.stringify(body),
    });
    const json = (await res.json()) as Record<string, unknown>;
    if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
  await call(`${stack.apiUrl}/v1/webhooks`, `Bearer ${key}`, { url: receiver.url, events: ['*'] });
  const tenant = await call(`${adminUrl}/tenants/v1/register`, `Bearer ${stack.env.ADMIN_API_TOKEN}`, {
    name: 'soak',
    admin_email: 'ops@soak.example',
  });
  const tenantAuth = `Bearer ${(tenant.tenant_token as { token: string }).token}`;
  const fw = await call(`${adminUrl}/firewalls/v1`, tenantAuth, {
    name: 'soak-pa',
    type: 'palo_alto',
    host: '127.0.0.1',
    port: simPort,
    api_token: SIM_KEY,
    verify_ssl: false,
  });
  const policy = await call(`${adminUrl}/policies/v1/url-filter`, tenantAuth, {
    name: 'soak governance',
    default_action: 'allow',
    rules: [
      { name: 'allow chatgpt', action: 'allow', domains: ['chatgpt.com'] },
      { name: 'block chat assistants', action: 'block', categories: ['ai-chat-assistant'] },
      { name: 'alert code assistants', action: 'alert', categories: ['ai-code-assistant'] },
    ],
  });
  await call(`${adminUrl}/policies/v1/url-filter/${String(policy.id)}/assign`, tenantAuth, { firewall_ids: [fw.id] });
  return { publicUrl: stack.apiUrl, adminUrl, key, orgId: stack.orgId, tenantAuth, policyId: String(policy.id) };
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
