/* global console */
// Points every workspace package's "main" (or subpath "exports") at its tsc output (dist/), in the image's build stage only
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
    // a package with subpath exports (@risk/common, docs/architecture.md) maps each ./src/X.ts to ./dist/X.js
    const built = (target) => {
      const js = target.replace(/^\.\/src\//, './dist/').replace(/\.ts$/, '.js');
      if (!existsSync(path.join(root, group, name, js)))
        throw new Error(`${group}/${name}: ${js} missing; run pnpm build first`);
      return js;
    };
    if (pkg.exports && typeof pkg.exports === 'object') {
      let mapped = 0;
      for (const [subpath, target] of Object.entries(pkg.exports))
        if (typeof target === 'string' && target.startsWith('./src/') && target.endsWith('.ts')) {
          pkg.exports[subpath] = built(target);
          mapped++;
        }
      if (mapped === 0) continue;
    } else {
      if (pkg.main !== 'src/index.ts') continue;
      pkg.main = built('./src/index.ts').slice(2);
    }
    delete pkg.types;
    writeFileSync(file, `${JSON.stringify(pkg, null, 2)}\n`);
    changed++;
  }
}
console.log(`use-built-entrypoints: ${changed} packages now load their dist/ output`);
