import type { ChildProcess } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { JOBS } from '@risk/common/queue';
import { cpuSlowdown, currentSlowdown } from '@risk/time-budget';
import { createWorkerHarness, waitFor, type WorkerHarness } from './harness';
import { hostileCorpus, type HostileSignal } from './hostile-corpus';
import { exited, freePort, probeHealth, spawnWorker, timeBenignEnrichment } from './worker-process';
import { scaledByLoad } from '@risk/testing';

// docs/security.md, "Analysis under a budget" (hostile corpus): the adversarial manifests — an attack string
// for every pattern the engine had before its linear-time rewrite, YAML alias bombs, deep nesting, lists far beyond
// the caps, repeated ids, NUL and lone-surrogate escapes, in every manifest format — sent through the public API to
// the real worker process, with the production deadline (ENRICHMENT_JOB_TIMEOUT_MS 2000), while a probe checks that
// /healthz answers within 1 s. The deadline and the bounds are the reference machine's: on a machine measured slower
// right now (a CI runner busy with other suites) they grow by that slowdown, at most 8× (@risk/time-budget), which no
// super-linear case at 1 MiB fits into; the deadline counts the thread's CPU time, so it grows by the CPU slowdown
// only (cpuSlowdown), the wall-clock bounds by the load as well (currentSlowdown). Hostile but valid content ends `enriched` or is a 400 at the API:
// never a 5xx, never a failed or stuck asset; a benign signal sent afterwards is still enriched promptly.

/** the production deadline (packages/common config) */
const JOB_TIMEOUT_MS = 2000;
const HEALTHZ_MAX_MS = 1000;
/** from the last accepted signal until every hostile asset is enriched */
const DRAIN_BOUND_MS = 25_000;
const BENIGN_BOUND_MS = 5000;

interface Sent {
  item: HostileSignal;
  fingerprint: string;
  status: number;
  body: { error?: { type: string; code: string; param?: string; message: string; request_id: string } };
  requestId: string | undefined;
  acceptedAt: number;
}

