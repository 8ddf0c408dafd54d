import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request, RequestHandler } from 'express';
import { constantTimeEqual } from '../crypto';
import { ApiError } from '../errors';
import { traceRequest } from '../telemetry/http-tracing';
import {
  enableProcessMetrics,
  httpRequestDuration,
  metricsRegistry,
  renderMetrics,
  UNMATCHED_ROUTE,
} from './catalogue';

/**
 * Times every request into http_request_duration_seconds under its route TEMPLATE
 * (`/v1/assets/:fingerprint`), never its path: the raw path is caller input, and one series per path
 * would let anyone grow the registry without bound. A request that matched no route is counted under
 * one label, `<unmatched>` (docs/observability.md "Cardinality").
 *
 * Express's router sets `req.route` when a route layer takes the request, while `req.baseUrl` is still
 * that router's mount path; the template is read at that moment (a setter on this request), because by
 * the time the response finishes an error may have unwound the router and restored `baseUrl`.
 */
export function httpMetrics(): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    let route: unknown;
    let template: string | undefined;
    Object.defineProperty(req, 'route', {
      configurable: true,
      enumerable: true,
      get: () => route,
      set(value: unknown) {
        route = value;
        template = templateOf(req, value);
      },
    });
    res.once('finish', () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      httpRequestDuration.observe(
        { method: methodLabel(req.method), route: template ?? UNMATCHED_ROUTE, status_code: String(res.statusCode) },
        seconds,
      );
    });
    // the server span, named by the same template, when tracing is on (docs/observability.md "Tracing")
    if (!traceRequest(req, res, { next: () => next(), template: () => template })) next();
  };
}

function templateOf(req: Request, route: unknown): string | undefined {
  const path = (route as { path?: unknown } | undefined)?.path;
  // routes declared with a RegExp or an array have no one template: one label for all of them
  if (typeof path !== 'string') return route ? `${req.baseUrl}<pattern>` : undefined;
  return `${req.baseUrl}${path === '/' && req.baseUrl ? '' : path}`;
}

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
/** the method is caller input too: anything unusual is one label */
function methodLabel(method: string): string {
  return METHODS.has(method) ? method : 'OTHER';
}

/**
 * Who may scrape (docs/observability.md "Scraping"): nobody unless METRICS_TOKEN is set, and then
 * only a request with `Authorization: Bearer <METRICS_TOKEN>` (compared in constant time).
 */
export type MetricsAccess = 'disabled' | 'refused' | 'allowed';

export function metricsAccess(authorization: string | undefined, token: string | undefined): MetricsAccess {
  if (!token) return 'disabled';
  const match = authorization ? /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization) : null;
  return match && constantTimeEqual(match[1]!, token) ? 'allowed' : 'refused';
}

/**
 * GET /metrics for an express app. Without METRICS_TOKEN the route is not there (the app's 404), so
 * the API port never publishes metrics by default; with it, a missing or wrong bearer is 401.
 */
export function metricsEndpoint(token: string | undefined): RequestHandler {
  if (token) enableProcessMetrics();
  return async (req, res, next) => {
    const access = metricsAccess(req.headers.authorization, token);
    if (access === 'disabled') {
      next();
      return;
    }
    if (access === 'refused') {
      res.setHeader('WWW-Authenticate', 'Bearer realm="metrics"');
      throw new ApiError('token_invalid', { message: 'Send Authorization: Bearer <METRICS_TOKEN>.' });
    }
    const body = await renderMetrics();
    res.setHeader('Cache-Control', 'no-store');
    res.type(metricsRegistry.contentType).send(body);
  };
}

/**
 * The same rule for a plain node:http server (the worker's health port). Returns false when the
 * request is not for /metrics, so the caller answers it.
 */
export async function serveMetricsOnNodeServer(
  req: IncomingMessage,
  res: ServerResponse,
  token: string | undefined,
): Promise<boolean> {
  if (req.url?.split('?')[0] !== '/metrics' || !token) return false;
  enableProcessMetrics();
  if (metricsAccess(req.headers.authorization, token) !== 'allowed') {
    res.writeHead(401, { 'content-type': 'application/json', 'www-authenticate': 'Bearer realm="metrics"' });
    res.end(JSON.stringify({ error: { type: 'authentication_error', code: 'token_invalid' } }));
    return true;
  }
  const body = await renderMetrics();
  res.writeHead(200, { 'content-type': metricsRegistry.contentType, 'cache-control': 'no-store' });
  res.end(body);
  return true;
}
