import {
  ApiError,
  canonicalJson,
  enqueueDeliveries,
  isIdempotencyConflict,
  newId,
  ID_PREFIXES,
  JOBS,
  resolveTakenKey,
  sha256Hex,
  type ApiKeyPrincipal,
  type EnrichmentJob,
  type FannedOutDelivery,
  type IdempotencyRequest,
  type StoredResponse,
} from '@risk/common';
import type { CreateSignalBody, SignalAccepted } from '@risk/contracts';
import { normalizeAssetName, redactText, redactUrl } from '@risk/enrichment';
import {
  MicroBatch,
  releaseClaims,
  signalsStore as sql,
  withPrepared,
  type AssetWrite,
  type MicroBatchOptions,
} from '@risk/db';
import type { QueryResult } from 'pg';
import type { AppDeps } from '../../deps';
import { renderAsset, type AssetRow } from '../assets/render';
import {
  decideEnrichment,
  observationSetDigest,
  type EnrichmentDecision,
  type PreviousAssetState,
} from './enrichment-decision';
import { enrichmentEnqueuer } from './enqueuer';
import { renderSignal, type SignalRow } from './render-signal';

/** A signal row as inserted: the rendered columns plus the id of the request that sent it. */
type SignalInsert = SignalRow & { request_id: string };

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

/** How the route answers a stored batch: the status and the body built from the result. */
export interface IngestResponse {
  status: number;
  render: (result: IngestResult) => unknown;
}

export type IngestOutcome =
  { kind: 'stored'; status: number; json: string; result: IngestResult } | { kind: 'replay'; stored: StoredResponse };

/** One request's part of an ingest transaction. */
interface IngestRequest {
  input: IngestInput;
  respond: IngestResponse;
  idem?: IdempotencyRequest;
}

/**
 * Stores the signals of one request (1–500) with every guarantee of DESIGN.md §3: the signals, their
 * assets, asset_orgs, outbox rows and events, and the 2xx response for the Idempotency-Key, in one
 * transaction committed before the 202. A bulk request runs as its own transaction; single signals
 * of concurrent requests share one (a MicroBatch, docs/data-access.md), each request keeping its own claim, response
 * and errors.
 */
export async function ingestSignals(
  deps: AppDeps,
  input: IngestInput,
  respond: IngestResponse,
  idem?: IdempotencyRequest,
): Promise<IngestOutcome> {
  const { auth } = input;
  input.signals.forEach((s, i) => {
    if (s.org_id !== auth.org_id) {
      const param = input.bulk ? `signals[${i}].org_id` : 'org_id';
      throw new ApiError('org_mismatch', { param, message: `${param} must equal the API key's org (${auth.org_id}).` });
    }
  });
  // (a NUL anywhere in the body never gets here: parseOrThrow refuses it, and statements carry literals)
  const request: IngestRequest = { input, respond, idem };
  return input.bulk ? ingestAlone(deps, request) : singleSignalBatcher(deps).submit(request);
}

class KeyTaken extends Error {}

/**
 * One request in a transaction of its own. A taken Idempotency-Key resolves to the stored response
 * (replay), 400 idempotency_replay_mismatch or 409 idempotency_key_in_use; a key released meanwhile is
 * claimed again once. `released` is called once the database work is over (commit or failure).
 */
async function ingestAlone(
  deps: AppDeps,
  request: IngestRequest,
  released: () => void = () => undefined,
): Promise<IngestOutcome> {
  for (let attempt = 0; ; attempt++) {
    let committed: CommittedBatch;
    try {
      committed = await ingestBatch(deps, [request]);
    } catch (err) {
      released();
      if (!(request.idem && err instanceof KeyTaken)) throw err;
      const stored = await resolveTakenKey(deps.pool, request.idem);
      if (stored) return { kind: 'replay', stored };
      if (attempt >= 1)
        throw new ApiError('idempotency_key_in_use', { message: 'Could not claim the Idempotency-Key; retry.' });
      continue;
    }
    released();
    // A single signal waits for its (shared, batched) enqueue, so its outbox row is marked processed when
    // the 202 arrives. A bulk batch does not: 500 BullMQ adds take ~100 ms of Redis time, the flush runs
    // in the background, and the outbox relay covers a flush that fails.
    if (!request.input.bulk) await committed.flushed;
    return committed.outcomes[0]!;
  }
}

/** Per app (deps): requests of different apps never share a transaction. */
const batchers = new WeakMap<AppDeps, MicroBatch<IngestRequest, IngestOutcome>>();

