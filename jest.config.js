// `pnpm test` runs every workspace package's suites (unit + integration) in one jest run.
/** @type {import('jest').Config} */
module.exports = {
  projects: ['<rootDir>/packages/*/jest.config.js', '<rootDir>/services/*/jest.config.js'],
  maxWorkers: process.env.CI ? 2 : '50%',
  // jest-circus reads the timeout from the global config when projects run together; the presets' 30 s is
  // otherwise ignored under `pnpm test` (seen: 5 s hook timeouts on a loaded machine).
  testTimeout: 30000,
  // Even with one worker, jest runs the files in workers it recycles once their idle heap passes this, instead of
  // all of them in band in one process: in band, the heap had grown to 5.6 GB forty minutes into a run, and its
  // collections stalled the apps the tests run in-process (a health probe waited 1.6 s). CONTRIBUTING.md "Tests that
  // hold under load".
  workerIdleMemoryLimit: '1GB',
};
