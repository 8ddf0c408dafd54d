// Builds src/data/ai-packages.json, the well-known AI libraries and SDKs with their role and risk-relevant
// capabilities, from the listing in data/ai-packages/ (docs/enrichment.md "Data files"):
//   tsx scripts/build-ai-packages.ts <PyPA advisory-database checkout> > src/data/ai-packages.json
// Each entry names where it was read (`source`). Capabilities come only from a sentence of an advisory about the
// package (PyPA database or the curated feed) matched by the keyword rules below, or from a README sentence quoted in
// data/ai-packages/readme-sentences.tsv (or the manifest line a `# source` names); every capability records its sentence (`capabilities_from`), never a guess.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import feed from '../src/data/advisories.osv.json';

const DIR = join(__dirname, '..', 'data', 'ai-packages');
const PYPA = process.argv[2];
if (!PYPA || !existsSync(join(PYPA, 'vulns'))) throw new Error('usage: build-ai-packages.ts <advisory-database dir>');

/** Advisory sentence → capability, in the engine's vocabulary (src/rules/signals/ai-packages.ts). */
const RULES: ReadonlyArray<readonly [string, RegExp]> = [
  [
    'loads_pickles',
    /\bunpickl|\bunserializ|\bpickle[^.]{0,60}\b(?:deserializ|load)|\b(?:deserializ|load)[^.]{0,60}\bpickle|\btorch\.load\b|\bjoblib\.load\b/i,
  ],
  ['trust_remote_code', /\btrust_remote_code\b/i],
  [
    'executes_generated_code',
    /\b(?:PALChain|PythonREPL|PythonAstREPLTool|LLMMathChain|python_repl)\b|prompt injection[^.]{0,120}\b(?:code|commands?)\b|\bexec(?:ute[sd]?)? (?:the )?(?:generated|llm|model)/i,
  ],
  ['serves_ui_publicly', /\bpublicly shares?\b|\bshare=True\b|\bshare links?\b|\bgradio link\b/i],
];

interface Source {
  kind: 'pypa' | 'curated' | 'repository';
  repo: string | null;
  path: string;
  commit: string | null;
}

function rows(file: string): string[][] {
  return readFileSync(join(DIR, file), 'utf8')
    .split('\n')
    .filter((l) => l.trim() && !l.startsWith('#'))
    .map((l) => l.split('\t'));
}

const sources = new Map<string, Source>();
for (const l of readFileSync(join(DIR, 'packages.tsv'), 'utf8').split('\n')) {
  const f = l.split('\t');
  if (f[0] !== '# source' || f.length !== 5) continue;
  const [key, repo, path, commit] = f.slice(1) as [string, string, string, string];
  sources.set(key, {
    kind: key === 'pypa' || key === 'curated' ? key : 'repository',
    repo: repo === '-' ? null : repo,
    path,
    commit: commit === '-' ? null : commit,
  });
}

/** A PyPI name in its normal form (PEP 503); npm and Go names as published. */
const normalise = (eco: string, n: string): string =>
  eco === 'pypi' ? n.toLowerCase().replace(/[-_.]+/g, '-') : eco === 'npm' ? n.toLowerCase() : n;

interface Sentence {
  id: string;
  text: string;
}
const sentences = (id: string, text: string): Sentence[] =>
  text
    .replace(/\s+/g, ' ')
    .split(/(?<=[.!?])\s+(?=[A-Z`*])/)
    .map((t) => ({ id, text: t.trim() }));

/** PyPA records for a package: their sentences and the repository the records name. */
function pypa(name: string): { sentences: Sentence[]; repository: string | null; files: number } {
  const dir = join(PYPA!, 'vulns', name);
  if (!existsSync(dir)) throw new Error(`${name}: not in the PyPA database`);
  const out: Sentence[] = [];
  let repository: string | null = null;
  const files = readdirSync(dir).filter((f) => f.endsWith('.yaml'));
  for (const f of files) {
    const r = parse(readFileSync(join(dir, f), 'utf8')) as {
      id: string;
      summary?: string;
      details?: string;
      withdrawn?: string;
      affected?: Array<{ ranges?: Array<{ type: string; repo?: string }> }>;
    };
    if (r.withdrawn) continue;
    out.push(...sentences(r.id, `${r.summary ?? ''} ${r.details ?? ''}`));
    repository ??= r.affected?.flatMap((a) => a.ranges ?? []).find((g) => g.type === 'GIT')?.repo ?? null;
  }
  return { sentences: out, repository, files: files.length };
}

type Rec = {
  id: string;
  summary?: string;
  details?: string;
  affected: Array<{ package: { ecosystem: string; name: string } }>;
};
/** The curated feed's records for a package (its sentences; none when the feed has no record of it). */
function curated(eco: string, name: string): Sentence[] {
  const recs = (feed.records as unknown as Rec[]).filter((r) =>
    r.affected.some((a) => a.package.ecosystem.toLowerCase() === eco && normalise(eco, a.package.name) === name),
  );
  return recs.flatMap((r) => sentences(r.id, `${r.summary ?? ''} ${r.details ?? ''}`));
}

const readmeSentences = rows('readme-sentences.tsv');

const seen = new Set<string>();
const packages = rows('packages.tsv').map(([ecosystem, rawName, publisher, role, key]) => {
  if (!ecosystem || !rawName || !publisher || !role || !key) throw new Error(`bad line: ${rawName}`);
  const source = sources.get(key);
  if (!source) throw new Error(`${rawName}: unknown source ${key}`);
  const name = normalise(ecosystem, rawName);
  if (seen.has(`${ecosystem}:${name}`)) throw new Error(`duplicate ${ecosystem}:${name}`);
  seen.add(`${ecosystem}:${name}`);
  let read: Sentence[] = [];
  let repository = source.kind === 'repository' ? `https://github.com/${source.repo}` : null;
  let entrySource: Source = source;
  if (source.kind === 'pypa') {
    const p = pypa(name);
    read = p.sentences;
    repository = p.repository;
    entrySource = { ...source, path: `vulns/${name}/` };
  } else if (source.kind === 'curated' && !curated(ecosystem, name).length)
    throw new Error(`${name}: not in the curated feed`);
  // the curated feed's records about a package speak for it whatever the entry's source
  read = [...read, ...curated(ecosystem, name)];
  const capabilities_from: Array<{ capability: string; advisory?: string; sentence: string }> = [];
  for (const [cap, re] of RULES) {
    const hit = read.find((s) => re.test(s.text));
    if (hit) capabilities_from.push({ capability: cap, advisory: hit.id, sentence: hit.text.slice(0, 400) });
  }
  for (const [k, cap, sentence] of readmeSentences)
    if (k === key && cap && sentence && !capabilities_from.some((c) => c.capability === cap))
      capabilities_from.push({ capability: cap, sentence });
  return {
    ecosystem,
    name,
    publisher,
    role,
    repository: repository?.replace(/\.git$/, '') ?? null,
    capabilities: capabilities_from.map((c) => c.capability),
    capabilities_from,
    source: entrySource,
  };
});

// one package a line: compact for the engine to load, still diffable line by line
process.stdout.write(
  `{"_source":${JSON.stringify(
    'Generated by scripts/build-ai-packages.ts from data/ai-packages/ (each entry names its own `source`: the PyPA advisory database, the curated feed or the package repository read at a commit). Never edit by hand. Capabilities only from a quoted advisory or README sentence (`capabilities_from`). docs/enrichment.md "Data files".',
  )},\n"packages":[\n${packages.map((s) => JSON.stringify(s)).join(',\n')}\n]}\n`,
);
