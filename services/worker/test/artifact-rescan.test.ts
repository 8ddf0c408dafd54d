import { createHash, randomUUID } from 'node:crypto';
import { ANALYSER_VERSION } from '@risk/artifacts';
import { QUEUES } from '@risk/common/queue';
import { claimArtifactScan, findArtifacts } from '@risk/db';
import request from 'supertest';
import { artifactUpkeep } from '../src/artifact-rescan';
import { createWorkerHarness, type WorkerHarness } from './harness';

const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** `posix.system('id')` as a protocol-2 pickle: PROTO, GLOBAL, BINUNICODE, TUPLE1, REDUCE, STOP. */
function osSystemPickle(): Buffer {
  const arg = Buffer.from('id');
  const len = Buffer.alloc(4);
  len.writeUInt32LE(arg.length);
  return Buffer.concat([
    Buffer.from([0x80, 0x02]),
    Buffer.from('cposix\nsystem\n', 'latin1'),
    Buffer.from('X'),
    len,
    arg,
    Buffer.from([0x85]),
    Buffer.from('R.'),
  ]);
}

describe('artifact upkeep in maintenance', () => {
  let h: WorkerHarness;
  beforeAll(async () => {
    h = await createWorkerHarness('artifactrescan', { ARTIFACTS_KEEP_BYTES: 'true' });
  });
  afterAll(() => h.close());

  it('re-scans kept bytes judged by another analyser version and announces a changed verdict', async () => {
    const bytes = osSystemPickle();
    const res = await request(h.app)
      .post('/v1/artifacts')
      .set('Authorization', `Bearer ${h.key}`)
      .set('Idempotency-Key', randomUUID())
      .set('Content-Type', 'application/octet-stream')
      .send(Buffer.from(bytes));
    expect(res.status).toBe(201);
    // as if an older analyser had judged these bytes differently
    await h.ctx.db.pool.query(
      `UPDATE artifacts SET analyser_version = 'artifacts-0.0.1', verdict = 'benign', findings = '[]' WHERE sha256 = $1`,
      [sha(bytes)],
    );
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
    const dead = createHash('sha256').update('a scan whose process died').digest('hex');
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
});
