import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { createHarness, enrichLikeWorker, nowSeconds, postSignal, signalBody, type Harness } from './harness';
// the store's own statement, run directly (test code may; docs/data-access.md "One door")
import { HISTORY_SQL } from '@risk/db/src/stores/history-store';

// Real manifests (byte-identical copies of the shared samples, packages/enrichment/test/fixtures), edited
// the way upstream projects edit them: a model card whose licence and base model change, a package.json
// that gains a dependency (docs/history.md).
const FIXTURES = join(__dirname, '../../../packages/enrichment/test/fixtures');
const LORA_CARD = readFileSync(join(FIXTURES, '21-hf-card-pokemon-lora-README.md'), 'utf8');
const FS_PACKAGE = readFileSync(join(FIXTURES, '01-mcp-server-filesystem-package.json'), 'utf8');

let h: Harness;
let seq = 0;
const get = (path: string, key = h.key) => request(h.app).get(path).set('Authorization', `Bearer ${key}`);
const enc = encodeURIComponent;

/** The org's next observation of the asset: a later observed_at, so it replaces the previous one. */
async function observe(fingerprint: string, over: Record<string, unknown>, key = h.key, orgId = h.orgId) {
  seq++;
  const res = await postSignal(
    h,
    signalBody(orgId, { fingerprint, observed_at: nowSeconds() - 200 + seq, ...over }),
    key,
  );
  expect(res.status).toBe(202);
}

beforeAll(async () => {
  h = await createHarness('history');
});
afterAll(() => h.close());

const model = (card: string) => ({
  asset_type: 'model',
  name: 'pcuenq/pokemon-lora',
  version: undefined,
  source_url: 'https://huggingface.co/pcuenq/pokemon-lora',
  raw_manifest: card,
});

