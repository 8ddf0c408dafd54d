// What a manifest makes happen, judged from its launch commands, environment and dependencies rather than keywords
// (docs/enrichment.md "Launch semantics" and "Vulnerability calibration").
import { enrich, type EnrichmentInput } from '../src/index';
import { poetryUpper } from '../src/advisories/spec-bounds';
import { argSecrets, hostEscapeFlags, tokenize, tokenRedirects, unconfinedFlags } from '../src/rules/signals/launch';
import { CTX, input } from './helpers';

function run(over: Partial<EnrichmentInput>) {
  const r = enrich(input(over), CTX);
  const by = (rule: string) => r.findings.filter((f) => f.rule_id === rule && f.severity !== 'informational');
  return { r, by };
}
const mcp = (servers: Record<string, unknown>) => JSON.stringify({ mcpServers: servers }, null, 2);

describe('launch commands and their flags', () => {
  it('a Dockerfile CMD passing --trust-remote-code is remote code at full confidence', () => {
    const { r, by } = run({
      asset_type: 'application',
      raw_manifest:
        'FROM vllm/vllm-openai:v0.6.3\nCMD ["--model", "org/model", "--trust-remote-code", "--api-key", "k9x8c7v6b5n4m3"]\n',
    });
    expect(by('R05')).toHaveLength(1);
    expect(by('R05')[0]!.confidence).toBe(1);
    // evidence names the flag, never the command line (its other arguments may be secrets)
    expect(JSON.stringify(r.findings)).not.toContain('k9x8c7v6b5n4m3');
    expect(r.intrinsic_risk_severity).toBe('high');
  });

  it('the same image without the flag loads no remote code', () => {
    const { by } = run({
      asset_type: 'application',
      raw_manifest: 'FROM vllm/vllm-openai:v0.6.3\nCMD ["--model", "org/model"]\n',
    });
    expect(by('R05')).toHaveLength(0);
  });

  it('docker run with --privileged and the root mounted, inside a compose command or a shell script', () => {
    const flags = hostEscapeFlags({
      path: 'x',
      tokens: tokenize('docker run --rm --network host -v /:/host img:1'),
      text: '',
    });
    expect(flags).toEqual(['--network host', '-v /:/host']);
    // a project folder inside the home directory is an ordinary bind mount
    expect(
      hostEscapeFlags({ path: 'x', tokens: tokenize('docker run -v /Users/me/apps/x:/app img:1'), text: '' }),
    ).toEqual([]);
    const { by } = run({
      asset_type: 'agent',
      raw_manifest: mcp({ s: { command: 'bash', args: ['-c', 'docker run --privileged -i img:1.0'] } }),
    });
    expect(by('R24')).toHaveLength(1);
  });

  it('seccomp switched off is read alike in compose and docker run: medium, not a host escape', () => {
    const l = { path: 'x', tokens: tokenize('docker run --security-opt seccomp=unconfined img:1'), text: '' };
    expect(hostEscapeFlags(l)).toEqual([]);
    expect(unconfinedFlags(l)).toEqual(['--security-opt seccomp=unconfined']);
    // shared memory for the model server, as vLLM's docs ask, is no escape either (compose `ipc: host` alike)
    expect(
      hostEscapeFlags({
        path: 'x',
        tokens: tokenize('docker run --ipc=host --pid host vllm/vllm-openai:v0.6.3'),
        text: '',
      }),
    ).toEqual(['--pid host']);
    const compose = (opt: string) =>
      ['services:', '  gpu:', '    image: rocm/pytorch:rocm6.2', '    security_opt:', `      - ${opt}`, ''].join('\n');
    const { r, by } = run({ asset_type: 'container_image', raw_manifest: compose('seccomp:unconfined') });
    expect(by('R24').map((f) => f.severity)).toEqual(['medium']);
    expect(r.intrinsic_risk_severity).toBe('medium');
    // a profile that is set (or no-new-privileges) is confinement, not its absence
    expect(run({ asset_type: 'container_image', raw_manifest: compose('no-new-privileges:true') }).by('R24')).toEqual(
      [],
    );
    const script = run({
      asset_type: 'agent',
      raw_manifest: mcp({
        s: { command: 'bash', args: ['-c', 'docker run --security-opt apparmor=unconfined -i img:1.0'] },
      }),
    });
    expect(script.by('R24').map((f) => f.severity)).toEqual(['medium']);
  });

  it('compose volumes are judged like docker run -v: a folder inside home is an ordinary bind mount', () => {
    const compose = (volumes: string[]) =>
      [
        'services:',
        '  llm:',
        '    image: vllm/vllm-openai:v0.6.3',
        '    volumes:',
        ...volumes.map((v) => `      - ${v}`),
      ].join('\n') + '\n';
    const ordinary = run({
      asset_type: 'container_image',
      raw_manifest: compose(['~/.cache/huggingface:/root/.cache/huggingface', '/etc/localtime:/etc/localtime:ro']),
    });
    expect(ordinary.by('R24')).toHaveLength(0);
    for (const escape of ['/:/host', '/var/run/docker.sock:/var/run/docker.sock', '~:/home/agent', '/etc:/host-etc'])
      expect(run({ asset_type: 'container_image', raw_manifest: compose([escape]) }).by('R24')).toHaveLength(1);
  });

  it('--allow-write / grants the whole file system', () => {
    const { by } = run({
      asset_type: 'agent',
      raw_manifest: mcp({ fs: { command: 'npx', args: ['-y', 'some-fs-server@1.0.0', '--allow-write', '/'] } }),
    });
    expect(by('R18').map((f) => f.title)).toEqual(['Write access to the whole file system or a home directory']);
    const scoped = run({
      asset_type: 'agent',
      raw_manifest: mcp({ fs: { command: 'npx', args: ['-y', 'some-fs-server@1.0.0', '--allow-write', '/tmp/work'] } }),
    });
    expect(scoped.by('R18')).toHaveLength(0);
  });

  it('curl piped to a shell in a server launch installs whatever the URL serves', () => {
    const { by } = run({
      asset_type: 'agent',
      raw_manifest: mcp({ s: { command: 'bash', args: ['-c', 'curl -fsSL https://example.com/i.sh | sh'] } }),
    });
    expect(by('R21').some((f) => f.title === 'Code fetched from a URL or VCS without a pin')).toBe(true);
  });
});

