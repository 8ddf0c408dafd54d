import { waitFor } from '@risk/testing';
import { createHarness, postJson, postSignal, signalBody, type Harness } from './harness';

/**
 * Threat re-enrichment locks assets in (livemode, fingerprint) order, as signal ingest does
 * (ri_assets_lock, src/domain/signals/ingest-statements.ts); docs/reliability.md "Lock order".
 */
let h: Harness;
beforeAll(async () => {
  h = await createHarness('lockorder');
});
afterAll(() => h.close());

// pairs (later, earlier): whichever order the threat's match produces, one of them meets the later one first
it.each([
  ['hf:lock/b', 'hf:lock/a'],
  ['hf:lock/z', 'hf:lock/y'],
  ['hf:lock/q2', 'hf:lock/q1'],
  ['hf:lock/n', 'hf:lock/m'],
])(
  'a threat re-enriching %s and %s and an ingest-ordered transaction on them both commit (no deadlock → 500)',
  async (later, earlier) => {
    for (const fp of [later, earlier]) {
      expect((await postSignal(h, signalBody(h.orgId, { fingerprint: fp }))).status).toBe(202);
      // b is written before a, so an unordered scan meets b first
      await h.ctx.db.pool.query(
        `UPDATE assets SET enrichment_status = 'enriched', enriched_digest = latest_digest, enriched_at = now() WHERE fingerprint = $1`,
        [fp],
      );
    }
    const ingest = await h.ctx.db.pool.connect();
    try {
      await ingest.query('BEGIN');
      await ingest.query(`SELECT 1 FROM assets WHERE livemode AND fingerprint = $1 FOR UPDATE`, [earlier]);
      const threat = postJson(h, '/v1/threats', {
        category: 'malicious_model',
        title: `lock order ${earlier}`,
        severity: 'high',
        fingerprints: [later, earlier],
      }).then((r) => r);
      // the threat's transaction waits on the lock the ingest holds (however long it takes to get there)
      await waitFor("the threat to wait on the ingest's lock", async () => {
        const { rows } = await h.ctx.db.pool.query(
          `SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
        );
        return rows.length > 0;
      });
      const second = await ingest
        .query(`SELECT 1 FROM assets WHERE livemode AND fingerprint = $1 FOR UPDATE`, [later])
        .then(
          () => null,
          (err: Error) => err,
        );
      expect(second).toBeNull();
      await ingest.query('COMMIT');
      const res = await threat;
      expect(res.status).toBe(201);
      const { rows } = await h.ctx.db.pool.query(
        `SELECT enrichment_status FROM assets WHERE fingerprint = ANY($1::text[])`,
        [[earlier, later]],
      );
      expect(rows).toEqual([{ enrichment_status: 'stale' }, { enrichment_status: 'stale' }]);
    } finally {
      await ingest.query('ROLLBACK').catch(() => undefined);
      ingest.release();
    }
  },
  30_000,
);
