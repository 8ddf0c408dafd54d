import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { mintApiKey } from '@risk/common/api-keys';
import request from 'supertest';
import { startWorker, type RunningWorker } from '../src';
import { createWorkerHarness, type WorkerHarness } from './harness';

// AI-BOM diffs and change events (docs/history.md "Change events") through the real API, queue and worker job, on
// real manifests (byte-identical copies of public files in packages/enrichment/test/fixtures, SOURCES.md there)
// edited the way upstream projects edit them: a model card whose licence changes, then its base model; a
// package.json that gains a dependency.
const FIXTURES = join(__dirname, '../../../packages/enrichment/test/fixtures');
const LORA_CARD = readFileSync(join(FIXTURES, '21-hf-card-pokemon-lora-README.md'), 'utf8');
const FS_PACKAGE = readFileSync(join(FIXTURES, '01-mcp-server-filesystem-package.json'), 'utf8');

describe('AI-BOM change events (real worker job)', () => {
  let h: WorkerHarness;
  let worker: RunningWorker;
  let seq = 0;

  beforeAll(async () => {
    h = await createWorkerHarness('aibomevents');
    worker = startWorker(h.deps, { maintenance: false });
  });
  afterAll(async () => {
    await worker.close();
    await h.close();
  });

  async function observe(fp: string, body: Record<string, unknown>, opts: { key?: string; orgId?: string } = {}) {
    seq++;
    const res = await h.submit(
      {
        fingerprint: fp,
        observed_at: Math.floor(Date.now() / 1000) - 100 + seq,
        ...body,
        ...(opts.orgId ? { org_id: opts.orgId } : {}),
      },
      opts.key,
    );
    expect(res.status).toBe(202);
    await h.waitForAsset(fp, (a) => a.enrichment_status === 'enriched' && a.enriched_digest === a.latest_digest);
  }
  const eventsOf = async (fp: string, type: string) =>
    (
      await h.ctx.db.prisma.event.findMany({ where: { fingerprint: fp, livemode: true, type }, orderBy: { id: 'asc' } })
    ).map((e) => e.data as Record<string, any>);
  const get = (path: string) => request(h.app).get(path).set('Authorization', `Bearer ${h.key}`);

  const model = (card: string) => ({
    asset_type: 'model',
    name: 'pcuenq/pokemon-lora',
    source_url: 'https://huggingface.co/pcuenq/pokemon-lora',
    raw_manifest: card,
  });

  it('a licence change, then a base-model change: each is an asset.aibom_changed event whose summary matches the diff route', async () => {
    const fp = `hf:pcuenq/pokemon-lora:${Date.now()}`;
    await observe(fp, model(LORA_CARD));
    expect(await eventsOf(fp, 'asset.aibom_changed')).toEqual([]); // the first version is no change

    const licence = LORA_CARD.replace('license: creativeml-openrail-m', 'license: cc-by-nc-4.0');
    expect(licence).not.toBe(LORA_CARD);
    await observe(fp, model(licence));
    let events = await eventsOf(fp, 'asset.aibom_changed');
    expect(events).toHaveLength(1);
    const first = events[0]!.summary;
    expect(first.aibom).toMatchObject({
      from_version: 1,
      to_version: 2,
      primary_license: { from: 'LicenseRef-creativeml-openrail-m', to: 'CC-BY-NC-4.0' },
      lineage: { relation: null, base_models_added: [], base_models_removed: [] },
    });
    expect(first.aibom.components.changed).toContainEqual({
      type: 'model',
      name: 'pcuenq/pokemon-lora',
      fields: ['license'],
    });
    expect(first.bom_version).toEqual({ from: 1, to: 2 });
    // the non-commercial licence is a finding added by this change; the event names its new id
    const findings = await get(`/v1/assets/${encodeURIComponent(fp)}/findings?limit=100`);
    const ids = new Set(findings.body.data.map((f: { id: string }) => f.id));
    expect(first.findings.added.length).toBeGreaterThan(0);
    for (const f of first.findings.added) expect(ids.has(f.id)).toBe(true);
    // asset.risk_changed, when the score or severity moved (history says whether it did), carries the same summary
    const history = await get(`/v1/assets/${encodeURIComponent(fp)}/history`);
    const [latest] = history.body.data as Array<{ intrinsic_risk_score: number; previous_risk_score: number }>;
    const risk = await eventsOf(fp, 'asset.risk_changed');
    expect(first.risk.score).toEqual({ from: latest!.previous_risk_score, to: latest!.intrinsic_risk_score });
    if (latest!.previous_risk_score === latest!.intrinsic_risk_score) expect(risk).toEqual([]);
    else expect(risk.map((e) => e.summary)).toEqual([first]);

    const base = licence.replace(
      'base_model: runwayml/stable-diffusion-v1-5',
      'base_model: stabilityai/stable-diffusion-2-1',
    );
    expect(base).not.toBe(licence);
    await observe(fp, model(base));
    events = await eventsOf(fp, 'asset.aibom_changed');
    expect(events).toHaveLength(2);
    const second = events[1]!.summary.aibom;
    expect(second).toMatchObject({
      from_version: 2,
      to_version: 3,
      primary_license: null,
      lineage: {
        base_models_added: ['stabilityai/stable-diffusion-2-1'],
        base_models_removed: ['runwayml/stable-diffusion-v1-5'],
      },
    });
    expect(second.components.added).toContainEqual(
      expect.objectContaining({ type: 'model', name: 'stabilityai/stable-diffusion-2-1' }),
    );
    expect(second.components.removed).toContainEqual(
      expect.objectContaining({ type: 'model', name: 'runwayml/stable-diffusion-v1-5' }),
    );
    // the summary is the diff route's answer in short
    const diff = await get(`/v1/assets/${encodeURIComponent(fp)}/aibom/diff?from=2&to=3`);
    expect(diff.status).toBe(200);
    expect(second.components.added_count).toBe(diff.body.components.added.length);
    expect(second.components.removed_count).toBe(diff.body.components.removed.length);
    expect(second.lineage).toEqual(diff.body.lineage);
  });

  it('a package.json that gains a dependency: the component is added, nothing else', async () => {
    const fp = `npm:@modelcontextprotocol/server-filesystem:${Date.now()}`;
    const pkg = { name: '@modelcontextprotocol/server-filesystem', version: '0.6.3', asset_type: 'mcp_server' };
    await observe(fp, { ...pkg, raw_manifest: FS_PACKAGE });
    const edited = JSON.parse(FS_PACKAGE) as { dependencies: Record<string, string> };
    edited.dependencies['zod-to-json-schema'] = '^3.24.1';
    await observe(fp, { ...pkg, raw_manifest: JSON.stringify(edited, null, 2) });
    const events = await eventsOf(fp, 'asset.aibom_changed');
    expect(events).toHaveLength(1);
    expect(events[0]!.summary.aibom).toEqual({
      from_version: 1,
      to_version: 2,
      components: {
        added_count: 1,
        removed_count: 0,
        changed_count: 0,
        added: [expect.objectContaining({ name: 'zod-to-json-schema', version: '^3.24.1' })],
        removed: [],
        changed: [],
      },
      primary_license: null,
      lineage: { relation: null, base_models_added: [], base_models_removed: [] },
    });
  });

  it("events never carry what another org's private signal held", async () => {
    const fp = `hf:pcuenq/pokemon-lora-private:${Date.now()}`;
    await observe(fp, model(LORA_CARD));
    // org B observes the same asset with a riskier card (it becomes the primary observation) that carries a
    // credential, and private metadata only its own signal may show
    const orgB = 'org_aibomevents_b';
    const { key: keyB } = await mintApiKey(h.ctx.db.prisma, {
      org_id: orgB,
      scopes: ['signals:write', 'assets:read'],
      livemode: true,
    });
    const token = ['hf', 'Zq8xKpL2mN4vR7tY1wE3sD5fG6hJ9kA0bC'].join('_');
    const marker = 'private-marker-7f3a9c';
    const riskier = LORA_CARD.replace('license: creativeml-openrail-m', 'license: cc-by-nc-4.0').concat(
      `\nDownload with HF_TOKEN=${token}\n`,
    );
    await observe(
      fp,
      { ...model(riskier), metadata: { note: marker, files: ['adapter.bin'] } },
      { key: keyB, orgId: orgB },
    );
    const rows = await h.ctx.db.prisma.event.findMany({ where: { fingerprint: fp, livemode: true } });
    const changed = rows.filter((e) => e.type === 'asset.aibom_changed' || e.type === 'asset.risk_changed');
    expect(changed.length).toBeGreaterThan(0);
    const text = JSON.stringify(rows.map((e) => e.data));
    const signals = await h.ctx.db.prisma.signal.findMany({ where: { fingerprint: fp }, select: { id: true } });
    for (const secret of [token, token.slice(3, 11), marker, orgB, h.orgId, ...signals.map((s) => s.id)])
      expect(text).not.toContain(secret);
  });
});
