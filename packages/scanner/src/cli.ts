// The `risk-scan` command (docs/scanner.md): parses arguments, runs the scan, prints the report and sets the exit code —
// 1 when an asset reaches the `--fail-on` band, 2 on a usage or I/O error, 0 otherwise.
import { writeFile } from 'node:fs/promises';
import { stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { SEVERITY_ORDER, severityRank } from './judge';
import { applyIgnores, IgnoreFileError, loadIgnoreFile } from './riskignore';
import { AssetCollector } from './assets';
import { scanMachine } from './machine';
import { emptyResult, rootFor, scanTrees, type ScanOptions, type ScanResult, type ScanRoot } from './scan';
import { startProgress } from './progress';
import { buildSignals, submit } from './submit';
import { cycloneDx, spdx } from './report/bom';
import { json } from './report/json';
import { sarif } from './report/sarif';
import { table } from './report/table';
import { TOOL } from './tool';
import type { Severity } from '@risk/enrichment';

export const FORMATS = ['table', 'json', 'sarif', 'cyclonedx', 'spdx'] as const;
type Format = (typeof FORMATS)[number];

export class UsageError extends Error {}

/** The platform whose client locations a machine scan reads; RISK_SCAN_PLATFORM overrides it (tests build homes). */
function machinePlatform(env: NodeJS.ProcessEnv): NodeJS.Platform {
  const p = env.RISK_SCAN_PLATFORM;
  return p === 'linux' || p === 'darwin' || p === 'win32' ? p : process.platform;
}

function positiveInt(v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n <= 0) throw new InvalidArgumentError('expected a positive integer');
  return n;
}

function nonNegativeInt(v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError('expected a whole number of seconds');
  return n;
}

/** `123`, `10k`, `512M`, `4G` (binary units) as bytes. */
export function parseSize(v: string): number {
  const m = /^(\d{1,15})([kmgt]?)i?b?$/i.exec(v.trim());
  if (!m) throw new InvalidArgumentError('expected a size such as 500M or 4G');
  const mult = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3, t: 1024 ** 4 }[
    m[2]!.toLowerCase() as '' | 'k' | 'm' | 'g' | 't'
  ];
  return Number(m[1]) * mult;
}

interface Io {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  stdoutIsTty: boolean;
  stderrIsTty: boolean;
  cwd: string;
  env: NodeJS.ProcessEnv;
}

interface ScanFlags {
  format: Format;
  output?: string;
  failOn?: Severity;
  ignoreFile?: string;
  machine?: boolean;
  home?: string;
  maxFiles: number;
  maxFileSize: number;
  includeDeps?: boolean;
  includeBuild?: boolean;
  gitignore: boolean;
  color?: boolean;
  progress: boolean;
  submit?: boolean;
  dryRun?: boolean;
  org?: string;
  wait: number;
  maxUploadSize: number;
}

/** The platform and org `--submit` talks to: RISK_API_URL, RISK_API_KEY and the key's org (RISK_ORG_ID or --org). */
function onlineTarget(flags: ScanFlags, env: NodeJS.ProcessEnv): { apiUrl: string; apiKey: string; orgId: string } {
  const apiUrl = env.RISK_API_URL ?? '';
  const apiKey = env.RISK_API_KEY ?? '';
  const orgId = flags.org ?? env.RISK_ORG_ID ?? '';
  if (!flags.dryRun && (!apiUrl || !apiKey)) throw new UsageError('--submit needs RISK_API_URL and RISK_API_KEY');
  if (!orgId) throw new UsageError("--submit needs the key's org: --org or RISK_ORG_ID");
  return { apiUrl, apiKey, orgId };
}

function render(result: ScanResult, flags: ScanFlags, run: { colour: boolean; name: string; created: string }): string {
  const { colour, name, created } = run;
  switch (flags.format) {
    case 'json':
      return json(result, created);
    case 'sarif':
      return `${JSON.stringify(sarif(result.assets, `risk-scan/${name}/`), null, 2)}\n`;
    case 'cyclonedx':
      return `${JSON.stringify(cycloneDx(result.assets, { name, created }), null, 2)}\n`;
    case 'spdx':
      return `${JSON.stringify(spdx(result.assets, { name, created }), null, 2)}\n`;
    default:
      return table(result, colour);
  }
}

/** The directories to scan: one root makes paths relative to it (what SARIF's %SRCROOT% means); several are labelled as given. */
async function scanRoots(paths: string[], flags: ScanFlags, cwd: string): Promise<ScanRoot[]> {
  const given = paths.length ? paths : flags.machine ? [] : ['.'];
  const roots = given.map((p) => (given.length === 1 ? { dir: path.resolve(cwd, p), label: '.' } : rootFor(p, cwd)));
  for (const [i, r] of roots.entries()) {
    const st = await stat(r.dir).catch(() => null);
    if (!st?.isDirectory()) throw new UsageError(`not a directory: ${given[i]}`);
  }
  return roots;
}

/** This machine (with --machine) and the roots scanned into one result, with progress shown on a terminal. */
async function collect(
  run: { roots: ScanRoot[]; opts: ScanOptions; files: Map<string, string> },
  flags: ScanFlags,
  io: Io,
): Promise<ScanResult> {
  const { roots, opts, files } = run;
  const progress = flags.progress && io.stderrIsTty ? startProgress(process.stderr) : null;
  try {
    const sink = { collector: new AssetCollector(), result: emptyResult(), maxFileBytes: opts.maxFileBytes, files };
    if (flags.machine)
      await scanMachine(
        { home: path.resolve(io.cwd, flags.home ?? os.homedir()), platform: machinePlatform(io.env) },
        sink,
      );
    return await scanTrees(roots, { ...opts, onProgress: progress?.update }, sink);
  } finally {
    progress?.stop();
  }
}

