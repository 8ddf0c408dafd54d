import { randomUUID } from 'node:crypto';
import { mintApiKey } from '@risk/common/api-keys';
import { type Config } from '@risk/common/config';
import { QueueProducer } from '@risk/common/queue';
import { SCOPES } from '@risk/contracts';
import { createApp, type PublicApiApp } from '@risk/public-api';
import { createTestContext, scaledByLoad, waitFor, type TestContext } from '@risk/testing';
import request from 'supertest';
import type { WorkerDeps } from '../src';

/**
 * A scratch database + Redis prefix, the real public API on top (signals go in the way integrators
 * send them) and the deps to run the worker in-process against the same database and queues.
 */
export interface WorkerHarness {
  ctx: TestContext;
  app: PublicApiApp;
  producer: QueueProducer;
  deps: WorkerDeps;
  orgId: string;
  key: string;
  /** POST /v1/signals for the harness org, with its live key unless another is given */
  submit(body: Record<string, unknown>, key?: string): Promise<request.Response>;
  /** a key of the harness org in test mode (a plain-http receiver needs test mode: live mode requires https) */
  mintTestKey(): Promise<string>;
  /** POST /v1/webhooks with `key`: an endpoint for every event type (expects 201); its body, the secret included */
  subscribe(url: string, key: string): Promise<{ id: string; secret: string }>;
  /** waits for the asset (live unless livemode is false) to satisfy pred */
  waitForAsset(
    fingerprint: string,
    pred: (a: { enrichment_status: string; enriched_digest: string | null; latest_digest: string }) => boolean,
    timeoutMs?: number,
    livemode?: boolean,
  ): Promise<void>;
  close(): Promise<void>;
}

export async function createWorkerHarness(label: string, env: Record<string, string> = {}): Promise<WorkerHarness> {
  const ctx = await createTestContext(label, {
    // short, so a killed worker's job is taken back quickly; stretched by the load, so a busy machine that delays
    // the lock's renewal (every half lock) does not make a live job look stalled and run it twice
    WORKER_LOCK_DURATION_MS: String(scaledByLoad(2000)),
    WORKER_STALLED_INTERVAL_MS: String(scaledByLoad(1000)),
    OUTBOX_RELAY_INTERVAL_MS: '200',
    ...env,
  });
  const producer = new QueueProducer(ctx.redis, `test-${label}`);
  const config: Config = ctx.config;
  const app = createApp({ config, prisma: ctx.db.prisma, pool: ctx.db.pool, producer, logger: ctx.logger });
  const orgId = `org_${label.replace(/[^a-z0-9]/gi, '')}`;
  const { key } = await mintApiKey(ctx.db.prisma, { org_id: orgId, scopes: [...SCOPES], livemode: true });
  const deps: WorkerDeps = { config, prisma: ctx.db.prisma, pool: ctx.db.pool, producer, logger: ctx.logger };
  return {
    ctx,
    app,
    producer,
    deps,
    orgId,
    key,
    submit: (body, submitKey = key) =>
      request(app)
        .post('/v1/signals')
        .set('Authorization', `Bearer ${submitKey}`)
        .set('Idempotency-Key', randomUUID())
        .send({ org_id: orgId, observed_at: Math.floor(Date.now() / 1000) - 5, ...body }),
    async mintTestKey() {
      return (await mintApiKey(ctx.db.prisma, { org_id: orgId, scopes: [...SCOPES], livemode: false })).key;
    },
    async subscribe(url, endpointKey) {
      const res = await request(app)
        .post('/v1/webhooks')
        .set('Authorization', `Bearer ${endpointKey}`)
        .set('Idempotency-Key', randomUUID())
        .send({ url, events: ['*'] });
      expect(res.status).toBe(201);
      return res.body as { id: string; secret: string };
    },
    async waitForAsset(fingerprint, pred, timeoutMs = 20_000, livemode = true) {
      await waitFor(
        `asset ${fingerprint} to reach the expected state`,
        async () => {
          const asset = await ctx.db.prisma.asset.findUnique({
            where: { livemode_fingerprint: { livemode, fingerprint } },
            select: { enrichment_status: true, enriched_digest: true, latest_digest: true },
          });
          return asset && pred(asset);
        },
        timeoutMs,
      );
    },
    async close() {
      await producer.close();
      await ctx.close();
    },
  };
}

// the one polling helper of the test suites, for the worker tests that import from here
export { waitFor };

/** A Hugging Face model card in the shape of the samples (front matter + body), pickle weights listed. */
export function modelCardManifest(extra = ''): string {
  return [
    '---',
    'license: apache-2.0',
    'base_model: meta-llama/Llama-2-7b-hf',
    'base_model_relation: finetune',
    'datasets:',
    '  - tatsu-lab/alpaca',
    'library_name: transformers',
    '---',
    '# acme/llama-2-7b-alpaca',
    'Fine-tuned on alpaca. Weights: pytorch_model.bin',
    extra,
  ].join('\n');
}
