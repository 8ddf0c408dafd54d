// Supply-chain behaviour judged from what a manifest makes happen when it is installed or started: install-time
// scripts (R34), launches that update themselves (R35), and an installer of other servers that borrows a vendor's
// name (R36) (docs/enrichment.md "Rule catalogue" and "Supply-chain behaviour").
import { truncate, uniq } from '../util';
import { defineRule, type Emission, type RuleContext } from './define';
import { launches } from './signals/launch';
import { listedInstallerMention, listedServer } from './signals/servers';

/** npm lifecycle scripts that run when the package is installed (docs.npmjs.com "Scripts": pre/post/install). */
const INSTALL_HOOKS = ['preinstall', 'install', 'postinstall'] as const;
/**
 * Install steps that only build or wire the package itself: git hooks (husky), generated clients (prisma), native
 * addons (node-gyp, prebuild), patches, the package manager guard, the TypeScript build, browser downloads of the
 * test/automation runners. Each is matched on a whole command (`a && b` is two commands).
 */
const BENIGN_EXACT = new Set([
  'is-ci',
  'node-gyp rebuild',
  'node-gyp-build',
  'patch-package',
  'ngcc',
  'opencollective',
  'opencollective-postinstall',
  'electron-builder install-app-deps',
  'lerna bootstrap',
  'exit 0',
  'true',
  'npm run build',
  'npm run compile',
  'npm run prepare',
  'pnpm run build',
  'pnpm run compile',
  'pnpm run prepare',
  'yarn run build',
  'yarn run compile',
  'yarn run prepare',
]);
const isFlag = (t: string): boolean => t.startsWith('-');
/** `tsc -p tsconfig.json --noEmit`: flags, each with at most one value after it. */
function flagsWithValues(rest: readonly string[]): boolean {
  for (let i = 0; i < rest.length; i++) {
    if (!isFlag(rest[i]!)) return false;
    if (i + 1 < rest.length && !isFlag(rest[i + 1]!)) i++;
  }
  return true;
}
/** Whether one command of an install script only builds or wires the package itself (linear, on whitespace tokens). */
function benignInstallStep(command: string): boolean {
  const tokens = command.trim().toLowerCase().split(/\s+/);
  if (tokens[0] === 'npx') tokens.shift();
  const [head = '', second = '', ...more] = tokens;
  const rest = tokens.slice(1);
  if (BENIGN_EXACT.has(tokens.join(' '))) return true;
  switch (head) {
    case 'husky':
      return rest.length <= 1 || (rest.length === 2 && second === 'install');
    case 'prisma':
      return second === 'generate' && more.every(isFlag);
    case 'prebuild-install':
      return rest.every(isFlag);
    case 'node-pre-gyp':
      return second === 'install' && more.every(isFlag);
    case 'only-allow':
      return rest.length === 1;
    case 'tsc':
      return flagsWithValues(rest);
    case 'playwright':
      return second === 'install' && more.every((t) => /^[\w-]+$/.test(t));
    case 'echo':
      return true;
    default:
      return false;
  }
}
/** `a && b || c; d` → its commands. */
const splitCommands = (script: string): string[] =>
  script
    .split(/&&|\|\||;/)
    .map((c) => c.trim())
    .filter(Boolean);

/** setuptools' `cmdclass` overriding install steps, in setup.py or `[tool.setuptools.cmdclass]`: the keyword is found
 * first, then a bounded window after it is read (each pattern anchored or without open repeats: linear). */
