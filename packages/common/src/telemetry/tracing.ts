// Optional OpenTelemetry tracing (docs/observability.md "Tracing"), off unless an OTLP endpoint is configured.
// Off, nothing of OpenTelemetry is loaded (the modules are required inside startTracing) and every helper here is a
// plain call of the function it wraps. On: a tracer provider exporting OTLP/HTTP JSON in batches, W3C trace context,
// an AsyncLocalStorage context manager (the cost the public API otherwise avoids: docs/observability.md).
import type * as OtelApi from '@opentelemetry/api';

type Api = typeof OtelApi;

/** W3C trace context as it travels in a job's data (docs/observability.md "Tracing"). */
export interface TraceCarrier {
  traceparent?: string;
  tracestate?: string;
}

export type SpanAttributes = Record<string, string | number | boolean | undefined>;

export interface TracingHandle {
  enabled: boolean;
  /** exports what is buffered (tests; shutdown does it too) */
  forceFlush(): Promise<void>;
  shutdown(): Promise<void>;
}

let api: Api | undefined;
let tracer: OtelApi.Tracer | undefined;

/** The endpoint variables of the OpenTelemetry specification; OTEL_TRACES_EXPORTER=none turns tracing off. */
export function tracingEndpoint(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if ((env.OTEL_TRACES_EXPORTER ?? 'otlp').split(',').every((e) => e.trim() !== 'otlp')) return undefined;
  const traces = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  if (traces) return traces;
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  return base ? `${base.endsWith('/') ? base.slice(0, -1) : base}/v1/traces` : undefined;
}

const OFF: TracingHandle = { enabled: false, forceFlush: async () => undefined, shutdown: async () => undefined };

/**
 * Starts tracing for this process when an endpoint is configured (call first thing in main). The service name comes
 * from OTEL_SERVICE_NAME, else `serviceName`. A second call returns the first one's handle.
 */
export function startTracing(opts: { serviceName: string; env?: NodeJS.ProcessEnv }): TracingHandle {
  const env = opts.env ?? process.env;
  const url = tracingEndpoint(env);
  if (!url) return OFF;
  if (handle) return handle;
  /* eslint-disable @typescript-eslint/no-require-imports -- loaded only when tracing is on (zero cost off) */
  const otel = require('@opentelemetry/api') as Api;
  const { NodeTracerProvider } =
    require('@opentelemetry/sdk-trace-node') as typeof import('@opentelemetry/sdk-trace-node');
  const { BatchSpanProcessor } =
    require('@opentelemetry/sdk-trace-base') as typeof import('@opentelemetry/sdk-trace-base');
  const { OTLPTraceExporter } =
    require('@opentelemetry/exporter-trace-otlp-http') as typeof import('@opentelemetry/exporter-trace-otlp-http');
  const { resourceFromAttributes } = require('@opentelemetry/resources') as typeof import('@opentelemetry/resources');
  /* eslint-enable @typescript-eslint/no-require-imports */
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': env.OTEL_SERVICE_NAME?.trim() || opts.serviceName }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url }), { scheduledDelayMillis: 1000 })],
  });
  // the global provider, the AsyncLocalStorage context manager and the W3C trace-context propagator
  provider.register();
  api = otel;
  tracer = otel.trace.getTracer('risk-intelligence');
  handle = {
    enabled: true,
    forceFlush: () => provider.forceFlush(),
    shutdown: async () => {
      // a collector that is down must not fail the service's shutdown: the last spans are lost, nothing else
      await provider.shutdown().catch(() => undefined);
      otel.trace.disable();
      otel.context.disable();
      otel.propagation.disable();
      api = undefined;
      tracer = undefined;
      handle = undefined;
    },
  };
  return handle;
}
let handle: TracingHandle | undefined;

export function tracingEnabled(): boolean {
  return tracer !== undefined;
}

