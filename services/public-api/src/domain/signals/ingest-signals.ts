import {
  ApiError,
  canonicalJson,
  enqueueDeliveries,
  isIdempotencyConflict,
  newId,
  ID_PREFIXES,
  releaseIdempotencyKey,
  resolveTakenKey,
  sha256Hex,
  type ApiKeyPrincipal,
  type EnrichmentJob,
  type FannedOutDelivery,
  type IdempotencyRequest,
  type StoredResponse,
} from '@risk/common';
import type { CreateSignalBody, SignalAccepted } from '@risk/contracts';
import { normalizeAssetName } from '@risk/enrichment';
import type { QueryResult } from 'pg';
import type { AppDeps } from '../../deps';
import { renderAsset, type AssetRow } from '../assets/render';
import { decideEnrichment, type EnrichmentDecision, type PreviousAssetState } from './enrichment-decision';
import { enrichmentEnqueuer } from './enqueuer';
import { ensurePrepared, sql, type AssetWrite } from './ingest-statements';
import { renderSignal, type SignalRow } from './render-signal';

export { ENQUEUE_TIMEOUT_MS } from './enqueuer';

export interface IngestInput {
  auth: ApiKeyPrincipal;
  requestId: string;
  signals: CreateSignalBody[];
  /** bulk: error params are prefixed `signals[i].` */
  bulk: boolean;
}

export interface IngestResult {
  signals: SignalAccepted[];
  enrichmentQueued: number;
}

/** sha256 of the canonical JSON of the content enrichment reads (DESIGN.md §3). */
export function contentDigest(s: CreateSignalBody): string {
  return sha256Hex(
    canonicalJson({
      asset_type: s.asset_type,
      name: s.name ?? null,
      version: s.version ?? null,
      source_url: s.source_url ?? null,
      raw_manifest: s.raw_manifest ?? null,
      metadata: s.metadata ?? null,
    }),
  );
}

interface AssetAggregate {
  fingerprint: string;
  asset_type: string;
  name: string | null;
  version: string | null;
  source_url: string | null;
  latest_signal_id: string;
  latest_digest: string;
  count: number;
  first_seen: Date;
  last_seen: Date;
}

/** How the route answers a stored batch: the status and the body built from the result. */
export interface IngestResponse {
  status: number;
  render: (result: IngestResult) => unknown;
}

export type IngestOutcome =
  | { kind: 'stored'; status: number; json: string; result: IngestResult }
  | { kind: 'replay'; stored: StoredResponse };

/**
 * Stores 1–500 signals in ONE transaction with multi-row statements (a fixed number of statements
 * whatever the batch size): signals, assets (new ones inserted with ON CONFLICT so concurrent first
 * signals never fail; existing ones locked in fingerprint order and updated), asset_orgs, outbox rows
 * for the enrichments the trigger rules ask for, asset.created events and their webhook fan-out.
 *
 * Hot path: the statements go to Postgres as two multi-statement simple queries (values inlined as
 * escaped literals), i.e. two round trips and one commit per request:
 *   1. [claim the Idempotency-Key and commit the claim;] BEGIN; insert signals; insert new assets;
 *      lock the batch's assets (a new statement, so it sees an asset a concurrent request just created)
 *   2. update existing assets; asset_orgs; outbox; events + fan-out; [store the 2xx response on the
 *      claim;] COMMIT
 * The claim is committed on its own (before the ingest transaction) so a concurrent duplicate sees it
 * and gets 409; the response is stored in the ingest transaction, so a committed batch always replays.
 * After commit the jobs go to the batching enqueuer (one addBulk and one outbox UPDATE shared by the
 * requests that committed meanwhile; a single signal waits for that flush, a bulk batch does not); if
 * Redis is down the rows stay unprocessed for the worker's outbox relay and the request still succeeds.
 */
export async function ingestSignals(deps: AppDeps, input: IngestInput, respond: IngestResponse, idem?: IdempotencyRequest): Promise<IngestOutcome> {
  const { auth } = input;
  input.signals.forEach((s, i) => {
    if (s.org_id !== auth.org_id) {
      const param = input.bulk ? `signals[${i}].org_id` : 'org_id';
      throw new ApiError('org_mismatch', { param, message: `${param} must equal the API key's org (${auth.org_id}).` });
    }
    // statements carry values as literals: a NUL byte cannot travel in SQL text (nor be stored in text)
    for (const field of NUL_CHECKED_FIELDS) {
      const v = s[field];
      if (typeof v === 'string' && v.includes('\u0000')) {
        const param = input.bulk ? `signals[${i}].${field}` : field;
        throw new ApiError('parameter_invalid', { param, message: `${param} must not contain NUL characters.` });
      }
    }
  });

  for (let attempt = 0; ; attempt++) {
    try {
      return await ingestOnce(deps, input, respond, idem);
    } catch (err) {
      if (!(idem && err instanceof KeyTaken)) throw err;
      const stored = await resolveTakenKey(deps.pool, idem);
      if (stored) return { kind: 'replay', stored };
      // released or expired meanwhile: claim again (once)
      if (attempt >= 1) throw new ApiError('idempotency_key_in_use', { message: 'Could not claim the Idempotency-Key; retry.' });
    }
  }
}

