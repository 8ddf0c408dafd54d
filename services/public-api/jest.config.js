/** @type {import('jest').Config} */
const preset = require('../../jest.preset.js')(__dirname);
// every response a suite receives is validated against the OpenAPI document (test/openapi-responses.setup.ts)
module.exports = {
  ...preset,
  setupFilesAfterEnv: [...preset.setupFilesAfterEnv, '<rootDir>/test/openapi-responses.setup.ts'],
};
