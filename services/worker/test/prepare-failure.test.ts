import { createPrisma, type DbHandle } from '@risk/db';
import { Client } from 'pg';
import { enrichAsset } from '../src';
import { createWorkerHarness, modelCardManifest, type WorkerHarness } from './harness';
import { scaledByLoad } from '@risk/testing';

// A worker connection whose PREPARE failed is discarded. PREPARE is not transactional:
// when the write's PREPARE batch fails half-way, the statements before the failure stay defined on the
// connection, and a connection handed out again fails every later job with "prepared statement …
// already exists" (docs/data-access.md "Prepared statements").
describe('enrichment write after a failed PREPARE', () => {
  let h: WorkerHarness;
  let workerDb: DbHandle;
  let locker: Client;

  beforeAll(async () => {
    h = await createWorkerHarness('prepfail');
    // one connection, so the job after the failure gets the connection the failure left behind (unless
    // it was discarded); a short lock_timeout makes PREPARE of a locked table fail fast
    workerDb = createPrisma({ url: h.ctx.databaseUrl, applicationName: 'prepfail-worker', max: 1, lockTimeoutMs: 300 });
    locker = new Client({ connectionString: h.ctx.databaseUrl });
    await locker.connect();
  });
  afterAll(async () => {
    await locker.end();
    await workerDb.close();
    await h.close();
  });

  it(
    'discards the half-prepared connection: the next job on the pool enriches the asset',
    async () => {
      const fp = 'hf:acme/prepare-failure';
      const res = await h.submit({
        fingerprint: fp,
        asset_type: 'model',
        name: 'acme/prepare-failure',
        raw_manifest: modelCardManifest(),
        metadata: { files: ['model.safetensors'] },
      });
      expect(res.status).toBe(202);
      const asset = await h.ctx.db.prisma.asset.findUniqueOrThrow({
        where: { livemode_fingerprint: { livemode: true, fingerprint: fp } },
      });
      const deps = { ...h.deps, prisma: workerDb.prisma, pool: workerDb.pool };
      const job = { livemode: true, fingerprint: fp, digest: asset.latest_digest, reason: 'new_asset' };

      // findings is written by the write statement only: its PREPARE waits for the lock and fails
      // (lock_timeout) after the lock statements were prepared on the connection
      await locker.query('BEGIN; LOCK TABLE findings IN ACCESS EXCLUSIVE MODE');
      await expect(enrichAsset(deps, job)).rejects.toThrow(/lock timeout/);
      await locker.query('ROLLBACK');

      await expect(enrichAsset(deps, job)).resolves.toMatchObject({ outcome: 'enriched', fingerprint: fp });
      const after = await h.ctx.db.prisma.asset.findUniqueOrThrow({
        where: { livemode_fingerprint: { livemode: true, fingerprint: fp } },
      });
      expect(after.enrichment_status).toBe('enriched');
      expect(after.enriched_digest).toBe(asset.latest_digest);
      // 10-13 s alone on a loaded 2-core machine (two cold enrichments: the engine's data and prepared statements), so
      // jest's default 30 s was too close beside other suites
    },
    scaledByLoad(90_000),
  );
});
