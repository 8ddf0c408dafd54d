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
  producer: QueueProducer;
  logger: Logger;
  /** built by createApp when absent; main.ts passes its own so shutdown can flush last_used_at */
  authenticator?: ApiKeyAuthenticator;
  /** rate limits and per-org quotas (docs/security.md "Rate limits and caps"); built by createApp when absent */
  guard?: RequestGuard;
  /** the asset projector of this process (projector.ts), kicked after each bulk commit; main.ts starts it */
  projector?: { kick(): void };
}

/** Process state shared by the app and main.ts: readiness answers 503 once shutdown begins. */
export interface AppState {
  shuttingDown: boolean;
}
