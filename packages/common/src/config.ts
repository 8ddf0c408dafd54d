import { DEFAULT_LOCK_TIMEOUT_MS, DEFAULT_STATEMENT_TIMEOUT_MS } from '@risk/db';
import { z } from 'zod';

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
  /** bearer token for the admin API's tenant management routes */
  ADMIN_API_TOKEN: z.string().min(24, 'must be at least 24 characters').optional(),
  /** 32 bytes, base64 or hex: AES-256-GCM key for secrets at rest and the tenant-token signing key */
  SECRETS_KEY: z
    .string()
    .refine((v) => decodeKey(v) !== null, 'must be 32 bytes encoded as 64 hex characters or base64')
    .optional(),
  OUTBOUND_ALLOWED_HOSTS: z.string().default(''),
  ENRICHMENT_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(16),
  ENRICHMENT_TTL_DAYS: z.coerce.number().positive().default(7),
  /**
   * Analysis (parse, rules, score, AI-BOM) runs in a worker-thread pool: its size (default min(2, cores))
   * and the per-job deadline after which the thread is terminated and the asset fails with
   * `analysis_timeout` (docs/security.md, "Analysis under a budget").
   */
  ENRICHMENT_THREADS: z.coerce.number().int().min(1).max(64).optional(),
  ENRICHMENT_JOB_TIMEOUT_MS: z.coerce.number().int().min(10).default(2000),
  TENANT_TOKEN_TTL_DAYS: z.coerce.number().positive().default(30),
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).default(10000),
  /** multiplies the webhook retry schedule and the 24 h disable window (docs/webhooks.md); tests use ~0.00001 */
  WEBHOOK_RETRY_SCALE: z.coerce.number().positive().max(1000).default(1),
  TRUST_PROXY: bool.default(false),
  /** BullMQ lock duration and stalled-job check: how soon a job of a crashed worker runs again */
  WORKER_LOCK_DURATION_MS: z.coerce.number().int().min(1000).default(30000),
  WORKER_STALLED_INTERVAL_MS: z.coerce.number().int().min(500).default(30000),
  OUTBOX_RELAY_INTERVAL_MS: z.coerce.number().int().min(50).default(1000),
  MAINTENANCE_INTERVAL_MS: z.coerce.number().int().min(1000).default(3600_000),
  /** test-only: make each enrichment job take this long (crash-safety test kills a worker mid-job) */
  ENRICHMENT_TEST_DELAY_MS: z.coerce.number().int().min(0).default(0),
  /** test-only: a manifest carrying `#enrichment-test-busy` spins this long in its analysis thread (deadline tests) */
  ENRICHMENT_TEST_BUSY_MS: z.coerce.number().int().min(0).default(0),
});

export type Config = z.infer<typeof ConfigSchema> & { PUBLIC_API_BASE_URL: string };

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

export function decodeKey(value: string): Buffer | null {
  if (/^[0-9a-fA-F]{64}$/.test(value)) return Buffer.from(value, 'hex');
  const buf = Buffer.from(value, 'base64');
  return buf.length === 32 ? buf : null;
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
  if (!result.success || problems.length) throw new ConfigError(problems);
  const cfg = result.data;
  return { ...cfg, PUBLIC_API_BASE_URL: cfg.PUBLIC_API_BASE_URL ?? `http://127.0.0.1:${cfg.PUBLIC_API_PORT}` };
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
