import { validateCycloneDx, validateOpenVex } from '@risk/testing';
import { nowSeconds, postSignal, signalBody, type Harness } from './harness';
import { enc, ORG_B, triageSuite } from './triage-fixtures';

// Per-org triage (docs/triage.md): VEX export. Shared setup: triage-fixtures.ts.

let h: Harness;
let keyB: string;
const suite = triageSuite('triage-vex');
const { get, asset, enrichedAsset, triage } = suite;
beforeAll(() => {
  ({ h, keyB } = suite.state);
});

describe('VEX export', () => {
  test('OpenVEX 0.2.0 and CycloneDX 1.6 carry the org triage and validate against their schemas', async () => {
    const fp = await enrichedAsset({
      asset_type: 'package',
      name: 'agent-app',
      version: '1.0.0',
      raw_manifest: 'langchain==0.0.100\n',
    });
    const findings = (await asset(fp)).findings.filter((f) => f.cve_ids.length > 0);
    expect(findings.length).toBeGreaterThan(1);
    await triage(fp, findings[0]!.id, {
      state: 'not_affected',
      justification: 'vulnerable_code_not_in_execute_path',
      comment: 'LLMMathChain is not used',
    });
    await triage(fp, findings[1]!.id, { state: 'accepted_risk', expires_at: nowSeconds() + 86_400 });

    const ov = await get(`/v1/assets/${enc(fp)}/vex?format=openvex`);
    expect(ov.status).toBe(200);
    expect(validateOpenVex(ov.body)).toBe(true);
    expect(validateOpenVex.errors ?? []).toEqual([]);
    expect(ov.body.author).toBe(h.orgId);
    const first = ov.body.statements.find(
      (s: { vulnerability: { name: string } }) => s.vulnerability.name === findings[0]!.cve_ids[0],
    );
    expect(first).toMatchObject({ status: 'not_affected', justification: 'vulnerable_code_not_in_execute_path' });
    const statuses = ov.body.statements.map((s: { status: string }) => s.status);
    expect(statuses).toEqual(expect.arrayContaining(['not_affected', 'affected']));

    const cdx = await get(`/v1/assets/${enc(fp)}/vex?format=cyclonedx`);
    expect(cdx.status).toBe(200);
    expect(cdx.headers['content-type']).toContain('application/vnd.cyclonedx+json');
    const doc = JSON.parse(cdx.text);
    expect(validateCycloneDx(doc)).toBe(true);
    expect(validateCycloneDx.errors ?? []).toEqual([]);
    const states = doc.vulnerabilities.map((v: { analysis: { state: string } }) => v.analysis.state);
    expect(states).toEqual(expect.arrayContaining(['not_affected', 'exploitable']));

    // another org's export of the same asset says nothing of org A's triage
    const other = await get(`/v1/assets/${enc(fp)}/vex?format=openvex`, keyB);
    expect(validateOpenVex(other.body)).toBe(true);
    expect(other.body.statements.every((s: { status: string }) => s.status === 'under_investigation')).toBe(true);
    expect((await get(`/v1/assets/${enc(fp)}/vex?format=pdf`)).status).toBe(400);
  });

  test("CycloneDX names the component with the exporting org's own name and version", async () => {
    const fp = await enrichedAsset({ asset_type: 'package', name: 'agent-app', version: '1.0.0' });
    // org B, a later observer, names it otherwise: the shared row keeps A's fields (docs/security.md "Display
    // fields and feeds"), while B's export shows what B sent
    const renamed = signalBody(ORG_B, { fingerprint: fp, asset_type: 'package', name: 'b-app', version: '2.0.0' });
    expect((await postSignal(h, renamed, keyB)).status).toBe(202);
    const componentOf = async (key: string) =>
      JSON.parse((await get(`/v1/assets/${enc(fp)}/vex?format=cyclonedx`, key)).text).metadata.component;
    expect(await componentOf(keyB)).toMatchObject({ name: 'b-app', version: '2.0.0' });
    expect(await componentOf(h.key)).toMatchObject({ name: 'agent-app', version: '1.0.0' });
  });
});