/**
 * Runs `fn` inside a span named `name` (a child of the active span, or of `parent` when given), ending it when `fn`
 * settles and recording a thrown error. Off: `fn()`.
 */
export function withSpan<T>(
  name: string,
  opts: { attributes?: SpanAttributes; kind?: 'internal' | 'producer' | 'consumer'; parent?: TraceCarrier },
  fn: () => Promise<T>,
): Promise<T> {
  if (!api || !tracer) return fn();
  const otel = api;
  const kind = { internal: otel.SpanKind.INTERNAL, producer: otel.SpanKind.PRODUCER, consumer: otel.SpanKind.CONSUMER }[
    opts.kind ?? 'internal'
  ];
  const parentContext = opts.parent ? otel.propagation.extract(otel.ROOT_CONTEXT, opts.parent) : otel.context.active();
  return tracer.startActiveSpan(name, { kind, attributes: defined(opts.attributes) }, parentContext, async (span) => {
    try {
      return await fn();
    } catch (err) {
      span.recordException(err as Error);
      span.setStatus({ code: otel.SpanStatusCode.ERROR, message: (err as Error)?.message });
      throw err;
    } finally {
      span.end();
    }
  });
}

/** The active span's W3C trace context, to carry in a job's data; undefined when tracing is off or no span is active. */
export function currentTraceCarrier(): TraceCarrier | undefined {
  if (!api) return undefined;
  const carrier: TraceCarrier = {};
  api.propagation.inject(api.context.active(), carrier);
  return carrier.traceparent ? carrier : undefined;
}

function defined(attributes: SpanAttributes | undefined): OtelApi.Attributes | undefined {
  if (!attributes) return undefined;
  return Object.fromEntries(Object.entries(attributes).filter(([, v]) => v !== undefined)) as OtelApi.Attributes;
}

/** What the HTTP middleware needs of the tracing module (telemetry/http-tracing.ts). */
export function tracingApi(): { api: Api; tracer: OtelApi.Tracer } | undefined {
  return api && tracer ? { api, tracer } : undefined;
}

/**
 * Adds jobs inside one producer span per job (`enqueue <queue>`), each a child of the job's own trace context (the
 * request that caused it) or of the active span, and replaces the job's traceparent with its span's, so the worker
 * continues the trace from the enqueue. A job with neither starts no trace. Off: `add(jobs)`.
 */
export async function tracedEnqueue<J extends TraceCarrier>(
  queue: string,
  jobs: J[],
  add: (jobs: J[]) => Promise<unknown>,
): Promise<void> {
  if (!api || !tracer) {
    await add(jobs);
    return;
  }
  const otel = api;
  const spans: OtelApi.Span[] = [];
  const traced = jobs.map((job) => {
    const parent = job.traceparent ? otel.propagation.extract(otel.ROOT_CONTEXT, job) : otel.context.active();
    if (!otel.trace.getSpan(parent)) return job;
    const span = tracer!.startSpan(
      `enqueue ${queue}`,
      {
        kind: otel.SpanKind.PRODUCER,
        attributes: { 'messaging.system': 'bullmq', 'messaging.destination.name': queue },
      },
      parent,
    );
    spans.push(span);
    const carrier: TraceCarrier = {};
    otel.propagation.inject(otel.trace.setSpan(parent, span), carrier);
    return { ...job, ...carrier };
  });
  try {
    await add(traced);
  } catch (err) {
    for (const span of spans) span.setStatus({ code: otel.SpanStatusCode.ERROR, message: (err as Error)?.message });
    throw err;
  } finally {
    for (const span of spans) span.end();
  }
}

/** The trace context a job's data carries, if any (the worker's span continues it). */
export function traceCarrierOf(data: unknown): TraceCarrier | undefined {
  const d = data as TraceCarrier | undefined;
  return typeof d?.traceparent === 'string' ? { traceparent: d.traceparent, tracestate: d.tracestate } : undefined;
}
