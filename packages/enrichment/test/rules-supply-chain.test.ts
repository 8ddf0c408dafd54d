import { find, ids } from './rules-fixtures';
import { unpinnedImage } from '../src/rules/signals/commands';

const pkg = (over: Record<string, unknown>) =>
  JSON.stringify({ name: 'some-pkg', version: '1.0.0', license: 'MIT', ...over });
const config = (servers: Record<string, unknown>) => JSON.stringify({ mcpServers: servers });

describe('R34 runs code when installed', () => {
  it('an npm postinstall that runs the package’s own script', () => {
    const f = find(
      { asset_type: 'package', raw_manifest: pkg({ scripts: { postinstall: 'node install.js' } }) },
      'R34',
    );
    expect(f.map((x) => [x.title, x.severity])).toEqual([['Runs code when installed', 'medium']]);
    expect(f[0]?.evidence).toMatchObject({ path: 'scripts.postinstall', scripts: { postinstall: 'node install.js' } });
  });

  it('names every install hook; a prepare or start script is not an install hook', () => {
    const f = find(
      {
        asset_type: 'package',
        raw_manifest: pkg({
          scripts: { preinstall: 'node pre.js', install: 'node-gyp rebuild', prepare: 'node x.js' },
        }),
      },
      'R34',
    );
    expect(Object.keys(f[0]?.evidence.scripts as object)).toEqual(['preinstall']);
  });

  it('known build steps are not reported (false positives)', () => {
    for (const postinstall of [
      'husky install',
      'prisma generate',
      'is-ci || husky install',
      'node-gyp rebuild',
      'patch-package',
      'npx only-allow pnpm',
      'tsc -p tsconfig.build.json',
      'prebuild-install || node-gyp rebuild',
      'playwright install chromium',
    ])
      expect(ids({ asset_type: 'package', raw_manifest: pkg({ scripts: { postinstall } }) })).not.toContain('R34');
  });

  it('reads build steps and cmdclass tables token by token: flags, values, and a step that is not a build', () => {
    for (const postinstall of ['npx prisma generate --no-engine', 'tsc -p tsconfig.json --noEmit', 'husky'])
      expect(ids({ asset_type: 'package', raw_manifest: pkg({ scripts: { postinstall } }) })).not.toContain('R34');
    for (const postinstall of ['tsc && node scripts/install.js', 'prisma migrate deploy', 'husky install x y'])
      expect(ids({ asset_type: 'package', raw_manifest: pkg({ scripts: { postinstall } }) })).toContain('R34');
    const toml = '[project]\nname = "x"\nversion = "1.0"\n\n[tool.setuptools.cmdclass]\ninstall = "x.build.Install"\n';
    expect(find({ asset_type: 'package', raw_manifest: toml }, 'R34')[0]?.evidence.command).toBe('install');
  });

  it('a hook R17 already reports as running a shell is not reported twice', () => {
    const all = ids({
      asset_type: 'package',
      raw_manifest: pkg({ scripts: { postinstall: 'curl -s https://x.sh | sh' } }),
    });
    expect(all).toContain('R17');
    expect(all).not.toContain('R34');
  });

  it('a setuptools cmdclass that overrides install', () => {
    const raw =
      "from setuptools import setup\nfrom setuptools.command.install import install\n\nclass PostInstallCommand(install):\n    def run(self):\n        install.run(self)\n\nsetup(\n    name='keypointer',\n    cmdclass={'install': PostInstallCommand,\n              'develop': PostDevelopCommand})\n";
    const f = find({ asset_type: 'package', raw_manifest: raw }, 'R34');
    expect(f.map((x) => x.title)).toEqual(['Overrides setuptools install steps']);
    expect(f[0]?.evidence.command).toBe('install');
    // a setup.py without cmdclass runs nothing of its own at install
    expect(
      ids({ asset_type: 'package', raw_manifest: "from setuptools import setup\nsetup(name='x')\n" }),
    ).not.toContain('R34');
  });
});

