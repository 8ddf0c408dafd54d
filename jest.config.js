// `pnpm test` runs every workspace package's suites (unit + integration) in one jest run.
/** @type {import('jest').Config} */
module.exports = {
  projects: ['<rootDir>/packages/*/jest.config.js', '<rootDir>/services/*/jest.config.js'],
  maxWorkers: process.env.CI ? 2 : '50%',
};
