// The real stack for the console's browser test (docs/console.md "Tests"): a scratch database and Redis prefix
// (@risk/testing), the public API and admin-api on ephemeral 127.0.0.1 ports, and the worker that enriches
// what the test submits. Everything runs in this process; nothing is shared with other suites. With `tls`,
// admin-api serves HTTPS with those PEM files, as `pnpm start --tls` does (docs/console.md "Sign-in and access").
import { readFileSync } from 'node:fs';
import http, { type RequestListener } from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { ApiKeyAuthenticator } from '@risk/common/http';
import { type TlsFiles } from '@risk/common/server';
import { QueueProducer } from '@risk/common/queue';
import { createTestContext, freePort, type TestContext } from '@risk/testing';
import { createApp as createAdminApp } from '@risk/admin-api';
import { createApp as createPublicApp } from '@risk/public-api';
import { startWorker, type RunningWorker } from '@risk/worker';
import { closeAnalysisPools } from '@risk/worker/src/analysis/pool';

export interface ConsoleStack {
  ctx: TestContext;
  adminUrl: string;
  publicUrl: string;
  close(): Promise<void>;
}

async function serve(app: RequestListener, port: number, tls?: TlsFiles): Promise<http.Server> {
  const server = tls
    ? https.createServer({ cert: readFileSync(tls.certFile), key: readFileSync(tls.keyFile) }, app)
    : http.createServer(app);
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return server;
}

export async function startConsoleStack(opts: { tls?: TlsFiles } = {}): Promise<ConsoleStack> {
  const publicPort = await freePort();
  const ctx = await createTestContext('console_e2e', { PUBLIC_API_BASE_URL: `http://127.0.0.1:${publicPort}` });
  const producer = new QueueProducer({ url: ctx.redis.url, prefix: ctx.redis.prefix }, 'console-e2e');
  await producer.ping(3000); // connects (the producer has no offline queue)
  const authenticator = new ApiKeyAuthenticator(ctx.db.prisma);
  const publicServer = await serve(
    createPublicApp({
      config: ctx.config,
      prisma: ctx.db.prisma,
      pool: ctx.db.pool,
      producer,
      logger: ctx.logger,
      authenticator,
    }),
    publicPort,
  );
  const adminServer = await serve(
    createAdminApp({
      config: ctx.config,
      prisma: ctx.db.prisma,
      logger: ctx.logger,
      pingRedis: () => producer.ping(1000),
    }),
    0,
    opts.tls,
  );
  const worker: RunningWorker = startWorker({
    config: ctx.config,
    prisma: ctx.db.prisma,
    pool: ctx.db.pool,
    producer,
    logger: ctx.logger,
  });
  const close = (s: http.Server) =>
    new Promise((resolve) => {
      s.closeAllConnections();
      s.close(resolve);
    });
  return {
    ctx,
    adminUrl: `${opts.tls ? 'https' : 'http'}://127.0.0.1:${(adminServer.address() as AddressInfo).port}`,
    publicUrl: `http://127.0.0.1:${publicPort}`,
    async close() {
      await worker.close(5000);
      await closeAnalysisPools();
      await Promise.all([close(publicServer), close(adminServer)]);
      await authenticator.close();
      await producer.close();
      await ctx.close();
    },
  };
}
