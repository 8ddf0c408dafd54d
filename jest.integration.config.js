// `pnpm test:integration`, the full gate's tests: every suite the unit selection leaves out (jest.suites.js).
const base = require('./jest.config.js');
/** @type {import('jest').Config} */
module.exports = { ...base, projects: require('./jest.suites.js').integrationProjects() };