describe('R35 updates itself at launch', () => {
  it('uvx --refresh re-resolves the server at every start', () => {
    const f = find(
      {
        asset_type: 'agent',
        raw_manifest: config({
          serena: { command: 'uvx', args: ['--refresh', '--from', 'git+https://github.com/oraios/serena', 'serena'] },
        }),
      },
      'R35',
    );
    expect(f.map((x) => [x.severity, x.evidence.steps])).toEqual([['low', ['--refresh']]]);
  });

  it('pip install -U, npm install …@latest and git pull in a launch script; AUTO_UPDATE=true in its env', () => {
    const steps = (args: string[], env?: Record<string, string>) =>
      find(
        { asset_type: 'agent', raw_manifest: config({ s: { command: 'bash', args, ...(env ? { env } : {}) } }) },
        'R35',
      )[0]?.evidence.steps;
    expect(steps(['-c', 'pip install -U my-mcp && my-mcp'])).toEqual(['pip install -U']);
    expect(steps(['-c', 'npm install -g my-mcp@latest && my-mcp'])).toEqual(['npm install my-mcp@latest']);
    expect(steps(['-c', 'cd /srv/mcp && git pull && node index.js'])).toEqual(['git pull']);
    expect(steps(['-c', 'node index.js'], { MCP_AUTO_UPDATE: 'true' })).toEqual(['MCP_AUTO_UPDATE=true']);
  });

  it('a pinned launch, a Dockerfile build step and AUTO_UPDATE=false do not update at launch (false positives)', () => {
    expect(
      ids({
        asset_type: 'agent',
        raw_manifest: config({ t: { command: 'uvx', args: ['mcp-server-time==2025.1.1'] } }),
      }),
    ).not.toContain('R35');
    expect(
      ids({
        asset_type: 'application',
        raw_manifest: 'FROM python:3.12-slim\nRUN pip install -U pip\nCMD ["python", "app.py"]\n',
      }),
    ).not.toContain('R35');
    expect(
      ids({
        asset_type: 'agent',
        raw_manifest: config({ s: { command: 'node', args: ['index.js'], env: { AUTO_UPDATE: 'false' } } }),
      }),
    ).not.toContain('R35');
  });
});

describe('R36 installer of other servers', () => {
  it('launching a listed installer (the MCP Installer) is medium', () => {
    const f = find(
      {
        asset_type: 'agent',
        raw_manifest: config({ installer: { command: 'npx', args: ['-y', '@anaisbetts/mcp-installer@0.5.0'] } }),
      },
      'R36',
    );
    expect(f.map((x) => [x.title, x.severity])).toEqual([['Installer of other servers', 'medium']]);
  });

  it('an installer that also runs code when installed is high; run on demand it stays medium', () => {
    const description = 'A CLI for installing the Example MCP Gateway across LLM clients.';
    const r36 = (scripts: Record<string, string>) =>
      find({ asset_type: 'package', raw_manifest: pkg({ name: '@x/mcp-installer', description, scripts }) }, 'R36');
    expect(r36({ postinstall: 'node scripts/install.js' })[0]).toMatchObject({
      severity: 'high',
      title: 'Installer of other servers that runs code when installed',
    });
    expect(r36({ build: 'tsc' })[0]?.severity).toBe('medium');
  });

  it('a package that says it installs MCP servers or a gateway into agents is an installer (corpus c245, c246)', () => {
    const desc = (description: string) =>
      find({ asset_type: 'package', raw_manifest: pkg({ name: '@x/mcp-installer', description }) }, 'R36').map(
        (x) => x.severity,
      );
    expect(
      desc(
        'The MCP Installer is a CLI tool for installing and managing the Kirha MCP Gateway across various LLM interfaces.',
      ),
    ).toEqual(['medium']);
    expect(desc('Installer for configuring agents to use the Tropass remote MCP gateway.')).toEqual(['medium']);
    // installing packages for an agent, or an MCP server named in another sentence, is not installing servers
    expect(desc('Check packages for CVEs before your AI agent installs them.')).toEqual([]);
    expect(desc('Run npm install. Then start the MCP server.')).toEqual([]);
  });

  it('an installer that claims Anthropic authorship it does not have is high', () => {
    const f = find(
      {
        asset_type: 'mcp_server',
        name: 'claude-mcp-hub',
        raw_manifest: pkg({
          name: 'claude-mcp-hub',
          description: 'Official Anthropic MCP installer: installs other MCP servers for you',
        }),
      },
      'R36',
    );
    expect(f.map((x) => x.severity)).toEqual(['high']);
    expect(f[0]?.evidence).toMatchObject({ path: 'description', vendor: 'Anthropic', installs_by_tools: true });
  });

  it('a server that installs nothing, or an installer whose authorship is its own, is not high', () => {
    expect(
      ids({
        asset_type: 'agent',
        raw_manifest: config({ t: { command: 'uvx', args: ['mcp-server-time==2025.1.1'] } }),
      }),
    ).not.toContain('R36');
    const own = find(
      {
        asset_type: 'mcp_server',
        name: '@anaisbetts/mcp-installer',
        raw_manifest: pkg({
          name: '@anaisbetts/mcp-installer',
          description: 'An MCP server that installs other MCP servers for you',
          author: 'Ani Betts',
        }),
      },
      'R36',
    );
    expect(own.every((x) => x.severity !== 'high')).toBe(true);
  });
});

