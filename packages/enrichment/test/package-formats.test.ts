// pyproject.toml (PEP 621 extras, PEP 735 groups, Poetry groups and sources, uv dev-dependencies and
// sources) and package.json with lock metadata. The two pyproject files are the reference MCP servers' own
// (fixtures 03/04, not corpus entries); the lock and source tables are built here in the documented shapes.
import { analyze } from '../src/index';
import { parseManifest } from '../src/parse';
import { fixture, input } from './helpers';

const parse = (raw: string, metadata: Record<string, unknown> | null = null) =>
  parseManifest(input({ asset_type: 'package', raw_manifest: raw, metadata }));
const depPaths = (p: ReturnType<typeof parse>) => p.dependencies.map((d) => `${d.path} ${d.name} ${d.spec}`);

describe('pyproject.toml: every dependency table', () => {
  it('reads PEP 735 [dependency-groups] (mcp-server-git)', () => {
    const p = parse(fixture('03-mcp-server-git-pyproject.toml'));
    expect(p.kind).toBe('pyproject');
    expect(depPaths(p)).toEqual(
      expect.arrayContaining([
        'project.dependencies[1] gitpython >=3.1.50',
        'dependency-groups.dev[0] pyright >=1.1.407',
        'dependency-groups.dev[2] pytest >=8.0.0',
      ]),
    );
    expect(p.dependencies).toHaveLength(7);
  });

  it('reads Poetry metadata when a [project] table only holds urls', () => {
    const p = parse(
      '[tool.poetry]\nname = "bio"\nversion = "0.7.7"\nlicense = "MIT"\nauthors = ["A <a@b.c>"]\n\n[project.urls]\nHomepage = "https://x.org"\n\n[tool.poetry.dependencies]\npython = ">=3.10"\nopenai = "^1.1.0"\n',
    );
    expect([p.name, p.version, p.licenses]).toEqual(['bio', '0.7.7', ['MIT']]);
    expect(depPaths(p)).toEqual(['tool.poetry.dependencies.openai openai ^1.1.0']);
  });

  it('setup.cfg extras are dependencies; a direct reference is a URL/VCS requirement, in setup.cfg and pyproject', () => {
    const cfg = parse(
      '[metadata]\nname = abril\nversion = 0.1.3\n\n[options]\ninstall_requires =\n\ttorch>=1.7.1\n\tclip @ git+https://github.com/openai/CLIP.git@v0.1.3\n\n[options.extras_require]\nhf =\n    # a comment line\n    transformers>=4.28.1,<5.0\ndev =\n    pytest\n',
    );
    expect(depPaths(cfg)).toEqual([
      'options.install_requires[0] torch >=1.7.1',
      'options.extras_require.dev[0] pytest ',
      'options.extras_require.hf[0] transformers >=4.28.1,<5.0',
    ]);
    expect(cfg.url_requirements).toEqual([
      {
        line: 'clip @ git+https://github.com/openai/CLIP.git@v0.1.3',
        path: 'options.install_requires[1]',
        editable: false,
      },
    ]);
    const toml = parse(
      '[project]\nname = "x"\ndependencies = ["transformers @ git+https://github.com/huggingface/transformers.git"]\n',
    );
    expect(toml.dependencies).toEqual([]);
    expect(toml.url_requirements?.map((u) => u.path)).toEqual(['project.dependencies[0]']);
  });

  it('reads uv dev-dependencies (mcp-server-fetch)', () => {
    const p = parse(fixture('04-mcp-server-fetch-pyproject.toml'));
    expect(depPaths(p)).toEqual(
      expect.arrayContaining([
        'tool.uv.dev-dependencies[3] pytest-asyncio >=0.21.0',
        'tool.uv.dev-dependencies[0] pyright >=1.1.389',
      ]),
    );
  });

  it('reads PEP 621 optional-dependencies and a uv-only workspace root without [project]', () => {
    const p = parse(
      '[project]\nname = "x"\ndependencies = []\n[project.optional-dependencies]\ngpu = ["torch>=2.1"]\n',
    );
    expect(depPaths(p)).toEqual(['project.optional-dependencies.gpu[0] torch >=2.1']);
    const ws = parse(
      '[tool.uv]\npackage = false\n\n[dependency-groups]\ndev = ["ruff==0.7.3", {include-group = "lint"}]\n',
    );
    expect(ws.kind).toBe('pyproject');
    expect(depPaths(ws)).toEqual(['dependency-groups.dev[0] ruff ==0.7.3']);
  });

  it('turns uv and Poetry git/url sources into URL/VCS requirements; a branch is unpinned (R21), a commit is not', () => {
    const toml = `[project]
name = "agent"
version = "0.1.0"
dependencies = ["helper", "tool", "local-lib", "torch"]

[tool.uv.sources]
helper = { git = "https://github.com/example/helper", branch = "main" }
tool = { git = "https://github.com/example/tool", rev = "0123456789abcdef0123456789abcdef01234567" }
local-lib = { path = "../local-lib", editable = true }
torch = { index = "pytorch-cpu" }
`;
    const p = parse(toml);
    expect(p.url_requirements).toEqual([
      { line: 'helper @ git+https://github.com/example/helper@main', path: 'tool.uv.sources.helper', editable: false },
      { line: '-e ../local-lib', path: 'tool.uv.sources.local-lib', editable: true },
      {
        line: 'tool @ git+https://github.com/example/tool@0123456789abcdef0123456789abcdef01234567',
        path: 'tool.uv.sources.tool',
        editable: false,
      },
    ]);
    const r21 = analyze(input({ asset_type: 'package', raw_manifest: toml })).findings.filter(
      (f) => f.rule_id === 'R21',
    );
    expect(r21.map((f) => f.evidence.requirements)).toEqual([
      [
        {
          line: 'helper @ git+https://github.com/example/helper@main',
          path: 'tool.uv.sources.helper',
          editable: false,
        },
      ],
    ]);

    const poetry = parse(`[tool.poetry]
name = "svc"
version = "1.0.0"
[tool.poetry.dependencies]
python = "^3.11"
requests = "^2.31"
[tool.poetry.group.dev.dependencies]
mylib = { git = "https://github.com/example/mylib.git", tag = "v1.2" }
`);
    expect(depPaths(poetry)).toEqual(['tool.poetry.dependencies.requests requests ^2.31']);
    expect(poetry.url_requirements?.map((u) => u.line)).toEqual([
      'mylib @ git+https://github.com/example/mylib.git@v1.2',
    ]);
  });
});

