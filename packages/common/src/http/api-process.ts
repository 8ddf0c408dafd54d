// How an API process starts and stops (services/public-api and services/admin-api main.ts; docs/architecture.md):
// the config loaded once, the logger and tracing, the database, the service's own resources and app, the listener
// (HTTPS when TLS files are configured, reloaded on SIGHUP), and on SIGTERM/SIGINT a graceful stop in reverse order.
import type { Express } from 'express';
import { createPrisma, type DbHandle } from '@risk/db';
import { configWarnings, loadConfigOrExit, requireSecret, type Config } from '../config';
import { createLogger, type Logger } from '../logger';
import { startTracing } from '../telemetry/tracing';
import { closeServer, listenWithLimits, onShutdown, reloadTlsOnSighup, tlsFilesFrom } from './server';

/** What a service builds once its config, logger and database are up. */
export interface StartedApi {
  app: Express;
  /** runs first at shutdown, before the server stops accepting (e.g. /readyz answers 503 so a balancer drains) */
  draining?: () => void;
  /** closes the service's own resources, after the server and before the database */
  close(): Promise<void>;
}

export interface ApiProcess {
  /** `public-api` or `admin-api`: the logger's service, the tracer's name and the pool's application_name */
  service: string;
  port(config: Config): number;
  maxHeaderSize?: number;
  /** secrets the process refuses to start without */
  requiredSecrets?: ReadonlyArray<'ADMIN_API_TOKEN' | 'SECRETS_KEY'>;
  /**
   * `readDb` serves the reads that tolerate replication lag: a second pool on DATABASE_READ_URL, or `db` itself
   * when it is unset (docs/scaling.md "Read replicas")
   */
  start(ctx: { config: Config; logger: Logger; db: DbHandle; readDb: DbHandle }): Promise<StartedApi>;
}

export async function runApiProcess(spec: ApiProcess): Promise<void> {
  const config = loadConfigOrExit();
  for (const secret of spec.requiredSecrets ?? []) requireSecret(config, secret);
  const logger = createLogger({ service: spec.service, level: config.LOG_LEVEL });
  for (const warning of configWarnings(config)) logger.warn(warning);
  // off unless OTEL_EXPORTER_OTLP_ENDPOINT is set; off, no OpenTelemetry module is loaded (docs/observability.md)
  const tracing = startTracing({ serviceName: spec.service });
  const connect = (url: string) =>
    createPrisma({
      url,
      applicationName: spec.service,
      max: config.DATABASE_POOL_MAX,
      statementTimeoutMs: config.DATABASE_STATEMENT_TIMEOUT_MS,
      lockTimeoutMs: config.DATABASE_LOCK_TIMEOUT_MS,
      onPoolError: (err) => logger.warn('pg pool error', { err }),
    });
  const db = connect(config.DATABASE_URL);
  const readDb = config.DATABASE_READ_URL ? connect(config.DATABASE_READ_URL) : db;
  const started = await spec.start({ config, logger, db, readDb });
  const tls = tlsFilesFrom(config);
  const port = spec.port(config);
  const server = await listenWithLimits(started.app, { port, maxHeaderSize: spec.maxHeaderSize, tls });
  reloadTlsOnSighup(logger, server, tls);
  logger.info(`${spec.service.replace('-', ' ')} listening`, { port, protocol: tls ? 'https' : 'http' });
  onShutdown(logger, async () => {
    started.draining?.();
    await closeServer(server, { acceptMs: config.SHUTDOWN_ACCEPT_MS });
    await started.close();
    if (readDb !== db) await readDb.close();
    await db.close();
    await tracing.shutdown(); // exports the spans still buffered
  });
}
