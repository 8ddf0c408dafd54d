import { Queue, type JobsOptions } from 'bullmq';
import IORedis, { type RedisOptions } from 'ioredis';
import { z } from 'zod';
import { sha256Hex } from './crypto';
import { requestContext } from './logger';
import { tracedEnqueue } from './telemetry/tracing';

/** W3C trace context of the span that enqueued the job, when tracing is on (docs/observability.md "Tracing"). */
const traceFields = {
  traceparent: z.string().max(55).optional(),
  tracestate: z.string().max(512).optional(),
};

/** Retry and retention for jobs whose handler is safe to run again (enrichment, artifact verdicts). */
const RETRIED_JOB_OPTIONS = {
  attempts: 5,
  backoff: { type: 'exponential', delay: 2000 },
  removeOnComplete: { age: 3600, count: 10000 },
  removeOnFail: { age: 7 * 24 * 3600 },
} satisfies JobsOptions;

/**
 * The job catalogue: queue names, payload schemas and retry policy live here, so producers (API,
 * outbox relay) and consumers (worker) agree. Handlers parse their payload with these schemas first.
 */
export const QUEUES = {
  enrichment: 'enrichment',
  webhooks: 'webhook-delivery',
  firewallSync: 'firewall-sync',
  maintenance: 'maintenance',
  artifactVerdicts: 'artifact-verdicts',
} as const;
export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];

export const JOBS = {
  enrichment: {
    queue: QUEUES.enrichment,
    // reason distinguishes re-enrichment of unchanged content (a threat now matches, TTL expiry);
    // digest is the asset's observation-set digest; livemode names the asset (test mode is a sandbox),
    // defaulting to live for jobs written before modes were separate
    payload: z.object({
      livemode: z.boolean().default(true),
      fingerprint: z.string().min(1),
      digest: z.string().min(1),
      reason: z.string().optional(),
      /** the API request that queued the job: the worker's log lines carry it (docs/observability.md) */
      request_id: z.string().max(100).optional(),
      ...traceFields,
    }),
    options: RETRIED_JOB_OPTIONS,
    /** what a job is for (mode+fingerprint+digest+reason); kept as the outbox row's dedupe_key, for reading */
    dedupeKey: (p: { livemode: boolean; fingerprint: string; digest: string; reason?: string }) =>
      `enr-${sha256Hex(`${p.livemode ? 'live' : 'test'}\n${p.fingerprint}\n${p.digest}\n${p.reason ?? ''}`).slice(0, 40)}`,
    /**
     * One job per outbox row. BullMQ keeps completed jobs for an hour and failed ones for seven days, and
     * an add whose id is kept is silently dropped; an id derived from the content would drop every
     * re-enrichment of a digest seen before (docs/reliability.md "Enrichment jobs"). The post-commit fast
     * path and the relay add the same row under the same id, so they deduplicate each other; two rows for
     * one digest are two jobs, and the worker's digest check makes the second a no-op when nothing is left
     * to do.
     */
    jobId: (outboxId: bigint | string) => `enr-o${String(outboxId)}`,
  },
  webhookDelivery: {
    queue: QUEUES.webhooks,
    // attempt: which delivery attempt the job performs (1 = first; absent means 1). Retries are new
    // jobs with the next attempt number, so each attempt has its own job id and none dedupes another.
    // request_id: the API request (or the job) that caused the delivery; the worker's log lines carry it
    payload: z.object({
      delivery_id: z.string().min(1),
      attempt: z.number().int().min(1).optional(),
      request_id: z.string().max(100).optional(),
      ...traceFields,
    }),
    options: {
      // retries are scheduled by the delivery handler itself (docs/webhooks.md); BullMQ only covers crashes
      attempts: 3,
      backoff: { type: 'exponential', delay: 1000 },
      removeOnComplete: { age: 3600, count: 10000 },
      removeOnFail: { age: 7 * 24 * 3600 },
    } satisfies JobsOptions,
    jobId: (p: { delivery_id: string; attempt?: number }) => `whd-${p.delivery_id}-${p.attempt ?? 1}`,
  },
  firewallSync: {
    queue: QUEUES.firewallSync,
    payload: z.object({
      assignment_id: z.string().min(1),
      action: z.enum(['apply', 'remove']),
      version: z.number().int(),
      /** the admin request that changed the policy or assignment (docs/observability.md) */
      request_id: z.string().max(100).optional(),
      ...traceFields,
    }),
    options: {
      attempts: 5,
      backoff: { type: 'exponential', delay: 5000 },
      // an add whose id BullMQ still keeps is dropped: a kept job would swallow the re-assign or re-unassign
      // that retries a failed sync of the same version. Finished jobs are removed at once; the outcome is
      // on the assignment (sync_status, last_error), and duplicates are harmless because every job
      // reconciles the assignment to its current target under a lock (docs/firewalls.md "Assignment sync states")
      removeOnComplete: true,
      removeOnFail: true,
    } satisfies JobsOptions,
    jobId: (p: { assignment_id: string; action: string; version: number }) =>
      `fws-${p.assignment_id}-${p.action}-${p.version}`,
  },
  artifactVerdictChanged: {
    queue: QUEUES.artifactVerdicts,
    /**
     * A scan ended with a verdict (a first one, or one that changed): the worker re-enriches the assets naming
     * these hashes (docs/artifacts.md "Artifacts in the API"). Named `artifact.verdict_changed` in the queue.
     */
    name: 'artifact.verdict_changed',
    payload: z.object({
      sha256s: z
        .array(z.string().regex(/^[0-9a-f]{64}$/))
        .min(1)
        .max(500),
      request_id: z.string().max(100).optional(),
      ...traceFields,
    }),
    options: RETRIED_JOB_OPTIONS,
  },
} as const;

