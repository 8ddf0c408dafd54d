/**
 * The enrichment benchmark's workload (enrichment.ts): the real manifests of the folder BENCH_SAMPLES names and
 * per-asset, per-version variations of them that keep each format valid.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { AssetType } from '@risk/enrichment';

export const SAMPLES =
  process.env.BENCH_SAMPLES ?? path.resolve(__dirname, '..', '..', '..', '..', 'shared', 'samples', 'manifests');

export interface Sample {
  file: string;
  asset_type: AssetType;
  raw: string;
}

export function loadSamples(): Sample[] {
  const files = fs.readdirSync(SAMPLES).filter((f) => /^\d\d-/.test(f));
  if (files.length === 0) throw new Error(`no sample manifests in ${SAMPLES} (set BENCH_SAMPLES)`);
  return files.map((file) => ({
    file,
    asset_type: file.includes('mcp') ? 'mcp_server' : 'model',
    raw: fs.readFileSync(path.join(SAMPLES, file), 'utf8'),
  }));
}

/** Asset i, content version v: a valid variation of one real sample. */
export function variant(samples: Sample[], i: number, v: number) {
  const s = samples[i % samples.length]!;
  const version = `${1 + (i % 3)}.${i % 10}.${v}`;
  const base = s.file.replace(/^\d\d-/, '').replace(/\.(json|toml|md|txt)$/, '');
  let raw: string;
  if (s.file.endsWith('.json')) {
    const doc = JSON.parse(s.raw) as Record<string, unknown>;
    if (typeof doc.name === 'string') doc.name = `${doc.name}-${i}`;
    if (typeof doc.version === 'string') doc.version = version;
    else doc.bench_revision = v; // config.json, .mcp.json, weight index: an extra key, still valid
    raw = JSON.stringify(doc, null, 2);
  } else if (s.file.endsWith('.toml')) {
    raw = s.raw
      .replace(/^name = "([^"]+)"/m, `name = "$1-${i}"`)
      .replace(/^version = "[^"]*"/m, `version = "${version}"`);
  } else {
    raw = `${s.raw.trimEnd()}\n\nRevision ${v} of bench asset ${i}.\n`;
  }
  return {
    fingerprint: `bench:${i}`,
    asset_type: s.asset_type,
    org_id: 'org_bench',
    observed_at: Math.floor(Date.now() / 1000) - 60,
    name: `bench-org/${base}-${i}`,
    version,
    raw_manifest: raw,
    metadata: {
      collector: 'bench',
      files:
        s.asset_type === 'model'
          ? v % 2
            ? ['config.json', 'model.safetensors']
            : ['config.json', 'pytorch_model.bin']
          : [],
    },
  };
}
