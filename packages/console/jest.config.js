// Unit tests of the console's logic (src/**/*.test.ts), component tests rendered to markup with react-dom/server
// (src/**/*.test.tsx, docs/console-pages.md "Tests") and the browser tests against the real stack
// (test/*.test.ts, docs/console.md "Tests").
const path = require('node:path');
const preset = require('../../jest.preset.js')(__dirname);

/** @type {import('jest').Config} */
module.exports = {
  ...preset,
  testMatch: [...preset.testMatch, '<rootDir>/src/**/*.test.tsx'],
  // one transform for .ts and .tsx (the preset's settings plus JSX): two ts-jest configurations in one run
  // left the .tsx untransformed once the .ts one was cached
  transform: {
    '^.+\\.tsx?$': ['ts-jest', { tsconfig: path.join(__dirname, 'tsconfig.jest-jsx.json'), diagnostics: false }],
  },
  moduleFileExtensions: ['ts', 'tsx', 'js', 'json'],
};