export type EnrichmentJob = z.infer<typeof JOBS.enrichment.payload>;
export type ArtifactVerdictChangedJob = z.infer<typeof JOBS.artifactVerdictChanged.payload>;
/** An enrichment job with the outbox row that asked for it. */
export interface OutboxEnrichmentJob {
  outboxId: bigint | string;
  job: EnrichmentJob;
}
export type WebhookDeliveryJob = z.infer<typeof JOBS.webhookDelivery.payload>;
export type FirewallSyncJob = z.infer<typeof JOBS.firewallSync.payload>;

/**
 * The request id a job should carry when its producer gave none: the one of the request (or job) being served,
 * when the service keeps it in requestContext (admin API, worker; docs/observability.md "Request ids").
 */
export function currentRequestId(): string | undefined {
  return requestContext.getStore()?.request_id;
}

export interface RedisSettings {
  url: string;
  prefix: string;
}

/** Producer connections fail fast: with Redis down an add rejects at once and the outbox covers it. */
export function createProducerConnection(
  redis: RedisSettings,
  name = 'producer',
  extra: Pick<RedisOptions, 'enableAutoPipelining'> = {},
): IORedis {
  const conn = new IORedis(redis.url, {
    ...extra,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2000,
    connectionName: `risk-${name}`,
    lazyConnect: false,
    retryStrategy: (times) => Math.min(times * 200, 2000),
    // disconnect() ends the last socket and destroys it if it has not closed within this time; when
    // Redis was unreachable that socket is already dead and never reports its close, so ioredis's
    // 2 s default kept the process alive 2 s after close() (jest's "worker failed to exit")
    disconnectTimeout: 100,
  } satisfies RedisOptions);
  conn.on('error', () => undefined); // reconnects by itself; callers see failures on add()
  return conn;
}

/**
 * A producer connection with ioredis auto-pipelining: the commands issued in one event-loop turn go out in
 * one write and come back in one read. For single-command traffic only (the rate limiter's one EVALSHA per
 * request, which cost the GET route 15 % and POST 30 % of its throughput one write at a time;
 * docs/performance.md "The rate limiter's connection"); BullMQ stays on a plain connection, its maintainers
 * do not support auto-pipelining under its multi-command scripts.
 */
export function createPipelinedConnection(redis: RedisSettings, name: string): IORedis {
  return createProducerConnection(redis, name, { enableAutoPipelining: true });
}

/** Worker connections must block forever (BullMQ requires maxRetriesPerRequest: null). */
export function createWorkerConnection(redis: RedisSettings, name = 'worker'): IORedis {
  const conn = new IORedis(redis.url, {
    maxRetriesPerRequest: null,
    enableReadyCheck: true,
    connectionName: `risk-${name}`,
    retryStrategy: (times) => Math.min(times * 200, 2000),
  });
  conn.on('error', () => undefined);
  return conn;
}

export function makeQueue(name: QueueName, connection: IORedis, prefix: string): Queue {
  const queue = new Queue(name, { connection, prefix, skipWaitingForReady: true });
  queue.on('error', () => undefined);
  return queue;
}

/** Rejects after `ms`: enqueueing on a request's hot path never waits on a slow Redis. */
export function withTimeout<T>(promise: Promise<T>, ms: number, what = 'operation'): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    promise,
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

export class QueueProducer {
  readonly connection: IORedis;
  private readonly queues = new Map<QueueName, Queue>();
  private pipelined?: IORedis;

  constructor(
    private readonly redis: RedisSettings,
    private readonly name = 'producer',
    /** overrides of JOBS' options (config FIREWALL_SYNC_BACKOFF_MS) */
    private readonly tuning: { firewallSyncBackoffMs?: number } = {},
  ) {
    this.connection = createProducerConnection(redis, name);
  }

  /** The rate limiter's connection (createPipelinedConnection), opened on first use and closed with the producer. */
  get limiterConnection(): IORedis {
    this.pipelined ??= createPipelinedConnection(this.redis, `${this.name}-limits`);
    return this.pipelined;
  }

