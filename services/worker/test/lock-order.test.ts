import { runMaintenance } from '../src';
import { createWorkerHarness, waitFor, type WorkerHarness } from './harness';
import { scaledByLoad } from '@risk/testing';

/**
 * Writers of assets lock them in (livemode, fingerprint) order, as signal ingest does (ri_assets_lock in
 * services/public-api/src/domain/signals/ingest-statements.ts); docs/reliability.md "Lock order".
 */
describe('asset lock order', () => {
  let h: WorkerHarness;
  beforeAll(async () => {
    h = await createWorkerHarness('lockorder');
  });
  afterAll(async () => h.close());

  it(
    'TTL maintenance and an ingest-ordered transaction on the same assets both commit (no deadlock)',
    async () => {
      // b is written before a, so an unordered scan meets b first
      for (const name of ['lock/b', 'lock/a']) {
        expect((await h.submit({ fingerprint: `hf:${name}`, asset_type: 'model', name })).status).toBe(202);
      }
      for (const fp of ['hf:lock/b', 'hf:lock/a'])
        await h.ctx.db.pool.query(
          `UPDATE assets SET enrichment_status = 'enriched', enriched_digest = latest_digest, enriched_at = now() - interval '30 days' WHERE fingerprint = $1`,
          [fp],
        );

      // an ingest holds hf:lock/a (first in order) and will take hf:lock/b next
      const ingest = await h.ctx.db.pool.connect();
      try {
        await ingest.query('BEGIN');
        await ingest.query(`SELECT 1 FROM assets WHERE livemode AND fingerprint = 'hf:lock/a' FOR UPDATE`);
        const maintenance = runMaintenance(h.deps).then(
          (r) => r,
          (err: Error) => err,
        );
        // maintenance waits on the lock the ingest holds (however long it takes to get there)
        await waitFor("maintenance to wait on the ingest's lock", async () => {
          const { rows } = await h.ctx.db.pool.query(
            `SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
          );
          return rows.length > 0;
        });
        const second = await ingest
          .query(`SELECT 1 FROM assets WHERE livemode AND fingerprint = 'hf:lock/b' FOR UPDATE`)
          .then(
            () => null,
            (err: Error) => err,
          );
        expect(second).toBeNull();
        await ingest.query('COMMIT');
        const result = await maintenance;
        expect(result).not.toBeInstanceOf(Error);
        expect(result).toMatchObject({ staled: 2 });
      } finally {
        await ingest.query('ROLLBACK').catch(() => undefined);
        ingest.release();
      }
    },
    scaledByLoad(30_000),
  );
});