describe('asset history', () => {
  test('records changes only, newest first, with the findings added and removed and the bom_version', async () => {
    const fp = `hf:pcuenq/pokemon-lora:${Date.now()}`;
    await observe(fp, model(LORA_CARD));
    await enrichLikeWorker(h, fp);
    // the same content analysed again changes nothing: storage grows with changes, not observations
    await enrichLikeWorker(h, fp);
    let res = await get(`/v1/assets/${enc(fp)}/history`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object: 'list', has_more: false });
    expect(res.body.data).toHaveLength(1);
    const baseline = res.body.data[0];
    const findings = await get(`/v1/assets/${enc(fp)}/findings`);
    expect(baseline).toMatchObject({
      object: 'asset_history_entry',
      fingerprint: fp,
      bom_version: 1,
      previous_risk_score: null,
    });
    expect(baseline.findings_removed).toEqual([]);
    expect(baseline.findings_added.map((f: { rule_id: string }) => f.rule_id).sort()).toEqual(
      findings.body.data.map((f: { rule_id: string }) => f.rule_id).sort(),
    );

    // licence → non-commercial and a new base model, as a card edit upstream does
    const edited = LORA_CARD.replace('license: creativeml-openrail-m', 'license: cc-by-nc-4.0').replace(
      'base_model: runwayml/stable-diffusion-v1-5',
      'base_model: stabilityai/stable-diffusion-2-1',
    );
    expect(edited).not.toBe(LORA_CARD);
    await observe(fp, model(edited));
    await enrichLikeWorker(h, fp);
    res = await get(`/v1/assets/${enc(fp)}/history`);
    expect(res.body.data).toHaveLength(2);
    const [latest, first] = res.body.data;
    expect(first.id).toBe(baseline.id);
    expect(latest.bom_version).toBe(2);
    expect(latest.previous_risk_score).toBe(baseline.intrinsic_risk_score);
    const asset = await get(`/v1/assets/${enc(fp)}`);
    expect(latest.intrinsic_risk_score).toBe(asset.body.intrinsic_risk_score);

    // pagination: one per page, the cursor is the entry id
    const page1 = await get(`/v1/assets/${enc(fp)}/history?limit=1`);
    expect(page1.body).toMatchObject({ has_more: true, data: [{ id: latest.id }] });
    const page2 = await get(`/v1/assets/${enc(fp)}/history?limit=1&starting_after=${page1.body.data[0].id}`);
    expect(page2.body).toMatchObject({ has_more: false, data: [{ id: baseline.id }] });

    // versions and the default diff (previous → current)
    const versions = await get(`/v1/assets/${enc(fp)}/aibom/versions`);
    expect(versions.status).toBe(200);
    expect(
      versions.body.data.map((v: { bom_version: number; current: boolean }) => [v.bom_version, v.current]),
    ).toEqual([
      [2, true],
      [1, false],
    ]);
    // the component count (counted in SQL) is the stored component list's length; the versions page by cursor
    const stored = await h.ctx.db.prisma.aiBom.findMany({
      where: { livemode: true, fingerprint: fp },
      orderBy: { bom_version: 'desc' },
      select: { components: true },
    });
    expect(versions.body.data.map((v: { component_count: number }) => v.component_count)).toEqual(
      stored.map((b) => (b.components as unknown[]).length),
    );
    expect(versions.body.data[0].component_count).toBeGreaterThan(0);
    const older = await get(`/v1/assets/${enc(fp)}/aibom/versions?limit=1&starting_after=${versions.body.data[0].id}`);
    expect(older.body).toMatchObject({ has_more: false, data: [{ id: versions.body.data[1].id, bom_version: 1 }] });
    const newer = await get(`/v1/assets/${enc(fp)}/aibom/versions?limit=1&ending_before=${versions.body.data[1].id}`);
    expect(newer.body).toMatchObject({ has_more: false, data: [{ id: versions.body.data[0].id, bom_version: 2 }] });
    const diff = await get(`/v1/assets/${enc(fp)}/aibom/diff`);
    expect(diff.status).toBe(200);
    expect(diff.body).toMatchObject({
      object: 'aibom_diff',
      from_version: 1,
      to_version: 2,
      primary_license: { from: 'LicenseRef-creativeml-openrail-m', to: 'CC-BY-NC-4.0' }, // SPDX-normalised
      lineage: {
        base_models_added: ['stabilityai/stable-diffusion-2-1'],
        base_models_removed: ['runwayml/stable-diffusion-v1-5'],
      },
    });
    expect(diff.body.components.added).toContainEqual(
      expect.objectContaining({ type: 'model', name: 'stabilityai/stable-diffusion-2-1' }),
    );
    expect(diff.body.components.removed).toContainEqual(
      expect.objectContaining({ type: 'model', name: 'runwayml/stable-diffusion-v1-5' }),
    );
    // the findings of the diff are those the history entry recorded for this change
    expect(diff.body.findings).toEqual({ added: latest.findings_added, removed: latest.findings_removed });
    const explicit = await get(`/v1/assets/${enc(fp)}/aibom/diff?from=1&to=2`);
    expect(explicit.body).toEqual(diff.body);
  });

  test('a package.json that gains a dependency: the component is added', async () => {
    const fp = `npm:@modelcontextprotocol/server-filesystem:${Date.now()}`;
    const base = { name: '@modelcontextprotocol/server-filesystem', version: '0.6.3', asset_type: 'mcp_server' };
    await observe(fp, { ...base, raw_manifest: FS_PACKAGE });
    await enrichLikeWorker(h, fp);
    const pkg = JSON.parse(FS_PACKAGE) as { dependencies: Record<string, string> };
    pkg.dependencies['zod-to-json-schema'] = '^3.24.1';
    await observe(fp, { ...base, raw_manifest: JSON.stringify(pkg, null, 2) });
    await enrichLikeWorker(h, fp);
    const diff = await get(`/v1/assets/${enc(fp)}/aibom/diff`);
    expect(diff.status).toBe(200);
    expect(diff.body.components.added).toEqual([expect.objectContaining({ name: 'zod-to-json-schema' })]);
    expect(diff.body.components.removed).toEqual([]);
    expect(diff.body.primary_license).toBeNull();
  });

  test('diff errors: unknown versions are 404 naming the parameter, from = to is 400', async () => {
    const fp = `hf:errors:${Date.now()}`;
    await observe(fp, model(LORA_CARD));
    await enrichLikeWorker(h, fp);
    const only = await get(`/v1/assets/${enc(fp)}/aibom/diff`);
    expect(only.status).toBe(404);
    expect(only.body.error).toMatchObject({ code: 'resource_missing', param: 'from' });
    const unknown = await get(`/v1/assets/${enc(fp)}/aibom/diff?from=1&to=9`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toMatchObject({ code: 'resource_missing', param: 'to' });
    const same = await get(`/v1/assets/${enc(fp)}/aibom/diff?from=1&to=1`);
    expect(same.status).toBe(400);
    expect(same.body.error).toMatchObject({ param: 'from' });
    const bad = await get(`/v1/assets/${enc(fp)}/aibom/diff?from=zero`);
    expect(bad.status).toBe(400);
    expect(bad.body.error.param).toBe('from');
  });
});

