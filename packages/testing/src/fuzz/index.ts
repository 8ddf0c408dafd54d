// The fuzz machinery shared by the public and admin API suites (`pnpm test:fuzz`, docs/reliability.md "Fuzz").
export * from './arbitraries';
export * from './schema-arbitrary';
export * from './property';
export * from './suite';
