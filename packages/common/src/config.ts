import { DEFAULT_LOCK_TIMEOUT_MS, DEFAULT_STATEMENT_TIMEOUT_MS } from '@risk/db';
import { z } from 'zod';
import { decodeKey } from './crypto';

/**
 * How long an `in_flight` Idempotency-Key claim holds its key by default (the IDEMPOTENCY_LEASE_MS variable
 * overrides it). Past it a retry with the same key and body takes the claim over: its first request died, or
 * could not store its outcome (docs/reliability.md "Idempotency claims"). Longer than any request may run.
 * Defined here, not in http/, so the config stays below the HTTP layer (docs/architecture.md "Layering rules").
 */
export const IDEMPOTENCY_LEASE_MS = 60_000;
/** How long a stored Idempotency-Key answers replays; the worker's maintenance purges older keys. */
export const IDEMPOTENCY_RETENTION_MS = 24 * 3600 * 1000;

/**
 * Every environment variable the platform reads, validated once at boot. Nothing else reads
 * process.env. Defaults make `pnpm start` work on a laptop; NODE_ENV=production makes the secrets
 * mandatory.
 */
const port = z.coerce.number().int().min(1).max(65535);
const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

export const ConfigSchema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  LOG_LEVEL: z.enum(['error', 'warn', 'info', 'http', 'debug', 'silent']).default('info'),
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }).default('postgresql://postgres@127.0.0.1:5432/risk'),
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(200).default(10),
  /**
   * a streaming replica for the reads that tolerate replication lag (lists, search, AI-BOM downloads, exports, the
   * overview: docs/scaling.md "Read replicas"); unset, those reads use DATABASE_URL
   */
  DATABASE_READ_URL: z.url({ protocol: /^postgres(ql)?$/ }).optional(),
  /**
   * Postgres statement_timeout / lock_timeout for every connection of every pool (docs/security.md,
   * "Analysis under a budget"): one slow statement or a lock wait cannot hold a connection or a row for long.
   * 0 turns a limit off (Postgres semantics).
   */
  DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(0).default(DEFAULT_STATEMENT_TIMEOUT_MS),
  DATABASE_LOCK_TIMEOUT_MS: z.coerce.number().int().min(0).default(DEFAULT_LOCK_TIMEOUT_MS),
  REDIS_URL: z.url({ protocol: /^rediss?$/ }).default('redis://127.0.0.1:6379'),
  /** key prefix for every BullMQ queue, so several deployments or test runs share one Redis */
  REDIS_PREFIX: z.string().min(1).default('risk'),
  PUBLIC_API_PORT: port.default(8080),
  ADMIN_API_PORT: port.default(8081),
  WORKER_HEALTH_PORT: port.default(8082),
  PUBLIC_API_BASE_URL: z.url().optional(),
  /**
   * the admin API's URL as firewalls reach it: a policy rule on the risk feed configures the device to pull
   * `<FEED_BASE_URL>/feeds/v1/lists/…` (docs/feeds.md); default: the admin API on 127.0.0.1
   */
  FEED_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
  /**
   * PEM certificate (chain) and private key: set both and each API serves HTTPS itself, reloading the
   * files on SIGHUP (docs/security.md "HTTPS"). `pnpm start --tls` sets them to a local CA's certificate.
   */
  TLS_CERT_FILE: z.string().min(1).optional(),
  TLS_KEY_FILE: z.string().min(1).optional(),
  /**
   * how long an API keeps accepting connections after SIGTERM before it closes its listener (docs/reliability.md
   * "Fault suite"): a connection the client completed just before the signal may reach the server's accept queue
   * only later, and a balancer may route new ones for a moment after the pod began terminating. At most 5000: the
   * stop's deadline is 8 s from the signal
   */
  SHUTDOWN_ACCEPT_MS: z.coerce.number().int().min(0).max(5000).default(500),
  /** Strict-Transport-Security max-age on responses served over HTTPS (directly or via a TRUST_PROXY proxy) */
  HSTS_MAX_AGE_SECONDS: z.coerce.number().int().min(0).default(31_536_000),
  /** bearer token for the admin API's tenant management routes */
  ADMIN_API_TOKEN: z.string().min(24, 'must be at least 24 characters').optional(),
  /**
   * bearer token for GET /metrics on every process (docs/observability.md "Scraping"); unset, no
   * process serves metrics at all
   */
  METRICS_TOKEN: z.string().min(24, 'must be at least 24 characters').optional(),
  /** 32 bytes, base64 or hex: AES-256-GCM key for secrets at rest and the tenant-token signing key */
  SECRETS_KEY: z
    .string()
    .refine((v) => decodeKey(v) !== null, 'must be 32 bytes encoded as 64 hex characters or base64')
    .optional(),
  /**
   * Outbound guard exemptions, one comma list of hosts or CIDRs per purpose (docs/security.md "Outbound allow-lists
   * per purpose"): firewall connectors may then reach a listed loopback or link-local host (a local simulator);
   * webhooks a listed loopback or private one (a test receiver), whose replies a tenant is never shown.
   */
  OUTBOUND_ALLOWED_HOSTS_FIREWALL: z.string().default(''),
  OUTBOUND_ALLOWED_HOSTS_WEBHOOK: z.string().default(''),
  /** deprecated: counts for firewalls only (allowedHostsFor in outbound.ts), with a warning at boot */
  OUTBOUND_ALLOWED_HOSTS: z.string().default(''),
  /**
   * The networks tenants' firewalls may be in, comma-separated CIDRs (`10.20.0.0/16,fd00:1::/64`); connectors refuse
   * any other address before sending anything. Empty: any address the outbound guard allows for firewalls
   * (docs/security.md "Firewall targets"). Checked when the admin API and the worker start.
   */
  FIREWALL_ALLOWED_CIDRS: z.string().default(''),
  /** POST /firewalls/v1/{id}/test calls per firewall per minute (0: no limit; docs/security.md "Firewall replies") */
  FIREWALL_TESTS_PER_MINUTE: z.coerce.number().int().min(0).default(6),
  ENRICHMENT_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(16),
  ENRICHMENT_TTL_DAYS: z.coerce.number().positive().default(7),
  /**
   * the unprojected bulk backlog (signals) past which POST /v1/signals and /v1/signals/bulk answer 503 with
   * Retry-After before writing anything (docs/reliability.md "Admission control"); 0: no bound
   */
  PROJECTION_BACKLOG_MAX: z.coerce.number().int().min(0).default(20_000),
  /** an in-flight Idempotency-Key claim holds this long before a retry may take it over (docs/reliability.md) */
  IDEMPOTENCY_LEASE_MS: z.coerce.number().int().min(1000).default(IDEMPOTENCY_LEASE_MS),
  /** an org's observation of an asset stops counting this long after its latest signal (docs/security.md) */
  OBSERVATION_TTL_DAYS: z.coerce.number().positive().default(90),
  /**
   * signals are dropped by whole months once a month ends this long ago, except a month still holding some org's
   * latest observation (docs/scaling.md "Monthly partitions for signals and events"); unset: kept for good
   */
  SIGNAL_RETENTION_DAYS: z.coerce.number().int().positive().optional(),
  /**
   * Analysis (parse, rules, score, AI-BOM) runs in a worker-thread pool: its size (default min(2, cores))
   * and the per-job deadline after which the thread is terminated and the asset fails with
   * `analysis_timeout` (docs/security.md, "Analysis under a budget").
   */
  ENRICHMENT_THREADS: z.coerce.number().int().min(1).max(64).optional(),
  ENRICHMENT_JOB_TIMEOUT_MS: z.coerce.number().int().min(10).default(2000),
  /**
   * CPU each analysis thread spends running the engine over built-in samples before the worker takes jobs and reports
   * ready, so a freshly started worker drains at its warm rate (docs/performance.md "A cold worker"); 0: no warm-up
   */
  ENRICHMENT_WARMUP_MS: z.coerce.number().int().min(0).max(60_000).default(2000),
  TENANT_TOKEN_TTL_DAYS: z.coerce.number().positive().default(30),
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).default(10000),
  /** multiplies the webhook retry schedule and the 24 h disable window (docs/webhooks.md); tests use ~0.00001 */
  WEBHOOK_RETRY_SCALE: z.coerce.number().positive().max(1000).default(1),
  /**
   * express's `trust proxy`: which X-Forwarded-For hops are believed when taking the client address (the
   * per-IP failed-authentication limit keys on it). `false` (default): the socket's address, headers
   * ignored. A number: that many proxies in front (1 behind one load balancer). A comma list: the
   * proxies' addresses or CIDRs. `true` trusts every hop, which lets a client pick its own address:
   * only behind a proxy that overwrites the header (docs/security.md "Rate limits and caps").
   */
  TRUST_PROXY: z
    .string()
    .default('false')
    .transform((v, ctx): boolean | number | string[] => {
      const t = v.trim().toLowerCase();
      if (t === 'false' || t === '0' || t === 'no' || t === '') return false;
      if (t === 'true' || t === 'yes') return true;
      if (/^[1-9][0-9]?$/.test(t)) return Number(t);
      const list = t
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean);
      if (
        list.every(
          (x) => /^[0-9a-f.:]+(\/[0-9]{1,3})?$/.test(x) || ['loopback', 'linklocal', 'uniquelocal'].includes(x),
        )
      )
        return list;
      ctx.addIssue({ code: 'custom', message: 'must be true, false, a hop count or a comma list of addresses/CIDRs' });
      return z.NEVER;
    }),
  // ── rate limits and caps (docs/security.md "Rate limits and caps"); 0 turns a limit off ──
  /** master switch: false turns every rate limit off (benchmarks); the per-org caps stay */
  RATE_LIMIT_ENABLED: bool.default(true),
  /** requests per second per live API key (public API) */
  RATE_LIMIT_LIVE_PER_SECOND: z.coerce.number().int().min(0).default(100),
  /** requests per second per test API key (public API) */
  RATE_LIMIT_TEST_PER_SECOND: z.coerce.number().int().min(0).default(25),
  /** how many requests one POST /v1/signals/bulk counts as */
  RATE_LIMIT_BULK_WEIGHT: z.coerce.number().int().min(1).default(10),
  /** requests per second per tenant (tenant tokens) and for the operator's admin token (admin API) */
  RATE_LIMIT_ADMIN_PER_SECOND: z.coerce.number().int().min(0).default(25),
  /** failed authentications per client IP per window before that IP is refused (both APIs) */
  RATE_LIMIT_FAILED_AUTH_PER_IP: z.coerce.number().int().min(0).default(20),
  RATE_LIMIT_FAILED_AUTH_WINDOW_SECONDS: z.coerce.number().int().min(1).max(86_400).default(300),
  /** webhook endpoints per org in each mode (0: no cap) */
  WEBHOOK_ENDPOINTS_PER_ORG: z.coerce.number().int().min(0).default(16),
  /** threat creates and updates per org and mode per hour (0: no cap) */
  THREAT_WRITES_PER_ORG_PER_HOUR: z.coerce.number().int().min(0).default(1000),
  /** most assets one response may expand `aibom` for (look-up keys; list pages are at most 100) */
  EXPAND_AIBOM_MAX_ITEMS: z.coerce.number().int().min(1).default(100),
  /** the largest artifact upload in bytes (docs/artifacts.md "Settings"); past it 413 request_too_large */
  ARTIFACTS_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1)
    .default(2 * 2 ** 30),
  /** how long an upload waits for its scan before answering 202 `status: scanning` (the scan goes on) */
  ARTIFACTS_SCAN_WAIT_MS: z.coerce.number().int().min(0).default(30_000),
  /** a scan's lease, renewed while it runs; a scan whose lease ran out (its process died) is marked failed */
  ARTIFACTS_SCAN_LEASE_MS: z.coerce.number().int().min(1000).default(60_000),
  /** keep uploaded bytes in Postgres so a new analyser version re-scans them (off: bytes are dropped after the scan) */
  ARTIFACTS_KEEP_BYTES: bool.default(false),
  /** the directory of upload spill files (default: the OS temporary directory); each is removed when its scan ends */
  ARTIFACTS_SPILL_DIR: z.string().min(1).optional(),
  /** CPU time one upload scan may spend in its thread (docs/artifacts.md "Upload scans under a budget"); past it: unscannable */
  ARTIFACTS_SCAN_CPU_MS: z.coerce.number().int().min(100).default(120_000),
  /** scan threads per API replica (default: one per core, at most two) */
  ARTIFACTS_SCAN_THREADS: z.coerce.number().int().min(1).max(64).optional(),
  /** uploads one API replica receives and scans at once; past it 503 with Retry-After */
  ARTIFACTS_SCANS_PER_REPLICA: z.coerce.number().int().min(1).default(8),
  /** uploads one org has in flight at once across all replicas (Redis); past it 429 with Retry-After */
  ARTIFACTS_SCANS_PER_ORG: z.coerce.number().int().min(1).default(4),
  /** BullMQ lock duration and stalled-job check: how soon a job of a crashed worker runs again */
  WORKER_LOCK_DURATION_MS: z.coerce.number().int().min(1000).default(30000),
  WORKER_STALLED_INTERVAL_MS: z.coerce.number().int().min(500).default(30000),
  /**
   * first retry delay of a firewall_sync job (BullMQ exponential backoff: 1×, 2×, 4×, 8× over its 5 attempts;
   * docs/firewalls.md "Assignment sync states"); the fault suite shortens it so a removal spends its retries in seconds
   */
  FIREWALL_SYNC_BACKOFF_MS: z.coerce.number().int().min(10).default(5000),
  /**
   * the worker loads the shipped advisory feeds (the PyPA database) at start when the database lacks them
   * (docs/advisories.md "Feeds"); suites that start worker processes on scratch databases turn it off, since
   * each load is seconds of CPU that slows every other suite on the machine
   */
  ADVISORY_FEEDS_AUTOLOAD: bool.default(true),
  OUTBOX_RELAY_INTERVAL_MS: z.coerce.number().int().min(50).default(1000),
  MAINTENANCE_INTERVAL_MS: z.coerce.number().int().min(1000).default(3600_000),
  /** test-only: make each enrichment job take this long (crash-safety test kills a worker mid-job) */
  ENRICHMENT_TEST_DELAY_MS: z.coerce.number().int().min(0).default(0),
  /** test-only: a manifest carrying `#enrichment-test-busy` spins this long in its analysis thread (deadline tests) */
  ENRICHMENT_TEST_BUSY_MS: z.coerce.number().int().min(0).default(0),
});

