// Which module may import which (docs/architecture.md "Packages and who imports whom" and "Layering rules").
// `pnpm lint:deps` runs it over packages/ and services/. LAYERS is the one list of the run-time edges between
// workspace packages; every rule below is derived from it, from the package.json files, or written out with
// its reason.
const fs = require('node:fs');
const path = require('node:path');

/**
 * The run-time imports each workspace package may make (its src/, tests excluded). Bottom first: a package
 * lists only packages above it in this list, so the graph has no cycle (checked below). `name:types` allows
 * type-only imports and nothing that runs.
 */
const LAYERS = {
  'time-budget': [],
  'thread-pool': [],
  redaction: [],
  contracts: [],
  artifacts: ['thread-pool'],
  sdk: [],
  enrichment: ['contracts', 'redaction'],
  scanner: ['artifacts', 'enrichment', 'redaction', 'sdk'],
  db: ['contracts'],
  common: ['contracts', 'db', 'redaction'],
  firewalls: ['common', 'contracts', 'db', 'thread-pool'],
  testing: ['common', 'contracts', 'db', 'time-budget'],
  'public-api': ['artifacts', 'common', 'contracts', 'db', 'enrichment', 'redaction'],
  'admin-api': ['common', 'contracts', 'db', 'firewalls'],
  worker: ['artifacts', 'common', 'contracts', 'db', 'enrichment', 'firewalls', 'redaction', 'thread-pool'],
  cli: ['common', 'contracts', 'db', 'firewalls', 'worker'],
  console: ['sdk'],
};

/** Cross-package imports a test makes by relative path, each with its reason. */
const TEST_EXCEPTIONS = [
  {
    from: '^services/public-api/test/',
    to: '^services/worker/src/jobs/webhook-delivery\\.ts$',
    // the webhook tests deliver what the API enqueued with the worker's own delivery function; a devDependency
    // on @risk/worker would make the workspace graph cyclic (the worker's tests use the public API)
  },
  {
    from: '^services/public-api/test/harness\\.ts$',
    to: '^services/worker/src/jobs/enrichment-events\\.ts$',
    // enrichLikeWorker writes with the worker's own decision of an enrichment's asset events (docs/data-access.md
    // "Stores"); the same reason as above keeps it a relative import
  },
];

const ROOT = __dirname;
const workspaces = ['packages', 'services'].flatMap((group) =>
  fs
    .readdirSync(path.join(ROOT, group))
    .filter((dir) => fs.existsSync(path.join(ROOT, group, dir, 'package.json')))
    .map((dir) => {
      const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, group, dir, 'package.json'), 'utf8'));
      const ours = (deps) =>
        Object.keys(deps ?? {})
          .filter((d) => d.startsWith('@risk/'))
          .map((d) => d.slice(6));
      return {
        dir: `${group}/${dir}`,
        short: pkg.name.slice(6),
        deps: ours(pkg.dependencies),
        devDeps: ours(pkg.devDependencies),
      };
    }),
);
const dirOf = new Map(workspaces.map((w) => [w.short, w.dir]));
const escapeRe = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const dirsPattern = (shorts) => `^(${shorts.map((s) => escapeRe(dirOf.get(s))).join('|')})/`;

// LAYERS must name every workspace, list only workspaces, allow every declared run-time dependency, and be acyclic
const problems = [];
for (const w of workspaces) {
  const allowed = LAYERS[w.short];
  if (!allowed) problems.push(`${w.short} is missing from LAYERS`);
  else
    for (const dep of w.deps)
      if (!allowed.some((a) => a.split(':')[0] === dep)) problems.push(`${w.short} depends on ${dep}, not in LAYERS`);
}
const order = Object.keys(LAYERS);
for (const [name, deps] of Object.entries(LAYERS))
  for (const dep of deps.map((d) => d.split(':')[0])) {
    if (!dirOf.has(dep)) problems.push(`LAYERS.${name} names ${dep}, no workspace`);
    if (order.indexOf(dep) >= order.indexOf(name)) problems.push(`LAYERS.${name} → ${dep} points up (a cycle)`);
  }
