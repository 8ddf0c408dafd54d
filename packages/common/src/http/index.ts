// @risk/common/http: the express side shared by both APIs (routes, validation, auth, idempotency, rate limits,
// the process runner). Only HTTP processes import it: it loads express. Listening and shutdown, which the
// worker uses too, are @risk/common/server (docs/architecture.md "Layering rules").
export * from './request';
export * from './query';
export * from './validate';
export * from './body-depth';
export * from './pagination';
export * from './route';
export * from './route-spec';
export { openApiPath, registerRoutes } from './route-openapi';
export * from './api-key-auth';
export * from './idempotency';
export * from './rate-limit';
export * from './console-door';
export * from './api-process';
