/**
 * ReDoS gate (`pnpm check:redos`, run by .ci/run before the tests; docs/security.md "Linear-time parsing and caps").
 *
 * Collects every regular expression in the sources that handle tenant content — regex literals and
 * `new RegExp(<string literal>)` found with the TypeScript compiler API — and runs the `recheck` analyser on each.
 * A pattern recheck calls `vulnerable` (super-linear backtracking) fails the run, and so does one it cannot decide
 * (`unknown`) and a RegExp built from a non-literal source, unless ALLOW below names it with a reason.
 *
 * recheck's native binary (optional dependency `recheck-linux-x64`, shipped inside the npm package, no install script)
 * runs offline; elsewhere it falls back to its Java or pure-JS backend (slower).
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

export interface FoundPattern {
  file: string; // relative to the repository root
  line: number;
  source: string | null; // null: built at run time from a non-literal
  flags: string;
}

/** Roots scanned: every package's and service's runtime source (tests, benches and generated code are not input paths). */
const ROOTS = ['packages', 'services'];
const SKIP_DIRS = new Set(['node_modules', 'generated', 'test', 'bench', 'dist', 'coverage', 'scripts']);

/**
 * Patterns allowed although recheck flags them (or cannot decide): `/source/flags` (or `dynamic:<file>` for a RegExp
 * built at run time), optionally the one file, and why it is safe — applied only to our own constants, or measured
 * linear in V8 at 1 MiB by test/redos.test.ts where recheck's fuzzer cannot conclude.
 */
const ALLOW: ReadonlyArray<{ file?: string; pattern: string; reason: string }> = [
  {
    pattern: 'dynamic:packages/artifacts/src/formats/jinja-template.ts',
    reason:
      'INSTRUCTION_PHRASES are compiled from data/gguf-chat-template-patterns.json, whose patterns this check analyses ' +
      'one by one (dataFilePatterns below)',
  },
  {
    pattern: 'dynamic:packages/artifacts/src/formats/metadata-code.ts',
    reason:
      'CODE_PATTERNS are compiled from data/safetensors-format.json, whose patterns this check analyses one by one ' +
      '(dataFilePatterns below)',
  },
  {
    pattern: 'dynamic:packages/redaction/src/catalogue.ts',
    reason:
      'SECRET_FORMATS and JWT_FORMAT are built from data/secret-formats.json, whose patterns this check analyses one ' +
      'by one (catalogueFormats below); PREFIX_SCAN and MAYBE_SECRET are alternations of regex-escaped constant ' +
      'literals (the catalogue prefixes, a few keywords): one pass, linear',
  },
  {
    file: 'packages/enrichment/src/rules/signals/tools.ts',
    pattern:
      '/(?:before|after|instead of|when) (?:using|calling|invoking) (?:the |any )?[`\'"]?[\\w-]+[`\'"]? tool|(?:all|every) (?:other )?tools? (?:must|should)|side ?note/i',
    reason:
      'each start is a keyword phrase and its only open repeat, [\\w-]+, stops at the next blank: linear in V8 ' +
      "(1 MiB of repeated phrases in test/redos.test.ts); recheck's fuzzer sometimes times out on it",
  },
  {
    file: 'packages/enrichment/src/parse/card.ts',
    pattern:
      '/\\b(fine-?tuned[ \\t]{1,3}(?:from|on|version[ \\t]{1,3}of)|distilled[ \\t]{1,3}from|quanti[sz]ed[ \\t]{1,3}(?:version[ \\t]{1,3}of|from)|based[ \\t]{1,3}on)[ \\t]{1,3}[[`*]{0,2}(?:https:\\/\\/huggingface\\.co\\/)?([A-Za-z0-9][\\w.-]{0,95}\\/[A-Za-z0-9][\\w.-]{0,95})/i',
    reason:
      'PROSE_LINEAGE: every repeat is bounded ({1,3}, {0,2}, {0,95}), so each start position costs at most a few ' +
      "hundred steps: linear; recheck's fuzzer reports a polynomial on short pumps; its attack string at 1 MiB in " +
      'test/redos.test.ts stays under the bound',
  },
  {
    file: 'packages/enrichment/src/rules/signals/publisher.ts',
    pattern:
      '/(?:^|\\n)[ \\t*_-]{0,6}(?:model[ \\t]{1,3})?(?:developers?|authors?|developed[ \\t]by|organi[sz]ation[ \\t]developing[ \\t]the[ \\t]model)[ \\t*_:]{0,8}\\n?[ \\t]{0,4}([^\\n]{1,80})/gi',
    reason:
      'AUTHOR_LINE: every repeat is bounded ({0,6}, {1,3}, {0,8}, {0,4}, {1,80}) and a keyword is required after ' +
      "at most 6 characters, so each start position costs a bounded number of steps: linear; recheck's fuzzer " +
      'reports a polynomial; its attack string at 1 MiB in test/redos.test.ts stays under the bound',
  },
];

