// The engine's output (findings, AI-BOM, SPDX) carries no secret of the manifest: every value passes through
// @risk/redaction before it leaves the engine (docs/security.md "Secrets never reach shared data").
import { contextualSecrets, sampleTokens } from '@risk/redaction/test/secret-tokens';
import { enrich, renderSpdxTagValue } from '../src/index';
import { CTX, input } from './helpers';

const tokens = sampleTokens();

describe('the engine output carries no secret from the manifest', () => {
  const c = contextualSecrets(3);
  const t = (kind: string) => tokens.find((x) => x.kind === kind)!.value;

  it('MCP client config: env, headers, args and URLs; R20 reports key, kind and location only', () => {
    const manifest = JSON.stringify(
      {
        mcpServers: {
          github: {
            command: 'npx',
            args: ['-y', '@modelcontextprotocol/server-github@1.0.0', '--token', c.flagValue],
            env: { GITHUB_PERSONAL_ACCESS_TOKEN: t('github_token'), DB_PASSWORD: c.dbPassword },
          },
          remote: {
            url: `https://bot:${c.urlPassword}@mcp.acme.dev/sse?api_key=${c.queryApiKey}`,
            headers: { Authorization: `Bearer ${c.headerValue}`, 'X-OpenAI-Key': t('openai_api_key') },
          },
        },
      },
      null,
      2,
    );
    const result = enrich(
      input({
        asset_type: 'agent',
        name: 'acme-agent',
        source_url: `https://ci:${c.urlPassword}@git.acme.dev/agent.git?private_token=${c.queryApiKey}`,
        raw_manifest: manifest,
      }),
      CTX,
    );
    const text = JSON.stringify(result) + renderSpdxTagValue(result.aibom.spdx);
    for (const v of [t('github_token'), t('openai_api_key'), ...Object.values(c)]) expect(text).not.toContain(v);
    const r20 = result.findings.find((f) => f.rule_id === 'R20' && f.severity === 'high')!;
    expect(r20.evidence).toMatchObject({
      keys: expect.arrayContaining([
        {
          key: 'GITHUB_PERSONAL_ACCESS_TOKEN',
          kind: 'github_token',
          location: 'mcpServers.github.env.GITHUB_PERSONAL_ACCESS_TOKEN',
        },
      ]),
    });
  });

  it('a token in free text: R20 says which kind on which line, never a part of the value', () => {
    const hf = t('huggingface_token');
    const result = enrich(input({ asset_type: 'prompt', raw_manifest: `first line\nuse ${hf} to download` }), CTX);
    const r20 = result.findings.find((f) => f.rule_id === 'R20')!;
    expect(r20.evidence).toEqual({
      path: 'raw_manifest',
      secrets: [{ kind: 'huggingface_token', line: 2, column: 5 }],
    });
    expect(JSON.stringify(result)).not.toContain(hf.slice(0, 8));
  });

  it('the same manifest with a rotated secret gives the same AI-BOM (hashed after redaction)', () => {
    const card = (secret: string) =>
      `---\nlicense: apache-2.0\n---\n# m\nDownload from https://user:${secret}@models.acme.dev/m.bin`;
    const a = enrich(input({ source_url: `https://x:${c.dbPassword}@h/m`, raw_manifest: card(c.dbPassword) }), CTX);
    const b = enrich(input({ source_url: `https://x:${c.flagValue}@h/m`, raw_manifest: card(c.flagValue) }), CTX);
    expect(a.aibom.content_hash).toBe(b.aibom.content_hash);
  });
});
