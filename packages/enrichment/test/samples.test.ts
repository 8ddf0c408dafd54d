// Every real manifest of /work/shared/samples/manifests (copied byte-identical into test/fixtures) through the
// whole engine: it parses to the expected kind, yields the expected rules, and its AI-BOM passes the SPDX 2.3
// schema + semantic checks, round-trips through tag-value and validates as CycloneDX 1.6.
import { readdirSync } from 'node:fs';
import { enrich, renderSpdxTagValue, type AssetType } from '../src/index';
import { parseSpdxTagValue } from './spdx-tag-value';
import { parseManifest } from '../src/parse';
import { cdxValidator, semanticSpdxProblems, validateSpdx } from './spdx-checks';
import { CTX, FIXTURES, fixture, input } from './helpers';

const EXPECTED: Record<string, { asset_type: AssetType; kind: string; rules: string[] }> = {
  '01-mcp-server-filesystem-package.json': { asset_type: 'mcp_server', kind: 'npm_package', rules: ['R18', 'R22'] },
  // `SEE LICENSE IN LICENSE` is npm's documented form for a licence file: no longer R28 (deliberate)
  '02-mcp-server-everything-package.json': { asset_type: 'mcp_server', kind: 'npm_package', rules: ['R22'] },
  '03-mcp-server-git-pyproject.toml': { asset_type: 'mcp_server', kind: 'pyproject', rules: ['R22'] },
  '04-mcp-server-fetch-pyproject.toml': { asset_type: 'mcp_server', kind: 'pyproject', rules: ['R19', 'R22'] },
  '05-mcp-servers-repo-dot-mcp.json': { asset_type: 'agent', kind: 'agent_config', rules: [] },
  '06-mcp-registry-legacy-server.json': { asset_type: 'mcp_server', kind: 'mcp_server_json', rules: ['R14', 'R20'] },
  '14-hf-model-license-chatglm2.txt': { asset_type: 'model', kind: 'text', rules: ['R10'] },
  '21-hf-card-pokemon-lora-README.md': { asset_type: 'model', kind: 'hf_model_card', rules: ['R10'] },
  '22-hf-card-opt-13b-erebus-README.md': { asset_type: 'model', kind: 'hf_model_card', rules: ['R09', 'R13'] },
  '23-hf-card-sklearn-mpg-pickle-README.md': { asset_type: 'model', kind: 'hf_model_card', rules: ['R01', 'R08'] },
  '24-hf-card-wav2vec2-sv-ccbync-README.md': { asset_type: 'model', kind: 'hf_model_card', rules: ['R09'] },
  '25-hf-card-dreamlike-photoreal-README.md': { asset_type: 'model', kind: 'hf_model_card', rules: ['R10'] },
  '26-hf-card-skycode-no-frontmatter-README.md': { asset_type: 'model', kind: 'hf_model_card', rules: [] },
  '27-hf-card-intel-bart-int8-onnx-README.md': { asset_type: 'model', kind: 'hf_model_card', rules: [] },
  '31-hf-config-codegeex2-auto-map.json': { asset_type: 'model', kind: 'hf_config', rules: ['R05'] },
  '32-hf-card-codegeex2-README.md': { asset_type: 'model', kind: 'hf_model_card', rules: ['R05'] },
  '33-hf-pytorch-bin-index-codegeex2.json': { asset_type: 'model', kind: 'weight_index', rules: ['R01'] },
  '34-hf-model-license-codegeex2.txt': { asset_type: 'model', kind: 'text', rules: ['R09'] },
  '35-hf-config-chatglm2-auto-map.json': { asset_type: 'model', kind: 'hf_config', rules: ['R05'] },
};

const FILES = readdirSync(FIXTURES)
  .filter((f) => /^\d\d-/.test(f))
  .sort();

it('covers every sample manifest', () => {
  expect(FILES).toEqual(Object.keys(EXPECTED).sort());
});

describe.each(FILES)('%s', (file) => {
  const exp = EXPECTED[file]!;
  const inp = input({ asset_type: exp.asset_type, fingerprint: `sample:${file}`, raw_manifest: fixture(file) });

  it('parses without errors to the expected kind and fires the expected rules', () => {
    const p = parseManifest(inp);
    expect([p.kind, p.parse_errors]).toEqual([exp.kind, []]);
    const r = enrich(inp, CTX);
    const fired = new Set(r.findings.map((f) => f.rule_id));
    for (const rule of exp.rules) expect([rule, fired.has(rule)]).toEqual([rule, true]);
    expect(fired.has('manifest_unparseable')).toBe(false);
    expect(r.findings.reduce((s, f) => s + f.score_contribution, 0)).toBe(r.intrinsic_risk_score);
  });

  it('AI-BOM: SPDX 2.3 valid (schema + semantic checks), tag-value round-trips, CycloneDX 1.6 valid', async () => {
    const { aibom } = enrich(inp, CTX);
    expect([validateSpdx(aibom.spdx), validateSpdx.errors ?? []]).toEqual([true, []]);
    expect(semanticSpdxProblems(aibom.spdx)).toEqual([]);
    expect(parseSpdxTagValue(renderSpdxTagValue(aibom.spdx))).toEqual(aibom.spdx);
    expect(await cdxValidator.validate(JSON.stringify(aibom.cyclonedx))).toBeNull();
  });
});
