import type { ErrorRequestHandler, NextFunction, Request, RequestHandler, Response } from 'express';
import { ApiError } from '../errors';
import { newRequestId } from '@risk/db';
import { type Logger, requestContext } from '../logger';

/**
 * Gives every request an id (`X-Request-Id: req_…`), echoed in error envelopes and log lines.
 *
 * `asyncContext` (default true) also runs the rest of the request inside requestContext, so any log
 * line written while serving it carries the id. On Node 20 that AsyncLocalStorage costs a promise
 * hook on every promise of every request (~20% of a cached GET's CPU); a service whose in-request
 * log lines all have the response at hand (errorHandler logs the id explicitly) can turn it off.
 */
export function requestIdMiddleware(opts: { asyncContext?: boolean } = {}): RequestHandler {
  if (opts.asyncContext === false) {
    return (_req, res, next) => {
      const id = newRequestId();
      res.locals.requestId = id;
      res.setHeader('X-Request-Id', id);
      next();
    };
  }
  return (req, res, next) => {
    const id = newRequestId();
    res.locals.requestId = id;
    res.setHeader('X-Request-Id', id);
    requestContext.run({ request_id: id }, next);
  };
}

export function requestIdOf(res: Response): string {
  return (res.locals.requestId as string | undefined) ?? 'req_unknown';
}

/** Catch-all 404 for unknown routes, in the envelope. */
export function notFoundHandler(): RequestHandler {
  return (req, _res, next) => {
    next(new ApiError('route_not_found', { message: `Unrecognized request URL (${req.method}: ${req.path}).` }));
  };
}

interface BodyParserError extends Error {
  type?: string;
  status?: number;
  limit?: number;
}

/**
 * The only place that writes error envelopes. Known errors keep their code; body-parser's errors
 * are mapped; anything else is logged with its stack and answered 500 api_error without detail.
 */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  // eslint-disable-next-line @typescript-eslint/max-params -- express recognises an error handler by its four parameters
  return (err: unknown, req: Request, res: Response, _next: NextFunction) => {
    let apiError: ApiError;
    if (err instanceof ApiError) apiError = err;
    else {
      const e = err as BodyParserError;
      if (e?.type === 'entity.too.large')
        apiError = new ApiError('request_too_large', {
          message: `Request body exceeds the limit of ${e.limit} bytes.`,
        });
      else if (e?.type === 'entity.parse.failed')
        apiError = new ApiError('invalid_json', { message: 'Request body is not valid JSON.' });
      else if (err instanceof URIError && e.status === 400)
        // express 5's router could not percent-decode a path parameter (e.g. `/v1/signals/%zz`)
        apiError = new ApiError('parameter_invalid', { message: 'The URL path holds malformed percent-encoding.' });
      else if (e?.type === 'encoding.unsupported' || e?.type === 'charset.unsupported')
        apiError = new ApiError('unsupported_media_type', { message: e.message });
      else {
        logger.error('unhandled error', { err, method: req.method, path: req.path, request_id: requestIdOf(res) });
        apiError = new ApiError('internal_error');
      }
    }
    if (apiError.status >= 500 && err instanceof ApiError)
      logger.error('api error', { code: apiError.code, msg: apiError.message, request_id: requestIdOf(res) });
    if (res.headersSent) return;
    // refused before its body was read (401, 429, 413): close after the answer instead of letting Node
    // drain an upload nobody will parse (docs/security.md "Rate limits and caps")
    if (!req.complete) res.setHeader('Connection', 'close');
    if (apiError.headers) for (const [k, v] of Object.entries(apiError.headers)) res.setHeader(k, v);
    res.status(apiError.status).json(apiError.toEnvelope(requestIdOf(res)));
  };
}

/**
 * Requests must send JSON bodies as application/json (a form post is a client bug worth naming). `streamed` names
 * the requests whose route takes a stream of bytes instead (an artifact upload); their route checks the media type.
 */
export function requireJsonContentType(opts: { streamed?: (req: Request) => boolean } = {}): RequestHandler {
  return (req, _res, next) => {
    if (opts.streamed?.(req)) {
      next();
      return;
    }
    const hasBody = req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0';
    if (
      (req.method === 'POST' || req.method === 'PUT' || req.method === 'PATCH') &&
      (hasBody || req.headers['transfer-encoding'])
    ) {
      if (!req.is('application/json')) {
        next(new ApiError('unsupported_media_type', { message: 'Send the request body as application/json.' }));
        return;
      }
    }
    next();
  };
}
