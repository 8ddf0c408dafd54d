import type { AddressInfo } from 'node:net';
import { ANALYSER_VERSION, closeScanPools, SCAN_CPU_BUDGET_SPENT } from '@risk/artifacts';
import { sha256Hex as sha } from '@risk/common/crypto';
import { QUEUES } from '@risk/common/queue';
import { claimArtifactScan, findArtifacts } from '@risk/db';
import { probeHealth, scaledByLoad, uploadArtifact } from '@risk/testing';
import { currentSlowdown } from '@risk/time-budget';
import { opcodeFloodPickle, osSystemPickle } from '../../../packages/artifacts/test/pickle-bytes';
import { artifactUpkeep } from '../src/artifact-rescan';
import { startHealthServer } from '../src/health-server';
import { createWorkerHarness, type WorkerHarness } from './harness';

describe('artifact upkeep in maintenance', () => {
  let h: WorkerHarness;
  beforeAll(async () => {
    h = await createWorkerHarness('artifactrescan', { ARTIFACTS_KEEP_BYTES: 'true' });
  });
  afterAll(async () => {
    await closeScanPools();
    await h.close();
  });

  const keep = (bytes: Uint8Array) => uploadArtifact(h.app, bytes, { key: h.key });

  /** As if an older analyser had judged these bytes (benign): the next upkeep re-scans them. */
  const judgedByOlderAnalyser = (bytes: Uint8Array) =>
    h.ctx.db.pool.query(
      `UPDATE artifacts SET analyser_version = 'artifacts-0.0.1', verdict = 'benign', findings = '[]' WHERE sha256 = $1`,
      [sha(bytes)],
    );

  it('re-scans kept bytes judged by another analyser version and announces a changed verdict', async () => {
    const bytes = osSystemPickle();
    const res = await keep(bytes);
    expect(res.status).toBe(201);
    await judgedByOlderAnalyser(bytes);
    const queue = h.producer.queue(QUEUES.artifactVerdicts);
    await queue.drain();

    const result = await artifactUpkeep(h.deps);
    expect(result).toMatchObject({ artifacts_rescanned: 1, artifact_verdicts_changed: 1 });
    const row = (await findArtifacts(h.ctx.db.pool, [sha(bytes)])).get(sha(bytes))!;
    expect(row).toMatchObject({ verdict: 'malicious', analyser_version: ANALYSER_VERSION, status: 'done' });
    const jobs = await queue.getJobs(['waiting']);
    expect(jobs.map((j) => j.data.sha256s)).toEqual([[sha(bytes)]]);

    // judged by the current version now: nothing left to re-scan
    expect(await artifactUpkeep(h.deps)).toMatchObject({ artifacts_rescanned: 0 });
  });

  it('marks a scan whose lease ran out failed', async () => {
    const dead = sha('a scan whose process died');
    await claimArtifactScan(h.ctx.db.pool, {
      sha256: dead,
      size: 10,
      owner: 'gone:1:req',
      leaseMs: 1000,
      analyserVersion: ANALYSER_VERSION,
      now: new Date(Date.now() - 60_000),
    });
    const result = await artifactUpkeep(h.deps);
    expect(result.artifact_scans_expired).toBe(1);
    const row = (await findArtifacts(h.ctx.db.pool, [dead])).get(dead)!;
    expect(row).toMatchObject({ status: 'failed', failure: 'lease_expired' });
  });

  // docs/artifacts.md "Upload scans under a budget": a re-scan runs in a budgeted thread, as an upload's scan does, so hostile
  // kept bytes cannot stall the worker's event loop (its /healthz, lock renewals and jobs)
  it(
    're-scans a kept pickle of 10^7 opcodes while the health probe keeps answering within 1 s',
    async () => {
      const bytes = opcodeFloodPickle(10_000_000);
      expect((await keep(bytes)).status).toBe(201);
      await judgedByOlderAnalyser(bytes);
      const health = await startHealthServer(
        h.deps,
        { workers: [], close: async () => undefined },
        {
          port: 0,
          host: '127.0.0.1',
        },
      );
      const probe = probeHealth(`http://127.0.0.1:${(health.address() as AddressInfo).port}/healthz`);
      let latencies: number[];
      try {
        await probe.ready;
        expect(await artifactUpkeep(h.deps)).toMatchObject({ artifacts_rescanned: 1 });
      } finally {
        latencies = await probe.stop();
        health.close();
      }
      const row = (await findArtifacts(h.ctx.db.pool, [sha(bytes)])).get(sha(bytes))!;
      expect(row).toMatchObject({
        format: 'pickle',
        verdict: 'benign',
        analyser_version: ANALYSER_VERSION,
        status: 'done',
      });
      // how many probes fit in the scan depends on the machine's speed; what must hold is that each one answered in time
      expect(latencies.length).toBeGreaterThan(0);
      // the reference machine's bound, scaled by this machine's measured slowdown (@risk/time-budget)
      expect(Math.max(...latencies)).toBeLessThan(1000 * currentSlowdown());
      console.log(
        `artifact re-scan: /healthz max ${Math.round(Math.max(...latencies))} ms over ${latencies.length} probes`,
      );
    },
    scaledByLoad(60_000),
  );

  it(
    "stops a re-scan past the uploads' CPU budget: the kept bytes are unscannable, never benign",
    async () => {
      // a flood that needs far more than 100 ms (other bytes than the test above's); on the event loop no budget applies
      const bytes = opcodeFloodPickle(30_000_001);
      expect((await keep(bytes)).status).toBe(201);
      await judgedByOlderAnalyser(bytes);
      const stingy = { ...h.deps, config: { ...h.deps.config, ARTIFACTS_SCAN_CPU_MS: 100 } };
      expect(await artifactUpkeep(stingy)).toMatchObject({ artifacts_rescanned: 1, artifact_verdicts_changed: 1 });
      const row = (await findArtifacts(h.ctx.db.pool, [sha(bytes)])).get(sha(bytes))!;
      expect(row).toMatchObject({ verdict: 'unscannable', facts: { unscannable: SCAN_CPU_BUDGET_SPENT } });
    },
    scaledByLoad(60_000),
  );
});