describe('package.json with lock metadata', () => {
  const pkg = JSON.stringify({
    name: 'app',
    version: '1.0.0',
    dependencies: { lodash: '^4.17.0', left: 'git+https://github.com/x/left.git' },
  });
  const lock = {
    name: 'app',
    version: '1.0.0',
    lockfileVersion: 3,
    requires: true,
    packages: {
      '': { name: 'app', version: '1.0.0', dependencies: { lodash: '^4.17.0' } },
      'node_modules/lodash': {
        version: '4.17.20',
        resolved: 'https://registry.npmjs.org/lodash/-/lodash-4.17.20.tgz',
        integrity: 'sha512-AAAA',
      },
      'node_modules/left': { version: '1.0.0', resolved: 'git+ssh://git@github.com/x/left.git#main' },
      'node_modules/tar-dep': {
        version: '2.0.0',
        resolved: 'https://example.com/tar-dep-2.0.0.tgz',
        integrity: 'sha512-BBBB',
      },
      'node_modules/lodash/node_modules/inner': { version: '0.1.0' },
    },
  };

  it('a package-lock.json is read as what was installed: exact versions, off-registry sources', () => {
    const p = parse(JSON.stringify(lock));
    expect(p.kind).toBe('npm_package');
    expect(depPaths(p)).toEqual([
      'packages.node_modules/left left 1.0.0',
      'packages.node_modules/lodash lodash 4.17.20',
      'packages.node_modules/lodash/node_modules/inner inner 0.1.0',
      'packages.node_modules/tar-dep tar-dep 2.0.0',
    ]);
    expect(p.url_requirements).toEqual([
      {
        line: 'left @ git+ssh://git@github.com/x/left.git#main',
        path: 'packages.node_modules/left',
        editable: false,
        pinned: false,
      },
      {
        line: 'tar-dep @ https://example.com/tar-dep-2.0.0.tgz',
        path: 'packages.node_modules/tar-dep',
        editable: false,
        pinned: true,
      },
    ]);
    // the branch-tracking git dependency is unpinned (R21); the tarball is fixed by its integrity hash
    const r21 = analyze(input({ asset_type: 'package', raw_manifest: JSON.stringify(lock) })).findings.filter(
      (f) => f.rule_id === 'R21',
    );
    expect(r21.flatMap((f) => (f.evidence.requirements as Array<{ line: string }>).map((u) => u.line))).toEqual([
      'left @ git+ssh://git@github.com/x/left.git#main',
    ]);
  });

  it('a package.json given with metadata.package_lock gets its declared dependencies at the locked versions', () => {
    const plain = parse(pkg);
    expect(plain.dependencies.find((d) => d.name === 'lodash')?.spec).toBe('^4.17.0');
    const locked = parse(pkg, { package_lock: lock });
    expect(locked.dependencies.find((d) => d.name === 'lodash')).toEqual({
      ecosystem: 'npm',
      name: 'lodash',
      spec: '4.17.20',
      path: 'dependencies.lodash',
    });
    // undeclared transitive entries are not added to the package's own dependencies
    expect(locked.dependencies.map((d) => d.name).sort()).toEqual(['left', 'lodash']);
    // a range the lock resolved is no longer reported as a range (R22)
    const ranged = (md: Record<string, unknown> | null) =>
      analyze(input({ asset_type: 'package', raw_manifest: pkg, metadata: md })).findings.filter(
        (f) => f.rule_id === 'R22',
      );
    expect(ranged(null).length).toBe(1);
    expect(ranged({ package_lock: lock })).toEqual([]);
  });

  it('lockfile v1 (nested dependencies)', () => {
    const v1 = {
      name: 'old',
      version: '1.0.0',
      lockfileVersion: 1,
      dependencies: {
        minimist: {
          version: '1.2.5',
          resolved: 'https://registry.npmjs.org/minimist/-/minimist-1.2.5.tgz',
          integrity: 'sha512-CCCC',
        },
      },
    };
    expect(depPaths(parse(JSON.stringify(v1)))).toEqual(['dependencies.minimist minimist 1.2.5']);
  });
});

