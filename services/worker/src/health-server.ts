import http from 'node:http';
import { serveMetricsOnNodeServer } from '@risk/common/observability';
import { withTimeout } from '@risk/common/queue';
import { pingDatabase } from '@risk/db';
import type { WorkerDeps } from './deps';
import type { RunningWorker } from './worker';

/**
 * The worker's one port (WORKER_HEALTH_PORT): GET /healthz for the orchestrator's probe and, when
 * METRICS_TOKEN is set, GET /metrics for Prometheus (docs/observability.md "Scraping").
 */
export async function startHealthServer(
  deps: WorkerDeps,
  running: RunningWorker,
  listen: { port: number; host?: string },
): Promise<http.Server> {
  const { port, host = '0.0.0.0' } = listen;
  const server = http.createServer((req, res) => {
    void answer({ deps, running }, req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  return server;
}

async function answer(
  worker: { deps: WorkerDeps; running: RunningWorker },
  req: http.IncomingMessage,
  res: http.ServerResponse,
): Promise<void> {
  const { deps, running } = worker;
  if (await serveMetricsOnNodeServer(req, res, deps.config.METRICS_TOKEN)) return;
  if (req.url !== '/healthz') {
    res.writeHead(404).end();
    return;
  }
  const [postgres, redis] = await Promise.all([
    withTimeout(pingDatabase(deps.pool), 1000, 'pg').then(
      () => 'ok',
      () => 'unavailable',
    ),
    deps.producer.ping(1000).then((ok) => (ok ? 'ok' : 'unavailable')),
  ]);
  const ok = postgres === 'ok' && redis === 'ok';
  res.writeHead(ok ? 200 : 503, { 'content-type': 'application/json' });
  res.end(
    JSON.stringify({
      status: ok ? 'ok' : 'unavailable',
      checks: { postgres, redis },
      queues: running.workers.map((w) => w.name),
    }),
  );
}