describe('where credentials go', () => {
  it('a Dockerfile bakes credentials into its image: ENV from a build argument (medium), a literal (high)', () => {
    const r20 = (raw: string) =>
      run({ asset_type: 'container_image', raw_manifest: raw })
        .by('R20')
        .map((f) => [f.title, f.severity]);
    const base = 'FROM python:3.12-slim\nARG HF_AUTH_TOKEN\n';
    expect(r20(`${base}ENV HF_AUTH_TOKEN=\${HF_AUTH_TOKEN}\nCMD ["python", "main.py"]\n`)).toEqual([
      ['Build secret persisted in the image', 'medium'],
    ]);
    expect(r20('FROM python:3.12-slim\nENV SERVICE_API_KEY=k7Hq29xLmW4pRt8v\nCMD ["app"]\n')).toEqual([
      ['Secret written into the image', 'high'],
    ]);
    // an ARG used only in a RUN step, a placeholder and a non-secret variable are not baked secrets
    expect(
      r20(`${base}RUN echo building\nENV API_KEY=your-key-here\nENV TOKENIZERS_PARALLELISM=false\nCMD ["app"]\n`),
    ).toEqual([]);
  });

  it('an extension that asks for the debugger controls every tab: high; cookies alone stay medium', () => {
    const ext = (permissions: string[]) =>
      JSON.stringify({ manifest_version: 3, name: 'x', version: '1.0', permissions, action: {} });
    const r20 = (permissions: string[]) =>
      run({ asset_type: 'extension', raw_manifest: ext(permissions) })
        .by('R20')
        .map((f) => f.severity);
    expect(r20(['debugger', 'storage'])).toEqual(['high']);
    expect(r20(['cookies', 'storage'])).toEqual(['medium']);
    // webRequest observes the request headers (Authorization, cookies) of the hosts it is granted, even one site
    expect(
      run({
        asset_type: 'extension',
        raw_manifest: JSON.stringify({
          manifest_version: 3,
          name: 'x',
          version: '1.0',
          permissions: ['webRequest', 'storage'],
          host_permissions: ['https://chat.example.com/*'],
          action: {},
        }),
      })
        .by('R20')
        .map((f) => f.severity),
    ).toEqual(['medium']);
  });

  it('cookies on every site with no stated purpose are high; a described or localised extension stays medium', () => {
    const r20 = (description: string | undefined) =>
      run({
        asset_type: 'extension',
        raw_manifest: JSON.stringify({
          manifest_version: 3,
          name: 'Daily News',
          version: '1.0',
          ...(description === undefined ? {} : { description }),
          permissions: ['cookies', 'storage'],
          host_permissions: ['<all_urls>'],
          background: { service_worker: 'bg.js' },
        }),
      })
        .by('R20')
        .map((f) => f.severity);
    expect(r20('©')).toEqual(['high']);
    expect(r20(undefined)).toEqual(['high']);
    expect(r20('Keeps you signed in to your news sites')).toEqual(['medium']);
    expect(r20('__MSG_extensionDescription__')).toEqual(['medium']);
  });

  it('a redaction marker where a secret stood is the trace of a leaked secret, unlike a placeholder', () => {
    const r20 = (raw: string, asset_type: 'container_image' | 'agent') =>
      run({ asset_type, raw_manifest: raw })
        .by('R20')
        .map((f) => [f.title, f.severity]);
    // the scanner submits `ENV HF_TOKEN=hf_…` as `[REDACTED]` (docs/scanner.md "Redaction")
    expect(r20('FROM python:3.12-slim\nENV HF_TOKEN=[REDACTED]\nCMD ["app"]\n', 'container_image')).toEqual([
      ['Secret written into the image', 'high'],
    ]);
    expect(r20('FROM python:3.12-slim\nENV HF_TOKEN=your-token-here\nCMD ["app"]\n', 'container_image')).toEqual([]);
    const cfg = (v: string) =>
      mcp({ pay: { command: 'npx', args: ['-y', 'pay-mcp@1.0.0'], env: { PAY_API_TOKEN: v } } });
    expect(r20(cfg('REDACTED_TOKEN'), 'agent').map(([, sev]) => sev)).toEqual(['high']);
    expect(r20(cfg('<your token>'), 'agent').map(([, sev]) => sev)).toEqual(['medium']);
  });

  it('a registry server whose credential is optional is recorded without weight, unless it hands out secrets', () => {
    const serverJson = (description: string, isRequired: boolean) =>
      JSON.stringify({
        $schema: 'https://static.modelcontextprotocol.io/schemas/2025-09-29/server.schema.json',
        name: 'io.github.acme/lookup',
        description,
        version: '1.0.0',
        packages: [
          {
            registryType: 'pypi',
            identifier: 'acme-lookup',
            version: '1.0.0',
            transport: { type: 'stdio' },
            environmentVariables: [
              { name: 'ACME_API_URL', isRequired: false },
              { name: 'ACME_AUTH_TIMEOUT', isRequired: false },
              { name: 'ACME_API_TOKEN', isRequired, isSecret: true },
            ],
          },
        ],
      });
    const r20 = (description: string, isRequired: boolean) =>
      run({ asset_type: 'mcp_server', raw_manifest: serverJson(description, isRequired) })
        .by('R20')
        .map((f) => [f.severity, f.evidence.keys]);
    // settings named after the service (`*_URL`, `*_TIMEOUT`) are not credentials
    expect(r20('Look up package advisories.', false)).toEqual([]);
    const noted = run({ asset_type: 'mcp_server', raw_manifest: serverJson('Look up package advisories.', false) });
    expect(noted.r.findings.filter((f) => f.rule_id === 'R20').map((f) => [f.severity, f.title])).toEqual([
      ['informational', 'Optional credential'],
    ]);
    expect(noted.r.intrinsic_risk_severity).toBe('informational');
    expect(r20('Look up package advisories.', true)).toEqual([['medium', ['ACME_API_TOKEN']]]);
    expect(r20('Fetch vault secrets for your agent.', false)).toEqual([['medium', ['ACME_API_TOKEN']]]);
  });

  it('a password inside a database URL in args is a leaked secret', () => {
    const { by } = run({
      asset_type: 'agent',
      raw_manifest: mcp({
        pg: {
          command: 'npx',
          args: [
            '-y',
            '@modelcontextprotocol/server-postgres',
            'postgresql://admin:S3cretPassw0rd@db.internal:5432/prod',
          ],
        },
      }),
    });
    expect(by('R20').map((f) => [f.title, f.severity])).toEqual([['Secret in launch arguments', 'high']]);
    // the finding names the place, never the value
    expect(JSON.stringify(by('R20'))).not.toContain('S3cretPassw0rd');
  });

  it('URLs without a password and references are not secrets', () => {
    const l = (s: string) => ({ path: 'a', tokens: tokenize(s), text: s });
    expect(argSecrets(l('postgresql://admin@db:5432/prod'))).toEqual([]);
    expect(argSecrets(l('postgresql://admin:${input:db_password}@db/prod --token ${env:TOKEN}'))).toEqual([]);
    expect(argSecrets(l('--api-key sk9abcdefgh123')).map((a) => a.name)).toEqual(['--api-key']);
  });

  it('a token asked for through a VS Code input prompt is never an exposed secret', () => {
    const { by } = run({
      asset_type: 'agent',
      raw_manifest: JSON.stringify({
        inputs: [{ type: 'promptString', id: 'gh', description: 'GitHub token', password: true }],
        servers: {
          github: {
            command: 'docker',
            args: ['run', '-i', '--rm', 'ghcr.io/github/github-mcp-server:v1.0.0'],
            env: { GITHUB_TOKEN: '${input:gh}' },
          },
        },
      }),
    });
    const titles = by('R20').map((f) => f.title);
    expect(titles).toEqual(['Credential requested at run time']);
    expect(titles).not.toContain('Secret exposed in manifest');
  });

  it('a Hugging Face token sent to a third-party HF_ENDPOINT goes to a host that did not issue it', () => {
    const { by } = run({
      asset_type: 'application',
      raw_manifest:
        'services:\n  tgi:\n    image: ghcr.io/huggingface/text-generation-inference:2.0\n    environment:\n      - HF_ENDPOINT=https://hf-mirror.com\n      - HUGGING_FACE_HUB_TOKEN=${HF_TOKEN}\n',
    });
    expect(by('R20').map((f) => [f.title, f.severity])).toEqual([
      ['Token sent to a host that is not its issuer', 'high'],
    ]);
  });

  it('the issuer itself, loopback and compose service names are not redirects', () => {
    const env = (endpoint: string) => [
      { key: 'OPENAI_API_KEY', value: '${OPENAI_API_KEY}' },
      { key: 'OPENAI_BASE_URL', value: endpoint },
    ];
    expect(tokenRedirects(env('https://api.openai.com/v1'))).toEqual([]);
    expect(tokenRedirects(env('http://localhost:8000/v1'))).toEqual([]);
    expect(tokenRedirects(env('http://vllm:8000/v1'))).toEqual([]);
    expect(tokenRedirects(env('https://proxy.example.net/v1')).map((r) => r.host)).toEqual(['proxy.example.net']);
    // a dummy key for a local server is no token
    expect(
      tokenRedirects([
        { key: 'OPENAI_API_KEY', value: 'EMPTY' },
        { key: 'OPENAI_BASE_URL', value: 'https://x.example/v1' },
      ]),
    ).toEqual([]);
  });

  it('a remote server bridged over plain http through launch arguments is insecure transport', () => {
    const bridged = (url: string) =>
      run({
        asset_type: 'agent',
        raw_manifest: mcp({ r: { command: 'npx', args: ['-y', 'mcp-remote@0.1.20', url, '--allow-http'] } }),
      }).by('R25');
    expect(bridged('http://10.0.0.2:3000/sse')).toHaveLength(1);
    expect(bridged('http://localhost:3000/sse')).toHaveLength(0);
    expect(bridged('https://10.0.0.2:3000/sse')).toHaveLength(0);
  });

  it('plain http to a private address in the environment is insecure transport', () => {
    const { by } = run({
      asset_type: 'application',
      raw_manifest: 'FROM python:3.12-slim\nENV OPENAI_BASE_URL=http://10.0.0.5:8000/v1\nCMD ["python", "app.py"]\n',
    });
    expect(by('R25')).toHaveLength(1);
  });
});