// docs/architecture.md's diagram ("Packages and who imports whom") draws exactly LAYERS
const page = fs.readFileSync(path.join(ROOT, 'docs/architecture.md'), 'utf8');
const section = page.slice(page.indexOf('## Packages and who imports whom'));
const diagram = section.slice(section.indexOf('```') + 3, section.indexOf('```', section.indexOf('```') + 3));
const drawn = {};
for (const line of diagram.split('\n')) {
  const m = /^([a-z-]+)\s+(?:──▶\s+([a-z, -]+?)(?:\s+\(|$)|\()/.exec(line.trim());
  if (m) drawn[m[1]] = m[2] ? m[2].split(',').map((d) => d.trim()) : [];
}
const names = (deps) =>
  deps
    .map((d) => d.split(':')[0])
    .sort()
    .join(', ');
for (const [name, deps] of Object.entries(LAYERS))
  if (!drawn[name] || names(drawn[name]) !== names(deps))
    problems.push(
      `docs/architecture.md draws ${name} ──▶ ${drawn[name] ? names(drawn[name]) : '(nothing)'}, LAYERS says ${names(deps)}`,
    );
for (const name of Object.keys(drawn))
  if (!LAYERS[name]) problems.push(`docs/architecture.md draws ${name}, not in LAYERS`);
if (problems.length) throw new Error(`.dependency-cruiser.cjs:\n  ${problems.join('\n  ')}`);

const RUNTIME_FILE = { pathNot: '\\.test\\.tsx?$|/simulators?/' };
const layerRules = workspaces.flatMap((w) => {
  const full = LAYERS[w.short].filter((d) => !d.endsWith(':types'));
  const typesOnly = LAYERS[w.short].filter((d) => d.endsWith(':types')).map((d) => d.split(':')[0]);
  const rules = [
    {
      name: `layer-${w.short}`,
      comment: `${w.short}'s run-time code imports only ${full.concat(typesOnly.map((t) => `${t} (types)`)).join(', ') || 'no package of ours'} (LAYERS)`,
      severity: 'error',
      from: { path: `^${escapeRe(w.dir)}/src/`, ...RUNTIME_FILE },
      to: { path: '^(packages|services)/', pathNot: dirsPattern([w.short, ...full, ...typesOnly]) },
    },
  ];
  if (typesOnly.length)
    rules.push({
      name: `layer-${w.short}-types-only`,
      comment: `${w.short} may import ${typesOnly.join(', ')} for types only: nothing of it runs in ${w.short}`,
      severity: 'error',
      from: { path: `^${escapeRe(w.dir)}/src/`, ...RUNTIME_FILE },
      to: { path: dirsPattern(typesOnly), preCompilationOnly: false },
    });
  rules.push({
    name: `declared-${w.short}`,
    comment: `${w.short} (tests, benches and scripts included) imports only the packages its package.json declares`,
    severity: 'error',
    from: { path: `^${escapeRe(w.dir)}/`, pathNot: TEST_EXCEPTIONS.map((e) => e.from) },
    to: { path: '^(packages|services)/', pathNot: dirsPattern([w.short, ...w.deps, ...w.devDeps]) },
  });
  return rules;
});

// the tools at the top (the operator CLI, the console, the SDK, the scanner) may start the services in their tests
const LIBRARIES = workspaces.filter(
  (w) => w.dir.startsWith('packages/') && !['cli', 'console', 'sdk', 'scanner'].includes(w.short),
);
// pnpm's store path starts with the package name: node_modules/.pnpm/express@5.3.0/node_modules/express/
const NODE_PKG = (names) => `node_modules/(\\.pnpm/)?(${names})[@/]`;

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'no run-time import cycle, in a package or across packages (imports of types only do not run)',
      severity: 'error',
      from: {},
      to: { circular: true, preCompilationOnly: false, viaOnly: { dependencyTypesNot: ['pre-compilation-only'] } },
    },
    ...layerRules,
    {
      name: 'libraries-import-no-service',
      comment: 'a library (tests included) imports no service: shared code lives in a package',
      severity: 'error',
      from: { path: dirsPattern(LIBRARIES.map((w) => w.short)) },
      to: { path: '^services/' },
    },
    {
      name: 'only-the-sdk-imports-admin-api',
      comment:
        'only the SDK (generated from its document) and the console browser tests (the whole stack) import the admin API',
      severity: 'error',
      from: { pathNot: '^(services/admin-api|packages/sdk|packages/console/test)/' },
      to: { path: '^services/admin-api/' },
    },
    {
      name: 'no-relative-import-into-another-package',
      comment: "import another workspace's code by its package name, not by a relative path into its src/",
      severity: 'error',
      from: { path: '^(packages|services)/([^/]+)/', pathNot: TEST_EXCEPTIONS.map((e) => e.from) },
      to: { path: '^(packages|services)/[^/]+/src/', pathNot: '^$1/$2/', dependencyTypes: ['local'] },
    },
    {
      name: 'common-http-stays-on-top',
      comment:
        "@risk/common's modules outside http/ do not import it (it loads express); pagination and server load no express",
      severity: 'error',
      from: { path: '^packages/common/src/', pathNot: '^packages/common/src/http/|\\.test\\.ts$' },
      to: { path: '^packages/common/src/http/', pathNot: '^packages/common/src/http/(pagination|server)\\.ts$' },
    },
    {
      name: 'no-http-in-the-worker',
      comment:
        'the worker and the libraries below the APIs load no express and no docs site: of @risk/common/http only the server helpers (@risk/common/server)',
      severity: 'error',
      from: {
        path: '^(services/worker|packages/(firewalls|db|enrichment|redaction|contracts|artifacts|thread-pool|time-budget))/src/',
      },
      to: { path: '^packages/common/src/http/', pathNot: '^packages/common/src/http/server\\.ts$' },
    },
    {
      name: 'express-and-markdown-only-in-http',
      comment:
        'express, markdown-it and swagger-ui run only in @risk/common/http, /docs-site and the APIs (the worker loads none: services/worker/test/loaded-modules.test.ts)',
      severity: 'error',
      from: {
        path: '^(packages|services)/',
        pathNot:
          '^(packages/common/src/http|services/(public-api|admin-api)|packages/(testing|console|sdk|cli))/|\\.test\\.tsx?$',
      },
      to: { path: NODE_PKG('express|markdown-it|swagger-ui-dist'), preCompilationOnly: false },
    },
    {
      name: 'no-unresolvable-workspace-import',
      comment: 'every @risk/* import resolves (a removed subpath or package fails here, not at run time)',
      severity: 'error',
      from: {},
      to: { path: '^@risk/', couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(packages|services)/[^/]+/(dist|coverage|src/generated)/' },
    // imports that vanish when TypeScript compiles (types only) are kept but marked pre-compilation-only, so the
    // rules above tell what runs from what only type-checks
    tsPreCompilationDeps: 'specify',
    tsConfig: { fileName: 'tsconfig.base.json' },
    // @risk/common's subpaths are package.json "exports"
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
      mainFields: ['main', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.cjs', '.mjs', '.json', '.d.ts'],
    },
    moduleSystems: ['cjs', 'es6'],
  },
};
