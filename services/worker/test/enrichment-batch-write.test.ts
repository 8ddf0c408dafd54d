import { encryptSecret } from '@risk/common/crypto';
import { ID_PREFIXES, newId } from '@risk/db';
import { createPrisma, readCandidateThreats, writeEnrichment, writeEnrichments, type EnrichmentWrite } from '@risk/db';
import { ADVISORY_CVE_IDS, enrichObservations, type EnrichmentResult } from '@risk/enrichment';
import type { Pool } from 'pg';
import { startWorker, type WorkerDeps } from '../src';
import { writeJob } from '../src/jobs/enrichment-batches';
import { enrichmentEvents } from '../src/jobs/enrichment-events';
import { createWorkerHarness, modelCardManifest, type WorkerHarness } from './harness';
import { scaledByLoad } from '@risk/testing';

/**
 * The batched enrichment write (docs/data-access.md "Micro-batches"): the writes of concurrent jobs share one
 * transaction (writeEnrichments); a failed batch is written again job by job (the worker's MicroBatch runAlone).
 */
describe('batched enrichment writes (real database)', () => {
  let h: WorkerHarness;
  let testKey: string;

  beforeAll(async () => {
    h = await createWorkerHarness('batchwrite');
    testKey = await h.mintTestKey();
    // a probe on the asset row: the transaction (txid) that marked each asset enriched, and a fault injected
    // for the fingerprints listed in write_fault (the write statement fails, as a constraint would)
    await h.ctx.db.pool.query(`
      CREATE TABLE write_probe (livemode boolean, fingerprint text, xid bigint);
      CREATE TABLE write_fault (fingerprint text PRIMARY KEY);
      CREATE FUNCTION write_probe() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.enrichment_status = 'enriched' AND OLD.enrichment_status IS DISTINCT FROM 'enriched' THEN
          IF EXISTS (SELECT 1 FROM write_fault WHERE fingerprint = NEW.fingerprint) THEN
            RAISE EXCEPTION 'injected write fault for %', NEW.fingerprint;
          END IF;
          INSERT INTO write_probe VALUES (NEW.livemode, NEW.fingerprint, txid_current());
        END IF;
        RETURN NEW;
      END $$;
      CREATE TRIGGER write_probe BEFORE UPDATE ON assets FOR EACH ROW EXECUTE FUNCTION write_probe();`);
  });
  afterAll(async () => h.close());

  const pool = () => h.ctx.db.pool;

  async function submitModel(fp: string, key = h.key): Promise<void> {
    const name = fp.replace(/^hf:/, '');
    const res = await h.submit(
      {
        fingerprint: fp,
        asset_type: 'model',
        name,
        version: '1.0',
        raw_manifest: modelCardManifest(),
        metadata: { files: ['pytorch_model.bin', 'config.json'] },
      },
      key,
    );
    expect(res.status).toBe(202);
  }

  /** What the worker would write for the asset (its engine, its threat stamps), without writing it. */
  async function writeFor(fingerprint: string, livemode = true): Promise<EnrichmentWrite<EnrichmentResult>> {
    const { prisma } = h.ctx.db;
    const asset = await prisma.asset.findUniqueOrThrow({ where: { livemode_fingerprint: { livemode, fingerprint } } });
    const observations = await prisma.assetOrg.findMany({
      where: { livemode, fingerprint, latest_signal_id: { not: null } },
    });
    const signals = await prisma.signal.findMany({
      where: { id: { in: observations.map((o) => o.latest_signal_id!) } },
    });
    const now = new Date();
    const result = enrichObservations(
      signals.map((s) => ({
        fingerprint,
        asset_type: s.asset_type as 'model',
        name: s.name,
        version: s.version,
        source_url: s.source_url,
        raw_manifest: s.raw_manifest,
        metadata: s.metadata as Record<string, unknown> | null,
      })),
      {
        threats: [],
        publisher: { org_count: 1, signal_count: asset.signal_count, first_seen: asset.first_seen.toISOString() },
        now: now.toISOString(),
      },
    );
    const { stamps } = await readCandidateThreats(pool(), {
      livemode,
      fingerprint,
      asset_type: asset.asset_type,
      cve_ids: [...ADVISORY_CVE_IDS],
    });
    return {
      job: { livemode, fingerprint, digest: asset.latest_digest },
      asset,
      result,
      threatStamps: stamps,
      now,
      events: enrichmentEvents,
    };
  }

  /** An asset's written state, without ids and times: what two writes of equal content must agree on. */
  async function stateOf(fingerprint: string, livemode: boolean) {
    const q = async (sql: string) => (await pool().query(sql, [livemode, fingerprint])).rows;
    const [asset] = await q(
      `SELECT enrichment_status, enriched_digest = latest_digest AS digest_enriched, intrinsic_risk_score,
              intrinsic_risk_severity, enrichment_error
         FROM assets WHERE livemode = $1 AND fingerprint = $2`,
    );
    return {
      asset,
      findings: await q(
        `SELECT rule_id, title, severity, cve_ids, score_contribution FROM findings
          WHERE livemode = $1 AND fingerprint = $2 ORDER BY rule_id, title`,
      ),
      aiboms: await q(
        `SELECT bom_version, content_hash FROM aiboms WHERE livemode = $1 AND fingerprint = $2 ORDER BY bom_version`,
      ),
      events: (await q(`SELECT type FROM events WHERE livemode = $1 AND fingerprint = $2 ORDER BY type`)).map(
        (r) => r.type as string,
      ),
      history: await q(
        `SELECT intrinsic_risk_score, bom_version FROM asset_history WHERE livemode = $1 AND fingerprint = $2`,
      ),
    };
  }

  it('writes several assets in one transaction, each as a separate writeEnrichment writes it', async () => {
    // the same signals in live mode (written in one batch) and in test mode (written one by one)
    const fps = ['hf:batch/c', 'hf:batch/a', 'hf:batch/b'];
    for (const fp of fps) {
      await submitModel(fp);
      await submitModel(fp, testKey);
    }
    // an endpoint in live mode: each write fans out, and each input's deliveries are read at its own offset
    await h.ctx.db.prisma.webhookEndpoint.create({
      data: {
        id: newId(ID_PREFIXES.webhookEndpoint),
        org_id: h.orgId,
        livemode: true,
        url: 'https://127.0.0.1:9/hook',
        events: ['*'],
        status: 'enabled',
        secret_ciphertext: encryptSecret('whsec_x', h.ctx.config.SECRETS_KEY!),
      },
    });

    const batch = await Promise.all(fps.map((fp) => writeFor(fp, true)));
    const written = await writeEnrichments(pool(), batch);
    const single = [];
    for (const fp of fps) single.push(await writeEnrichment(pool(), await writeFor(fp, false)));

    expect(written.map((w) => [w.status, w.bomVersion])).toEqual(fps.map(() => ['enriched', 1]));
    expect(single.map((w) => [w.status, w.bomVersion])).toEqual(fps.map(() => ['enriched', 1]));
    for (const fp of fps) {
      const live = await stateOf(fp, true);
      expect(live.asset).toMatchObject({
        enrichment_status: 'enriched',
        digest_enriched: true,
        enrichment_error: null,
      });
      expect(live.findings.length).toBeGreaterThan(0);
      expect(live.aiboms).toHaveLength(1);
      expect(live.events.length).toBeGreaterThan(0);
      expect(live.history).toHaveLength(1);
      expect(live).toEqual(await stateOf(fp, false));
    }
    // one transaction wrote the three live assets
    const { rows: xids } = await pool().query(
      `SELECT DISTINCT xid FROM write_probe WHERE livemode AND fingerprint = ANY($1)`,
      [fps],
    );
    expect(xids).toHaveLength(1);
    // each result's deliveries are its own asset's events
    for (const [i, fp] of fps.entries()) {
      expect(written[i]!.deliveries.length).toBeGreaterThan(0);
      const { rows } = await pool().query(
        `SELECT DISTINCT e.fingerprint FROM webhook_deliveries d JOIN events e ON e.id = d.event_id WHERE d.id = ANY($1)`,
        [written[i]!.deliveries.map((d) => d.delivery_id)],
      );
      expect(rows).toEqual([{ fingerprint: fp }]);
    }
    await pool().query(`UPDATE webhook_endpoints SET status = 'disabled'`);
  });

  it('returns the results in input order, whatever the lock order', async () => {
    // both modes in one batch, the inputs in reverse lock order; the first one superseded (its asset stays pending)
    for (const fp of ['hf:order/a', 'hf:order/b']) await submitModel(fp);
    await submitModel('hf:order/a', testKey);
    const superseded = await writeFor('hf:order/b', true);
    superseded.job = { ...superseded.job, digest: 'not-the-latest' };
    const out = await writeEnrichments(pool(), [
      superseded,
      await writeFor('hf:order/a', true),
      await writeFor('hf:order/a', false),
    ]);
    expect(out.map((w) => w.status)).toEqual(['pending', 'enriched', 'enriched']);
    expect((await stateOf('hf:order/b', true)).asset).toMatchObject({ enrichment_status: 'pending' });
    expect((await stateOf('hf:order/a', true)).asset).toMatchObject({ enrichment_status: 'enriched' });
    expect((await stateOf('hf:order/a', false)).asset).toMatchObject({ enrichment_status: 'enriched' });
  });

  it('rolls the whole batch back when one asset row is missing', async () => {
    const fps = ['hf:rollback/a', 'hf:rollback/b'];
    for (const fp of fps) await submitModel(fp);
    const inputs = await Promise.all(fps.map((fp) => writeFor(fp)));
    const ghost = { ...inputs[0]!, job: { ...inputs[0]!.job, fingerprint: 'hf:rollback/ghost' } };
    const before = await Promise.all(fps.map((fp) => stateOf(fp, true)));
    const { rows: events } = await pool().query(`SELECT count(*)::int AS n FROM events`);

    await expect(writeEnrichments(pool(), [inputs[0]!, ghost, inputs[1]!])).rejects.toThrow(
      /hf:rollback\/ghost disappeared/,
    );
    expect(await Promise.all(fps.map((fp) => stateOf(fp, true)))).toEqual(before);
    expect(before[0]!.asset).toMatchObject({ enrichment_status: 'pending' });
    expect((await pool().query(`SELECT count(*)::int AS n FROM events`)).rows).toEqual(events);

    // a failure in the second round trip (the write statement of one asset) rolls back the others' too
    await pool().query(`INSERT INTO write_fault VALUES ('hf:rollback/b')`);
    try {
      await expect(writeEnrichments(pool(), inputs)).rejects.toThrow(/injected write fault/);
    } finally {
      await pool().query(`DELETE FROM write_fault`);
    }
    expect(await Promise.all(fps.map((fp) => stateOf(fp, true)))).toEqual(before);
    // the connection went back to the pool usable: the same batch commits now
    expect((await writeEnrichments(pool(), inputs)).map((w) => w.status)).toEqual(['enriched', 'enriched']);
  });

  it('refuses one asset twice in a call, before touching the database', async () => {
    await submitModel('hf:dup/a');
    const input = await writeFor('hf:dup/a');
    let connects = 0;
    const counting = { connect: () => (connects++, pool().connect()) } as unknown as Pool;
    await expect(writeEnrichments(counting, [input, { ...input }])).rejects.toThrow(/appears twice/);
    expect(connects).toBe(0);
    // the same fingerprint in the other mode is another asset
    await submitModel('hf:dup/a', testKey);
    await expect(writeEnrichments(pool(), [input, await writeFor('hf:dup/a', false)])).resolves.toHaveLength(2);
  });

  it("the worker's write batch falls back to one write per job: only the faulty job fails", async () => {
    const fps = ['hf:alone/a', 'hf:alone/b', 'hf:alone/c', 'hf:alone/d'];
    for (const fp of fps) await submitModel(fp);
    const inputs = await Promise.all(fps.map((fp) => writeFor(fp)));
    let connects = 0;
    const counting = { connect: () => (connects++, pool().connect()) } as unknown as Pool;
    const deps: WorkerDeps = { ...h.deps, pool: counting };
    await pool().query(`INSERT INTO write_fault VALUES ('hf:alone/c')`);
    try {
      // submitted in one tick: one batch, which fails; then each write on its own
      const settled = await Promise.allSettled(inputs.map((w) => writeJob(deps, w)));
      expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
      expect((settled[2] as PromiseRejectedResult).reason).toBeInstanceOf(Error);
      expect(String((settled[2] as PromiseRejectedResult).reason)).toMatch(/injected write fault/);
      expect(connects).toBe(1 + fps.length);
    } finally {
      await pool().query(`DELETE FROM write_fault`);
    }
    for (const fp of fps) {
      const { asset } = await stateOf(fp, true);
      expect(asset).toMatchObject({ enrichment_status: fp === 'hf:alone/c' ? 'pending' : 'enriched' });
    }
    // the batch that succeeds: one connection, one transaction for the writes of one tick
    const again = await Promise.all(['hf:alone/c'].map((fp) => writeFor(fp)));
    for (const fp of ['hf:alone/e', 'hf:alone/f']) {
      await submitModel(fp);
      again.push(await writeFor(fp));
    }
    connects = 0;
    const out = await Promise.all(again.map((w) => writeJob(deps, w)));
    expect(out.map((w) => w.status)).toEqual(['enriched', 'enriched', 'enriched']);
    expect(connects).toBe(1);
    const { rows: xids } = await pool().query(
      `SELECT DISTINCT xid FROM write_probe WHERE livemode AND fingerprint = ANY($1)`,
      [again.map((w) => w.job.fingerprint)],
    );
    expect(xids).toHaveLength(1);
  });

  it('concurrent jobs of a worker all end enriched; a job whose write fails fails alone and is retried', async () => {
    const concurrent = {
      ...h.deps,
      config: { ...h.deps.config, ENRICHMENT_CONCURRENCY: 8, ENRICHMENT_TEST_DELAY_MS: 200 },
    };
    const fps = Array.from({ length: 20 }, (_, i) => `hf:conc/m${String(i).padStart(2, '0')}`);
    const faulty = 'hf:conc/m07';
    await pool().query(`INSERT INTO write_fault VALUES ($1)`, [faulty]);
    const worker = startWorker(concurrent, { maintenance: false, relay: false });
    try {
      await Promise.all(fps.map((fp) => submitModel(fp)));
      for (const fp of fps.filter((f) => f !== faulty))
        await h.waitForAsset(fp, (a) => a.enrichment_status === 'enriched', 60_000);
      const { rows } = await pool().query(`SELECT enrichment_status FROM assets WHERE livemode AND fingerprint = $1`, [
        faulty,
      ]);
      expect(rows[0].enrichment_status).not.toBe('enriched');
      // the fault gone, a retry of the job (BullMQ backoff) enriches the asset
      await pool().query(`DELETE FROM write_fault`);
      await h.waitForAsset(faulty, (a) => a.enrichment_status === 'enriched', 60_000);
      const { rows: enriched } = await pool().query(
        `SELECT count(*)::int AS n FROM assets WHERE livemode AND fingerprint = ANY($1) AND enrichment_status = 'enriched'
            AND enriched_digest = latest_digest`,
        [fps],
      );
      expect(enriched[0].n).toBe(fps.length);
    } finally {
      await pool().query(`DELETE FROM write_fault`);
      await worker.close();
    }
  }, scaledByLoad(120_000));
  it('runs the history statement on its generic plan, never planned anew (docs/data-access.md "Generic plans")', async () => {
    // one connection, so pg_prepared_statements below is the writes' own session
    const one = createPrisma({ url: h.ctx.databaseUrl, applicationName: 'history-generic-test', max: 1 });
    try {
      const fps = Array.from({ length: 7 }, (_, k) => `hf:generic/h${k}`);
      for (const fp of fps) await submitModel(fp);
      for (const fp of fps) await writeEnrichment(one.pool, await writeFor(fp));
      const { rows } = await one.pool.query<{ generic_plans: string; custom_plans: string }>(
        `SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE name = 'ew_history'`,
      );
      expect(rows).toEqual([{ generic_plans: '7', custom_plans: '0' }]);
    } finally {
      await one.close();
    }
  });
});
