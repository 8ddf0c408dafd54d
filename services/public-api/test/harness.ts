import { randomUUID } from 'node:crypto';
import { mintApiKey } from '@risk/common/api-keys';
import { type Config } from '@risk/common/config';
import { ApiKeyAuthenticator } from '@risk/common/http';
import { QueueProducer } from '@risk/common/queue';
import { type Scope, SCOPES } from '@risk/contracts';
import { createTestContext, type TestContext } from '@risk/testing';
import { createApp, type PublicApiApp } from '../src/app';
import { drainProjections } from '../src/domain/signals/projector';
import { enrichmentEvents } from '../../worker/src/jobs/enrichment-events';

/**
 * One scratch database + Redis prefix per suite and the app built on them, with helpers to mint
 * real API keys (no mocks: auth, idempotency, ingest and the queue all run for real).
 */
export interface Harness {
  ctx: TestContext;
  app: PublicApiApp;
  producer: QueueProducer;
  authenticator: ApiKeyAuthenticator;
  orgId: string;
  /** a key with every scope for orgId */
  key: string;
  mintKey(opts?: { scopes?: Scope[]; orgId?: string; livemode?: boolean; expiresAt?: Date }): Promise<string>;
  /**
   * Another app on the same database and logger, with the harness's config, producer and authenticator unless
   * given (a second replica, an unreachable Redis, a config without a secret).
   */
  appWith(over: AppParts): PublicApiApp;
  close(): Promise<void>;
}

export interface AppParts {
  config?: Config;
  producer?: QueueProducer;
  authenticator?: ApiKeyAuthenticator;
}

export async function createHarness(
  label: string,
  opts: { redisUrl?: string; env?: Record<string, string>; beforeFirstQuery?: (ctx: TestContext) => void } = {},
): Promise<Harness> {
  const ctx = await createTestContext(label, opts.env);
  opts.beforeFirstQuery?.(ctx);
  const producer = new QueueProducer(
    { url: opts.redisUrl ?? ctx.redis.url, prefix: ctx.redis.prefix },
    `test-${label}`,
  );
  // a 0 ms cache so revocation tests see the change at once
  const authenticator = new ApiKeyAuthenticator(ctx.db.prisma, { cacheTtlMs: 0, lastUsedFlushMs: 60_000 });
  const appWith = (over: AppParts) =>
    createApp({
      config: over.config ?? ctx.config,
      prisma: ctx.db.prisma,
      pool: ctx.db.pool,
      producer: over.producer ?? producer,
      logger: ctx.logger,
      authenticator: over.authenticator ?? authenticator,
    });
  const app = appWith({});
  const orgId = `org_${label.replace(/[^a-z0-9]/gi, '').toLowerCase()}`;
  const mintKey: Harness['mintKey'] = async (o = {}) =>
    (
      await mintApiKey(ctx.db.prisma, {
        org_id: o.orgId ?? orgId,
        scopes: o.scopes ?? [...SCOPES],
        livemode: o.livemode ?? true,
        expires_at: o.expiresAt ?? null,
      })
    ).key;
  const key = await mintKey();
  return {
    ctx,
    app,
    producer,
    authenticator,
    orgId,
    key,
    mintKey,
    appWith,
    async close() {
      await authenticator.close();
      await producer.close();
      await ctx.close();
    },
  };
}

export const idem = () => randomUUID();

/**
 * Waits until every accepted bulk signal is applied to its asset (docs/reliability.md "Asset projection"): a
 * bulk 202 promises the signals are stored; their assets, org links, events and enrichment jobs follow within
 * the documented lag. Runs the production projector until nothing is pending (drainProjections, shared with
 * the worker's tests).
 */
export async function projected(h: Pick<Harness, 'ctx' | 'producer'>): Promise<void> {
  await drainProjections(projectorDeps(h));
}

/** What the projector needs, from the harness's context (the tests that drive the projector themselves). */
export function projectorDeps(h: Pick<Harness, 'ctx' | 'producer'>) {
  const { ctx, producer } = h;
  return { config: ctx.config, pool: ctx.db.pool, prisma: ctx.db.prisma, producer, logger: ctx.logger };
}

/** An authenticated POST with a fresh Idempotency-Key, as integrators send every write. */
export async function postJson(h: Harness, path: string, body: unknown, key = h.key) {
  const { default: request } = await import('supertest');
  return request(h.app)
    .post(path)
    .set('Authorization', `Bearer ${key}`)
    .set('Idempotency-Key', idem())
    .send(body as object);
}
export const nowSeconds = () => Math.floor(Date.now() / 1000);