describe('uv.lock', () => {
  // two entries of bernikr/pre-commit-ruff-version-sync uv.lock @22d36f63 (a registry package and the project itself,
  // editable), then a git source in the shape uv records (the commit after `#`) and one on a moving URL
  const real = `version = 1
revision = 3
requires-python = ">=3.13"

[[package]]
name = "cfgv"
version = "3.4.0"
source = { registry = "https://pypi.org/simple" }
sdist = { url = "https://files.pythonhosted.org/packages/11/74/539e56497d9bd1d484fd863dd69cbbfa653cd2aa27abfe35653494d85e94/cfgv-3.4.0.tar.gz", hash = "sha256:e52591d4c5f5dead8e0f673fb16db7949d2cfb3f7da4582893288f0ded8fe560", size = 7114, upload-time = "2023-08-12T20:38:17.776Z" }

[[package]]
name = "pre-commit-ruff-version-sync"
version = "0.1.0"
source = { editable = "." }
dependencies = [
    { name = "pyyaml" },
]
`;
  const extra = `
[[package]]
name = "helper"
version = "0.2.0"
source = { git = "https://github.com/example/helper?branch=main#0123456789abcdef0123456789abcdef01234567" }

[[package]]
name = "nightly"
version = "0.0.1"
source = { url = "https://example.com/nightly.tar.gz" }
`;

  it('reads every registry package at its exact version; the project itself is not a dependency', () => {
    const p = parse(real);
    expect(p.kind).toBe('requirements');
    expect(depPaths(p)).toEqual(['package[0] cfgv ==3.4.0']);
    expect(p.url_requirements).toEqual([]);
  });

  it('git sources are pinned by the recorded commit; an unhashed URL source is not (R21)', () => {
    const p = parse(real + extra);
    expect(p.url_requirements?.map((u) => [u.line, u.pinned])).toEqual([
      ['helper @ git+https://github.com/example/helper?branch=main#0123456789abcdef0123456789abcdef01234567', true],
      ['nightly @ https://example.com/nightly.tar.gz', false],
    ]);
    const r21 = analyze(input({ asset_type: 'package', raw_manifest: real + extra })).findings.filter(
      (f) => f.rule_id === 'R21',
    );
    expect(r21.flatMap((f) => (f.evidence.requirements as Array<{ line: string }>).map((u) => u.line))).toEqual([
      'nightly @ https://example.com/nightly.tar.gz',
    ]);
  });
});
