// Shared jest settings: ts-jest transpiles only, as CommonJS (tsconfig.jest.json); `pnpm typecheck` does the type checking,
// so suites start fast. Unit tests sit beside the code (src/**/*.test.ts), integration tests in test/.
// The per-test timeout is written for a quiet machine and stretched by the machine's load in each file
// (packages/testing/src/jest-load-timeout.ts, CONTRIBUTING.md "Tests that hold under load").
const path = require('node:path');

module.exports = (dir, { testTimeout = 30_000 } = {}) => ({
  displayName: path.basename(dir),
  rootDir: dir,
  testEnvironment: 'node',
  testMatch: ['<rootDir>/src/**/*.test.ts', '<rootDir>/test/**/*.test.ts'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: path.join(__dirname, 'tsconfig.jest.json'), diagnostics: false }],
  },
  moduleFileExtensions: ['ts', 'js', 'json'],
  testTimeout,
  globals: { TEST_TIMEOUT_MS: testTimeout },
  setupFilesAfterEnv: [path.join(__dirname, 'packages/testing/src/jest-load-timeout.ts')],
});