function singleSignalBatcher(deps: AppDeps): MicroBatch<IngestRequest, IngestOutcome> {
  let b = batchers.get(deps);
  if (!b) {
    b = new MicroBatch<IngestRequest, IngestOutcome>({
      ...SINGLE_SIGNAL_BATCHING,
      keys: (r) => [
        ...r.input.signals.map((s) => `fp:${assetKey(r.input.auth.livemode, s.fingerprint)}`),
        ...(r.idem ? [`idem:${idempotencyScopeKey(r.idem)}`] : []),
      ],
      runAlone: (r, released) => ingestAlone(deps, r, released),
      runBatch: async (rs, released) => {
        let committed: CommittedBatch;
        try {
          committed = await ingestBatch(deps, rs);
        } finally {
          released();
        }
        await committed.flushed;
        return committed.outcomes;
      },
    });
    batchers.set(deps, b);
  }
  return b;
}

/**
 * Up to 4 shared transactions at once (one batch waits on its COMMIT while the next ones are built,
 * sent and executed; `pnpm bench` found 4 best of 1/2/4/8 on 2 cores, within its noise), each holding
 * one pooled connection until it commits; at most 64 requests share one.
 */
const SINGLE_SIGNAL_BATCHING: Pick<MicroBatchOptions<IngestRequest, IngestOutcome>, 'maxInFlight' | 'maxItems'> = {
  maxInFlight: 4,
  maxItems: 64,
};

const idempotencyScopeKey = (r: IdempotencyRequest) =>
  JSON.stringify([r.scope.org_id, r.scope.livemode, r.scope.method, r.scope.path, r.scope.key]);

/** An asset's key within a batch: test mode is a sandbox, so a fingerprint names one asset per mode. */
const assetKey = (livemode: boolean, fingerprint: string) => `${livemode ? 'live' : 'test'}:${fingerprint}`;

interface CommittedBatch {
  /** one per request, in order */
  outcomes: Array<IngestOutcome & { kind: 'stored' }>;
  /** settles once the enrichment jobs are in Redis and their outbox rows marked (or that failed) */
  flushed: Promise<void>;
}

/**
 * Stores the signals of 1+ requests in ONE transaction with multi-row statements (a fixed number of
 * statements whatever the batch size): signals, assets (new ones inserted with ON CONFLICT so
 * concurrent first signals never fail; existing ones locked in fingerprint order and updated),
 * asset_orgs, outbox rows for the enrichments the trigger rules ask for, asset.created events and
 * their webhook fan-out, and each request's 2xx response on its Idempotency-Key claim.
 * The requests must not share an asset (the batcher sees to it; a bulk request runs alone).
 *
 * The statements go to Postgres as two multi-statement simple queries (values inlined as escaped
 * literals), i.e. two round trips and one commit per batch:
 *   1. [claim the Idempotency-Keys and commit the claims;] BEGIN; insert signals; insert new assets;
 *      lock the batch's assets (a new statement, so it sees an asset a concurrent request just created);
 *      read the submitting orgs' previous observations (asset_orgs) under those locks
 *   2. update existing assets; asset_orgs; outbox; events + fan-out; [store the 2xx responses on the
 *      claims;] COMMIT
 * The claims commit on their own (before the ingest transaction) so a concurrent duplicate sees them
 * and gets 409; the responses are stored in the ingest transaction, so a committed request always
 * replays. After commit the jobs go to the batching enqueuer (one addBulk and one outbox UPDATE shared
 * by the batches that committed meanwhile); if Redis is down the rows stay unprocessed for the
 * worker's outbox relay and the requests still succeed.
 */
