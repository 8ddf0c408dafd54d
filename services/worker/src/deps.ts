import type { Config } from '@risk/common/config';
import type { Logger } from '@risk/common/observability';
import type { QueueProducer } from '@risk/common/queue';
import type { PrismaClient } from '@risk/db';
import type { Pool } from 'pg';

/** What every worker component receives: built once in main.ts (or a test) and passed down. */
export interface WorkerDeps {
  config: Config;
  prisma: PrismaClient;
  /** the pool Prisma uses, for raw multi-row statements (outbox relay, maintenance) */
  pool: Pool;
  producer: QueueProducer;
  logger: Logger;
}
