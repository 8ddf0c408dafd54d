// The two selections of `pnpm test` (CONTRIBUTING.md "Tests"), built from the same per-package jest configs:
// - unit: suites that need neither Postgres, Redis nor a child process (the fast gate, `pnpm test:unit`);
//   jest.unit-guard.js fails any of them that reaches for one;
// - integration: every other suite (the full gate, `pnpm test:integration`).
// Plain `pnpm test` (jest.config.js) still runs both. A new suite beside the code (src/**/*.test.ts) is a
// unit test unless it is listed in `integrationInSrc`; a suite under test/ is an integration test unless its
// path is listed in `unitInTest`.
const path = require('node:path');
const fs = require('node:fs');

/** Suites under a package's test/ folder that are unit tests (paths from the repository root, globs). */
const unitInTest = [
  'packages/enrichment/test/**/*.test.ts',
  'packages/redaction/test/**/*.test.ts',
  'packages/time-budget/test/**/*.test.ts',
  'services/admin-api/test/feed-cache.test.ts',
  'services/public-api/test/error-codes.test.ts',
];

/** Suites beside the code (src/) that are integration tests. */
const integrationInSrc = [
  'packages/common/src/http/rate-limiter.test.ts', // counts in a real Redis
  'packages/common/src/http/tls.test.ts', // openssl makes its certificates
  'packages/common/src/telemetry/tracing.test.ts', // runs a traced process
  'services/worker/src/analysis/pool.test.ts', // busy processes compete with the pool's thread
];

const root = __dirname;
const inSrc = ['packages/*/src/**/*.test.{ts,tsx}', 'services/*/src/**/*.test.ts'];

function packageConfigs() {
  const configs = [];
  for (const group of ['packages', 'services']) {
    for (const name of fs.readdirSync(path.join(root, group)).sort()) {
      const file = path.join(root, group, name, 'jest.config.js');
      if (fs.existsSync(file)) configs.push(require(file));
    }
  }
  return configs;
}

const abs = (glob) => path.join(root, glob);
const not = (glob) => `!${abs(glob)}`;

/** A package's own setup files, with `<rootDir>` spelled out (the selections are read from the repository root). */
function ownSetup(config) {
  const resolve = (files) => (files ?? []).map((f) => f.replace('<rootDir>', config.rootDir));
  return { setupFiles: resolve(config.setupFiles), setupFilesAfterEnv: resolve(config.setupFilesAfterEnv) };
}

/** The unit suites: every package project narrowed to the unit globs, with the guard set up first. */
function unitProjects() {
  return packageConfigs().map((config) => ({
    ...config,
    ...ownSetup(config),
    testMatch: [...inSrc, ...unitInTest].map(abs).concat(integrationInSrc.map(not)),
    setupFiles: [path.join(root, 'jest.unit-guard.js'), ...ownSetup(config).setupFiles],
  }));
}

/** The integration suites: every package project's own testMatch minus the unit globs. */
function integrationProjects() {
  return packageConfigs().map((config) => ({
    ...config,
    ...ownSetup(config),
    testMatch: [...config.testMatch, ...[...inSrc, ...unitInTest].map(not), ...integrationInSrc.map(abs)],
  }));
}

module.exports = { unitProjects, integrationProjects };