const repoRoot = path.resolve(__dirname, '../../..');

function walk(dir: string, out: string[]): void {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) {
      if (!SKIP_DIRS.has(name)) walk(full, out);
    } else if (name.endsWith('.ts') && !name.endsWith('.test.ts') && !name.endsWith('.d.ts')) out.push(full);
  }
}

export function sourceFiles(): string[] {
  const files: string[] = [];
  for (const root of ROOTS) {
    for (const pkg of readdirSync(path.join(repoRoot, root))) {
      const src = path.join(repoRoot, root, pkg, 'src');
      try {
        if (statSync(src).isDirectory()) walk(src, files);
      } catch {
        // a package without src/
      }
    }
  }
  return files.sort();
}

/** Regex literals and RegExp constructions in one file. */
export function patternsIn(file: string): FoundPattern[] {
  const text = readFileSync(file, 'utf8');
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const rel = path.relative(repoRoot, file);
  const out: FoundPattern[] = [];
  const lineOf = (n: ts.Node): number => sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1;
  const literal = (n: ts.Node | undefined): string | null =>
    n && (ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n)) ? n.text : null;
  const visit = (n: ts.Node): void => {
    if (n.kind === ts.SyntaxKind.RegularExpressionLiteral) {
      const t = n.getText(sf);
      const end = t.lastIndexOf('/');
      out.push({ file: rel, line: lineOf(n), source: t.slice(1, end), flags: t.slice(end + 1) });
    } else if (
      (ts.isNewExpression(n) || ts.isCallExpression(n)) &&
      ts.isIdentifier(n.expression) &&
      n.expression.text === 'RegExp'
    ) {
      const [srcArg, flagsArg] = n.arguments ?? [];
      const source = literal(srcArg);
      const flags = flagsArg ? literal(flagsArg) : '';
      out.push({
        file: rel,
        line: lineOf(n),
        source: source !== null && flags !== null ? source : null,
        flags: flags ?? '',
      });
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out;
}

/**
 * The secret-token catalogue's patterns (packages/redaction/src/data/secret-formats.json), compiled at load time by
 * @risk/redaction's catalogue.ts: analysed like literals, each named by its kind.
 */
function catalogueFormats(): FoundPattern[] {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the compiled catalogue, as the engine uses it
  const { SECRET_FORMATS, JWT_FORMAT } = require('@risk/redaction') as typeof import('@risk/redaction');
  return [...SECRET_FORMATS, JWT_FORMAT].map((f, i) => ({
    file: `packages/redaction/src/data/secret-formats.json#${f.kind}`,
    line: i + 1,
    source: f.pattern.source,
    flags: f.pattern.flags,
  }));
}

/**
 * Patterns that the artifact analyser compiles at load time from its data files (packages/artifacts/data): analysed
 * like literals, each named by its data file and index.
 */
function dataFilePatterns(): FoundPattern[] {
  /* eslint-disable @typescript-eslint/no-require-imports -- the compiled patterns, as the analyser uses them */
  const { INSTRUCTION_PHRASES } =
    require('@risk/artifacts/src/formats/jinja-template') as typeof import('@risk/artifacts/src/formats/jinja-template');
  const { CODE_PATTERNS } =
    require('@risk/artifacts/src/formats/metadata-code') as typeof import('@risk/artifacts/src/formats/metadata-code');
  /* eslint-enable @typescript-eslint/no-require-imports */
  const named = (file: string, patterns: readonly RegExp[]): FoundPattern[] =>
    patterns.map((pattern, i) => ({ file: `${file}#${i}`, line: i + 1, source: pattern.source, flags: pattern.flags }));
  return [
    ...named('packages/artifacts/data/gguf-chat-template-patterns.json', INSTRUCTION_PHRASES),
    ...named(
      'packages/artifacts/data/safetensors-format.json',
      CODE_PATTERNS.map((p) => p.pattern),
    ),
  ];
}

function allowed(p: FoundPattern): { reason: string } | undefined {
  return ALLOW.find(
    (a) =>
      (a.file === undefined || a.file === p.file) &&
      (p.source === null ? a.pattern === `dynamic:${p.file}` : a.pattern === `/${p.source}/${p.flags}`),
  );
}

export interface Verdict {
  pattern: FoundPattern;
  status: 'safe' | 'vulnerable' | 'unknown' | 'dynamic';
  detail: string;
  attack?: { pumps: Array<{ prefix: string; pump: string; bias: number }>; suffix: string; pattern: string };
}

/** recheck's verdict on every pattern of the scanned sources. */
export async function analyse(files = sourceFiles()): Promise<Verdict[]> {
  const nativeBin = (() => {
    try {
      // an optional dependency of recheck, so resolved from recheck's own folder (pnpm does not hoist it)
      const recheckDir = path.dirname(require.resolve('recheck/package.json'));
      return require.resolve(`recheck-${process.platform}-${process.arch}/package.json`, { paths: [recheckDir] });
    } catch {
      return null;
    }
  })();
  // the native agent starts in milliseconds; `auto` would try Java first (and the pure-JS build is far slower)
  if (!process.env.RECHECK_BACKEND && nativeBin) process.env.RECHECK_BACKEND = 'native';
  console.log(`check:redos: recheck backend ${process.env.RECHECK_BACKEND ?? 'auto'}`);
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded after RECHECK_BACKEND is set
  const { check } = require('recheck') as typeof import('recheck');
  const found = [...files.flatMap(patternsIn), ...catalogueFormats(), ...dataFilePatterns()];
  const distinct = new Map<string, { source: string; flags: string }>();
  for (const p of found)
    if (p.source !== null && !allowed(p)) distinct.set(`/${p.source}/${p.flags}`, { source: p.source, flags: p.flags });
  // two at a time (the timeout runs from the request, so a queue inside the agent would eat it); a fixed seed so the
  // fuzzing checker (used for bounded repeats such as {36}) gives the same answer on every run
  const diagnostics = new Map<string, import('recheck').Diagnostics>();
  const queue = [...distinct.entries()];
  const worker = async (): Promise<void> => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      const [key, { source, flags }] = next;
      diagnostics.set(key, await check(source, flags, { timeout: 10_000, randomSeed: 42 }));
    }
  };
  await Promise.all([worker(), worker()]);
  // a timeout says the machine was busy, not that the pattern is unsafe: each one is checked again alone with a
  // longer budget, so a loaded machine gives the same answer as an idle one (a slow pattern still times out)
  for (const [key, { source, flags }] of distinct) {
    const d = diagnostics.get(key);
    if (d?.status === 'unknown' && d.error.kind === 'timeout')
      diagnostics.set(key, await check(source, flags, { timeout: 60_000, randomSeed: 42 }));
  }
  const verdicts: Verdict[] = [];
  for (const p of found) {
    if (p.source === null) {
      verdicts.push({ pattern: p, status: 'dynamic', detail: 'RegExp built from a non-literal: cannot be analysed' });
      continue;
    }
    const d = diagnostics.get(`/${p.source}/${p.flags}`);
    if (!d) {
      verdicts.push({ pattern: p, status: 'unknown', detail: 'not analysed (allow-listed)' });
      continue;
    }
    if (d.status === 'vulnerable')
      verdicts.push({
        pattern: p,
        status: 'vulnerable',
        detail: `${d.complexity.summary}; attack ${d.attack.pattern}`,
        attack: { pumps: d.attack.pumps, suffix: d.attack.suffix, pattern: d.attack.pattern },
      });
    else if (d.status === 'unknown')
      verdicts.push({ pattern: p, status: 'unknown', detail: `unknown (${d.error.kind})` });
    else verdicts.push({ pattern: p, status: 'safe', detail: d.complexity.summary });
  }
  return verdicts;
}

