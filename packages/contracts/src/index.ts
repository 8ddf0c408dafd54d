export { z } from './zod';
export * from './common';
export * from './severity';
export * from './openapi';
// Route contracts register themselves in the registries when imported.
export * from './public';
export * from './admin';
