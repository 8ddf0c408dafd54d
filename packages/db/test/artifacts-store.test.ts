import { Pool } from 'pg';
import {
  claimArtifactScan,
  completeArtifactScan,
  createPrisma,
  expireArtifactScans,
  failArtifactScan,
  findArtifacts,
  findArtifactsToRescan,
  findArtifactVerdicts,
  markArtifactBytesKept,
  readArtifactChunks,
  recordArtifactUpload,
  renewArtifactLease,
  writeArtifactChunk,
  type DbHandle,
} from '../src';
import { scratchDatabase } from './scratch-database';

const hash = (c: string): string => c.repeat(64);
const result = (sha256: string, verdict: 'benign' | 'malicious', version = 'v1') => ({
  sha256,
  size: 10,
  format: 'pickle',
  verdict,
  findings: verdict === 'benign' ? [] : [{ id: 'pickle.dangerous_callable', evidence: { callable: 'os.system' } }],
  facts: { callables: [] },
  analyser_version: version,
});

describe('artifacts store', () => {
  const scratch = scratchDatabase('artifacts');
  let pool: Pool;
  let handle: DbHandle;

  beforeAll(async () => {
    await scratch.create({ migrate: true });
    pool = new Pool({ connectionString: scratch.url, max: 2 });
    handle = createPrisma({ url: scratch.url, applicationName: 'artifacts-store-test', max: 2 });
  });
  afterAll(async () => {
    await pool.end();
    await handle.close();
    await scratch.drop();
  });

  it('claims a new hash, completes it, then reports it known for the same analyser version', async () => {
    const sha = hash('a');
    const first = await claimArtifactScan(pool, {
      sha256: sha,
      size: 10,
      owner: 'p1',
      leaseMs: 60_000,
      analyserVersion: 'v1',
    });
    expect(first).toMatchObject({ kind: 'claimed', created: true });
    expect(first.artifact).toMatchObject({ status: 'scanning', verdict: null, size: 10 });
    expect((await findArtifactVerdicts(pool, [sha])).size).toBe(0);

    const done = await completeArtifactScan(pool, result(sha, 'malicious'));
    expect(done.verdictChanged).toBe(true);
    expect(done.artifact).toMatchObject({ status: 'done', verdict: 'malicious', analyser_version: 'v1', size: 10 });

    const again = await claimArtifactScan(pool, {
      sha256: sha,
      size: 10,
      owner: 'p2',
      leaseMs: 60_000,
      analyserVersion: 'v1',
    });
    expect(again.kind).toBe('known');
    // a new analyser version re-claims, and the old verdict stays readable meanwhile
    const rescan = await claimArtifactScan(pool, {
      sha256: sha,
      size: 10,
      owner: 'p2',
      leaseMs: 60_000,
      analyserVersion: 'v2',
    });
    expect(rescan).toMatchObject({ kind: 'claimed', created: false });
    const verdicts = await findArtifactVerdicts(pool, [sha, hash('b')]);
    expect([...verdicts.keys()]).toEqual([sha]);
    expect(verdicts.get(sha)).toMatchObject({ verdict: 'malicious', format: 'pickle', analyser_version: 'v1' });
    expect(verdicts.get(sha)!.scanned_at).toBeInstanceOf(Date);

    const same = await completeArtifactScan(pool, result(sha, 'malicious', 'v2'));
    expect(same.verdictChanged).toBe(false);
  });

  it('reads verdicts through Prisma as through pg', async () => {
    const sha = hash('c');
    await completeArtifactScan(pool, result(sha, 'benign'));
    const viaPrisma = await findArtifactVerdicts(handle.prisma, [sha]);
    expect(viaPrisma.get(sha)).toMatchObject({ verdict: 'benign', findings: [] });
    expect((await findArtifacts(handle.prisma, [sha])).get(sha)).toMatchObject({ size: 10, status: 'done' });
  });

  it('renews, fails and expires leases by owner', async () => {
    const sha = hash('d');
    const t0 = new Date('2026-11-29T10:00:00Z');
    await claimArtifactScan(pool, { sha256: sha, size: 1, owner: 'p1', leaseMs: 1000, analyserVersion: 'v1', now: t0 });
    expect(await renewArtifactLease(pool, { sha256: sha, owner: 'p2', leaseMs: 1000, now: t0 })).toBe(false);
    expect(await renewArtifactLease(pool, { sha256: sha, owner: 'p1', leaseMs: 5000, now: t0 })).toBe(true);
    expect(await expireArtifactScans(pool, new Date(t0.getTime() + 2000))).toEqual([]);
    // reads show a lapsed lease as failed before maintenance writes it
    expect((await findArtifacts(pool, [sha])).get(sha)).toMatchObject({ status: 'failed', failure: 'lease_expired' });
    expect(await expireArtifactScans(pool, new Date(t0.getTime() + 6000))).toEqual([sha]);
    expect((await findArtifacts(pool, [sha])).get(sha)).toMatchObject({ status: 'failed', failure: 'lease_expired' });

    // a failed scan is claimed again; a failure reported by a former owner changes nothing
    await claimArtifactScan(pool, { sha256: sha, size: 1, owner: 'p3', leaseMs: 1000, analyserVersion: 'v1' });
    await failArtifactScan(pool, { sha256: sha, owner: 'p1', failure: 'scan_error' });
    expect((await findArtifacts(pool, [sha])).get(sha)).toMatchObject({ status: 'scanning' });
    await failArtifactScan(pool, { sha256: sha, owner: 'p3', failure: 'scan_error' });
    expect((await findArtifacts(pool, [sha])).get(sha)).toMatchObject({ status: 'failed', failure: 'scan_error' });
  });

  it('keeps bytes in chunks and lists kept hashes another analyser version judged', async () => {
    const sha = hash('e');
    await completeArtifactScan(pool, result(sha, 'benign', 'v0'));
    await writeArtifactChunk(pool, { sha256: sha, seq: 0, data: Buffer.from('hello ') });
    await writeArtifactChunk(pool, { sha256: sha, seq: 1, data: Buffer.from('world') });
    await writeArtifactChunk(pool, { sha256: sha, seq: 2, data: Buffer.from('stale') });
    await markArtifactBytesKept(pool, sha, 2);
    const chunks = await readArtifactChunks(pool, { sha256: sha, fromSeq: 0, limit: 10 });
    expect(Buffer.concat(chunks.map((c) => c.data)).toString()).toBe('hello world');
    expect(await findArtifactsToRescan(pool, { analyserVersion: 'v1', limit: 10 })).toEqual([
      { sha256: sha, size: 10 },
    ]);
    expect(await findArtifactsToRescan(pool, { analyserVersion: 'v0', limit: 10 })).toEqual([]);
  });

  it('records uploads per org and mode, counting repeats', async () => {
    const sha = hash('f');
    await completeArtifactScan(pool, result(sha, 'benign'));
    await recordArtifactUpload(pool, { orgId: 'org_1', livemode: true, sha256: sha, idempotencyKey: 'k1' });
    await recordArtifactUpload(pool, { orgId: 'org_1', livemode: true, sha256: sha });
    await recordArtifactUpload(pool, { orgId: 'org_2', livemode: true, sha256: sha });
    const { rows } = await pool.query(
      'SELECT org_id, uploads, idempotency_key FROM artifact_uploads WHERE sha256 = $1 ORDER BY org_id',
      [sha],
    );
    expect(rows).toEqual([
      { org_id: 'org_1', uploads: 2, idempotency_key: 'k1' },
      { org_id: 'org_2', uploads: 1, idempotency_key: null },
    ]);
  });

  it('refuses a hash that is not 64 lowercase hex', async () => {
    await expect(
      claimArtifactScan(pool, { sha256: 'A'.repeat(64), size: 1, owner: 'p', leaseMs: 1, analyserVersion: 'v1' }),
    ).rejects.toThrow(/artifacts_sha256_hex/);
  });
});
