import type { Config } from '@risk/common/config';
import type { ApiKeyAuthenticator, RequestGuard } from '@risk/common/http';
import type { Logger } from '@risk/common/observability';
import type { QueueProducer } from '@risk/common/queue';
import type { DbHandle, PrismaClient } from '@risk/db';

/** Everything the public API needs from the outside world; tests build it from createTestContext. */
export interface AppDeps {
  config: Config;
  prisma: PrismaClient;
  /** the pool Prisma uses: raw multi-row statements on hot paths (ingest, look-up) */
  pool: DbHandle['pool'];
  /**
   * the clients of reads that tolerate replication lag: DATABASE_READ_URL's replica in main.ts; absent, the primary's
   * (`prisma` and `pool`). Only use cases that ask for it by name (readDbOf) read there (docs/scaling.md "Read replicas")
   */
  readDb?: ReadDb;
  producer: QueueProducer;
  logger: Logger;
  /** built by createApp when absent; main.ts passes its own so shutdown can flush last_used_at */
  authenticator?: ApiKeyAuthenticator;
  /** rate limits and per-org quotas (docs/security.md "Rate limits and caps"); built by createApp when absent */
  guard?: RequestGuard;
  /**
   * the asset projector of this process (projector.ts), kicked after each bulk commit, and its last count of the
   * backlog, which admission control bounds (docs/reliability.md "Admission control"); main.ts starts it
   */
  projector?: { kick(): void; backlog(): number | undefined };
}

/** A Prisma client and its pool, both on one Postgres server (the primary or a streaming replica). */
export type ReadDb = Pick<DbHandle, 'prisma' | 'pool'>;

/** What a lag-tolerant use case (a list, search, export, download or the overview) takes from AppDeps. */
export type ReadDeps = Pick<AppDeps, 'prisma' | 'pool' | 'readDb'>;

/**
 * The clients a lag-tolerant read uses: the replica's when one is configured. Reads right after the caller's own write
 * (GET by id, idempotent replays), authentication, rate limits and anything in a transaction never call this: they
 * stay on the primary (docs/scaling.md "Read replicas").
 */
export function readDbOf(deps: ReadDeps): ReadDb {
  return deps.readDb ?? { prisma: deps.prisma, pool: deps.pool };
}

/** Process state shared by the app and main.ts: readiness answers 503 once shutdown begins. */
export interface AppState {
  shuttingDown: boolean;
}
