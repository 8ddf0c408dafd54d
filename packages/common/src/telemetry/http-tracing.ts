// The HTTP server span of a request (docs/observability.md "Tracing"): named `<METHOD> <route template>` (never the
// raw path, which is caller input and may hold secrets in its query), continuing an incoming W3C traceparent.
// httpMetrics (metrics/http.ts) calls it, so both services get it from the middleware they already mount first.
import type { Request, Response } from 'express';
import { tracingApi } from './tracing';

/**
 * When tracing is on: starts the request's server span, runs `next` inside it and ends it when the response
 * finishes (or the connection closes), naming it by `template()`. Returns false, doing nothing, when tracing is off.
 */
export function traceRequest(
  req: Request,
  res: Response,
  opts: { next: () => void; template: () => string | undefined },
): boolean {
  const t = tracingApi();
  if (!t) return false;
  const { api, tracer } = t;
  const parent = api.propagation.extract(api.ROOT_CONTEXT, req.headers);
  const span = tracer.startSpan(
    req.method,
    { kind: api.SpanKind.SERVER, attributes: { 'http.request.method': req.method } },
    parent,
  );
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    const route = opts.template() ?? '<unmatched>';
    span.updateName(`${req.method} ${route}`);
    span.setAttribute('http.route', route);
    span.setAttribute('http.response.status_code', res.statusCode);
    if (res.statusCode >= 500) span.setStatus({ code: api.SpanStatusCode.ERROR });
    span.end();
  };
  res.once('finish', end);
  res.once('close', end);
  api.context.with(api.trace.setSpan(parent, span), opts.next);
  return true;
}