async function ingestBatch(deps: AppDeps, requests: readonly IngestRequest[]): Promise<CommittedBatch> {
  const now = new Date();
  const rowsOf: SignalInsert[][] = [];
  // one aggregate per asset (mode + fingerprint): a request's last signal for an asset is its org's
  // latest observation
  const byAsset = new Map<string, AssetWrite>();
  const ownerOf = new Map<string, number>();
  requests.forEach(({ input }, k) => {
    const { auth, requestId } = input;
    const rows = input.signals.map((s): SignalInsert => ({
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
      request_id: requestId,
    }));
    rowsOf.push(rows);
    for (const r of rows) {
      const key = assetKey(r.livemode, r.fingerprint);
      const owner = ownerOf.get(key);
      if (owner !== undefined && owner !== k)
        throw new Error(`asset ${r.fingerprint} appears in two requests of one ingest batch`);
      ownerOf.set(key, k);
      const a = byAsset.get(key);
      if (!a) {
        byAsset.set(key, {
          livemode: r.livemode,
          fingerprint: r.fingerprint,
          org_id: r.org_id,
          asset_type: r.asset_type,
          name: r.name,
          normalized_name: null,
          version: r.version,
          source_url: r.source_url,
          latest_signal_id: r.id,
          content_digest: r.content_digest,
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
      a.content_digest = r.content_digest;
      a.latest_digest = r.content_digest;
      a.count++;
      if (r.observed_at < a.first_seen) a.first_seen = r.observed_at;
      if (r.observed_at > a.last_seen) a.last_seen = r.observed_at;
    }
  });
  // a fixed lock order across concurrent batches avoids deadlocks (test mode first, then by fingerprint)
  const assets = [...byAsset.values()].sort(
    (x, y) =>
      Number(x.livemode) - Number(y.livemode) ||
      (x.fingerprint < y.fingerprint ? -1 : x.fingerprint > y.fingerprint ? 1 : 0),
  );
  for (const a of assets) redactSharedFields(a);
  for (const a of assets) a.normalized_name = normalized(a.name);
  const keyOf = (a: { livemode: boolean; fingerprint: string }) => assetKey(a.livemode, a.fingerprint);
  const idems = requests.flatMap((r) => (r.idem ? [r.idem] : []));

  const decisions = new Map<string, EnrichmentDecision>();
  const newAssetRows: Array<{ livemode: boolean; row: AssetRow }> = [];
  const jobs: EnrichmentJob[] = [];
  let outboxIds: string[] = [];
  let deliveries: FannedOutDelivery[] = [];
  let outcomes: CommittedBatch['outcomes'] = [];

  let claimCommitted = false;
  // a connection whose PREPARE failed or broke is discarded, an open transaction rolled back (withPrepared)
  try {
    await withPrepared(deps.pool, sql.statements, async (session) => {
      // ── round trip 1 ──
      const first: string[] = [];
      // The claims commit on their own so a concurrent duplicate sees them (409) at once. They need not
      // wait for their WAL flush: the ingest's synchronous COMMIT below flushes them too, and a claim lost
      // in a crash before that only frees the key, which is what a failed request does anyway.
      if (idems.length > 0) first.push('BEGIN', 'SET LOCAL synchronous_commit = off', sql.claim(idems), 'COMMIT');
      first.push(
        'BEGIN',
        sql.insertSignals(now, rowsOf.flat()),
        sql.insertNewAssets(now, assets),
        sql.lockAssets(assets),
        sql.orgObservations(assets),
      );
      let r1: QueryResult[];
      try {
        session.inTransaction = true; // whatever ran is rolled back on failure
        r1 = await session.run(first.join(';\n'));
      } catch (err) {
        if (idems.length > 0 && isIdempotencyConflict(err)) throw new KeyTaken();
        claimCommitted = idems.length > 0; // the claims may have committed before the failing statement
        throw err;
      }
      claimCommitted = idems.length > 0;
      const offset = idems.length > 0 ? 4 : 0;
      type Keyed = { livemode: boolean; fingerprint: string };
      const inserted = new Set((r1[offset + 2]!.rows as Keyed[]).map(keyOf));
      type OrgObservation = Pick<PreviousAssetState, 'org_digest' | 'org_last_seen'>;
      const observed = new Map((r1[offset + 4]!.rows as Array<OrgObservation & Keyed>).map((r) => [keyOf(r), r]));
      const locked = new Map(
        (r1[offset + 3]!.rows as Array<Omit<PreviousAssetState, keyof OrgObservation> & Keyed>).map((r) => [
          keyOf(r),
          {
            ...r,
            org_digest: observed.get(keyOf(r))?.org_digest ?? null,
            org_last_seen: observed.get(keyOf(r))?.org_last_seen ?? null,
          },
        ]),
      );

      const { ENRICHMENT_TTL_DAYS, OBSERVATION_TTL_DAYS } = deps.config;
      const existing: AssetWrite[] = [];
      for (const a of assets) {
        if (inserted.has(keyOf(a))) {
          decisions.set(keyOf(a), decideEnrichment(null, a.latest_digest, now, ENRICHMENT_TTL_DAYS));
          newAssetRows.push(newAssetRow(a, now));
          continue;
        }
        const p = locked.get(keyOf(a));
        if (!p) throw new Error(`asset ${a.fingerprint} vanished inside the ingest transaction`);
        // the org's new observation replaces only its own: the set digest says whether the set changed
        a.latest_digest = observationSetDigest(p, a.org_id, a.content_digest, now, OBSERVATION_TTL_DAYS);
        decisions.set(keyOf(a), decideEnrichment(p, a.latest_digest, now, ENRICHMENT_TTL_DAYS));
        existing.push(a);
      }
      const queuedOf = requests.map(() => 0);
      for (const a of assets) {
        const d = decisions.get(keyOf(a))!;
        if (d.status !== 'queued') continue;
        const owner = ownerOf.get(keyOf(a))!;
        // the request id travels with the job into the worker's log lines (docs/observability.md)
        const request_id = requests[owner]!.input.requestId;
        jobs.push({
          livemode: a.livemode,
          fingerprint: a.fingerprint,
          digest: a.latest_digest,
          reason: d.reason,
          request_id,
        });
        queuedOf[owner]!++;
      }

      outcomes = requests.map((request, k) => {
        const signals = rowsOf[k]!.map((r): SignalAccepted => {
          const agg = byAsset.get(keyOf(r))!;
          const d = decisions.get(keyOf(r))!;
          const superseded = agg.latest_signal_id !== r.id && agg.content_digest !== r.content_digest;
          return {
            ...renderSignal(r),
            enrichment: superseded
              ? { status: 'skipped', reason: 'superseded_in_batch' }
              : { status: d.status, reason: d.reason },
          };
        });
        const result: IngestResult = { signals, enrichmentQueued: queuedOf[k]! };
        return {
          kind: 'stored' as const,
          status: request.respond.status,
          json: JSON.stringify(request.respond.render(result)),
          result,
        };
      });

      // ── round trip 2 ──
      const second: Array<{ tag: string; sql: string }> = [];
      if (existing.length > 0) {
        const next = existing.map((a) => decisions.get(keyOf(a))!.nextStatus);
        second.push({ tag: 'update', sql: sql.updateExistingAssets(now, existing, next) });
      }
      second.push({ tag: 'asset_orgs', sql: sql.upsertAssetOrgs(now, assets) });
      if (jobs.length > 0)
        second.push({
          tag: 'outbox',
          sql: sql.insertOutbox(
            jobs.map((j) => ({ payload: JSON.stringify(j), dedupe_key: JOBS.enrichment.jobId(j) })),
          ),
        });
      if (newAssetRows.length > 0) {
        // asset.created goes to the webhooks (of the asset's mode) of the orgs that submitted it (same transaction)
        const events = newAssetRows.map(({ livemode, row }) => ({
          id: newId(ID_PREFIXES.event, now.getTime()),
          livemode,
          fingerprint: row.fingerprint,
          data: JSON.stringify({ object: renderAsset(row) }),
        }));
        second.push({ tag: 'events', sql: sql.insertAssetCreatedEvents(now, events) });
        second.push({ tag: 'fanout', sql: sql.fanOut(events.map((e) => e.id)) });
      }
      const responses = requests.flatMap((r, k) =>
        r.idem ? [{ idem: r.idem, status: outcomes[k]!.status, body: outcomes[k]!.json }] : [],
      );
      if (responses.length > 0) second.push({ tag: 'complete', sql: sql.complete(responses) });
      second.push({ tag: 'commit', sql: 'COMMIT' });
      const r2 = await session.run(second.map((q) => q.sql).join(';\n'));
      session.inTransaction = false;
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
    });
  } catch (err) {
    // the claims were committed on their own: release them so a corrected retry with the same key runs
    if (claimCommitted) await releaseClaims(deps.pool, idems).catch(() => undefined);
    throw err;
  }

  const flushed = enrichmentEnqueuer(deps).enqueue(jobs, outboxIds);
  if (deliveries.length > 0) await enqueueDeliveries(deps.prisma, deps.producer, deliveries);
  return { outcomes, flushed };
}

/**
 * The asset row (and the asset.created event rendered from it) is shared by every org that observes
 * the asset, so the fields it copies from a signal carry no credential: `https://user:pw@…`,
 * `?api_key=…` and token formats are redacted (docs/security.md "Secrets never reach shared data").
 * The signal row keeps what its org sent: only that org can read it.
 */
function redactSharedFields(a: AssetWrite): void {
  if (a.name !== null) a.name = redactText(a.name);
  if (a.version !== null) a.version = redactText(a.version);
  if (a.source_url !== null) a.source_url = redactUrl(a.source_url);
}

function newAssetRow(a: AssetWrite, now: Date): { livemode: boolean; row: AssetRow } {
  const row: AssetRow = {
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
  return { livemode: a.livemode, row };
}

const normalized = (name: string | null) => (name === null ? null : normalizeAssetName(name) || null);
