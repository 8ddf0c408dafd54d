import { modelCardManifest } from '../test/harness';
import { createStack, kill, post, signal, statusCounts, waitFor, type Stack } from './processes';

// Case a (docs/reliability.md "Fault suite"): the worker is SIGKILLed twice during 1,000 enrichments and
// restarted. BullMQ's stalled-job check hands the killed worker's active jobs to the next one; every handler
// must be idempotent, so each asset ends enriched at its latest digest with one copy of its findings and
// one AI-BOM version.
const TOTAL = 1000;
const MODEL_EVERY = 10; // every 10th asset is a model card: findings and an AI-BOM to count

describe('fault: worker SIGKILLed during enrichment', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await createStack('fault-kill');
  });
  afterAll(async () => stack?.close());

  const enriched = async () => (await statusCounts(stack)).enriched ?? 0;

  it('every asset is enriched once per digest, with no duplicate findings or AI-BOM versions', async () => {
    await stack.startApi();
    let worker = stack.startWorker();

    const signals = Array.from({ length: TOTAL }, (_, i) =>
      i % MODEL_EVERY === 0
        ? signal(stack, `hf:acme/kill-model-${i}`, {
            asset_type: 'model',
            name: `acme/kill-model-${i}`,
            raw_manifest: modelCardManifest(`model ${i}`),
          })
        : signal(stack, `npm:kill-pkg-${i}@1.0.0`),
    );
    for (let i = 0; i < TOTAL; i += 500) {
      const res = await post(stack, '/v1/signals/bulk', { signals: signals.slice(i, i + 500) });
      expect(res.status).toBe(202);
    }

    // first kill early, second in the middle; each restart picks up the stalled jobs
    for (const threshold of [150, 550]) {
      await waitFor(`${threshold} enrichments`, async () => (await enriched()) >= threshold, {
        timeoutMs: 90_000,
        intervalMs: 50,
      });
      expect((await kill(worker)).signal).toBe('SIGKILL');
      worker = stack.startWorker();
    }
    await waitFor('every asset enriched', async () => (await enriched()) === TOTAL, {
      timeoutMs: 120_000,
      intervalMs: 200,
    });

    const pool = stack.ctx.db.pool;
    const { rows: notAtLatest } = await pool.query(
      `SELECT fingerprint FROM assets WHERE enriched_digest IS DISTINCT FROM latest_digest`,
    );
    expect(notAtLatest).toEqual([]);
    const { rows: dupFindings } = await pool.query(
      `SELECT fingerprint, rule_id, count(*)::int AS n FROM findings
        GROUP BY livemode, fingerprint, rule_id, title, evidence::text HAVING count(*) > 1`,
    );
    expect(dupFindings).toEqual([]);
    const { rows: boms } = await pool.query<{ assets: number; rows: number; max_version: number }>(
      `SELECT count(DISTINCT fingerprint)::int AS assets, count(*)::int AS rows, max(bom_version)::int AS max_version
         FROM aiboms`,
    );
    // the model cards produced AI-BOMs (the check is not vacuous) and each has exactly one version
    expect(boms[0]!.assets).toBeGreaterThan(0);
    expect(boms[0]!.rows).toBe(boms[0]!.assets);
    expect(boms[0]!.max_version).toBe(1);
    const { rows: withFindings } = await pool.query<{ n: number }>(
      `SELECT count(DISTINCT fingerprint)::int AS n FROM findings`,
    );
    expect(withFindings[0]!.n).toBeGreaterThan(0);
    await kill(worker, 'SIGTERM');
  });
});