describe('R14 authorship claims against the publisher', () => {
  const title = 'Authorship claimed for a vendor that does not publish it';
  const r14 = (over: Record<string, unknown>, name?: string) =>
    find({ asset_type: 'mcp_server', name: name ?? null, raw_manifest: pkg(over) }, 'R14').map((f) => f.title);

  it('a description that claims a vendor made an unscoped package', () => {
    expect(r14({ name: 'openai-tools-mcp', description: 'Developed by OpenAI: tools for your agent' })).toEqual([
      title,
    ]);
    expect(r14({ name: 'ms-mcp', description: 'The official Microsoft MCP server for files' })).toEqual([title]);
  });

  it('a real vendor package under its own scope is not a mismatch (false positives)', () => {
    expect(
      r14(
        {
          name: '@anthropic-ai/sdk',
          description: 'The official TypeScript library for the Anthropic API',
          author: 'Anthropic',
        },
        '@anthropic-ai/sdk',
      ),
    ).toEqual([]);
    expect(
      r14(
        {
          name: '@modelcontextprotocol/server-filesystem',
          description: 'MCP server for filesystem access',
          author: 'Anthropic, PBC (https://anthropic.com)',
        },
        '@modelcontextprotocol/server-filesystem',
      ),
    ).toEqual([]);
    expect(
      r14({ name: '@playwright/mcp', description: 'Playwright Tools for MCP', author: 'Microsoft Corporation' }),
    ).toEqual([]);
  });

  it('naming a vendor’s product, or disclaiming the vendor, is no claim (false positives)', () => {
    expect(r14({ name: 'gcal-mcp', description: 'MCP server for the official Google Calendar API' })).toEqual([]);
    expect(r14({ name: 'oa-mcp', description: 'Chat completions powered by OpenAI models' })).toEqual([]);
    expect(r14({ name: 'c-mcp', description: 'Not an official Anthropic product' })).toEqual([]);
  });

  it('an unscoped PyPI package a public listing knows is its listed publisher’s (the reference time server)', () => {
    const raw =
      '[project]\nname = "mcp-server-time"\nversion = "0.6.2"\ndescription = "A Model Context Protocol server providing tools for time queries"\nauthors = [{ name = "Anthropic, PBC." }]\nlicense = { text = "MIT" }\ndependencies = ["mcp>=1.0.0"]\n';
    expect(find({ asset_type: 'mcp_server', raw_manifest: raw }, 'R14')).toEqual([]);
    // with nothing else saying who publishes it, the listing does: claiming another vendor is a mismatch
    const other = find({ asset_type: 'mcp_server', raw_manifest: raw.replace('Anthropic, PBC.', 'OpenAI') }, 'R14');
    expect(other.map((f) => f.evidence.publishers)).toEqual([['modelcontextprotocol']]);
  });
});

