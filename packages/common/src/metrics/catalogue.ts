import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * Every Prometheus metric the platform exports, in one table (docs/observability.md lists each with its
 * type, labels and meaning). One registry per process: the services increment these where the event
 * happens, and `/metrics` (metrics/endpoint.ts) renders the registry.
 *
 * Label values are always drawn from small fixed sets (route templates, queue names, outcome names),
 * never from request input: a label per raw path or per caller would let anyone grow the series count
 * without bound (docs/observability.md "Cardinality").
 */
export const metricsRegistry = new Registry();

let processMetricsOn = false;
/** process_* and nodejs_* (CPU, memory, event-loop lag, GC): started once, by the first metrics endpoint */
export function enableProcessMetrics(): void {
  if (processMetricsOn) return;
  processMetricsOn = true;
  collectDefaultMetrics({ register: metricsRegistry });
}

/** the `route` label of a request that matched no route (404s, probes for random paths) */
export const UNMATCHED_ROUTE = '<unmatched>';

export const httpRequestDuration = new Histogram({
  name: 'http_request_duration_seconds',
  help: 'HTTP request duration by route template (never the raw path), method and status code',
  labelNames: ['method', 'route', 'status_code'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [metricsRegistry],
});

export const rateLimitRefusals = new Counter({
  name: 'risk_rate_limit_refusals_total',
  help: 'Requests refused with 429 by a rate limit or quota, by policy (live, test, admin, failed_auth, threat_writes)',
  labelNames: ['policy'] as const,
  registers: [metricsRegistry],
});

export const queueJobs = new Gauge({
  name: 'risk_queue_jobs',
  help: 'BullMQ jobs per queue and state (wait, active, delayed, failed), read from Redis on scrape',
  labelNames: ['queue', 'state'] as const,
  registers: [metricsRegistry],
});

export const jobDuration = new Histogram({
  name: 'risk_job_duration_seconds',
  help: 'Time a worker spent on one job attempt, by queue and outcome (completed, failed)',
  labelNames: ['queue', 'outcome'] as const,
  buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
  registers: [metricsRegistry],
});

export const outboxLag = new Gauge({
  name: 'risk_outbox_lag_seconds',
  help: 'Age of the oldest outbox row that is due and not yet relayed to a queue (0 when none), read on scrape',
  registers: [metricsRegistry],
});

export const replicaLag = new Gauge({
  name: 'risk_db_replica_lag_seconds',
  help: "Replay lag of DATABASE_READ_URL's replica (0 when caught up or unset), read on scrape",
  registers: [metricsRegistry],
});

export const projectionBacklog = new Gauge({
  name: 'risk_projection_backlog',
  help: 'Accepted bulk signals not yet applied to their assets, as last counted by this replica (every 0.5 s)',
  registers: [metricsRegistry],
});

export const projectionsApplied = new Counter({
  name: 'risk_projection_signals_total',
  help: "Accepted bulk signals this replica's projector applied to their assets",
  registers: [metricsRegistry],
});

export const enrichmentOutcomes = new Counter({
  name: 'risk_enrichment_outcomes_total',
  help: 'Enrichment jobs by outcome (enriched, skipped, failed) and reason (analysis_timeout, error, superseded, ...)',
  labelNames: ['outcome', 'reason'] as const,
  registers: [metricsRegistry],
});

export const webhookDeliveries = new Counter({
  name: 'risk_webhook_deliveries_total',
  help: 'Webhook delivery attempts by result (delivered, retry_scheduled, failed, skipped, error)',
  labelNames: ['outcome'] as const,
  registers: [metricsRegistry],
});

export const firewallSyncAssignments = new Gauge({
  name: 'risk_firewall_sync_assignments',
  help: 'Policy assignments per sync_status (pending, synced, failed, ...), read from Postgres on scrape',
  labelNames: ['status'] as const,
  registers: [metricsRegistry],
});

export const invariantViolations = new Gauge({
  name: 'risk_invariant_violations',
  help: 'Fallen-through work found by the last invariants pass, by kind (asset_unqueued, assignment_unqueued, outbox_stuck, outbox_dead_lettered)',
  labelNames: ['kind'] as const,
  registers: [metricsRegistry],
});

/** A refresh of on-scrape gauges (queue depth, outbox lag, ...): run before each render, never on a timer. */
export type ScrapeCollector = () => Promise<void>;
const scrapeCollectors = new Set<ScrapeCollector>();

/** Registers a collector run on every scrape; returns its removal (call it when its resources close). */
export function collectOnScrape(collector: ScrapeCollector): () => void {
  scrapeCollectors.add(collector);
  return () => scrapeCollectors.delete(collector);
}

/** Runs every collector (a failing or slow one leaves its gauges as they were), then renders the registry. */
export async function renderMetrics(): Promise<string> {
  await Promise.allSettled([...scrapeCollectors].map((collect) => collect()));
  return metricsRegistry.metrics();
}