export type Config = z.infer<typeof ConfigSchema> & { PUBLIC_API_BASE_URL: string; FEED_BASE_URL: string };

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

/** Parses the environment; throws ConfigError listing every missing or bad variable at once. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const result = ConfigSchema.safeParse(env);
  const problems = result.success ? [] : result.error.issues.map((i) => `${i.path.join('.') || '(env)'}: ${i.message}`);
  // checked on the raw env so the message lists these even when other variables are bad too
  if (env.NODE_ENV === 'production') {
    for (const key of ['ADMIN_API_TOKEN', 'SECRETS_KEY'] as const) {
      if (!env[key]) problems.push(`${key}: is required when NODE_ENV=production`);
    }
  }
  if (result.success && !result.data.TLS_CERT_FILE !== !result.data.TLS_KEY_FILE) {
    problems.push('TLS_CERT_FILE, TLS_KEY_FILE: set both (HTTPS) or neither (plain HTTP)');
  }
  if (!result.success || problems.length) throw new ConfigError(problems);
  const cfg = result.data;
  // deployment credentials hand out this URL: https when the public API serves TLS itself
  const scheme = cfg.TLS_CERT_FILE ? 'https' : 'http';
  return {
    ...cfg,
    PUBLIC_API_BASE_URL: cfg.PUBLIC_API_BASE_URL ?? `${scheme}://127.0.0.1:${cfg.PUBLIC_API_PORT}`,
    FEED_BASE_URL: cfg.FEED_BASE_URL ?? `${scheme}://127.0.0.1:${cfg.ADMIN_API_PORT}`,
  };
}

/** What a process logs as warnings at boot: settings that work but should change. */
export function configWarnings(
  cfg: Pick<Config, 'NODE_ENV' | 'OUTBOUND_ALLOWED_HOSTS' | 'OUTBOUND_ALLOWED_HOSTS_WEBHOOK'>,
): string[] {
  const warnings: string[] = [];
  if (cfg.OUTBOUND_ALLOWED_HOSTS.trim())
    warnings.push(
      'OUTBOUND_ALLOWED_HOSTS is deprecated and now exempts firewall hosts only; rename it to ' +
        'OUTBOUND_ALLOWED_HOSTS_FIREWALL (webhooks have their own list, OUTBOUND_ALLOWED_HOSTS_WEBHOOK)',
    );
  if (cfg.NODE_ENV === 'production' && cfg.OUTBOUND_ALLOWED_HOSTS_WEBHOOK.trim())
    warnings.push(
      "OUTBOUND_ALLOWED_HOSTS_WEBHOOK is set: every tenant's webhooks may reach the hosts it lists (their replies " +
        'are not shown to tenants); it is meant for tests and local receivers',
    );
  return warnings;
}

/** For process entry points: print the one clear message and exit 1 instead of a stack trace. */
export function loadConfigOrExit(env: NodeJS.ProcessEnv = process.env): Config {
  try {
    return loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
}

/** Secrets are optional outside production; code that needs them calls this. */
export function requireSecret(cfg: Config, key: 'ADMIN_API_TOKEN' | 'SECRETS_KEY'): string {
  const value = cfg[key];
  if (!value)
    throw new ConfigError([`${key}: is required (set it, or start through \`pnpm start\` which generates one)`]);
  return value;
}
