import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ASSET_TYPES, analyze, enrich, normalizeAssetName, RULES } from '../src/index';
import { DOC_PATH, renderEnrichmentDoc } from '../scripts/gen-rules-doc';
import { CTX, input } from './helpers';

describe('public API', () => {
  it('normalizeAssetName lower-cases, folds _ and . to -, drops org/ prefix', () => {
    expect(normalizeAssetName('meta-llama/Llama_3.1-8B')).toBe('llama-3-1-8b');
    expect(normalizeAssetName('@modelcontextprotocol/server-filesystem')).toBe('server-filesystem');
    expect(normalizeAssetName('Mcp_Server.Git')).toBe('mcp-server-git');
  });
  it('analyze exposes publisher, normalized name and ecosystem', () => {
    expect(analyze(input({ source_url: 'https://huggingface.co/THUDM/codegeex2-6b' }))).toMatchObject({
      publisher: 'THUDM',
      normalized_name: 'codegeex2-6b',
      ecosystem: 'huggingface',
    });
    expect(analyze(input({ asset_type: 'mcp_server', name: 'io.github.acme/weather' }))).toMatchObject({
      publisher: 'acme',
      ecosystem: 'mcp',
    });
  });
  it('enrich works for every asset type without a manifest', () => {
    for (const t of ASSET_TYPES) {
      const r = enrich(input({ asset_type: t, name: `x/${t}` }), CTX);
      expect(r.intrinsic_risk_score).toBeGreaterThanOrEqual(0);
      expect(r.aibom.spdx_version).toBe('SPDX-2.3');
    }
  });
  it('docs/enrichment.md documents every rule and is up to date with the rule table', () => {
    const md = readFileSync(DOC_PATH, 'utf8');
    for (const r of RULES)
      expect(md).toContain(`| ${r.id} | ${r.title.replace(/\|/g, '\\|')} | ${r.severity} | ${r.weight} | `);
    expect(md).toBe(renderEnrichmentDoc()); // regenerate: pnpm --filter @risk/enrichment rules-doc
  });
  it('src is pure: no fs/network/clock use outside data imports', () => {
    const dir = join(__dirname, '..', 'src');
    for (const f of readdirSync(dir).filter((x) => x.endsWith('.ts') && !x.endsWith('.test.ts'))) {
      const s = readFileSync(join(dir, f), 'utf8');
      expect([
        f,
        /from 'node:fs'|require\('fs'\)|from 'fs'|\bfetch\(\s*['"`]|http\.request|Date\.now\(|new Date\(\)|Math\.random/.test(
          s,
        ),
      ]).toEqual([f, false]);
    }
  });
});
