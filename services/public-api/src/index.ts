export { BODY_LIMIT, BULK_BODY_LIMIT, createApp, SERVICE_NAME, SERVICE_VERSION } from './app';
export type { PublicApiApp } from './app';
export type { AppDeps } from './deps';
export { buildPublicOpenApiDocument } from './openapi';
export { drainProjections, startProjector, type Projector } from './domain/signals/projector';
