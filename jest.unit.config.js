// `pnpm test:unit`, the fast gate's tests: the suites that need neither Postgres, Redis nor a child process
// (jest.suites.js says which; jest.unit-guard.js holds them to it).
const base = require('./jest.config.js');
/** @type {import('jest').Config} */
module.exports = { ...base, projects: require('./jest.suites.js').unitProjects() };
