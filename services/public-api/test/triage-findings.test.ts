import request from 'supertest';
import { enrichLikeWorker, nowSeconds, postJson, type Harness } from './harness';
import { enc, pickleModel, triageSuite, type FindingBody } from './triage-fixtures';

// Per-org triage (docs/triage.md): the triage of a finding. Shared setup: triage-fixtures.ts.

let h: Harness;
let keyB: string;
let keyTest: string;
let keyRead: string;
const suite = triageSuite('triage-findings');
const { get, del, put, asset, enrichedAsset, triage } = suite;
beforeAll(() => {
  ({ h, keyB, keyTest, keyRead } = suite.state);
});

describe('triage of a finding', () => {
  test('is visible to the org that set it only, in its mode only, with who and when and a history', async () => {
    const fp = await enrichedAsset(pickleModel, { test: true });
    const before = await asset(fp);
    expect(before.effective_risk_score).toBe(before.intrinsic_risk_score);
    const r01 = before.findings.find((f) => f.rule_id === 'R01')!;
    expect(r01).toMatchObject({ triage: null, suppressed_by: [], counts_toward_effective_score: true });

    const res = await triage(fp, r01.id, { state: 'false_positive', comment: 'the pickle is never loaded' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      object: 'finding_triage',
      finding_id: r01.id,
      rule_id: 'R01',
      state: 'false_positive',
      comment: 'the pickle is never loaded',
      finding_key: r01.finding_key,
    });
    expect(res.body.set_by).toMatch(/^key_/);
    expect(res.body.history).toHaveLength(1);
    expect(res.body.history[0]).toMatchObject({ from_state: 'open', to_state: 'false_positive' });

    const a = await asset(fp);
    expect(a.intrinsic_risk_score).toBe(before.intrinsic_risk_score); // the shared score never moves
    expect(a.effective_risk_score).toBeLessThan(a.intrinsic_risk_score);
    const seen = a.findings.find((f) => f.id === r01.id)!;
    expect(seen.triage).toMatchObject({ state: 'false_positive', set_by: res.body.set_by });
    expect(seen.counts_toward_effective_score).toBe(false);

    // another org, and the same org in test mode, see none of it
    const b = await asset(fp, keyB);
    expect(b.effective_risk_score).toBe(b.intrinsic_risk_score);
    expect(b.findings.every((f) => f.triage === null)).toBe(true);
    const t = await asset(fp, keyTest);
    expect(t.findings.every((f) => f.triage === null && f.counts_toward_effective_score)).toBe(true);
    const other = await get(`/v1/assets/${enc(fp)}/findings/${enc(r01.id)}/triage`, keyB);
    expect(other.status).toBe(200);
    expect(other.body).toMatchObject({ state: 'open', set_by: null, history: [] });
    // a test key cannot triage the live finding (it is not an id of its mode's asset)
    expect((await triage(fp, r01.id, { state: 'acknowledged' }, keyTest)).status).toBe(404);

    // a second change is recorded from → to; the finding list shows the org's state too
    const ack = await triage(fp, r01.id, { state: 'acknowledged' });
    expect(ack.body.history.map((x: { to_state: string }) => x.to_state)).toEqual(['acknowledged', 'false_positive']);
    expect(ack.body.history[0].from_state).toBe('false_positive');
    const list = await get(`/v1/assets/${enc(fp)}/findings`);
    expect(list.body.data.find((f: FindingBody) => f.id === r01.id).triage.state).toBe('acknowledged');
    expect((await asset(fp)).effective_risk_score).toBe(before.intrinsic_risk_score);
  });

  test('follows the finding across a re-enrichment (finding ids change, the key does not)', async () => {
    const fp = await enrichedAsset(pickleModel);
    const r08 = (await asset(fp)).findings.find((f) => f.rule_id === 'R08')!;
    expect((await triage(fp, r08.id, { state: 'not_affected', justification: 'component_not_present' })).status).toBe(
      200,
    );
    await enrichLikeWorker(h, fp);
    const again = (await asset(fp)).findings.find((f) => f.rule_id === 'R08')!;
    expect(again.id).not.toBe(r08.id);
    expect(again.finding_key).toBe(r08.finding_key);
    expect(again.triage).toMatchObject({ state: 'not_affected' });
  });

  test('is an idempotent POST: a retry with the same Idempotency-Key replays and records nothing more', async () => {
    const fp = await enrichedAsset(pickleModel);
    const f = (await asset(fp)).findings[0]!;
    const send = () =>
      request(h.app)
        .post(`/v1/assets/${enc(fp)}/findings/${enc(f.id)}/triage`)
        .set('Authorization', `Bearer ${h.key}`)
        .set('Idempotency-Key', '6f1b0a5e-3c1d-4f7a-9b1e-2a4c6d8e0f12')
        .send({ state: 'acknowledged', comment: 'ticket SEC-1' });
    const first = await send();
    const again = await send();
    expect(first.status).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    const now = await get(`/v1/assets/${enc(fp)}/findings/${enc(f.id)}/triage`);
    expect(now.body.history).toHaveLength(1);
  });

  test('hostile or inconsistent bodies are 400 and change nothing', async () => {
    const fp = await enrichedAsset(pickleModel);
    const f = (await asset(fp)).findings[0]!;
    const cases: Array<[object, string]> = [
      [{ state: 'not_affected' }, 'justification'],
      [{ state: 'false_positive', justification: 'component_not_present' }, 'justification'],
      [{ state: 'accepted_risk' }, 'expires_at'],
      [{ state: 'accepted_risk', expires_at: nowSeconds() - 10 }, 'expires_at'],
      [{ state: 'accepted_risk', expires_at: nowSeconds() + 400 * 86_400 }, 'expires_at'],
      [{ state: 'open', expires_at: nowSeconds() + 60 }, 'expires_at'],
      [{ state: 'wontfix' }, 'state'],
      [{ state: 'open', comment: 'a\u0000b' }, 'comment'],
      [{ state: 'open', extra: 1 }, 'extra'],
    ];
    for (const [body, param] of cases) {
      const res = await triage(fp, f.id, body);
      expect(res.status).toBe(400);
      expect(res.body.error.param).toBe(param);
    }
    expect((await triage(fp, 'fnd_nope', { state: 'open' })).status).toBe(404);
    expect((await triage('no:such:asset', f.id, { state: 'open' })).status).toBe(404);
    expect((await asset(fp)).findings.every((x) => x.triage === null)).toBe(true);
  });

  test('writes need assets:triage (403 without it); reads keep working for older keys', async () => {
    const fp = await enrichedAsset(pickleModel);
    const f = (await asset(fp, keyRead)).findings[0]!;
    const denied = [
      await triage(fp, f.id, { state: 'acknowledged' }, keyRead),
      await postJson(h, '/v1/suppressions', { rule_id: 'R08', reason: 'x' }, keyRead),
      await put('/v1/severity-overrides/R08', { severity: 'high' }, keyRead),
      await del('/v1/suppressions/sup_x', keyRead),
    ];
    for (const res of denied) expect(res.status).toBe(403);
    expect((await get(`/v1/assets/${enc(fp)}/score`, keyRead)).status).toBe(200);
    expect((await get('/v1/suppressions', keyRead)).status).toBe(200);
    expect((await asset(fp)).findings.every((x) => x.triage === null)).toBe(true);
  });
  test('the look-up with expand[]=findings shows the org view GET shows: triage, suppressions, effective score', async () => {
    const [fp, other] = [await enrichedAsset(pickleModel), await enrichedAsset(pickleModel)];
    const r01 = (await asset(fp)).findings.find((f) => f.rule_id === 'R01')!;
    expect((await triage(fp, r01.id, { state: 'false_positive', comment: 'never loaded' })).status).toBe(200);
    // a suppression that matches the other asset only
    const sup = await postJson(h, '/v1/suppressions', { rule_id: 'R08', fingerprint_glob: other, reason: 'mirror' });
    expect(sup.status).toBe(201);
    try {
      const looked = await get(
        `/v1/assets/lookup?fingerprints=${enc(fp)}&fingerprints=${enc(other)}&expand[]=findings`,
      );
      expect(looked.status).toBe(200);
      for (const [i, f] of [fp, other].entries()) {
        const one = await asset(f);
        const got = looked.body.data[i].asset;
        expect(got.effective_risk_score).toBe(one.effective_risk_score);
        const view = (x: FindingBody[]) =>
          x.map((y) => [y.id, y.triage?.state ?? null, y.suppressed_by, y.counts_toward_effective_score]);
        expect(view(got.findings)).toEqual(view(one.findings));
      }
      const [a, b] = looked.body.data.map((r: { asset: { findings: FindingBody[] } }) => r.asset.findings);
      expect(a.find((x: FindingBody) => x.id === r01.id).triage.state).toBe('false_positive');
      expect(b.find((x: FindingBody) => x.rule_id === 'R08').suppressed_by).toEqual([sup.body.id]);
      expect(a.find((x: FindingBody) => x.rule_id === 'R08').suppressed_by).toEqual([]);
    } finally {
      await del(`/v1/suppressions/${sup.body.id}`);
    }
  });
});
