/* global console */
// Points every workspace package's "main"/"types" at its tsc output (dist/), in the image's build stage only
// (infra/docker/Dockerfile): in the repository the packages are consumed as TypeScript source (tsx, jest),
// while the production image runs the compiled JavaScript with no TypeScript loader at all.
import { readFileSync, readdirSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
let changed = 0;
for (const group of ['packages', 'services']) {
  for (const name of readdirSync(path.join(root, group))) {
    const file = path.join(root, group, name, 'package.json');
    if (!existsSync(file)) continue;
    const pkg = JSON.parse(readFileSync(file, 'utf8'));
    if (pkg.main !== 'src/index.ts') continue;
    if (!existsSync(path.join(root, group, name, 'dist', 'index.js'))) {
      throw new Error(`${group}/${name}: dist/index.js missing; run pnpm build first`);
    }
    pkg.main = 'dist/index.js';
    delete pkg.types;
    writeFileSync(file, `${JSON.stringify(pkg, null, 2)}\n`);
    changed++;
  }
}
console.log(`use-built-entrypoints: ${changed} packages now load dist/index.js`);