const NUL_CHECKED_FIELDS = ['name', 'version', 'source_url', 'raw_manifest', 'org_id', 'fingerprint'] as const;

class KeyTaken extends Error {}

async function ingestOnce(deps: AppDeps, input: IngestInput, respond: IngestResponse, idem?: IdempotencyRequest): Promise<IngestOutcome> {
  const { auth } = input;
  const now = new Date();
  const rows: SignalRow[] = input.signals.map((s) => ({
    id: newId(ID_PREFIXES.signal, now.getTime()),
    org_id: auth.org_id,
    livemode: auth.livemode,
    fingerprint: s.fingerprint,
    asset_type: s.asset_type,
    observed_at: new Date(s.observed_at * 1000),
    name: s.name ?? null,
    version: s.version ?? null,
    source_url: s.source_url ?? null,
    raw_manifest: s.raw_manifest ?? null,
    metadata: s.metadata ?? null,
    content_digest: contentDigest(s),
    created: now,
  }));

  // one aggregate per asset: the batch's last signal is the asset's latest observation
  const byFingerprint = new Map<string, AssetAggregate>();
  for (const r of rows) {
    const a = byFingerprint.get(r.fingerprint);
    if (!a) {
      byFingerprint.set(r.fingerprint, {
        fingerprint: r.fingerprint,
        asset_type: r.asset_type,
        name: r.name,
        version: r.version,
        source_url: r.source_url,
        latest_signal_id: r.id,
        latest_digest: r.content_digest,
        count: 1,
        first_seen: r.observed_at,
        last_seen: r.observed_at,
      });
      continue;
    }
    a.name = r.name ?? a.name;
    a.version = r.version ?? a.version;
    a.source_url = r.source_url ?? a.source_url;
    a.latest_signal_id = r.id;
    a.latest_digest = r.content_digest;
    a.count++;
    if (r.observed_at < a.first_seen) a.first_seen = r.observed_at;
    if (r.observed_at > a.last_seen) a.last_seen = r.observed_at;
  }
  // a fixed lock order across concurrent batches avoids deadlocks
  const assets = [...byFingerprint.values()].sort((x, y) => (x.fingerprint < y.fingerprint ? -1 : x.fingerprint > y.fingerprint ? 1 : 0));

  const decisions = new Map<string, EnrichmentDecision>();
  const newAssetRows: AssetRow[] = [];
  const jobs: EnrichmentJob[] = [];
  let outboxIds: string[] = [];
  let deliveries: FannedOutDelivery[] = [];
  let json: string;
  let result: IngestResult;

  const T: number[] = [performance.now()];
  const client = await deps.pool.connect();
  T.push(performance.now());
  let began = false;
  let claimCommitted = false;
  let broken: Error | undefined;
  try {
    try {
      await ensurePrepared(client);
    } catch (err) {
      broken = err as Error; // half-prepared: never hand this connection out again
      throw err;
    }
    // ── round trip 1 ──
    const writes: AssetWrite[] = assets.map((a) => ({ ...a, normalized_name: normalized(a.name) }));
    const first: string[] = [];
    // The claim commits on its own so a concurrent duplicate sees it (409) at once. It need not wait for
    // its WAL flush: the ingest's synchronous COMMIT below flushes it too, and a claim lost in a crash
    // before that only frees the key, which is what a failed request does anyway.
    if (idem) first.push('BEGIN', 'SET LOCAL synchronous_commit = off', sql.claim(idem), 'COMMIT');
    first.push(
      'BEGIN',
      sql.insertSignals(auth.org_id, auth.livemode, input.requestId, now, rows),
      sql.insertNewAssets(now, writes),
      sql.lockAssets(assets.map((a) => a.fingerprint)),
    );
    let r1: QueryResult[];
    try {
      r1 = (await client.query(first.join(';\n'))) as unknown as QueryResult[];
    } catch (err) {
      began = true; // whatever ran is rolled back below
      if (idem && isIdempotencyConflict(err)) throw new KeyTaken();
      claimCommitted = idem !== undefined; // the claim may have committed before the failing statement
      throw err;
    }
    began = true; T.push(performance.now());
    claimCommitted = idem !== undefined;
    const offset = idem ? 4 : 0;
    const inserted = new Set(r1[offset + 2]!.rows.map((r: { fingerprint: string }) => r.fingerprint));
    const locked = new Map((r1[offset + 3]!.rows as Array<PreviousAssetState & { fingerprint: string }>).map((r) => [r.fingerprint, r]));

    const existing: AssetWrite[] = [];
    for (const a of writes) {
      if (inserted.has(a.fingerprint)) {
        decisions.set(a.fingerprint, decideEnrichment(null, a.latest_digest, now, deps.config.ENRICHMENT_TTL_DAYS));
        newAssetRows.push(newAssetRow(a, now));
        continue;
      }
      const p = locked.get(a.fingerprint);
      if (!p) throw new Error(`asset ${a.fingerprint} vanished inside the ingest transaction`);
      decisions.set(a.fingerprint, decideEnrichment(p, a.latest_digest, now, deps.config.ENRICHMENT_TTL_DAYS));
      existing.push(a);
    }
    for (const a of assets) {
      const d = decisions.get(a.fingerprint)!;
      if (d.status === 'queued') jobs.push({ fingerprint: a.fingerprint, digest: a.latest_digest, reason: d.reason });
    }

    const accepted = rows.map((r): SignalAccepted => {
      const agg = byFingerprint.get(r.fingerprint)!;
      const d = decisions.get(r.fingerprint)!;
      const superseded = agg.latest_signal_id !== r.id && agg.latest_digest !== r.content_digest;
      return {
        ...renderSignal(r),
        enrichment: superseded ? { status: 'skipped', reason: 'superseded_in_batch' } : { status: d.status, reason: d.reason },
      };
    });
    result = { signals: accepted, enrichmentQueued: jobs.length };
    json = JSON.stringify(respond.render(result));

    // ── round trip 2 ──
    const second: Array<{ tag: string; sql: string }> = [];
    if (existing.length > 0) {
      const next = existing.map((a) => decisions.get(a.fingerprint)!.nextStatus);
      second.push({ tag: 'update', sql: sql.updateExistingAssets(now, existing, next) });
    }
    second.push({ tag: 'asset_orgs', sql: sql.upsertAssetOrgs(auth.org_id, now, writes) });
    if (jobs.length > 0) second.push({ tag: 'outbox', sql: sql.insertOutbox(jobs) });
    if (newAssetRows.length > 0) {
      const eventIds = newAssetRows.map(() => newId(ID_PREFIXES.event, now.getTime()));
      // asset.created goes to the webhooks of the orgs that submitted the asset (same transaction)
      const data = newAssetRows.map((a) => JSON.stringify({ object: renderAsset(a) }));
      second.push({ tag: 'events', sql: sql.insertAssetCreatedEvents(auth.livemode, now, eventIds, newAssetRows.map((a) => a.fingerprint), data) });
      second.push({ tag: 'fanout', sql: sql.fanOut(eventIds) });
    }
    if (idem) second.push({ tag: 'complete', sql: sql.complete(idem, respond.status, json) });
    second.push({ tag: 'commit', sql: 'COMMIT' });
    const r2 = (await client.query(second.map((q) => q.sql).join(';\n'))) as unknown as QueryResult[];
    began = false; T.push(performance.now());
    claimCommitted = false;
    second.forEach((q, i) => {
      if (q.tag === 'outbox') outboxIds = r2[i]!.rows.map((r: { id: string }) => String(r.id));
      if (q.tag === 'fanout') {
        deliveries = (r2[i]!.rows as Array<{ delivery_id: string; outbox_id: string }>).map((r) => ({
          delivery_id: r.delivery_id,
          outbox_id: BigInt(r.outbox_id),
        }));
      }
    });
  } catch (err) {
    if (began) await client.query('ROLLBACK').catch(() => undefined);
    // the claim was committed on its own: release it so a corrected retry with the same key runs
    if (claimCommitted && idem) await releaseIdempotencyKey(deps.pool, idem).catch(() => undefined);
    throw err;
  } finally {
    client.release(broken);
  }

  if (jobs.length > 0) {
    // A single signal waits for its (shared, batched) flush, so the row is marked processed when the
    // 202 arrives. A bulk batch does not: 500 BullMQ adds take ~100 ms of Redis time, the flush runs in
    // the background, and the outbox relay covers a flush that fails.
    const flushed = enrichmentEnqueuer(deps).enqueue(jobs, outboxIds);
    if (!input.bulk) await flushed;
    T.push(performance.now());
    const g = globalThis as unknown as { __t?: number[][] };
    (g.__t ??= []).push(T.slice(1).map((x, i) => x - T[i]!));
  }
  if (deliveries.length > 0) await enqueueDeliveries(deps.prisma, deps.producer, deliveries);
  return { kind: 'stored', status: respond.status, json, result };
}

function newAssetRow(a: AssetAggregate, now: Date): AssetRow {
  return {
    fingerprint: a.fingerprint,
    asset_type: a.asset_type,
    name: a.name,
    version: a.version,
    ecosystem: null,
    publisher: null,
    enrichment_status: 'pending',
    intrinsic_risk_score: null,
    intrinsic_risk_severity: null,
    publisher_trust: null,
    benchmark_summary: null,
    current_aibom_id: null,
    signal_count: a.count,
    first_seen: a.first_seen,
    last_seen: a.last_seen,
    enriched_at: null,
    created: now,
    updated: now,
  };
}

const normalized = (name: string | null) => (name === null ? null : normalizeAssetName(name) || null);