describe('what an extension reaches', () => {
  it('include_globs naming hosts narrow a broad content-script match; a catch-all glob does not', () => {
    const ext = (script: Record<string, unknown>) =>
      JSON.stringify({
        manifest_version: 3,
        name: 'x',
        version: '1.0',
        content_scripts: [{ js: ['c.js'], ...script }],
      });
    const r19 = (script: Record<string, unknown>) =>
      run({ asset_type: 'extension', raw_manifest: ext(script) })
        .by('R19')
        .map((f) => [f.title, f.severity]);
    const broad = [['Broad host permissions', 'medium']];
    expect(r19({ matches: ['https://*/search*'] })).toEqual(broad);
    expect(r19({ matches: ['https://*/search*'], include_globs: ['*.google.*/*', '*.duckduckgo.*/*'] })).toEqual([
      ['Reads and changes pages on named sites', 'low'],
    ]);
    expect(r19({ matches: ['<all_urls>'], include_globs: ['*'] })).toEqual(broad);
  });
});

describe('supply chain', () => {
  it('a VCS requirement on a release tag is a low note; on a branch it follows whatever is pushed', () => {
    const r21 = (line: string) =>
      run({ asset_type: 'application', raw_manifest: `numpy==1.26.4\n${line}\n` })
        .by('R21')
        .map((f) => [f.title, f.severity]);
    expect(r21('clip @ git+https://github.com/openai/CLIP.git@v0.1.3')).toEqual([
      ['Dependency fetched from a VCS release tag', 'low'],
    ]);
    expect(r21('git+https://github.com/openai/CLIP.git@main#egg=clip')).toEqual([
      ['Dependency fetched from a URL or VCS without a pin', 'medium'],
    ]);
  });

  it('a package claiming Anthropic authorship, published by someone else', () => {
    const raw =
      '[project]\nname = "some-mcp"\nversion = "0.1.0"\ndescription = "A server"\nauthors = [{ name = "Anthropic, PBC." }]\nlicense = { text = "MIT" }\ndependencies = ["mcp>=1.0"]\n';
    const other = run({
      asset_type: 'mcp_server',
      raw_manifest: raw,
      source_url: 'https://github.com/someone/some-mcp/blob/main/pyproject.toml',
    });
    expect(other.by('R14').map((f) => f.title)).toEqual(['Authorship claimed for a vendor that does not publish it']);
    const own = run({
      asset_type: 'mcp_server',
      raw_manifest: raw,
      source_url: 'https://github.com/modelcontextprotocol/servers/blob/main/src/time/pyproject.toml',
    });
    expect(own.by('R14')).toHaveLength(0);
  });

  it('an unscoped npm package claiming a vendor as author, which installs other servers', () => {
    const { by } = run({
      asset_type: 'mcp_server',
      name: 'mcp-installer',
      raw_manifest: JSON.stringify({
        name: 'mcp-installer',
        version: '0.5.0',
        description: 'An MCP server that installs other MCP servers for you',
        author: 'Anthropic, PBC',
        license: 'MIT',
      }),
    });
    expect(by('R14').map((f) => f.title)).toEqual(['Authorship claimed for a vendor that does not publish it']);
    expect(by('R21').map((f) => f.title)).toEqual(['Installs other servers or packages']);
  });

  it('an MCP package that describes itself as running commands is shell execution', () => {
    const { by } = run({
      asset_type: 'mcp_server',
      raw_manifest: JSON.stringify({
        name: 'cmds',
        version: '1.0.0',
        description: 'An MCP server to run arbitrary commands',
        license: 'MIT',
        dependencies: { '@modelcontextprotocol/sdk': '1.0.0' },
      }),
    });
    expect(by('R17')).toHaveLength(1);
  });
});

