// @risk/common/observability: the logger, the Prometheus metrics and the OpenTelemetry tracing every process
// uses; loads neither express nor the docs site (docs/architecture.md "Packages and who imports whom").
export * from './logger';
export * from './metrics';
export * from './telemetry';