  /**
   * Right after construction the connection is still opening; with the offline queue off, a command
   * sent then fails at once. Wait for it (up to `timeoutMs`) only while it is opening, so a Redis
   * that is really down still fails fast.
   */
  private async connected(timeoutMs: number): Promise<void> {
    const status = this.connection.status;
    if (status !== 'wait' && status !== 'connecting' && status !== 'connect') return;
    await withTimeout(
      new Promise<void>((resolve) => this.connection.once('ready', () => resolve())),
      timeoutMs,
      'redis connect',
    ).catch(() => undefined);
  }

  queue(name: QueueName): Queue {
    let q = this.queues.get(name);
    if (!q) {
      q = makeQueue(name, this.connection, this.redis.prefix);
      this.queues.set(name, q);
    }
    return q;
  }

  /** One job per outbox row (its id names the job: JOBS.enrichment.jobId). */
  async enqueueEnrichment(jobs: OutboxEnrichmentJob[], timeoutMs = 1000): Promise<void> {
    if (jobs.length === 0) return;
    await this.connected(timeoutMs);
    const spec = JOBS.enrichment;
    await tracedEnqueue(
      spec.queue,
      jobs.map(({ job }) => job),
      (data) =>
        withTimeout(
          this.queue(spec.queue).addBulk(
            jobs.map(({ outboxId }, i) => ({
              name: 'enrich',
              data: data[i],
              opts: { ...spec.options, jobId: spec.jobId(outboxId) },
            })),
          ),
          timeoutMs,
          'enqueue enrichment',
        ),
    );
  }

  /**
   * One job per delivery attempt (payload = the outbox row's payload: {delivery_id, attempt?}).
   * delayMs schedules a retry; the job id makes a second add of the same attempt a no-op.
   */
  async enqueueWebhookDelivery(job: WebhookDeliveryJob & { delayMs?: number; timeoutMs?: number }): Promise<void> {
    await this.connected(job.timeoutMs ?? 1000);
    const spec = JOBS.webhookDelivery;
    const attempt = job.attempt ?? 1;
    const requestId = job.request_id ?? currentRequestId();
    const data: WebhookDeliveryJob = {
      delivery_id: job.delivery_id,
      attempt,
      ...(requestId ? { request_id: requestId } : {}),
      ...(job.traceparent ? { traceparent: job.traceparent, tracestate: job.tracestate } : {}),
    };
    await tracedEnqueue(spec.queue, [data], ([traced]) =>
      withTimeout(
        this.queue(spec.queue).add('deliver', traced, {
          ...spec.options,
          jobId: spec.jobId({ delivery_id: job.delivery_id, attempt }),
          delay: Math.max(0, Math.round(job.delayMs ?? 0)),
        }),
        job.timeoutMs ?? 1000,
        'enqueue webhook delivery',
      ),
    );
  }

  async enqueueFirewallSync(jobs: FirewallSyncJob[], timeoutMs = 1000): Promise<void> {
    if (jobs.length === 0) return;
    await this.connected(timeoutMs);
    const spec = JOBS.firewallSync;
    const requestId = currentRequestId();
    const data = jobs.map((job) => (job.request_id || !requestId ? job : { ...job, request_id: requestId }));
    const backoff = { ...spec.options.backoff, delay: this.tuning.firewallSyncBackoffMs ?? spec.options.backoff.delay };
    await tracedEnqueue(spec.queue, data, (traced) =>
      withTimeout(
        this.queue(spec.queue).addBulk(
          traced.map((job) => ({
            name: 'sync',
            data: job,
            opts: { ...spec.options, backoff, jobId: spec.jobId(job) },
          })),
        ),
        timeoutMs,
        'enqueue firewall sync',
      ),
    );
  }

  /**
   * Asks the worker to re-enrich the assets naming these hashes (their verdict is new or changed). Callers with no
   * transaction of their own use it right after the verdict's write; a lost job is repaired by the next upload or
   * re-scan of the same bytes, whose write reports the verdict again only when it changes.
   */
  async enqueueArtifactVerdictChanged(sha256s: string[], timeoutMs = 1000): Promise<void> {
    if (sha256s.length === 0) return;
    await this.connected(timeoutMs);
    const spec = JOBS.artifactVerdictChanged;
    const requestId = currentRequestId();
    const data: ArtifactVerdictChangedJob[] = [];
    for (let i = 0; i < sha256s.length; i += 500)
      data.push({ sha256s: sha256s.slice(i, i + 500), ...(requestId ? { request_id: requestId } : {}) });
    await tracedEnqueue(spec.queue, data, (traced) =>
      withTimeout(
        this.queue(spec.queue).addBulk(traced.map((job) => ({ name: spec.name, data: job, opts: spec.options }))),
        timeoutMs,
        'enqueue artifact verdict changed',
      ),
    );
  }

  async ping(timeoutMs = 1000): Promise<boolean> {
    try {
      await this.connected(timeoutMs);
      return (await withTimeout(this.connection.ping(), timeoutMs, 'redis ping')) === 'PONG';
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    await Promise.allSettled([...this.queues.values()].map((q) => withTimeout(q.close(), 2000, 'queue close')));
    this.connection.disconnect();
    this.pipelined?.disconnect();
  }
}
