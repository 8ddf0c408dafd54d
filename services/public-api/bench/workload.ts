/**
 * What `pnpm bench` (run.ts), the phases (phases.ts) and the profiling aid (profile.ts) send and run against: one
 * signal shape, so all measure the same requests, and the API started the same way.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mintApiKey } from '@risk/common/api-keys';
import { ApiKeyAuthenticator } from '@risk/common/http';
import { closeServer, listenWithLimits } from '@risk/common/server';
import { QueueProducer } from '@risk/common/queue';
import { SCOPES } from '@risk/contracts';
import { createPrisma, type DbHandle } from '@risk/db';
import { createTestContext, type TestContext } from '@risk/testing';
import { createApp } from '../src/app';
import type { AppDeps } from '../src/deps';
import { startProjector } from '../src/domain/signals/projector';

export const urlOf = (s: Server): string => `http://127.0.0.1:${(s.address() as AddressInfo).port}`;

/** A signal for asset `bench:<run>:<i>` of the size a collector sends (manifest and metadata included). */
export function benchSignal(orgId: string, i: number, run: string) {
  return {
    fingerprint: `bench:${run}:${i}`,
    asset_type: 'mcp_server',
    org_id: orgId,
    observed_at: Math.floor(Date.now() / 1000) - 60,
    name: `@bench/server-${i}`,
    version: '1.0.0',
    source_url: `https://www.npmjs.com/package/@bench/server-${i}`,
    raw_manifest: JSON.stringify({
      name: `@bench/server-${i}`,
      version: '1.0.0',
      dependencies: { '@modelcontextprotocol/sdk': '^1.0.0' },
    }),
    metadata: { collector: 'bench', host: `host-${i % 17}` },
  };
}

export interface BenchApi {
  ctx: TestContext;
  /** the API's database handle (its own pool with `ownPool`, else the context's) */
  db: DbHandle;
  /** what the API was built from (phases.ts runs the projection with it) */
  deps: AppDeps;
  server: Server;
  base: string;
  orgId: string;
  /** an all-scopes live key's authorization and JSON content type */
  headers: { authorization: string; 'content-type': string };
  close(): Promise<void>;
}

export interface BenchApiOptions {
  env?: Record<string, string>;
  /** the API gets its own pool sized as main.ts sizes it (DATABASE_POOL_MAX), not the test context's */
  ownPool?: boolean;
  /** false: no background projector (phases.ts runs the projection itself, to time it) */
  projector?: boolean;
  /** runs on the context before the API starts (e.g. to patch the pg client) */
  beforeStart?: (ctx: TestContext) => Promise<void>;
}

/** The public API on a scratch database, listening on a free port, with a key of org `org_bench`. */
export async function startBenchApi(label: string, opts: BenchApiOptions = {}): Promise<BenchApi> {
  const ctx = await createTestContext(label, { ENRICHMENT_TTL_DAYS: '7', ...opts.env }, { durable: true });
  await opts.beforeStart?.(ctx);
  const db = opts.ownPool
    ? createPrisma({ url: ctx.databaseUrl, applicationName: `${label}-public-api`, max: ctx.config.DATABASE_POOL_MAX })
    : ctx.db;
  const producer = new QueueProducer(ctx.redis, label);
  const authenticator = new ApiKeyAuthenticator(db.prisma);
  const deps = { config: ctx.config, prisma: db.prisma, pool: db.pool, producer, logger: ctx.logger, authenticator };
  // the asset projection runs in the API process as in production (main.ts), its CPU and pool shared
  const projector = opts.projector === false ? undefined : startProjector(deps);
  const app = createApp({ ...deps, ...(projector ? { projector } : {}) });
  const server = await listenWithLimits(app, { port: 0, host: '127.0.0.1' });
  const orgId = 'org_bench';
  const key = (await mintApiKey(ctx.db.prisma, { org_id: orgId, scopes: [...SCOPES], livemode: true })).key;
  return {
    ctx,
    db,
    deps,
    server,
    base: urlOf(server),
    orgId,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    async close() {
      await closeServer(server, { deadlineMs: 2000 });
      await projector?.stop();
      await authenticator.close();
      await producer.close();
      if (db !== ctx.db) await db.close();
      await ctx.close();
    },
  };
}

/**
 * Polls `countSql` (one row, column `n`) every `everyMs` until it counts 0, for at most `timeoutMs`: the benches
 * wait this way for the projection and for the outbox to drain before they time what comes next.
 */
export async function untilNone(
  pool: AppDeps['pool'],
  countSql: string,
  everyMs: number,
  timeoutMs = 60_000,
): Promise<void> {
  for (let waited = 0; waited < timeoutMs; waited += everyMs) {
    const { rows } = await pool.query<{ n: string }>(countSql);
    if (Number(rows[0]!.n) === 0) return;
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
