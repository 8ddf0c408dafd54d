// `pnpm test:fuzz` (docs/reliability.md "Fuzz"): the property-based suites of both services' OpenAPI documents,
// each in its own project (its own response validator); not part of plain `pnpm test`.
/** @type {import('jest').Config} */
module.exports = {
  projects: ['<rootDir>/services/public-api/fuzz/jest.config.js', '<rootDir>/services/admin-api/fuzz/jest.config.js'],
  maxWorkers: 2,
  testTimeout: 120_000,
};
