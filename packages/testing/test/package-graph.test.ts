// Which workspace package may import which (docs/architecture.md "Packages and who imports whom"), read from
// every package.json and every import statement in the tree, tests, benches and scripts included:
// - the worker never imports @risk/admin-api, and neither API imports the other's code nor the worker's, so
//   the firewall writes both need live in @risk/firewalls and nobody reaches into a service for them;
// - a library (contracts, enrichment, db, common, firewalls, testing) imports no service;
// - every @risk/* import is declared (a dependency for src/, a dependency or devDependency elsewhere);
// - the run-time dependencies have no cycle, and the page's diagram lists exactly them.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../../..');
const SKIP_DIRS = new Set(['node_modules', 'generated', 'dist', 'coverage']);
const SOURCE = /\.(ts|mts|cts|js|mjs|cjs)$/;
// from, import(), require() and bare import of an @risk/<name> specifier (a subpath names its package)
const IMPORT = /(?:\bfrom\s+|\bimport\s*\(\s*|\brequire\s*\(\s*|\bimport\s+)['"](@risk\/[a-z-]+)(?:\/[^'"]*)?['"]/g;

interface Workspace {
  name: string;
  short: string;
  dir: string;
  dependencies: Set<string>;
  devDependencies: Set<string>;
}

function workspaces(): Workspace[] {
  return ['packages', 'services'].flatMap((group) =>
    readdirSync(path.join(ROOT, group)).flatMap((entry) => {
      const dir = path.join(ROOT, group, entry);
      let pkg: { name: string; dependencies?: object; devDependencies?: object };
      try {
        pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
      } catch {
        return [];
      }
      const ours = (deps?: object) => new Set(Object.keys(deps ?? {}).filter((d) => d.startsWith('@risk/')));
      return [
        {
          name: pkg.name,
          short: pkg.name.replace('@risk/', ''),
          dir,
          dependencies: ours(pkg.dependencies),
          devDependencies: ours(pkg.devDependencies),
        },
      ];
    }),
  );
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    if (SKIP_DIRS.has(entry)) return [];
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return SOURCE.test(entry) ? [full] : [];
  });
}

interface Import {
  from: Workspace;
  file: string;
  target: string;
  /** a run-time source file: under src/, not a test */
  runtime: boolean;
}

const all = workspaces();
const imports: Import[] = all.flatMap((ws) =>
  sourceFiles(ws.dir).flatMap((file) => {
    const rel = path.relative(ws.dir, file);
    const runtime = rel.startsWith(`src${path.sep}`) && !/\.test\.ts$/.test(rel) && !rel.includes('simulators');
    return [...readFileSync(file, 'utf8').matchAll(IMPORT)]
      .map((m) => m[1]!)
      .filter((target) => target !== ws.name)
      .map((target) => ({ from: ws, file: path.relative(ROOT, file), target, runtime }));
  }),
);
const byName = new Map(all.map((ws) => [ws.name, ws]));
const SERVICES = new Set(['@risk/public-api', '@risk/admin-api', '@risk/worker']);
const LIBRARIES = new Set(['contracts', 'enrichment', 'db', 'common', 'firewalls', 'testing']);

describe('package imports', () => {
  it('finds the workspace packages and their imports', () => {
    expect(all.map((ws) => ws.short).sort()).toEqual(
      expect.arrayContaining(['admin-api', 'common', 'db', 'firewalls', 'public-api', 'worker']),
    );
    expect(imports.length).toBeGreaterThan(100);
  });

  it('@risk/admin-api is imported by no other package but the SDK (generated from its document) and the console browser tests (they start the whole stack)', () => {
    const offenders = imports
      .filter(
        (i) =>
          i.target === '@risk/admin-api' &&
          i.from.short !== 'sdk' &&
          !(i.from.short === 'console' && i.file.startsWith(path.join('packages', 'console', 'test') + path.sep)),
      )
      .map((i) => `${i.file} imports @risk/admin-api`);
    expect(offenders).toEqual([]);
  });

  it('the worker and the public API never import each other at run time, nor the admin API anywhere', () => {
    const offenders = imports
      .filter(
        (i) =>
          (i.from.short === 'public-api' && i.target === '@risk/worker') ||
          (i.from.short === 'worker' && i.target === '@risk/public-api' && i.runtime) ||
          (i.from.short === 'public-api' && i.target === '@risk/admin-api'),
      )
      .map((i) => `${i.file} imports ${i.target}`);
    expect(offenders).toEqual([]);
  });

  it('a library imports no service', () => {
    const offenders = imports
      .filter((i) => LIBRARIES.has(i.from.short) && SERVICES.has(i.target))
      .map((i) => `${i.file} imports ${i.target}`);
    expect(offenders).toEqual([]);
  });

  it('every @risk/* import is declared in the importing package.json (run-time code: in dependencies)', () => {
    const undeclared = imports
      .filter((i) =>
        i.runtime
          ? !i.from.dependencies.has(i.target)
          : !i.from.dependencies.has(i.target) && !i.from.devDependencies.has(i.target),
      )
      .map((i) => `${i.file} imports ${i.target}, not in ${i.runtime ? 'dependencies' : '(dev)Dependencies'}`);
    expect([...new Set(undeclared)]).toEqual([]);
  });

  it('every @risk/* dependency is imported somewhere in the package (the diagram shows real imports)', () => {
    const unused = all.flatMap((ws) =>
      [...ws.dependencies]
        .filter((dep) => !imports.some((i) => i.from === ws && i.target === dep))
        .map((dep) => `${ws.name} declares ${dep} but imports it nowhere`),
    );
    expect(unused).toEqual([]);
  });

  it('the run-time dependencies have no cycle', () => {
    const state = new Map<string, 'visiting' | 'done'>();
    const cycles: string[] = [];
    const visit = (name: string, trail: string[]) => {
      if (state.get(name) === 'done') return;
      if (state.get(name) === 'visiting') {
        cycles.push([...trail.slice(trail.indexOf(name)), name].join(' → '));
        return;
      }
      state.set(name, 'visiting');
      for (const dep of byName.get(name)?.dependencies ?? []) visit(dep, [...trail, name]);
      state.set(name, 'done');
    };
    for (const ws of all) visit(ws.name, []);
    expect(cycles).toEqual([]);
  });

  it("docs/architecture.md's diagram lists exactly the run-time dependencies", () => {
    const page = readFileSync(path.join(ROOT, 'docs/architecture.md'), 'utf8');
    const section = page.slice(page.indexOf('## Packages and who imports whom'));
    const diagram = section.slice(section.indexOf('```') + 3, section.indexOf('```', section.indexOf('```') + 3));
    const documented = new Map<string, string[]>();
    for (const line of diagram.split('\n')) {
      const m = /^([a-z-]+)\s+(?:──▶\s+([a-z, -]+?)(?:\s+\(|$)|\()/.exec(line.trim());
      if (m) documented.set(m[1]!, m[2] ? m[2].split(',').map((s) => s.trim()) : []);
    }
    const actual = new Map(
      all.map((ws) => [ws.short, [...ws.dependencies].map((d) => d.replace('@risk/', '')).sort()]),
    );
    expect(Object.fromEntries([...documented].map(([k, v]) => [k, [...v].sort()]))).toEqual(Object.fromEntries(actual));
  });
});
