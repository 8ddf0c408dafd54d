// Shared jest settings: ts-jest transpiles only, as CommonJS (tsconfig.jest.json); `pnpm typecheck` does the type checking,
// so suites start fast. Unit tests sit beside the code (src/**/*.test.ts), integration tests in test/.
const path = require('node:path');

module.exports = (dir) => ({
  displayName: path.basename(dir),
  rootDir: dir,
  testEnvironment: 'node',
  testMatch: ['<rootDir>/src/**/*.test.ts', '<rootDir>/test/**/*.test.ts'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: path.join(__dirname, 'tsconfig.jest.json'), diagnostics: false }],
  },
  moduleFileExtensions: ['ts', 'js', 'json'],
  testTimeout: 30000,
});