async function runScan(paths: string[], flags: ScanFlags, io: Io): Promise<number> {
  const now = new Date();
  const created = now.toISOString().replace(/\.\d{3}Z$/, 'Z');
  const opts: ScanOptions = {
    maxFiles: flags.maxFiles,
    maxFileBytes: flags.maxFileSize,
    includeDeps: !!flags.includeDeps,
    includeBuild: !!flags.includeBuild,
    gitignore: flags.gitignore,
    now: created,
  };
  const roots = await scanRoots(paths, flags, io.cwd);
  const online = flags.submit || flags.dryRun ? onlineTarget(flags, io.env) : null;
  const files = new Map<string, string>();
  const result = await collect({ roots, opts, files }, flags, io);
  const ignoreFile = flags.ignoreFile
    ? path.resolve(io.cwd, flags.ignoreFile)
    : path.join(roots[0]?.dir ?? io.cwd, '.riskignore');
  const entries = await loadIgnoreFile(ignoreFile, !!flags.ignoreFile);
  const observedAt = Math.floor(now.getTime() / 1000);
  if (online && flags.dryRun) {
    // what --submit would send, redacted exactly as it would be; nothing leaves the machine
    io.stdout(`${JSON.stringify({ signals: buildSignals(result.assets, online.orgId, observedAt) }, null, 2)}\n`);
    return 0;
  }
  if (online) {
    const sent = await submit(result.assets, {
      ...online,
      waitSeconds: flags.wait,
      maxUploadBytes: flags.maxUploadSize,
      observedAt,
      files,
      log: (line) => io.stderr(`${line}\n`),
    });
    result.assets = sent.assets;
  }
  result.assets = applyIgnores(result.assets, entries, created.slice(0, 10));
  const name = roots[0] ? path.basename(roots[0].dir) : 'machine';
  const colour = flags.color ?? (flags.output ? false : io.stdoutIsTty);
  const text = render(result, flags, { colour, name, created });
  if (flags.output) await writeFile(path.resolve(io.cwd, flags.output), text);
  else io.stdout(text);
  if (flags.format !== 'table' && flags.output === undefined && result.stats.truncated)
    io.stderr(`risk-scan: stopped at --max-files ${flags.maxFiles}; results are partial\n`);
  if (flags.failOn) {
    const bar = severityRank(flags.failOn);
    if (result.assets.some((a) => severityRank(a.severity) >= bar)) return 1;
  }
  return 0;
}

export function program(io: Io, done: (code: number) => void): Command {
  const cmd = new Command('risk-scan')
    .description('Find AI assets (models, MCP servers, agents, AI packages) and judge their risk')
    .version(TOOL.version)
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr });
  cmd
    .command('scan', { isDefault: true })
    .description('scan directories (default: the current one) and/or this machine')
    .argument('[paths...]', 'directories to scan')
    .addOption(new Option('-f, --format <format>', 'output format').choices(FORMATS).default('table'))
    .option('-o, --output <file>', 'write the report to a file instead of stdout')
    .addOption(new Option('--fail-on <severity>', 'exit 1 when an asset reaches this band').choices(SEVERITY_ORDER))
    .option('--ignore-file <file>', 'accepted verdicts (default: .riskignore in the first path)')
    .option('--machine', "scan this machine's agent clients, Hugging Face cache and Ollama models")
    .option('--home <dir>', 'home folder for --machine (default: yours)')
    .option('--max-files <n>', 'stop after this many files (reported)', positiveInt, 200_000)
    .option('--max-file-size <size>', 'do not hash model files larger than this (reported)', parseSize, 64 * 1024 ** 3)
    .option('--include-deps', 'also read node_modules and virtualenvs')
    .option('--include-build', 'also read build output (dist, build, out, target, …)')
    .option('--no-gitignore', 'do not honour .gitignore files')
    .option('--color', 'force colour')
    .option('--no-color', 'no colour')
    .option('--no-progress', 'no progress bar on stderr')
    .option('--submit', 'send the assets to the platform (RISK_API_URL, RISK_API_KEY) and print its verdicts')
    .option('--dry-run', 'print the signals --submit would send (redacted) and send nothing')
    .option('--org <id>', "the API key's org for --submit (default: RISK_ORG_ID)")
    .option('--wait <seconds>', 'wait at most this long for enrichment with --submit', nonNegativeInt, 60)
    .option('--max-upload-size <size>', 'never upload model files larger than this', parseSize, 256 * 1024 ** 2)
    .action(async (paths: string[], flags: ScanFlags) => {
      done(await runScan(paths, flags, io));
    });
  return cmd;
}

export async function main(argv: readonly string[], io: Io): Promise<number> {
  let code = 0;
  const cmd = program(io, (c) => (code = c));
  try {
    await cmd.parseAsync(argv as string[], { from: 'user' });
    return code;
  } catch (e) {
    if (e instanceof CommanderError) return e.exitCode === 0 ? 0 : 2;
    if (e instanceof UsageError || e instanceof IgnoreFileError) {
      io.stderr(`risk-scan: ${e.message}\n`);
      return 2;
    }
    const err = e as NodeJS.ErrnoException;
    io.stderr(`risk-scan: ${err.code ? `${err.code} ` : ''}${err.message}\n`);
    return 2;
  }
}