const CMDCLASS_OPEN = /\bcmdclass\s{0,3}=\s{0,3}(?:\{|dict\()/g;
const CMDCLASS_STEP = /\b(install|develop|egg_info|build_py|bdist_wheel)\b/;
const CMDCLASS_TABLE = '[tool.setuptools.cmdclass]';
const CMDCLASS_TABLE_STEP = /^[ \t]{0,4}(install|develop|egg_info|build_py)[ \t]{0,3}=/m;
function setuptoolsCmdclass(text: string): { step: string; match: string } | null {
  for (const m of text.matchAll(CMDCLASS_OPEN)) {
    const start = (m.index ?? 0) + m[0].length;
    const window = text.slice(start, start + 300).split(/[}\n]/, 1)[0] ?? '';
    const step = CMDCLASS_STEP.exec(window);
    if (step) return { step: step[1]!, match: m[0] + window.slice(0, step.index + step[0].length) };
  }
  const at = text.indexOf(CMDCLASS_TABLE);
  if (at >= 0 && (at === 0 || text[at - 1] === '\n')) {
    const body = text.slice(at + CMDCLASS_TABLE.length, at + CMDCLASS_TABLE.length + 300).split('[', 1)[0] ?? '';
    const step = CMDCLASS_TABLE_STEP.exec(body);
    if (step) return { step: step[1]!, match: CMDCLASS_TABLE + body.slice(0, step.index + step[0].length) };
  }
  return null;
}

export const R34 = defineRule({
  id: 'R34',
  title: 'Runs code when installed',
  severity: 'medium',
  weight: 15,
  category: 'supply_chain',
  rationale:
    'An npm pre/post-install script or a setuptools cmdclass override runs the package’s own code on every machine that installs it, before anyone uses it; the usual way a compromised release acts. Known build steps (husky, prisma generate, node-gyp, patch-package, tsc) are not reported, nor scripts R17 already reports as shell execution.',
  remediation: 'Review the install script; install with --ignore-scripts where the package works without it.',
  attack_techniques: ['AML.T0010.001'],
  references: ['docs.npmjs.com "Scripts" (preinstall, install, postinstall)', 'setuptools "cmdclass"'],
  evaluate(ctx) {
    const out: Emission[] = [];
    // R17 runs first: a hook it already reports as running a shell is not reported twice
    const reported = new Set(ctx.findings.filter((f) => f.rule_id === 'R17').map((f) => String(f.evidence.path ?? '')));
    const hooks = INSTALL_HOOKS.filter((k) => {
      const v = ctx.p.scripts[k];
      return (
        typeof v === 'string' &&
        !reported.has(`scripts.${k}`) &&
        !splitCommands(v.slice(0, 2000)).every(benignInstallStep)
      );
    });
    if (hooks.length)
      out.push({
        description: `npm ${hooks.join(', ')} script runs ${truncate(ctx.p.scripts[hooks[0]!]!, 80)} at install.`,
        evidence: {
          path: `scripts.${hooks[0]}`,
          scripts: Object.fromEntries(hooks.map((k) => [k, truncate(ctx.p.scripts[k]!, 200)])),
        },
      });
    // the regex only where the word is: most manifests have no cmdclass and are not scanned twice
    const cmd = ctx.raw.includes('cmdclass') ? setuptoolsCmdclass(ctx.raw.slice(0, 200_000)) : null;
    if (cmd)
      out.push({
        title: 'Overrides setuptools install steps',
        description: `setuptools cmdclass replaces the "${cmd.step}" step: custom code runs when the package is built or installed.`,
        evidence: { path: 'cmdclass', command: cmd.step, match: truncate(cmd.match, 120) },
      });
    return out;
  },
});

/** Launch flags that fetch the newest release at every start: uv's cache refresh, pip's upgrade, npm's install/update. */
const REFRESH_FLAG = /^--(?:refresh|refresh-package|reinstall|reinstall-package|upgrade|force-reinstall)(?:=|$)|^-U$/;
const PIP_LIKE = /^(?:pip3?|uv|pipx)$/i;
const NPM_LIKE = /^(?:npm|pnpm|yarn|bun)$/i;
/** `AUTO_UPDATE=true`, `MCP_AUTO_UPDATE=1`: a server told to update itself. */
const AUTO_UPDATE_KEY = /^(?:[A-Z0-9]{1,30}_)?(?:AUTO_?UPDATE|SELF_?UPDATE)$/i;
const TRUTHY = /^(?:1|true|yes|on)$/i;
/** An option key that switches self-updating on (`enable_auto_updates`, `autoUpdate`). */
const AUTO_UPDATE_OPTION = /(?:auto|self)[_-]?updates?(?:$|[_-])/i;
/** Any of the words a self-updating launch needs (linear, no backtracking). */
const MENTIONS_UPDATE =
  /--(?:refresh|reinstall|upgrade|force-reinstall)|-U\b|git\s{1,3}pull|\b(?:npm|pnpm|yarn|bun)\s{1,3}(?:i|install|add|update|upgrade|up)\b|(?:auto|self)_?update/i;

/** The self-updating steps of one MCP server launch (its command and arguments, or its `sh -c` script). */
function selfUpdates(tokens: readonly string[]): string[] {
  const out: string[] = [];
  const cmd = (tokens[0] ?? '').split(/[\\/]/).pop()!.toLowerCase();
  // uvx / uv tool run / pipx run: a refresh flag before the package re-resolves it at every start
  if (/^(?:uvx|uv|pipx)$/.test(cmd)) out.push(...tokens.filter((t) => REFRESH_FLAG.test(t)));
  tokens.forEach((t, i) => {
    const next = tokens[i + 1] ?? '';
    const b = t.split(/[\\/]/).pop()!;
    // pip install -U x / uv pip install --upgrade x inside the launch script
    if (PIP_LIKE.test(b) && /install/.test(tokens.slice(i + 1, i + 3).join(' '))) {
      const flags = tokens.slice(i + 1, i + 8).filter((x) => REFRESH_FLAG.test(x));
      if (flags.length) out.push(`${b} install ${flags[0]}`);
    }
    // npm install -g x@latest / npm update at start
    if (NPM_LIKE.test(b) && /^(?:update|upgrade|up)$/.test(next)) out.push(`${b} ${next}`);
    if (NPM_LIKE.test(b) && /^(?:i|install|add)$/.test(next)) {
      const latest = tokens.slice(i + 2, i + 8).find((x) => /@latest$/.test(x));
      if (latest) out.push(`${b} ${next} ${latest}`);
    }
    // git pull before starting: whatever the branch holds now
    if (b === 'git' && next === 'pull') out.push('git pull');
  });
  return uniq(out);
}

export const R35 = defineRule({
  id: 'R35',
  title: 'Updates itself at launch',
  severity: 'low',
  weight: 5,
  category: 'supply_chain',
  rationale:
    'A server started with a refresh or upgrade step (uvx --refresh, pip install -U, npm install …@latest, git pull, AUTO_UPDATE=true) runs whatever was published last, every time it starts: a compromised release reaches every user without anyone installing it. An unpinned `npx pkg` or `pkg@latest` is R21.',
  remediation: 'Pin the version the launch runs and update deliberately.',
  attack_techniques: ['AML.T0010.001', 'AML.T0109'],
  references: ['uv "Caching" (--refresh)', 'pip "install" (--upgrade)'],
  evaluate(ctx) {
    // only server launches update themselves at start, and only when one of the words is there at all (a cheap
    // guard: the engine runs every rule on every manifest)
    if (!ctx.p.servers.length || !MENTIONS_UPDATE.test(ctx.raw)) return [];
    const serverPaths = new Set(ctx.p.servers.map((s) => `${s.path}.args`));
    const found = launches(ctx.p)
      .filter((l) => serverPaths.has(l.path))
      .map((l) => ({ path: l.path, steps: selfUpdates(l.tokens) }))
      .filter((x) => x.steps.length);
    const env = ctx.p.servers.flatMap((s) =>
      Object.entries(s.env)
        .filter(([k, v]) => AUTO_UPDATE_KEY.test(k) && TRUTHY.test(String(v).trim()))
        .map(([key, value]) => ({ key, value, path: `${s.path}.env` })),
    );
    // a bundle option that switches self-updating on by default (MCPB user_config `enable_auto_updates: true`)
    for (const s of ctx.p.servers)
      for (const o of s.enabledOptions ?? [])
        if (AUTO_UPDATE_OPTION.test(o.key)) env.push({ key: o.key, value: 'true (default)', path: 'user_config' });
    if (!found.length && !env.length) return [];
    const steps = uniq([...found.flatMap((x) => x.steps), ...env.map((e) => `${e.key}=${e.value}`)]);
    return [
      {
        description: `The server launch updates itself at every start (${steps.slice(0, 4).join(', ')}).`,
        evidence: { path: found[0]?.path ?? env[0]!.path, steps: steps.slice(0, 20) },
        capabilities: ['supply_chain'],
      },
    ];
  },
});

/**
 * A manifest's own description that says it installs MCP servers or a gateway into agents: "a CLI tool for installing
 * and managing the Kirha MCP Gateway across various LLM interfaces", "Installer for configuring agents to use the …
 * remote MCP gateway". Bounded gaps, no sentence break (linear).
 */
const INSTALL_WORD = /^install(?:er|s|ing)?$/;
const MCP_TARGET_WORD = /^(?:servers?|gateway)$/;
/** Within one sentence: an install word, `mcp` at most 60 characters after it, a server/gateway at most 30 after. */
function installsMcp(description: string): boolean {
  for (const sentence of description.slice(0, 2000).split(/[.\n]/)) {
    const words = [...sentence.matchAll(/\w+/g)].map((m) => ({ w: m[0].toLowerCase(), at: m.index ?? 0 }));
    for (let i = 0; i < words.length; i++) {
      if (words[i]!.w !== 'mcp') continue;
      const at = words[i]!.at;
      // windows bounded by character distance: each scan stops within 60 or 30 characters (linear overall)
      let before = false;
      for (let j = i - 1; j >= 0 && at - (words[j]!.at + words[j]!.w.length) <= 60 && !before; j--)
        before = INSTALL_WORD.test(words[j]!.w);
      if (!before) continue;
      for (let j = i + 1; j < words.length && words[j]!.at - (at + 3) <= 30; j++)
        if (MCP_TARGET_WORD.test(words[j]!.w)) return true;
    }
  }
  return false;
}

/** The installers a manifest launches: listed servers whose listing says they install other servers. */
function launchedInstallers(ctx: RuleContext): string[] {
  if (!listedInstallerMention(ctx.raw) && !listedInstallerMention(ctx.input.name ?? '')) return [];
  const names = [
    ctx.p.name ?? '',
    ctx.input.name ?? '',
    ...ctx.p.servers.flatMap((s) => [s.identifier ?? '', ...s.args]),
  ];
  return uniq(
    names
      .filter((n) => n && !n.startsWith('-'))
      .filter((n) => listedServer(n)?.capabilities.includes('installs_servers'))
      .map((n) => n.toLowerCase()),
  );
}

export const R36 = defineRule({
  id: 'R36',
  title: 'Installer of other servers',
  severity: 'medium',
  weight: 15,
  category: 'supply_chain',
  rationale:
    'A server that installs other servers decides at run time what code the agent host runs. Launching a listed installer, or a package that says it installs MCP servers or a gateway into agents, is reported here (a tool or server description that says it installs servers or packages is R21); one that also claims a vendor’s authorship its publisher does not match (R14) is how a fake official installer looks, and one that also runs code when installed (R34) changes every agent’s tools with code nobody chose to run: both high.',
  remediation: 'Install servers yourself from reviewed, pinned sources; remove installers that borrow a vendor name.',
  attack_techniques: ['AML.T0010.001', 'AML.T0011.001'],
  references: ['MCP servers README "MCP Installer"', 'docs/enrichment.md "Supply-chain behaviour"'],
  evaluate(ctx) {
    const installers = launchedInstallers(ctx);
    if (installsMcp(ctx.p.description ?? '')) installers.push('(own description)');
    const installsByTools = ctx.findings.some((f) => f.rule_id === 'R21' && /installs other/i.test(f.title));
    const borrowed = ctx.findings.find(
      (f) => f.rule_id === 'R14' && f.title === 'Authorship claimed for a vendor that does not publish it',
    );
    if (borrowed && (installers.length || installsByTools))
      return [
        {
          severity: 'high',
          title: 'Installer of other servers that borrows a vendor’s authorship',
          description: `It installs other servers and names ${String(borrowed.evidence.vendor)} as its author, which does not publish it.`,
          evidence: {
            path: String(borrowed.evidence.path),
            vendor: borrowed.evidence.vendor,
            installers: installers.slice(0, 10),
            installs_by_tools: installsByTools,
          },
          capabilities: ['supply_chain'],
        },
      ];
    // an installer that also runs its own code when installed (an npm postinstall fetching a binary) changes every
    // agent's tool set with code nobody chose to run: high, as a reviewer rates it against the same installer run on
    // demand (medium)
    const hook = ctx.findings.find((f) => f.rule_id === 'R34' && f.severity !== 'informational');
    if (hook && (installers.length || installsByTools))
      return [
        {
          severity: 'high',
          title: 'Installer of other servers that runs code when installed',
          description: `It installs other servers into agents and runs code at install (${truncate(hook.description, 80)}).`,
          evidence: {
            path: String(hook.evidence.path ?? 'scripts'),
            installers: installers.slice(0, 10),
            installs_by_tools: installsByTools,
          },
          capabilities: ['supply_chain'],
        },
      ];
    if (installers.length && !installsByTools)
      return [
        {
          description: installers.includes('(own description)')
            ? 'It installs MCP servers or a gateway into agents’ configurations (its own description).'
            : `Launches ${installers.slice(0, 3).join(', ')}, a server that installs other servers at run time.`,
          evidence: { path: 'servers', installers: installers.slice(0, 10) },
          capabilities: ['supply_chain'],
        },
      ];
    return [];
  },
});
