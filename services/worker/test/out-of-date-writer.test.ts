import { SCOPES } from '@risk/contracts';
import { mintApiKey } from '@risk/common/api-keys';
import { enrichAsset, markEnrichmentFailed } from '../src';
import { analyseAsset, writeAnalysed, type AnalysedAsset } from '../src/jobs/enrichment';
import { createWorkerHarness, modelCardManifest, type WorkerHarness } from './harness';

// docs/reliability.md "Out-of-date writers": a job whose digest was replaced by a newer signal while it ran must
// neither overwrite the newer job's result nor leave the asset stale with no job to run. Each case holds the first
// job between its analysis and its write (analyseAsset, then writeAnalysed), so the order of the writes is the
// test's, not the machine's.
describe('an enrichment job replaced by a newer one while it ran', () => {
  let h: WorkerHarness;
  let keyB: string;
  const orgB = 'org_outofdateb';

  beforeAll(async () => {
    h = await createWorkerHarness('outofdate');
    keyB = (await mintApiKey(h.ctx.db.prisma, { org_id: orgB, scopes: [...SCOPES], livemode: true })).key;
  });
  afterAll(async () => {
    await h.close();
  });

  const assetOf = (fp: string) =>
    h.ctx.db.prisma.asset.findUniqueOrThrow({ where: { livemode_fingerprint: { livemode: true, fingerprint: fp } } });
  const job = async (fp: string) => ({ livemode: true, fingerprint: fp, digest: (await assetOf(fp)).latest_digest });

  /** Org A signals and its job is analysed and held; then org B signals: the held job is out of date. */
  async function heldThenReplaced(fp: string): Promise<{ held: AnalysedAsset; d1: string; d2: string }> {
    const a = await h.submit({ fingerprint: fp, asset_type: 'model', name: fp, raw_manifest: modelCardManifest() });
    expect(a.status).toBe(202);
    const first = await job(fp);
    const held = await analyseAsset(h.deps, first);
    if ('outcome' in held) throw new Error(`the first job skipped: ${held.reason}`);
    const b = await h.submit(
      {
        org_id: orgB,
        fingerprint: fp,
        asset_type: 'model',
        name: fp,
        raw_manifest: modelCardManifest('\nFine-tuned by org B.'),
      },
      keyB,
    );
    expect(b.status).toBe(202);
    const d2 = (await assetOf(fp)).latest_digest;
    expect(d2).not.toBe(first.digest);
    return { held, d1: first.digest, d2 };
  }

  /** What the asset serves: its status and digests, and the digest every stored finding was computed from. */
  async function served(fp: string) {
    const asset = await assetOf(fp);
    const findings = await h.ctx.db.prisma.finding.findMany({ where: { livemode: true, fingerprint: fp } });
    return {
      status: asset.enrichment_status,
      latest: asset.latest_digest,
      enriched: asset.enriched_digest,
      findingDigests: [...new Set(findings.map((f) => f.enrichment_digest))],
    };
  }

  it('the newer job finishes first: the out-of-date write is refused and the asset stays enriched', async () => {
    const fp = 'hf:outofdate/newer-first';
    const { held, d2 } = await heldThenReplaced(fp);
    // the newer job runs to the end while the first one is held after its analysis
    expect((await enrichAsset(h.deps, await job(fp))).outcome).toBe('enriched');
    const before = await served(fp);
    expect(before).toEqual({ status: 'enriched', latest: d2, enriched: d2, findingDigests: [d2] });
    const versions = await h.ctx.db.prisma.aiBom.count({ where: { livemode: true, fingerprint: fp } });
    const history = await h.ctx.db.prisma.assetHistory.count({ where: { livemode: true, fingerprint: fp } });

    // then the first job writes: it is out of date and a newer result is stored, so it writes nothing
    const outcome = await writeAnalysed(h.deps, held);
    expect(await served(fp)).toEqual(before);
    expect(outcome).toEqual({ outcome: 'skipped', fingerprint: fp, reason: 'superseded' });
    expect(await h.ctx.db.prisma.aiBom.count({ where: { livemode: true, fingerprint: fp } })).toBe(versions);
    expect(await h.ctx.db.prisma.assetHistory.count({ where: { livemode: true, fingerprint: fp } })).toBe(history);
  });

  it('the out-of-date job writes first: its result is kept as the last good one until the newer job writes', async () => {
    const fp = 'hf:outofdate/older-first';
    const { held, d1, d2 } = await heldThenReplaced(fp);
    // nothing was written since the held job read the asset: its result is stored, the asset still waits for d2
    expect((await writeAnalysed(h.deps, held)).outcome).toBe('enriched');
    expect(await served(fp)).toEqual({ status: 'pending', latest: d2, enriched: d1, findingDigests: [d1] });
    // and the newer job settles it
    expect((await enrichAsset(h.deps, await job(fp))).outcome).toBe('enriched');
    expect(await served(fp)).toEqual({ status: 'enriched', latest: d2, enriched: d2, findingDigests: [d2] });
  });

  it('the newer job failed: the out-of-date write leaves the asset failed, for the next signal to retry', async () => {
    const fp = 'hf:outofdate/newer-failed';
    const { held, d2 } = await heldThenReplaced(fp);
    await markEnrichmentFailed(h.deps, await job(fp), 'injected: the last attempt failed');
    const outcome = await writeAnalysed(h.deps, held);
    // stale here would read as "a job is on its way" and the next signal of the same content would queue nothing
    expect(await served(fp)).toEqual({ status: 'failed', latest: d2, enriched: null, findingDigests: [] });
    expect(outcome).toEqual({ outcome: 'skipped', fingerprint: fp, reason: 'superseded' });
  });
});