describe('isolation between modes', () => {
  test("a test key sees neither the live asset's history, versions nor diff, and the live history's ids are unknown cursors", async () => {
    const fp = `hf:modes:${Date.now()}`;
    await observe(fp, model(LORA_CARD));
    await enrichLikeWorker(h, fp);
    const live = await get(`/v1/assets/${enc(fp)}/history`);
    expect(live.body.data).toHaveLength(1);
    const testKey = await h.mintKey({ livemode: false });
    for (const path of ['history', 'aibom/versions', 'aibom/diff']) {
      const res = await get(`/v1/assets/${enc(fp)}/${path}`, testKey);
      expect(res.status).toBe(404);
      expect(res.body.error).toMatchObject({ code: 'resource_missing', param: 'fingerprint' });
    }
    // the same fingerprint in test mode is another asset with its own history
    await observe(fp, model(LORA_CARD.replace('creativeml-openrail-m', 'mit')), testKey);
    await enrichLikeWorker(h, fp, { livemode: false });
    const test = await get(`/v1/assets/${enc(fp)}/history`, testKey);
    expect(test.body.data).toHaveLength(1);
    expect(test.body.data[0].id).not.toBe(live.body.data[0].id);
    const cursor = await get(`/v1/assets/${enc(fp)}/history?starting_after=${live.body.data[0].id}`, testKey);
    expect(cursor.status).toBe(400);
    expect(cursor.body.error).toMatchObject({ code: 'resource_missing', param: 'starting_after' });
    // and the live history is unchanged by the test-mode enrichment
    const again = await get(`/v1/assets/${enc(fp)}/history`);
    expect(again.body.data).toEqual(live.body.data);
  });

  test('another org of the same mode reads the shared history (assets are shared intelligence) but only with assets:read', async () => {
    const fp = `hf:orgs:${Date.now()}`;
    await observe(fp, model(LORA_CARD));
    await enrichLikeWorker(h, fp);
    const other = await h.mintKey({ orgId: 'org_history_other' });
    const res = await get(`/v1/assets/${enc(fp)}/history`, other);
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(1);
    const noScope = await h.mintKey({ orgId: 'org_history_other', scopes: ['signals:write'] });
    expect((await get(`/v1/assets/${enc(fp)}/history`, noScope)).status).toBe(403);
  });
});

describe('storage bounds', () => {
  // the writer's statement itself (HISTORY_SQL, run by writeEnrichment with ASSET_HISTORY_CAP), with a cap of 3
  test('the write that adds an entry beyond the cap deletes the oldest; an unchanged write adds nothing', async () => {
    const { newId, ID_PREFIXES } = await import('@risk/db');
    const fp = `cap:${Date.now()}`;
    await observe(fp, model(LORA_CARD));
    const write = (score: number) =>
      h.ctx.db.pool.query(HISTORY_SQL, [
        newId(ID_PREFIXES.assetHistory),
        true,
        fp,
        'digest',
        new Date(),
        score,
        'low',
        1,
        JSON.stringify([{ key: 'k1', rule_id: 'R10', title: 'licence', severity: 'low' }]),
        3,
      ]);
    for (const score of [10, 20, 30, 40, 40]) await write(score);
    const rows = await h.ctx.db.prisma.assetHistory.findMany({
      where: { livemode: true, fingerprint: fp },
      orderBy: { id: 'desc' },
    });
    expect(rows.map((r) => [r.intrinsic_risk_score, r.previous_risk_score])).toEqual([
      [40, 30],
      [30, 20],
      [20, 10],
    ]);
  });
});
