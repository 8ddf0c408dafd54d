import { nowSeconds, postJson, type Harness } from './harness';
import { pickleModel, triageSuite } from './triage-fixtures';

// Per-org triage (docs/triage.md): suppression rules. Shared setup: triage-fixtures.ts.

let h: Harness;
let keyB: string;
let keyTest: string;
const suite = triageSuite('triage-suppressions');
const { get, del, asset, enrichedAsset } = suite;
beforeAll(() => {
  ({ h, keyB, keyTest } = suite.state);
});

describe('suppression rules', () => {
  test('apply to current and future findings of the org only, list with a cursor, and delete', async () => {
    const fp = await enrichedAsset(pickleModel, { test: true });
    const created = await postJson(h, '/v1/suppressions', {
      rule_id: 'R08',
      fingerprint_glob: 'triage?*:*',
      reason: 'internal mirror, checked by hand',
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ object: 'suppression', rule_id: 'R08', active: true });
    const a = await asset(fp);
    const r08 = a.findings.find((f) => f.rule_id === 'R08')!;
    expect(r08.suppressed_by).toEqual([created.body.id]);
    expect(r08.counts_toward_effective_score).toBe(false);
    expect(a.effective_risk_score).toBeLessThan(a.intrinsic_risk_score);
    // org B and test mode: untouched
    expect((await asset(fp, keyB)).findings.every((f) => f.suppressed_by.length === 0)).toBe(true);
    expect((await asset(fp, keyTest)).findings.every((f) => f.suppressed_by.length === 0)).toBe(true);
    expect((await get('/v1/suppressions', keyB)).body.data).toEqual([]);
    expect((await get('/v1/suppressions', keyTest)).body.data).toEqual([]);
    expect((await del(`/v1/suppressions/${created.body.id}`, keyB)).status).toBe(404);

    // a future finding: an asset enriched after the rule was made
    const later = await enrichedAsset(pickleModel);
    expect((await asset(later)).findings.find((f) => f.rule_id === 'R08')!.suppressed_by).toEqual([created.body.id]);

    // list envelope + cursor pagination
    const second = await postJson(h, '/v1/suppressions', { asset_type: 'dataset', reason: 'not ours' });
    const page1 = await get('/v1/suppressions?limit=1');
    expect(page1.body).toMatchObject({ object: 'list', has_more: true, next_cursor: second.body.id });
    expect(page1.body.data.map((s: { id: string }) => s.id)).toEqual([second.body.id]);
    const page2 = await get(`/v1/suppressions?limit=1&starting_after=${page1.body.next_cursor}`);
    expect(page2.body.data.map((s: { id: string }) => s.id)).toEqual([created.body.id]);

    expect((await del(`/v1/suppressions/${created.body.id}`)).body).toEqual({
      id: created.body.id,
      object: 'suppression',
      deleted: true,
    });
    expect((await asset(fp)).effective_risk_score).toBe(a.intrinsic_risk_score);
    await del(`/v1/suppressions/${second.body.id}`);
  });

  test('bad rules are 400: no criterion, unknown rule, malformed CVE or technique, past expiry', async () => {
    const bad: Array<[object, string]> = [
      [{ reason: 'nothing to match' }, 'rule_id'],
      [{ rule_id: 'R99', reason: 'x' }, 'rule_id'],
      [{ cve_id: 'CVE-20x', reason: 'x' }, 'cve_id'],
      [{ attack_technique: 'T1059', reason: 'x' }, 'attack_technique'],
      [{ asset_type: 'model', reason: 'x', expires_at: nowSeconds() - 5 }, 'expires_at'],
      [{ asset_type: 'model' }, 'reason'],
      [{ fingerprint_glob: '*'.repeat(300), reason: 'x' }, 'fingerprint_glob'],
    ];
    for (const [body, param] of bad) {
      const res = await postJson(h, '/v1/suppressions', body);
      expect(res.status).toBe(400);
      expect(res.body.error.param).toBe(param);
    }
    expect((await get('/v1/suppressions')).body.data).toEqual([]);
  });
});
