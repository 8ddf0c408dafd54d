// What the admin use cases need from the outside world; each takes the part it uses: `(deps, input)`.
import type { Config } from '@risk/common/config';
import type { Logger } from '@risk/common/observability';
import type { AllowList } from '@risk/common/outbound';
import type { PrismaClient } from '@risk/db';
import type { TenantTokenSigner } from '../auth';
import type { FirewallConnection, FirewallConnector } from '@risk/firewalls';
import type { FeedCache } from './feeds/feed-cache';

export interface FirewallDeps {
  secretsKey: string;
  allowList: AllowList;
  connectorFor: (connection: FirewallConnection) => FirewallConnector;
}

export interface AdminDeps {
  config: Config;
  prisma: PrismaClient;
  /**
   * the client of reads that tolerate replication lag (the risk feeds): DATABASE_READ_URL's replica, or `prisma`
   * when it is unset (docs/scaling.md "Read replicas")
   */
  readPrisma: PrismaClient;
  logger: Logger;
  /** signs and verifies tenant tokens (auth.ts) */
  signer: TenantTokenSigner;
  /** TENANT_TOKEN_TTL_DAYS: the lifetime of a tenant token minted without expires_in_days */
  tenantTokenTtlDays: number;
  firewalls: FirewallDeps;
  /** rendered risk feeds, kept briefly (docs/feeds.md "Caching") */
  feedCache: FeedCache;
}

export type PrismaDeps = Pick<AdminDeps, 'prisma'>;
