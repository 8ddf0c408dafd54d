import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import IORedis from 'ioredis';
import { loadConfig, type Config } from '@risk/common/config';
import { createLogger, type Logger } from '@risk/common/observability';
import {
  createPrisma,
  ensureDatabase,
  ensureMigratedTemplate,
  dropDatabase,
  migrate,
  readMigrations,
  withDatabase,
  type DbHandle,
} from '@risk/db';
import { createHash } from 'node:crypto';

/**
 * Per-suite isolation for integration tests: a scratch database cloned from a migrated template
 * (so a suite starts in ~100 ms) and a Redis key prefix, both removed by close(). Suites can run in
 * parallel and twice in a row without cleanup.
 */
export const BASE_DATABASE_URL =
  process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

export interface TestContext {
  config: Config;
  databaseUrl: string;
  db: DbHandle;
  redis: { url: string; prefix: string };
  logger: Logger;
  /** every JSON log line the suite's logger wrote (for "secrets never logged" assertions) */
  logLines: string[];
  close(): Promise<void>;
}

function templateName(): string {
  const digest = createHash('sha256')
    .update(
      readMigrations()
        .map((m) => `${m.name}:${m.checksum}`)
        .join('\n'),
    )
    .digest('hex')
    .slice(0, 16);
  return `risk_tpl_${digest}`;
}

async function ensureTemplate(): Promise<string> {
  const name = templateName();
  await ensureMigratedTemplate(BASE_DATABASE_URL, name);
  return name;
}

export interface ScratchOptions {
  /**
   * Commit as production does, waiting for the WAL flush (benchmarks). Tests leave it off: their scratch databases
   * commit asynchronously, which saves most of an integration suite's database time (@risk/db ensureDatabase).
   */
  durable?: boolean;
}

export async function createScratchDatabase(label: string, opts: ScratchOptions = {}): Promise<string> {
  const template = await ensureTemplate();
  const dbName = `risk_t_${label
    .replace(/[^a-z0-9]/gi, '')
    .toLowerCase()
    .slice(0, 20)}_${randomBytes(4).toString('hex')}`;
  const url = withDatabase(BASE_DATABASE_URL, dbName);
  for (let attempt = 0; ; attempt++) {
    try {
      await ensureDatabase(url, { template, asyncCommit: !opts.durable });
      return url;
    } catch (err) {
      // 55006: template briefly in use by another CREATE DATABASE; retry
      if ((err as { code?: string }).code !== '55006' || attempt > 20) throw err;
      await new Promise((r) => setTimeout(r, 100 + Math.random() * 200));
    }
  }
}

export async function deleteRedisPrefix(url: string, prefix: string): Promise<void> {
  const redis = new IORedis(url, { maxRetriesPerRequest: 1 });
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

/**
 * The environment a service process started by a test needs to use the suite's scratch database, Redis prefix and
 * secrets key (the child's own settings go on top).
 */
export function serviceProcessEnv(ctx: Pick<TestContext, 'config' | 'databaseUrl' | 'redis'>): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: 'test',
    DATABASE_URL: ctx.databaseUrl,
    REDIS_URL: ctx.redis.url,
    REDIS_PREFIX: ctx.redis.prefix,
    SECRETS_KEY: ctx.config.SECRETS_KEY!,
  };
}

export async function createTestContext(
  label: string,
  env: Record<string, string> = {},
  opts: ScratchOptions = {},
): Promise<TestContext> {
  const databaseUrl = await createScratchDatabase(label, opts);
  const prefix = `test-${label.replace(/[^a-z0-9]/gi, '')}-${randomBytes(4).toString('hex')}`;
  const config = loadConfig({
    NODE_ENV: 'test',
    DATABASE_URL: databaseUrl,
    REDIS_URL: TEST_REDIS_URL,
    REDIS_PREFIX: prefix,
    ADMIN_API_TOKEN: randomBytes(24).toString('hex'),
    SECRETS_KEY: randomBytes(32).toString('hex'),
    OUTBOUND_ALLOWED_HOSTS_FIREWALL: '127.0.0.1,localhost,::1',
    OUTBOUND_ALLOWED_HOSTS_WEBHOOK: '127.0.0.1,localhost,::1',
    LOG_LEVEL: 'silent',
    // suites send bursts from one address with one key: limits far above them keep the limiter's code
    // path running without making suites flaky; the rate-limit suites pass real low limits in `env`
    RATE_LIMIT_LIVE_PER_SECOND: '1000000',
    RATE_LIMIT_TEST_PER_SECOND: '1000000',
    RATE_LIMIT_ADMIN_PER_SECOND: '1000000',
    RATE_LIMIT_FAILED_AUTH_PER_IP: '1000000',
    THREAT_WRITES_PER_ORG_PER_HOUR: '1000000',
    FIREWALL_TESTS_PER_MINUTE: '1000000',
    ...env,
  });
  const logLines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, cb) {
      logLines.push(chunk.toString());
      cb();
    },
  });
  const logger = createLogger({ service: `test-${label}`, level: 'debug', stream });
  // keep test output quiet: the console transport is dropped, the capture stream stays
  logger.transports.filter((t) => t.constructor.name === 'Console').forEach((t) => logger.remove(t));
  const db = createPrisma({
    url: databaseUrl,
    applicationName: `test-${label}`,
    max: 5,
    statementTimeoutMs: config.DATABASE_STATEMENT_TIMEOUT_MS,
    lockTimeoutMs: config.DATABASE_LOCK_TIMEOUT_MS,
  });
  return {
    config,
    databaseUrl,
    db,
    redis: { url: TEST_REDIS_URL, prefix },
    logger,
    logLines,
    async close() {
      await db.close();
      await dropDatabase(databaseUrl).catch(() => undefined);
      await deleteRedisPrefix(TEST_REDIS_URL, prefix).catch(() => undefined);
    },
  };
}

export { migrate };

export * from './wait-for';
// per-test timeouts of the suites that pass their own, stretched like every suite's default (./jest-load-timeout.ts)
export { scaledByLoad } from '@risk/time-budget';
export * from './metrics';
export * from './openapi-responses';
export * from './json-schema';
export * from './vex-schemas';
export * from './openapi-examples';
export * from './start-process';
export * from './health-probe';
export * from './bench';
export * from './artifact-upload';
