// The admin API's fuzz project (`pnpm test:fuzz`, docs/reliability.md "Fuzz"): not part of plain `pnpm test`.
const preset = require('../../../jest.preset.js')(require('node:path').join(__dirname, '..'));
/** @type {import('jest').Config} */
module.exports = {
  ...preset,
  displayName: 'fuzz-admin-api',
  testMatch: ['<rootDir>/fuzz/**/*.fuzz.ts'],
  testTimeout: 120_000,
  // every response, 2xx bodies included, is validated against the OpenAPI document as in the service's own suites
  setupFilesAfterEnv: ['<rootDir>/test/openapi-responses.setup.ts'],
};
