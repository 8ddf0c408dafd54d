// The labelled corpus of real manifests (packages/enrichment/corpus/: index.yaml and batches/*.yaml), as the scale
// seeder draws its signals from it (docs/performance.md "Seeding a large database"). Only what a signal needs is read;
// the expectations stay with the corpus's own scoreboard.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ASSET_TYPES, type AssetType } from '@risk/enrichment';
import { parse } from 'yaml';

const CORPUS_DIR = join(__dirname, '..', '..', '..', 'packages', 'enrichment', 'corpus');

export interface CorpusManifest {
  id: string;
  asset_type: AssetType;
  name: string;
  /** the repository the manifest was taken from (owner/name) */
  repo: string;
  manifest: string;
}

interface RawEntry {
  id: string;
  file: string;
  asset_type: string;
  name: string;
  source?: { repo?: string };
}

const isAssetType = (t: string): t is AssetType => (ASSET_TYPES as readonly string[]).includes(t);

/** Every corpus entry with its manifest's text, in index order then batch order. */
export function loadCorpusManifests(dir = CORPUS_DIR): CorpusManifest[] {
  const files = [
    join(dir, 'index.yaml'),
    ...readdirSync(join(dir, 'batches'))
      .filter((f) => f.endsWith('.yaml'))
      .sort()
      .map((f) => join(dir, 'batches', f)),
  ];
  return files.flatMap((file) =>
    ((parse(readFileSync(file, 'utf8')) as { entries?: RawEntry[] }).entries ?? []).map((e) => {
      if (!isAssetType(e.asset_type)) throw new Error(`corpus entry ${e.id}: unknown asset_type ${e.asset_type}`);
      return {
        id: e.id,
        asset_type: e.asset_type,
        name: e.name,
        repo: e.source?.repo ?? 'unknown/unknown',
        manifest: readFileSync(join(dir, e.file), 'utf8'),
      };
    }),
  );
}
