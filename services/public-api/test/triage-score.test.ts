import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { nowSeconds, type Harness } from './harness';
import { enc, FIXTURES, pickleModel, triageSuite } from './triage-fixtures';

// Per-org triage (docs/triage.md): the effective score and severity overrides. Shared setup: triage-fixtures.ts.

let h: Harness;
let keyB: string;
const suite = triageSuite('triage-score');
const { get, del, put, asset, enrichedAsset, triage } = suite;
beforeAll(() => {
  ({ h, keyB } = suite.state);
});

describe('effective score', () => {
  test('lists filter on the org effective severity; the score breakdown sums to both scores', async () => {
    const fp = await enrichedAsset(pickleModel);
    const a = await asset(fp);
    expect(a.intrinsic_risk_severity).toBe('high');
    const r01 = a.findings.find((f) => f.rule_id === 'R01')!;
    await triage(fp, r01.id, { state: 'accepted_risk', expires_at: nowSeconds() + 3600, comment: 'sandboxed' });
    const after = await asset(fp);
    expect(after.effective_risk_severity).not.toBe('high');
    const sev = after.effective_risk_severity;

    const listed = async (q: string, key = h.key) => {
      const fps: string[] = [];
      let cursor = '';
      for (;;) {
        const res = await get(`/v1/assets?limit=100&${q}${cursor}`, key);
        expect(res.status).toBe(200);
        fps.push(...res.body.data.map((x: { fingerprint: string }) => x.fingerprint));
        if (!res.body.has_more) return fps;
        cursor = `&starting_after=${enc(res.body.next_cursor)}`;
      }
    };
    expect(await listed(`effective_risk_severity=${sev}`)).toContain(fp);
    expect(await listed('effective_risk_severity=high')).not.toContain(fp);
    expect(await listed('effective_risk_severity=high', keyB)).toContain(fp);
    expect(await listed('intrinsic_risk_severity=high')).toContain(fp);
    const rows = (await get(`/v1/assets?effective_risk_severity=${sev}&limit=100`)).body.data;
    expect(rows.every((x: { effective_risk_severity: string }) => x.effective_risk_severity === sev)).toBe(true);

    const score = await get(`/v1/assets/${enc(fp)}/score`);
    expect(score.status).toBe(200);
    const sum = (fs: Array<{ contribution: number }>) => fs.reduce((n, f) => n + f.contribution, 0);
    expect(score.body.intrinsic.score).toBe(a.intrinsic_risk_score);
    expect(sum(score.body.intrinsic.factors)).toBe(a.intrinsic_risk_score);
    expect(score.body.effective.score).toBe(after.effective_risk_score);
    expect(sum(score.body.effective.factors)).toBe(after.effective_risk_score);
    expect(score.body.effective.excluded).toEqual([
      expect.objectContaining({ finding_id: r01.id, reason: 'accepted_risk' }),
    ]);
    expect(score.body.formula).toContain('floor(band)');
    expect(score.body.intrinsic.factors[0]).toMatchObject({ rule_id: 'R01', band: 'high' });
    expect(score.body.intrinsic.factors[0].evidence).toBeTruthy();
  });

  test('severity overrides raise or lower the org view only; threat_match and unknown rules are 400', async () => {
    const fp = await enrichedAsset({
      asset_type: 'model',
      name: 'x/card',
      version: undefined,
      raw_manifest: readFileSync(join(FIXTURES, '22-hf-card-opt-13b-erebus-README.md'), 'utf8'),
    });
    const a = await asset(fp);
    const set = await put('/v1/severity-overrides/R09', { severity: 'critical', reason: 'non-commercial is blocking' });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ object: 'severity_override', rule_id: 'R09', severity: 'critical' });
    const b = await asset(fp);
    expect(b.intrinsic_risk_score).toBe(a.intrinsic_risk_score);
    expect(b.effective_risk_severity).toBe('critical');
    expect(b.findings.find((f) => f.rule_id === 'R09')!.effective_severity).toBe('critical');
    expect((await asset(fp, keyB)).effective_risk_score).toBe(a.intrinsic_risk_score);
    const score = await get(`/v1/assets/${enc(fp)}/score`);
    expect(score.body.effective.overrides_applied).toEqual([{ rule_id: 'R09', from: 'medium', to: 'critical' }]);
    expect(score.body.effective.factors.reduce((n: number, f: { contribution: number }) => n + f.contribution, 0)).toBe(
      b.effective_risk_score,
    );
    expect((await get('/v1/severity-overrides')).body.data).toHaveLength(1);
    expect((await get('/v1/severity-overrides', keyB)).body.data).toEqual([]);
    expect((await put('/v1/severity-overrides/threat_match', { severity: 'low' })).status).toBe(400);
    expect((await put('/v1/severity-overrides/R99', { severity: 'low' })).status).toBe(400);
    expect((await put('/v1/severity-overrides/R09', { severity: 'urgent' })).status).toBe(400);
    expect((await del('/v1/severity-overrides/R09')).status).toBe(200);
    expect((await del('/v1/severity-overrides/R09')).status).toBe(404);
    expect((await asset(fp)).effective_risk_score).toBe(a.intrinsic_risk_score);
  });
});
