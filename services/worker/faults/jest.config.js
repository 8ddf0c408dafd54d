// The fault suite (`pnpm test:faults`, docs/reliability.md "Fault suite"): real processes as children, a
// private Redis per case; not part of plain `pnpm test` (its own config), run by CI after it. One case at a
// time: each starts several processes and the machine has two cores.
const preset = require('../../../jest.preset.js')(require('node:path').join(__dirname, '..'), {
  testTimeout: 180_000,
});
/** @type {import('jest').Config} */
module.exports = {
  ...preset,
  displayName: 'faults',
  testMatch: ['<rootDir>/faults/**/*.fault.ts'],
  maxWorkers: 1,
};
