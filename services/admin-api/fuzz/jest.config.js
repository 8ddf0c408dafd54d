// The admin API's fuzz project (`pnpm test:fuzz`, docs/reliability.md "Fuzz"): not part of plain `pnpm test`.
const preset = require('../../../jest.preset.js')(require('node:path').join(__dirname, '..'), {
  testTimeout: 120_000,
});
/** @type {import('jest').Config} */
module.exports = {
  ...preset,
  displayName: 'fuzz-admin-api',
  testMatch: ['<rootDir>/fuzz/**/*.fuzz.ts'],
  // every response, 2xx bodies included, is validated against the OpenAPI document as in the service's own suites
  setupFilesAfterEnv: [...preset.setupFilesAfterEnv, '<rootDir>/test/openapi-responses.setup.ts'],
};