let seq = 0;
/** A signal body shaped like a collector's report of an npm MCP server (samples/manifests/01-*). */
export function signalBody(orgId: string, over: Record<string, unknown> = {}): Record<string, unknown> {
  seq++;
  return {
    fingerprint: `sha256:${seq.toString(16).padStart(8, '0')}${randomUUID().replace(/-/g, '')}`,
    asset_type: 'mcp_server',
    org_id: orgId,
    observed_at: nowSeconds() - 60,
    name: '@modelcontextprotocol/server-filesystem',
    version: '2025.7.1',
    source_url: 'https://www.npmjs.com/package/@modelcontextprotocol/server-filesystem',
    raw_manifest: JSON.stringify({
      name: '@modelcontextprotocol/server-filesystem',
      version: '2025.7.1',
      bin: { 'mcp-server-filesystem': 'dist/index.js' },
    }),
    metadata: { collector: 'test', host: 'laptop-1' },
    ...over,
  };
}

/**
 * Does what the enrichment worker does for one asset (of `opts.livemode`, live by default), with the
 * real engine (@risk/enrichment) and THE production writer (writeEnrichment, @risk/db's enrichment
 * store, docs/data-access.md): combine every org's latest observation (enrichObservations), then store
 * findings, the AI-BOM and the asset's scores and status, with its events, in one transaction. Lets the
 * asset routes be tested without running the worker process. (No observation TTL here, and the
 * threats are the caller's: the worker's own tests cover both.)
 */
export async function enrichLikeWorker(
  h: Harness,
  fingerprint: string,
  opts: {
    threats?: Array<{
      id: string;
      title: string;
      category: string;
      severity: 'critical' | 'high' | 'medium' | 'low' | 'informational';
      risk_penalty: number;
      cve_id: string | null;
      attack_techniques: string[];
      remediation: string | null;
    }>;
    ecosystem?: string;
    livemode?: boolean;
  } = {},
): Promise<void> {
  const { enrichObservations, ADVISORY_CVE_IDS } = await import('@risk/enrichment');
  const { readCandidateThreats, recordOrgArtifactReports, writeEnrichment } = await import('@risk/db');
  const { prisma, pool: db } = h.ctx.db;
  const livemode = opts.livemode ?? true;
  const key = { livemode_fingerprint: { livemode, fingerprint } };
  const asset = await prisma.asset.findUniqueOrThrow({ where: key });
  const observations = await prisma.assetOrg.findMany({
    where: { livemode, fingerprint, latest_signal_id: { not: null } },
    orderBy: [{ last_seen: 'desc' }, { latest_signal_id: 'desc' }],
  });
  const signals = await prisma.signal.findMany({
    where: { id: { in: observations.map((o) => o.latest_signal_id!) } },
  });
  const byId = new Map(signals.map((s) => [s.id, s]));
  const now = new Date();
  const result = enrichObservations(
    observations.map((o) => {
      const signal = byId.get(o.latest_signal_id!)!;
      return {
        fingerprint,
        asset_type: signal.asset_type as 'mcp_server',
        name: signal.name,
        version: signal.version,
        source_url: signal.source_url,
        raw_manifest: signal.raw_manifest,
        metadata: signal.metadata as Record<string, unknown> | null,
      };
    }),
    {
      threats: opts.threats ?? [],
      publisher: { org_count: 1, signal_count: asset.signal_count, first_seen: asset.first_seen.toISOString() },
      now: now.toISOString(),
    },
  );
  if (opts.ecosystem !== undefined) result.ecosystem = opts.ecosystem;
  // the versions of the threats as the worker reads them, for the writer's "threats changed meanwhile" check
  const { stamps } = await readCandidateThreats(db, {
    livemode,
    fingerprint,
    asset_type: asset.asset_type,
    cve_ids: [...ADVISORY_CVE_IDS],
  });
  await writeEnrichment(db, {
    job: { livemode, fingerprint, digest: asset.latest_digest },
    asset,
    result,
    threatStamps: stamps,
    now,
    events: enrichmentEvents, // the worker's decision of which asset events a write records
  });
  // each org's own reported scan results, rebuilt from its latest signal as the worker's job does (docs/artifacts.md)
  await recordOrgArtifactReports(db, { livemode, fingerprint });
}

export const postSignal = (h: Harness, body: Record<string, unknown>, key = h.key) =>
  postJson(h, '/v1/signals', body, key);