async function main(): Promise<void> {
  const started = Date.now();
  const verdicts = await analyse();
  const failures: string[] = [];
  const allowedHits: string[] = [];
  for (const v of verdicts) {
    if (v.status === 'safe') continue;
    const p = v.pattern;
    const msg = `${p.file}:${p.line} ${p.source === null ? '' : `/${p.source}/${p.flags}: `}${v.detail}`;
    const a = allowed(p);
    if (a) allowedHits.push(`${msg} — allowed: ${a.reason}`);
    else failures.push(msg);
  }
  const jsonAt = process.argv.indexOf('--json');
  const jsonFile = jsonAt > 0 ? process.argv[jsonAt + 1] : undefined;
  if (jsonFile)
    writeFileSync(
      jsonFile,
      JSON.stringify(
        verdicts.filter((v) => v.status !== 'safe'),
        null,
        2,
      ) + '\n',
    );
  for (const a of allowedHits) console.log(`allowed  ${a}`);
  for (const f of failures) console.error(`REDOS    ${f}`);
  const distinct = new Set(verdicts.map((v) => `/${v.pattern.source}/${v.pattern.flags}`)).size;
  console.log(
    `check:redos: ${verdicts.length} patterns (${distinct} distinct) in ${new Set(verdicts.map((v) => v.pattern.file)).size} files; ` +
      `${verdicts.filter((v) => v.status === 'safe').length} safe, ${allowedHits.length} allowed, ${failures.length} failing ` +
      `(${((Date.now() - started) / 1000).toFixed(1)} s)`,
  );
  process.exit(failures.length ? 1 : 0);
}

if (require.main === module)
  main().catch((e: unknown) => {
    console.error(e);
    process.exit(2);
  });
