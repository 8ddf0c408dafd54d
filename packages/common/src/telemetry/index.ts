export * from './tracing';
export { traceRequest } from './http-tracing';