describe('what tools say about themselves', () => {
  const tools = (description: string) =>
    JSON.stringify({ tools: [{ name: 'delete_app', description, inputSchema: { type: 'object' } }] });
  it('a deletion the tool calls permanent is destructive at full confidence; a name alone at 0.6', () => {
    const permanent = run({ asset_type: 'mcp_server', raw_manifest: tools('Delete a hosted app permanently.') });
    expect(permanent.by('R18').map((f) => [f.title, f.confidence])).toEqual([['Destructive operations', 1]]);
    const named = run({ asset_type: 'mcp_server', raw_manifest: tools('Delete a hosted app.') });
    expect(named.by('R18').map((f) => f.confidence)).toEqual([0.6]);
  });
  it("a removal from the server's own workspace or session deletes nothing stored, unless it says it is permanent", () => {
    const unload = run({ asset_type: 'mcp_server', raw_manifest: tools('Remove a loaded app from the workspace.') });
    expect(unload.by('R18')).toEqual([]);
    const gone = run({ asset_type: 'mcp_server', raw_manifest: tools('Remove an app from the session permanently.') });
    expect(gone.by('R18').map((f) => f.confidence)).toEqual([1]);
    const stored = run({ asset_type: 'mcp_server', raw_manifest: tools('Remove an app from the account.') });
    expect(stored.by('R18').map((f) => f.confidence)).toEqual([0.6]);
  });
});

