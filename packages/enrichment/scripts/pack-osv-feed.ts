// Packs a directory of OSV records into a zip (an OSV `all.zip`-style archive) for shipping in the repository
// (docs/advisories.md "Feeds"): tsx scripts/pack-osv-feed.ts <dir> <out.zip>. YAML records are stored as OSV JSON
// (the same data; osv.dev's all.zip is JSON too): JSON parses ~100x faster than YAML, and the worker loads this
// archive on its first start (docs/advisories.md "Performance").
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { strToU8, zipSync, type Zippable } from 'fflate';
import { parse as parseYaml } from 'yaml';

const [dir, out] = process.argv.slice(2);
if (!dir || !out) throw new Error('usage: pack-osv-feed.ts <dir> <out.zip>');
const files: Zippable = {};
const walk = (d: string): void => {
  for (const e of readdirSync(d, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const p = join(d, e.name);
    if (e.isDirectory()) walk(p);
    else if (/\.json$/.test(e.name)) files[relative(dir, p)] = readFileSync(p);
    else if (/\.ya?ml$/.test(e.name))
      files[relative(dir, p).replace(/\.ya?ml$/, '.json')] = strToU8(JSON.stringify(parseYaml(readFileSync(p, 'utf8'))));
  }
};
walk(dir);
// a fixed mtime keeps the archive byte-identical across runs
writeFileSync(out, zipSync(files, { level: 9, mtime: new Date('2024-10-10T00:00:00Z') }));
process.stdout.write(`${Object.keys(files).length} records → ${out}\n`);
