// Converts MITRE ATLAS (mitre-atlas/atlas-data `dist/ATLAS.yaml`, Apache-2.0) into the compact src/data/atlas.json the
// engine ships: every tactic and every technique and sub-technique with what a finding needs (id, name, tactics, URL)
// and the release version (docs/enrichment.md "Knowledge shipped in the repository").
// Usage: pnpm --filter @risk/enrichment build:atlas <path/to/ATLAS.yaml> <upstream commit>
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

interface RawTactic {
  id: string;
  name: string;
}
interface RawTechnique {
  id: string;
  name: string;
  tactics?: string[];
  'subtechnique-of'?: string;
}
interface RawAtlas {
  id: string;
  version: string;
  matrices: Array<{ tactics: RawTactic[]; techniques: RawTechnique[] }>;
}

export interface AtlasData {
  _source: string;
  version: string;
  tactics: Array<{ id: string; name: string; url: string }>;
  techniques: Array<{ id: string; name: string; tactics: string[]; subtechnique_of?: string; url: string }>;
}

export const ATLAS_JSON = join(__dirname, '..', 'src', 'data', 'atlas.json');

export function convertAtlas(yamlText: string, commit: string): AtlasData {
  const raw = parse(yamlText, { maxAliasCount: -1 }) as RawAtlas;
  if (raw.id !== 'ATLAS' || !raw.version || !Array.isArray(raw.matrices)) throw new Error('not an ATLAS.yaml');
  const tactics = new Map<string, string>();
  const techniques = new Map<string, RawTechnique>();
  for (const m of raw.matrices) {
    for (const t of m.tactics) tactics.set(t.id, t.name);
    for (const t of m.techniques) techniques.set(t.id, t);
  }
  // sub-techniques carry no tactics of their own: they inherit their parent's (the ATLAS website lists them so)
  const tacticsOf = (t: RawTechnique): string[] => {
    const parent = t['subtechnique-of'];
    return t.tactics ?? (parent ? (techniques.get(parent)?.tactics ?? []) : []);
  };
  const out: AtlasData = {
    _source: `MITRE ATLAS ${raw.version} from mitre-atlas/atlas-data dist/ATLAS.yaml @${commit}, Apache-2.0, Copyright MITRE; converted by scripts/build-atlas.ts (full set, descriptions dropped)`,
    version: raw.version,
    tactics: [...tactics].map(([id, name]) => ({ id, name, url: `https://atlas.mitre.org/tactics/${id}` })),
    techniques: [...techniques.values()]
      .map((t) => ({
        id: t.id,
        name: t.name,
        tactics: tacticsOf(t),
        ...(t['subtechnique-of'] ? { subtechnique_of: t['subtechnique-of'] } : {}),
        url: `https://atlas.mitre.org/techniques/${t.id}`,
      }))
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)),
  };
  for (const t of out.techniques)
    for (const ta of t.tactics) if (!tactics.has(ta)) throw new Error(`${t.id}: unknown tactic ${ta}`);
  return out;
}

if (require.main === module) {
  const [file, commit = 'unknown'] = process.argv.slice(2);
  if (!file) throw new Error('usage: build-atlas <ATLAS.yaml> [commit]');
  const data = convertAtlas(readFileSync(file, 'utf8'), commit);
  writeFileSync(ATLAS_JSON, JSON.stringify(data, null, 1) + '\n');
  console.log(`${data.techniques.length} techniques, ${data.tactics.length} tactics (ATLAS ${data.version})`);
}