describe('dependency constraints with each ecosystem semantics', () => {
  it("Poetry's caret and tilde", () => {
    expect(poetryUpper('^', '1.2.3')).toBe('2');
    expect(poetryUpper('^', '0.2.3')).toBe('0.3');
    expect(poetryUpper('^', '0.0.237')).toBe('0.0.238');
    expect(poetryUpper('^', '0')).toBe('1');
    expect(poetryUpper('~', '1.2.3')).toBe('1.3');
    expect(poetryUpper('~', '1')).toBe('2');
  });

  it('langchain = "^0.0.237" pins one version and matches its advisories', () => {
    const { by } = run({
      asset_type: 'application',
      raw_manifest:
        '[tool.poetry]\nname = "app"\nversion = "0.1.0"\ndescription = "x"\nauthors = ["a <a@example.org>"]\n\n[tool.poetry.dependencies]\npython = "^3.10"\nlangchain = "^0.0.237"\n',
    });
    expect(by('R23').length).toBeGreaterThan(0);
    expect(by('R23').every((f) => (f.evidence as { package: string }).package === 'langchain')).toBe(true);
  });

  it('a caret that admits fixed versions matches nothing', () => {
    const { by } = run({
      asset_type: 'application',
      raw_manifest:
        '[tool.poetry]\nname = "app"\nversion = "0.1.0"\ndescription = "x"\nauthors = ["a <a@example.org>"]\n\n[tool.poetry.dependencies]\nlangchain = "^0.3.0"\n',
    });
    expect(by('R23')).toHaveLength(0);
  });
});