describe('hostile corpus through the public API to the real worker process (real Postgres and Redis)', () => {
  let h: WorkerHarness;
  let worker: ChildProcess & { output: string[] };
  let healthUrl: string;
  let probe: ReturnType<typeof probeHealth> | undefined;
  let slowdown = 1;

  beforeAll(async () => {
    slowdown = currentSlowdown();
    h = await createWorkerHarness('hostile');
    const port = await freePort();
    healthUrl = `http://127.0.0.1:${port}/healthz`;
    // the corpus must fit the production deadline (on this machine: the deadline × its measured CPU slowdown)
    worker = spawnWorker(h, {
      WORKER_HEALTH_PORT: String(port),
      ENRICHMENT_THREADS: '2',
      ENRICHMENT_JOB_TIMEOUT_MS: String(Math.round(JOB_TIMEOUT_MS * cpuSlowdown())),
    });
    await waitFor('worker ready', async () => worker.output.join('').includes('worker ready'), {
      timeoutMs: 30_000,
      intervalMs: 50,
    });
  }, scaledByLoad(60_000));
  afterAll(async () => {
    await probe?.stop();
    if (worker.exitCode === null && worker.signalCode === null) {
      worker.kill('SIGTERM');
      await exited(worker);
    }
    await h.close();
  }, scaledByLoad(30_000));

  it(
    'enriches every hostile signal or refuses it with a 400, never a 5xx, while /healthz answers within 1 s; a benign signal is then enriched promptly',
    async () => {
      const corpus = hostileCorpus();
      expect(corpus.length).toBeGreaterThanOrEqual(40);
      const started = performance.now();
      probe = probeHealth(healthUrl);

      const sent: Sent[] = [];
      // asset states are polled from the first request on, so each asset's time to `enriched` is its own
      const enrichedAt = new Map<string, number>();
      const failed: string[] = [];
      const pollStates = async () => {
        const accepted = sent.filter((s) => s.status === 202 && !enrichedAt.has(s.fingerprint));
        if (accepted.length === 0) return;
        const assets = await h.ctx.db.prisma.asset.findMany({
          where: { livemode: true, fingerprint: { in: accepted.map((s) => s.fingerprint) } },
          select: { fingerprint: true, enrichment_status: true, enrichment_error: true },
        });
        const now = performance.now();
        for (const a of assets) {
          if (a.enrichment_status === 'failed') {
            const s = accepted.find((x) => x.fingerprint === a.fingerprint);
            failed.push(`${s?.item.label ?? a.fingerprint} ended failed: ${a.enrichment_error}`);
          }
          if (a.enrichment_status === 'enriched') enrichedAt.set(a.fingerprint, now);
        }
      };
      let sending = true;
      const statePoller = (async () => {
        while (sending) {
          await pollStates();
          await new Promise((r) => setTimeout(r, 100));
        }
      })();
      for (const [i, item] of corpus.entries()) {
        const fingerprint = (item.body.fingerprint as string | undefined) ?? `hostile:${i}`;
        const res = await h.submit({ fingerprint, ...item.body });
        sent.push({
          item,
          fingerprint,
          status: res.status,
          body: res.body as Sent['body'],
          requestId: res.headers['x-request-id'],
          acceptedAt: performance.now(),
        });
      }
      const sentMs = performance.now() - started;
      sending = false;
      await statePoller;
      const outcome = (s: Sent) => `${s.item.label}: ${s.status} ${JSON.stringify(s.body.error ?? {})}`;
      expect(sent.filter((s) => s.status >= 500).map(outcome)).toEqual([]);
      expect(sent.filter((s) => s.status !== (s.item.expect === 'rejected' ? 400 : 202)).map(outcome)).toEqual([]);

      // refused: the envelope names the field, and nothing was written for the fingerprint
      const refused = sent.filter((s) => s.status === 400);
      for (const s of refused) {
        expect(s.body.error).toMatchObject({
          type: 'invalid_request_error',
          code: 'parameter_invalid',
          request_id: s.requestId,
        });
        expect(s.body.error?.message).toMatch(/NUL character|unpaired UTF-16 surrogate|levels deep/);
      }
      const refusedFingerprints = refused.map((s) => s.fingerprint);
      const [refusedSignals, refusedAssets] = await Promise.all([
        h.ctx.db.prisma.signal.count({ where: { fingerprint: { in: refusedFingerprints } } }),
        h.ctx.db.prisma.asset.count({ where: { fingerprint: { in: refusedFingerprints } } }),
      ]);
      expect([refusedSignals, refusedAssets]).toEqual([0, 0]);

      // accepted: every asset ends enriched (not failed, not stuck pending) within the bound
      const accepted = sent.filter((s) => s.status === 202);
      const lastAcceptedAt = Math.max(...accepted.map((s) => s.acceptedAt));
      const pending = () =>
        accepted
          .filter((s) => !enrichedAt.has(s.fingerprint))
          .map((s) => s.item.label)
          .join('; ');
      await waitFor(
        'every accepted hostile asset to be enriched',
        async () => {
          await pollStates();
          // a failed asset fails the test at once: a timeout is unrecoverable, nothing would retry it
          if (failed.length) throw new Error(failed.join('; '));
          return enrichedAt.size === accepted.length;
        },
        { timeoutMs: Math.max(0, DRAIN_BOUND_MS * slowdown - (performance.now() - lastAcceptedAt)), intervalMs: 100 },
      ).catch((err: Error) => {
        throw new Error(`${err.message}; not enriched: ${pending()}`);
      });
      // the drain bound itself: waitFor's deadline above is a hang detector, stretched further by the load
      expect(Math.max(...enrichedAt.values()) - lastAcceptedAt).toBeLessThan(DRAIN_BOUND_MS * slowdown);
      const drainMs = performance.now() - started;
      const perAsset = accepted
        .map((s) => ({ label: s.item.label, ms: enrichedAt.get(s.fingerprint)! - s.acceptedAt }))
        .sort((a, b) => b.ms - a.ms);

      // no job failed or was retried: each hostile analysis fit the deadline on its first attempt
      const queue = h.producer.queue(JOBS.enrichment.queue);
      expect((await queue.getFailed()).map((j) => `${j.data.fingerprint}: ${j.failedReason}`)).toEqual([]);
      const completed = await queue.getCompleted(0, -1);
      expect(completed.filter((j) => j.attemptsMade > 1).map((j) => j.data.fingerprint)).toEqual([]);

      // what the caps cut is said in an analysis_truncated finding
      const truncated = accepted.filter((s) => s.item.expect === 'truncated');
      expect(truncated.length).toBeGreaterThanOrEqual(8);
      const truncatedFindings = await h.ctx.db.prisma.finding.findMany({
        where: {
          livemode: true,
          rule_id: 'analysis_truncated',
          fingerprint: { in: truncated.map((s) => s.fingerprint) },
        },
        select: { fingerprint: true },
      });
      const withFinding = new Set(truncatedFindings.map((f) => f.fingerprint));
      expect(truncated.filter((s) => !withFinding.has(s.fingerprint)).map((s) => s.item.label)).toEqual([]);

      // a benign signal afterwards is enriched promptly
      const benignMs = await timeBenignEnrichment(h, 'hf:acme/benign-after-hostile-corpus');

      const latencies = await probe.stop();
      const healthMax = Math.max(...latencies);
      const worst = perAsset[0]!;
      // the figures for the issue's closing note (docs/security.md quotes them)
      console.log(
        `hostile corpus (machine slowdown ${slowdown.toFixed(2)}×): ${accepted.length} accepted + ${refused.length} refused (400) of ${corpus.length}, no 5xx; ` +
          `sent in ${Math.round(sentMs)} ms, all enriched ${Math.round(drainMs)} ms after the first request; ` +
          `worst asset ${Math.round(worst.ms)} ms from 202 to enriched (${worst.label}); ` +
          `/healthz max ${Math.round(healthMax)} ms over ${latencies.length} probes; benign enriched in ${Math.round(benignMs)} ms; ` +
          `slowest assets: ${perAsset
            .slice(1, 4)
            .map((a) => `${Math.round(a.ms)} ms ${a.label}`)
            .join('; ')}`,
      );
      expect(latencies.length).toBeGreaterThan(10);
      expect(healthMax).toBeLessThan(HEALTHZ_MAX_MS * slowdown);
      expect(benignMs).toBeLessThan(BENIGN_BOUND_MS * slowdown);
    },
    scaledByLoad(180_000),
  );
});
