// One ingest transaction for 1+ requests (docs/data-access.md "Stores", docs/reliability.md).
import {
  enqueueDeliveries,
  isIdempotencyConflict,
  newId,
  ID_PREFIXES,
  JOBS,
  type EnrichmentJob,
  type FannedOutDelivery,
} from '@risk/common';
import type { SignalAccepted } from '@risk/contracts';
import { releaseClaims, signalsStore as sql, withPrepared, type AssetWrite } from '@risk/db';
import { assetKey, batchRows, newAssetRow } from './ingest-rows';
import type { IngestOutcome, IngestRequest, IngestResult } from './ingest-signals';
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
import { renderSignal } from './render-signal';

export class KeyTaken extends Error {}

export interface CommittedBatch {
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
export async function ingestBatch(deps: AppDeps, requests: readonly IngestRequest[]): Promise<CommittedBatch> {
  const now = new Date();
  const { rowsOf, byAsset, ownerOf, assets } = batchRows(requests, now);
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
          decisions.set(
            keyOf(a),
            decideEnrichment(null, { digest: a.latest_digest, now, ttlDays: ENRICHMENT_TTL_DAYS }),
          );
          newAssetRows.push(newAssetRow(a, now));
          continue;
        }
        const p = locked.get(keyOf(a));
        if (!p) throw new Error(`asset ${a.fingerprint} vanished inside the ingest transaction`);
        // the org's new observation replaces only its own: the set digest says whether the set changed
        a.latest_digest = observationSetDigest(p, {
          orgId: a.org_id,
          contentDigest: a.content_digest,
          now,
          observationTtlDays: OBSERVATION_TTL_DAYS,
        });
        decisions.set(keyOf(a), decideEnrichment(p, { digest: a.latest_digest, now, ttlDays: ENRICHMENT_TTL_DAYS }));
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
            jobs.map((j) => ({ payload: JSON.stringify(j), dedupe_key: JOBS.enrichment.dedupeKey(j) })),
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
