export { z } from './zod';
export * from './common';
export * from './json-depth';
export * from './query';
export * from './severity';
export * from './scopes';
export * from './openapi';
// Route contracts register their components in the registries when imported.
export * from './public';
export * from './admin';