describe('R21 fetched code, by where it runs', () => {
  const nb = (...lines: string[]) =>
    JSON.stringify({ nbformat: 4, metadata: {}, cells: [{ cell_type: 'code', source: lines.map((l) => `${l}\n`) }] });
  const r21 = (raw: string, asset_type: 'notebook' | 'container_image') =>
    find({ asset_type, raw_manifest: raw }, 'R21')
      .filter((f) => f.title === 'Code fetched from a URL or VCS without a pin')
      .map((f) => f.severity);

  it('a notebook cloning a repository at its default branch is a low note', () => {
    expect(
      r21(nb('!git clone https://github.com/org/demo.git', '!pip install -r demo/requirements.txt'), 'notebook'),
    ).toEqual(['low']);
  });

  it('R22 reads each pip install to the end of its line; option values and the next lines are not packages', () => {
    const r22 = (raw: string) => find({ asset_type: 'notebook', raw_manifest: raw }, 'R22')[0]?.evidence.packages;
    expect(
      r22(nb('!pip3 install -r requirements.txt', '!python3 setup.py install', 'import torch.nn as nn', 'x = 1')),
    ).toBeUndefined();
    expect(r22(nb('!pip install -q -c constraints.txt gradio \\', '  einops', 'import gradio as gr'))).toEqual([
      'gradio',
      'einops',
    ]);
    expect(
      find(
        {
          asset_type: 'application',
          raw_manifest: 'FROM python:3.12\nRUN pip install --index-url https://x.example/simple -r req.txt\n',
        },
        'R22',
      ),
    ).toEqual([]);
  });

  it('a notebook piping a remote script to a shell stays medium', () => {
    expect(
      r21(nb('!git clone https://github.com/org/demo.git', '!curl -fsSL https://x.example/i.sh | sh'), 'notebook'),
    ).toEqual(['medium']);
  });

  it('the same clone baked into an image stays medium', () => {
    expect(
      r21(
        'FROM python:3.12-slim\nRUN git clone https://github.com/org/demo.git /app\nCMD ["python", "/app/main.py"]\n',
        'container_image',
      ),
    ).toEqual(['medium']);
  });
});

describe('R21 images a compose file builds itself', () => {
  const compose = (image: string, build: boolean) =>
    ['services:', '  app:', ...(build ? ['    build: .'] : []), `    image: ${image}`, ''].join('\n');
  const images = (raw: string) =>
    find({ asset_type: 'container_image', raw_manifest: raw }, 'R21').flatMap((f) => f.evidence.images ?? []);

  it('a bare name next to build is the local tag, not a pull', () => {
    expect(images(compose('router:latest', true))).toEqual([]);
  });

  it('the same name without build, or a namespaced name with it, is pulled and counts', () => {
    expect(images(compose('router:latest', false))).toEqual(['router:latest']);
    expect(images(compose('ghcr.io/org/app:main', true))).toEqual(['ghcr.io/org/app:main']);
  });
});

describe('mutable image tags', () => {
  it('a variant of latest moves like latest; a versioned variant does not', () => {
    expect(unpinnedImage('org/app:latest-amd')).toBe(true);
    expect(unpinnedImage('org/app:cuda-latest')).toBe(true);
    expect(unpinnedImage('org/app:1.4.2-amd')).toBe(false);
    expect(unpinnedImage('${IMAGE:-org/app:latest-amd}')).toBe(true);
  });
});