describe('calibration', () => {
  it("an extra's vulnerable AI library keeps the reachability discount; the same pin in install_requires does not", () => {
    const cfg = (section: string) => `[metadata]\nname = lib\nversion = 1.0\nlicense = MIT\n\n${section}\n`;
    const extra = run({
      asset_type: 'package',
      raw_manifest: cfg(
        '[options]\ninstall_requires =\n    numpy>=1.20\n\n[options.extras_require]\nhf =\n    transformers<4.22',
      ),
    });
    expect(extra.by('R23').length).toBeGreaterThan(0);
    expect(extra.by('R23').every((f) => f.confidence === 0.6)).toBe(true);
    expect(extra.r.intrinsic_risk_severity).toBe('medium');
    const core = run({
      asset_type: 'package',
      raw_manifest: cfg('[options]\ninstall_requires =\n    transformers<4.22'),
    });
    expect(core.r.intrinsic_risk_severity).toBe('high');
  });

  it('a high advisory in a direct AI dependency carries the asset into high; a non-AI one stays one band lower', () => {
    const ai = run({ asset_type: 'application', raw_manifest: 'transformers==4.30.0\n' });
    expect(ai.by('R23').some((f) => f.severity === 'high' && f.confidence === 1)).toBe(true);
    expect(ai.r.intrinsic_risk_severity).toBe('high');
    const locked = run({
      asset_type: 'application',
      raw_manifest: JSON.stringify({
        name: 'x',
        version: '1.0.0',
        lockfileVersion: 3,
        packages: { '': { name: 'x' }, 'node_modules/@modelcontextprotocol/inspector': { version: '0.14.0' } },
      }),
    });
    expect(locked.by('R23').length).toBeGreaterThan(0);
    expect(locked.by('R23').every((f) => f.confidence < 0.75)).toBe(true);
  });

  it('a Python package without a licence field is a low note, not a medium finding', () => {
    const { by } = run({
      asset_type: 'package',
      raw_manifest: '[project]\nname = "foo"\nversion = "1.0"\ndescription = "A library"\n',
    });
    expect(by('R08').map((f) => f.severity)).toEqual(['low']);
  });
});
