// Admin API contracts, by resource: request bodies (strict: unknown fields are 400 parameter_unknown) and
// responses. The admin service validates with these and serves the OpenAPI document built from adminRegistry.
export * from './shared';
export * from './tenants';
export * from './deployment-tokens';
export * from './api-keys';
export * from './firewalls';
export * from './policies';
export * from './feeds';
export * from './risk-score';
export * from './service';
export * from './console';
export * from './examples';
export * from './examples-feeds';
export * from './examples-api-keys';
