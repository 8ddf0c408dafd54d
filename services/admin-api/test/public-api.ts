// The PUBLIC API app on the admin harness's database and Redis (docs/admin-api.md "API keys"): suites that mint a
// credential through the admin API check it there. Its key cache is off by default, so a revocation or a
// suspension is seen on the next request (production: within the 5 s cache).
import { randomUUID } from 'node:crypto';
import { ApiKeyAuthenticator } from '@risk/common/http';
import { QueueProducer } from '@risk/common/queue';
import { createApp as createPublicApp } from '@risk/public-api';
import { closedPort, createAdminHarness, type AdminHarness } from './harness';

export type PublicApp = ReturnType<typeof createPublicApp>;

export interface PublicApiOnHarness {
  app: PublicApp;
  producer: QueueProducer;
  /** another app on the same database and queue with its own key authenticator (the caller closes it) */
  appWith(authenticator: ApiKeyAuthenticator): PublicApp;
  close(): Promise<void>;
}

/** `queue` names the producer (one per suite). */
export function publicApiOn(h: AdminHarness, queue: string): PublicApiOnHarness {
  const producer = new QueueProducer({ url: h.ctx.redis.url, prefix: h.ctx.redis.prefix }, queue);
  const authenticator = new ApiKeyAuthenticator(h.ctx.db.prisma, { cacheTtlMs: 0, lastUsedFlushMs: 60_000 });
  const appWith = (a: ApiKeyAuthenticator) =>
    createPublicApp({
      config: h.ctx.config,
      prisma: h.ctx.db.prisma,
      pool: h.ctx.db.pool,
      producer,
      logger: h.ctx.logger,
      authenticator: a,
    });
  return {
    app: appWith(authenticator),
    producer,
    appWith,
    async close() {
      await authenticator.close();
      await producer.close();
    },
  };
}

/**
 * An admin harness whose PUBLIC_API_BASE_URL is a public API app (publicApiOn) listening on loopback, where the
 * console's public door forwards (console-session.test.ts, console-public-door.test.ts). `env` adds to the
 * harness's settings; close() stops the listener, the public API and the harness.
 */
export async function adminHarnessWithPublicApi(
  label: string,
  queue: string,
  env: Record<string, string> = {},
): Promise<{ h: AdminHarness; pub: PublicApiOnHarness; close(): Promise<void> }> {
  const port = await closedPort();
  const h = await createAdminHarness(label, { env: { PUBLIC_API_BASE_URL: `http://127.0.0.1:${port}`, ...env } });
  const pub = publicApiOn(h, queue);
  const server = pub.app.listen(port, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return {
    h,
    pub,
    async close() {
      await new Promise((resolve) => server.close(resolve));
      await pub.close();
      await h.close();
    },
  };
}

/** A signal of a fresh MCP server fingerprint for `orgId` (the filesystem server), with `extra` fields. */
export function mcpSignal(orgId: string, extra: Record<string, unknown> = {}) {
  return {
    fingerprint: `sha256:${randomUUID().replace(/-/g, '')}${randomUUID().replace(/-/g, '')}`,
    asset_type: 'mcp_server',
    org_id: orgId,
    observed_at: Math.floor(Date.now() / 1000) - 30,
    name: '@modelcontextprotocol/server-filesystem',
    version: '2025.7.1',
    ...extra,
  };
}
