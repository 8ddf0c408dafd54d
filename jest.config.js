// `pnpm test` runs every workspace package's suites (unit + integration) in one jest run.
/** @type {import('jest').Config} */
module.exports = {
  projects: ['<rootDir>/packages/*/jest.config.js', '<rootDir>/services/*/jest.config.js'],
  maxWorkers: process.env.CI ? 2 : '50%',
  // jest-circus reads the timeout from the global config when projects run together; the presets' 30 s is
  // otherwise ignored under `pnpm test` (seen: 5 s hook timeouts on a loaded machine).
  testTimeout: 30000,
};
