// Supply-chain rules on pins: unpinned launchers, images and fetched code (R21), version ranges (R22)
// (docs/enrichment.md "Rule catalogue"). Known vulnerable versions (R23) are in vulnerable-versions.ts.
import { isBasePlaceholder } from '../parse/modelfile';
import type { Dependency, McpServerEntry } from '../types';
import { isObj, uniq } from '../util';
import { isPinned } from '../versions';
import { defineRule, type Emission, type RuleContext } from './define';
import { scanCommands, unpinnedImage } from './signals/commands';
import { launches } from './signals/launch';
import { commandBase, toolSignals } from './signals/tools';

const LAUNCHERS = /^(?:npx|uvx|pipx|bunx|pnpm dlx|yarn dlx)$/;
const WINDOWS_EXECUTABLE = /\.(?:cmd|exe|bat)$/;
/** Flags of `docker run` whose next argument is not the image. */
const DOCKER_VALUE_FLAGS = new Set(['-e', '-v', '--env', '--mount', '--name', '--network']);
/** `-e .`, `./pkg`, `file:…`: the project itself, not fetched code. */
const LOCAL_REQUIREMENT = /^(?:-e\s+|--editable[\s=]+)?(?:\.{1,2}(?:\/\S*)?|file:\S+)$/;
const PINNED_URL = /@[0-9a-f]{40}\b|#sha256=[0-9a-f]{64}\b/;
/** A VCS requirement whose ref is a version-like release tag: `git+https://…/repo.git@v0.1.3` (a `#egg=` may follow). */
function releaseTagRef(line: string): boolean {
  const vcs = line.search(/(?:git|hg)\+/);
  const at = line.lastIndexOf('@');
  if (vcs < 0 || at <= vcs) return false;
  const ref = (line.slice(at + 1).split('#')[0] ?? '').trim();
  return /^v?\d{1,6}(?:\.\d{1,6}){1,3}(?:[-.]?[A-Za-z0-9]{1,20})?$/.test(ref);
}
/** pyproject tables of development-only dependencies, and extras named for development (src/parse/packages.ts paths). */
const DEV_DEPENDENCY_PATH =
  /^(?:dependency-groups\.|tool\.uv\.dev-dependencies|tool\.poetry\.(?:dev-dependencies|group\.)|(?:project\.optional-dependencies|options\.extras_require)\.(?:dev|devel|develop|development|test|tests|testing|docs?|lint|linting|quality|style|typing|ci)\[)/;
/** Extras (`pip install pkg[extra]`): installed only when a user asks for them (src/parse/packages.ts paths). */
const OPTIONAL_DEPENDENCY_PATH = /^(?:project\.optional-dependencies|options\.extras_require)\./;

/**
 * What a declared Python dependency is for, from where it is declared: installed with the package (`runtime`), only
 * with an extra the user asks for (`optional`), or by the project's developers (`development`).
 */
export function dependencyRole(path: string): 'runtime' | 'optional' | 'development' {
  if (DEV_DEPENDENCY_PATH.test(path)) return 'development';
  return OPTIONAL_DEPENDENCY_PATH.test(path) ? 'optional' : 'runtime';
}

/** The image a `docker run`/`podman run` server starts (or its OCI registry identifier). */
function containerImage(s: McpServerEntry): string | null {
  // an OCI package names its tag in the identifier (current registry schema) or, in earlier server.json files, in
  // the package's `version`: the client runs `identifier:version`
  if (s.registry === 'oci') {
    const id = s.identifier;
    if (!id || !s.version || id.includes('@') || /:[\w.-]+$/.test(id.replace(/^[^/]*:\d+\//, ''))) return id;
    return `${id}:${s.version}`;
  }
  const args = s.args;
  return (
    args.find(
      (a, i) =>
        i > 0 &&
        !a.startsWith('-') &&
        !DOCKER_VALUE_FLAGS.has(args[i - 1] ?? '') &&
        /^[\w.\-/:@]+$/.test(a) &&
        a !== 'run',
    ) ?? null
  );
}

/**
 * R21 findings for one MCP server: a launcher, `uv run --with` or registry package without a version, an unpinned
 * image. A launcher or image that resolves the newest release at start is a supply-chain gap, not an exposure: low,
 * as for mutable container tags (corpus c007/c089: well-known servers through `npx` are rated low).
 */
function serverPins(s: McpServerEntry): Emission[] {
  const out: Emission[] = [];
  const cmd = (s.command ?? '').toLowerCase();
  const args = s.args;
  // a launcher given as a full path (`/usr/local/bin/npx`, `C:\\Program Files\\nodejs\\npx.cmd`) is the same launcher
  if (LAUNCHERS.test(cmd) || LAUNCHERS.test(commandBase(cmd).replace(WINDOWS_EXECUTABLE, ''))) {
    const pkgArg = args.find((a) => !a.startsWith('-'));
    const yes = args.includes('-y') || args.includes('--yes');
    const pinned = (!!pkgArg && /^(@[^/]+\/)?[^@]+@\d[\w.+-]*$/.test(pkgArg)) || (!!pkgArg && /==\d/.test(pkgArg));
    const latest = !!pkgArg && /@latest$/.test(pkgArg);
    if (!pinned || latest)
      out.push({
        // a launcher that resolves the newest release at start is a supply-chain gap, not an exposure: low (the
        // corpus reviewer rates `npx -y pkg@latest` of well-known servers low, c007/c089)
        severity: 'low',
        description: `${cmd} runs ${pkgArg ?? 'a package'}${latest ? ' at @latest' : ' without a pinned version'}${yes ? ' (auto-confirm -y)' : ''}.`,
        evidence: { path: `${s.path}.args`, command: cmd, package: pkgArg ?? null, auto_confirm: yes },
      });
  } else if (/^uv(?:\.exe)?$/.test(commandBase(cmd)) && args.includes('--with')) {
    // `uv run --with <pkg>` installs <pkg> at whatever version is published at launch (uv docs "Running scripts")
    const withs = args.filter((a, i) => args[i - 1] === '--with' && !/(?:==|@)\d/.test(a));
    if (withs.length)
      out.push({
        severity: 'low',
        description: `uv run --with ${withs.slice(0, 3).join(', ')} installs without a pinned version.`,
        evidence: { path: `${s.path}.args`, command: cmd, packages: withs.slice(0, 20) },
      });
  } else if (s.registry && !s.url && s.registry !== 'oci') {
    // (an OCI package's version is its image tag, judged with the image below)
    if (!s.version || /^latest$/i.test(s.version))
      out.push({
        description: `Package ${s.identifier ?? s.name} has no concrete version.`,
        evidence: { path: `${s.path}.version`, version: s.version },
      });
  }
  if (cmd === 'docker' || cmd === 'podman' || s.registry === 'oci') {
    const image = containerImage(s);
    if (
      image &&
      !image.includes('@sha256:') &&
      (!/:[\w.-]+$/.test(image.replace(/^[^/]*:\d+\//, '')) || /:latest$/.test(image))
    )
      out.push({
        severity: 'low',
        description: `Container image ${image} is not pinned by tag or digest.`,
        evidence: { path: `${s.path}.args`, image },
      });
  }
  return out;
}

/**
 * An image name without a registry or namespace (`gpu-vllm-router:latest`). Next to a compose `build` section it is the
 * tag the locally built image gets: Compose pulls it first only from Docker Hub's official library, where nobody but
 * Docker publishes, then builds (Compose specification "build" and `pull_policy`). A namespaced name
 * (`ghcr.io/org/app:main`) can be pulled from someone else's registry, so it still counts.
 */
function localBuildName(image: string): boolean {
  return !image.includes('/');
}

/** A fetched-code finding for build/start commands (Dockerfile RUN, compose command, notebook cells). */
function fetchedCode(commands: readonly string[], path: string): Emission | null {
  const { fetched } = scanCommands(commands);
  if (!fetched.length) return null;
  return {
    title: 'Code fetched from a URL or VCS without a pin',
    description: `Installs ${uniq(fetched).join(' and ')}.`,
    evidence: { path, kinds: uniq(fetched) },
  };
}

export const R21 = defineRule({
  id: 'R21',
  title: 'Unpinned launcher or image',
  severity: 'medium',
  weight: 15,
  category: 'supply_chain',
  rationale:
    'npx/uvx/pipx/bunx without @version, npx -y, :latest or untagged images fetch whatever is published next (rug pull).',
  remediation: 'Pin an exact version or digest.',
  attack_techniques: ['AML.T0109'],
  references: ['§3 R21'],
  evaluate(ctx) {
    const { p } = ctx;
    const out: Emission[] = p.servers.flatMap(serverPins);
    // a server that installs other servers or packages runs code chosen at run time, not at review time
    const { installers } = toolSignals(ctx);
    if (installers.length)
      out.push({
        title: 'Installs other servers or packages',
        description: `Installs other servers or packages at run time (${installers.slice(0, 5).join(', ')}).`,
        evidence: { path: 'tools', tools: installers.slice(0, 20) },
        capabilities: ['supply_chain'],
      });
    const f = p.modelfile?.from;
    if (f && !/[\\/]|\.gguf$/i.test(f) && !isBasePlaceholder(f) && (!f.includes(':') || /:latest$/i.test(f)))
      out.push({
        // a moving model tag is the same supply-chain gap as a moving image tag: low, as a reviewer rates both
        severity: 'low',
        description: `Modelfile FROM ${f} is not pinned to a tag.`,
        evidence: { path: 'FROM', from: f },
      });
    const cs = p.containers ?? [];
    const images = cs
      .filter((c) => c.image && unpinnedImage(c.image) && !(c.built && localBuildName(c.image)))
      .map((c) => c.image as string);
    if (images.length)
      out.push({
        // a mutable base or service image is a supply-chain gap, not an exposure: low, as a reviewer rates it
        severity: 'low',
        description: `Image${images.length > 1 ? 's' : ''} not pinned to a fixed tag or digest: ${uniq(images).slice(0, 5).join(', ')}.`,
        evidence: { path: 'image', images: uniq(images).slice(0, 20) },
      });
    const built = p.containers
      ? fetchedCode(
          cs.flatMap((c) => c.commands),
          'RUN',
        )
      : null;
    if (built) out.push(built);
    // a server whose launch is a shell script that fetches and runs code (`bash -c "curl … | sh"`) installs whatever
    // the URL serves on every start
    const serverScripts = launches(p).filter(
      (l) => p.servers.some((s) => `${s.path}.args` === l.path) && l.text.includes('|'),
    );
    const fetchedAtStart = serverScripts.length
      ? fetchedCode(
          serverScripts.map((l) => l.text),
          serverScripts[0]!.path,
        )
      : null;
    if (fetchedAtStart) out.push(fetchedAtStart);
    // requirements installed from a URL or VCS without a commit or hash (editable local paths are the project itself)
    const loose = (p.url_requirements ?? []).filter(
      (u) => !u.pinned && !LOCAL_REQUIREMENT.test(u.line) && !PINNED_URL.test(u.line),
    );
    // a VCS ref that is a release tag (`git+…@v0.1.3`) names a published version: the owner can still move it, but it
    // does not follow a branch, so it is a low note; a branch, HEAD or a bare URL follows whatever is pushed next
    const moving = loose.filter((u) => !releaseTagRef(u.line));
    const tagged = loose.filter((u) => releaseTagRef(u.line));
    if (moving.length)
      out.push({
        title: 'Dependency fetched from a URL or VCS without a pin',
        description: `${moving.length} requirement(s) come from a URL or VCS ref that can change (${moving[0]?.line.slice(0, 80)}).`,
        evidence: { path: moving[0]?.path ?? 'requirements', requirements: moving.slice(0, 20) },
      });
    if (tagged.length)
      out.push({
        severity: 'low',
        title: 'Dependency fetched from a VCS release tag',
        description: `${tagged.length} requirement(s) come from a VCS tag rather than the index or a commit (${tagged[0]?.line.slice(0, 80)}).`,
        evidence: { path: tagged[0]?.path ?? 'requirements', requirements: tagged.slice(0, 20) },
      });
    const cells = p.notebook_code ? fetchedCode([p.notebook_code], 'cells') : null;
    // a notebook is run cell by cell by the person reading it, in a runtime of its own (Colab, a local kernel): a
    // repository cloned at its default branch there is seen when it runs and deployed nowhere, unlike a Dockerfile
    // that bakes it into an image or a server launch that fetches it on every start. Low, unless a remote script is
    // piped to a shell (docs/enrichment.md R21)
    if (cells) out.push(onlyVcs(cells) ? { ...cells, severity: 'low' } : cells);
    return out;
  },
});

/** A fetched-code finding whose only kind is a VCS checkout at a moving ref. */
function onlyVcs(e: Emission): boolean {
  const kinds = e.evidence.kinds;
  return Array.isArray(kinds) && kinds.every((k) => k === 'VCS source at a moving ref');
}

/** A pip-install-without-version finding for build commands or notebook cells. */
function unpinnedInstalls(commands: readonly string[], path: string): Emission | null {
  const { unpinned } = scanCommands(commands);
  if (!unpinned.length) return null;
  return {
    description: `pip installs ${uniq(unpinned).length} package(s) without a version at build time.`,
    evidence: { path, packages: uniq(unpinned).slice(0, 20) },
  };
}

/** Asset types run from their own manifest where they are deployed, not installed as someone else's dependency. */
const DEPLOYED_ASSETS: ReadonlySet<string> = new Set(['application', 'mcp_server', 'agent']);

/** Dependencies declared with a version range. */
export function rangedDependencies(ctx: RuleContext): Dependency[] {
  return ctx.p.dependencies.filter((d) => !isPinned(d.ecosystem, d.spec));
}

/**
 * The version ranges R22 reports, by what the manifest is for: an application's requirements file and a published npm
 * package are installed as resolved at install time, so any range counts; a private npm package is never installed by
 * anyone else, so a workspace root's ranges do not count, but a private application or server is installed from its
 * own manifest where it is deployed, so its ranges do; a Python library's metadata (pyproject, setup.cfg of a `package` asset) is expected to
 * give lower bounds (Python Packaging User Guide, "install_requires vs requirements files"), so only dependencies with
 * no version constraint at all count there, and only when they are at least half of what it declares. An MCP server or application packaged the same way is installed and run
 * as resolved at launch (`uvx`), so its ranges count.
 */
function rangesAReviewerFlags(ctx: RuleContext): Dependency[] {
  const { p } = ctx;
  switch (p.kind) {
    case 'requirements':
      return rangedDependencies(ctx);
    case 'npm_package':
      // `private: true` only keeps a package off the registry: an application or server is still installed from its
      // own manifest wherever it is deployed, resolving its ranges then; a private workspace root is not
      return isObj(p.raw_json) && p.raw_json.private === true && !DEPLOYED_ASSETS.has(ctx.input.asset_type)
        ? []
        : rangedDependencies(ctx);
    case 'pyproject':
    case 'setup_cfg': {
      // development groups (PEP 735, uv/Poetry dev dependencies) are installed by the project's developers, not by
      // whoever installs or launches the package: not part of what it resolves at install time
      const shipped = rangedDependencies(ctx).filter((d) => dependencyRole(d.path) !== 'development');
      if (ctx.input.asset_type !== 'package') return shipped;
      // a library that constrains most of what it declares and leaves a few stable tools bare (`setuptools`,
      // `jinja2`) follows that guide ("as liberal as possible"); one that leaves most of them bare states no version
      // intent at all
      const bare = shipped.filter((d) => d.spec.trim() === '');
      const declared = p.dependencies.filter((d) => dependencyRole(d.path) !== 'development').length;
      return bare.length * 2 >= declared ? bare : [];
    }
    default:
      return [];
  }
}

export const R22 = defineRule({
  id: 'R22',
  title: 'Dependency version ranges',
  severity: 'low',
  weight: 5,
  category: 'supply_chain',
  rationale: 'Ranges (^, ~, >=, *, bare names) make builds non-reproducible and pull new releases automatically.',
  remediation: 'Pin versions with a lockfile.',
  attack_techniques: ['AML.T0010.001'],
  references: ['§3 R22 (+ AML.T0010.001)'],
  evaluate(ctx) {
    const { p } = ctx;
    const out: Emission[] = [];
    const ranged = rangesAReviewerFlags(ctx);
    if (ranged.length)
      out.push({
        description: `${ranged.length} of ${p.dependencies.length} dependencies use version ranges.`,
        evidence: {
          path: 'dependencies',
          dependencies: ranged.slice(0, 30).map((d) => `${d.name}${d.ecosystem === 'npm' ? '@' : ''}${d.spec || '*'}`),
          count: ranged.length,
        },
      });
    const built = p.containers
      ? unpinnedInstalls(
          p.containers.flatMap((c) => c.commands),
          'RUN',
        )
      : null;
    if (built) out.push(built);
    const cells = p.notebook_code ? unpinnedInstalls([p.notebook_code], 'cells') : null;
    if (cells) out.push(cells);
    return out;
  },
});
