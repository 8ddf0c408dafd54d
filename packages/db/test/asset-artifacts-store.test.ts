import { Pool } from 'pg';
import {
  completeArtifactScan,
  markAssetsForArtifactReenrichment,
  readAssetArtifacts,
  recordAssetArtifacts,
} from '../src';
import { ASSETS_NAMING_SQL } from '../src/stores/asset-artifacts-store';
import { scratchDatabase } from './scratch-database';

// docs/artifacts.md "Judgement": the hashes each asset names, replaced per enrichment, and the re-enrichment of the
// assets naming a hash whose verdict changed, found through the sha256 index.
const hash = (c: string): string => c.repeat(64);

describe('asset artifacts store', () => {
  const scratch = scratchDatabase('assetartifacts');
  let pool: Pool;

  const asset = async (fingerprint: string, status: string, livemode = true) =>
    pool.query(
      `INSERT INTO assets (livemode, fingerprint, asset_type, enrichment_status, latest_signal_id, latest_digest,
                           enriched_digest, first_seen, last_seen)
       VALUES ($1, $2, 'model', $3, 'sig_x', 'dig_' || $2, CASE WHEN $3 = 'enriched' THEN 'dig_' || $2 END, now(), now())`,
      [livemode, fingerprint, status],
    );
  const statusOf = async (fingerprint: string, livemode = true) =>
    (
      await pool.query<{ enrichment_status: string }>(
        'SELECT enrichment_status FROM assets WHERE livemode = $1 AND fingerprint = $2',
        [livemode, fingerprint],
      )
    ).rows[0]?.enrichment_status;

  beforeAll(async () => {
    await scratch.create({ migrate: true });
    pool = new Pool({ connectionString: scratch.url, max: 2 });
  });
  afterAll(async () => {
    await pool.end();
    await scratch.drop();
  });

  it('replaces the hashes of one asset; a repeated hash keeps its first path', async () => {
    await asset('hf:a/one', 'enriched');
    await recordAssetArtifacts(pool, {
      livemode: true,
      fingerprint: 'hf:a/one',
      artifacts: [
        { sha256: hash('a'), path: 'model.bin', size: 10 },
        { sha256: hash('b'), path: 'b.pkl', size: 2 },
        { sha256: hash('a'), path: 'copy/model.bin', size: 10 },
      ],
    });
    const read = async () =>
      (await readAssetArtifacts(pool, { livemode: true, fingerprints: ['hf:a/one', 'hf:none'], limit: 10 })).get(
        'hf:a/one',
      );
    expect(await read()).toEqual([
      { path: 'b.pkl', sha256: hash('b'), size: 2, verdict: null },
      { path: 'model.bin', sha256: hash('a'), size: 10, verdict: null },
    ]);
    await completeArtifactScan(pool, {
      sha256: hash('a'),
      size: 10,
      format: 'pickle',
      verdict: 'malicious',
      findings: [],
      facts: {},
      analyser_version: 'v1',
    });
    await recordAssetArtifacts(pool, {
      livemode: true,
      fingerprint: 'hf:a/one',
      artifacts: [
        { sha256: hash('a'), path: 'model.bin', size: 10 },
        { sha256: hash('c'), path: 'c.pt', size: 3 },
      ],
    });
    expect(await read()).toEqual([
      { path: 'c.pt', sha256: hash('c'), size: 3, verdict: null },
      { path: 'model.bin', sha256: hash('a'), size: 10, verdict: 'malicious' },
    ]);
  });

  it('a changed verdict stales the assets naming the hash (both modes) and queues their enrichment', async () => {
    await asset('hf:a/two', 'enriched');
    await asset('hf:a/two', 'pending', false);
    await asset('hf:a/other', 'enriched');
    for (const [livemode, fp, sha] of [
      [true, 'hf:a/two', hash('d')],
      [false, 'hf:a/two', hash('d')],
      [true, 'hf:a/other', hash('e')],
    ] as const)
      await recordAssetArtifacts(pool, {
        livemode,
        fingerprint: fp,
        artifacts: [{ sha256: sha, path: 'w.bin', size: 1 }],
      });
    expect(await markAssetsForArtifactReenrichment(pool, { sha256s: [hash('d')], reason: 'artifact_verdict' })).toBe(2);
    expect(await statusOf('hf:a/two')).toBe('stale');
    expect(await statusOf('hf:a/two', false)).toBe('pending');
    expect(await statusOf('hf:a/other')).toBe('enriched');
    const outbox = await pool.query<{ payload: Record<string, unknown> }>(
      `SELECT payload FROM outbox WHERE kind = 'enrichment' AND payload->>'reason' = 'artifact_verdict' ORDER BY id`,
    );
    expect(outbox.rows.map((r) => [r.payload.livemode, r.payload.fingerprint, r.payload.digest])).toEqual([
      [false, 'hf:a/two', 'dig_hf:a/two'],
      [true, 'hf:a/two', 'dig_hf:a/two'],
    ]);
    expect(await markAssetsForArtifactReenrichment(pool, { sha256s: [hash('f')], reason: 'artifact_verdict' })).toBe(0);
  });

  it('finds the assets of a hash by the sha256 index, not a scan', async () => {
    const n = 3000;
    await pool.query(
      `INSERT INTO assets (livemode, fingerprint, asset_type, enrichment_status, latest_signal_id, latest_digest, first_seen, last_seen)
       SELECT true, 'bulk:' || g, 'model', 'enriched', 's', 'd', now(), now() FROM generate_series(1, $1) g`,
      [n],
    );
    await pool.query(
      `INSERT INTO asset_artifacts (livemode, fingerprint, sha256, path, size)
       SELECT true, 'bulk:' || g, lpad(to_hex(g), 64, '0'), 'f.bin', 1 FROM generate_series(1, $1) g`,
      [n],
    );
    await pool.query('ANALYZE asset_artifacts');
    const plan = await pool.query<{ 'QUERY PLAN': unknown }>(`EXPLAIN (FORMAT JSON) ${ASSETS_NAMING_SQL}`, [
      [hash('9')],
    ]);
    const text = JSON.stringify(plan.rows[0]?.['QUERY PLAN']);
    expect(text).toContain('asset_artifacts_sha256_idx');
    expect(text).not.toContain('Seq Scan');
  });
});
