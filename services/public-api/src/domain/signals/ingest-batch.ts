// One ingest transaction for 1+ requests (docs/data-access.md "Stores", docs/reliability.md).
import { enqueueDeliveries } from '@risk/common/events';
import { isIdempotencyConflict } from '@risk/common/http';
import type { SignalAccepted } from '@risk/contracts';
import { releaseClaims, signalsStore as sql, withIngestSession } from '@risk/db';
import { assetKey, batchRows } from './ingest-rows';
import type { IngestOutcome, IngestRequest, IngestResult } from './ingest-signals';
import type { QueryResult } from 'pg';
import type { AppDeps } from '../../deps';
import type { EnrichmentDecision } from './enrichment-decision';
import { AssetApplication, decideAssets, previousStates } from './apply-assets';
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
 * statements whatever the batch size), and each request's 2xx response on its Idempotency-Key claim.
 *
 * Single signals (a micro-batch of requests) also apply their assets in the same transaction
 * (apply-assets.ts: assets, asset_orgs, outbox rows, asset.created events and fan-out). A bulk request
 * instead stores a projection marker per signal and reads its assets' state unlocked for the receipts'
 * enrichment decisions; the projector applies its assets after the 202 (docs/reliability.md "Asset
 * projection"). The requests must not share an asset (the batcher sees to it; a bulk request runs alone).
 *
 * The statements go to Postgres as two multi-statement simple queries (values inlined as escaped
 * literals), i.e. two round trips and one commit per batch:
 *   1. [claim the Idempotency-Keys and commit the claims;] BEGIN; then either insert signals and the asset
 *      application's first statements (insert new assets, lock, the orgs' observations) or, for a bulk
 *      request, the projection markers and the unlocked state read, followed by its signals with COPY
 *   2. [the application's writes;] [store the 2xx responses on the claims;] COMMIT
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
  const deferred = requests.length === 1 && requests[0]!.input.bulk;
  const application = deferred
    ? null
    : new AssetApplication(deps.config, {
        now,
        assets,
        ownerOf: (key) => {
          const owner = requests[ownerOf.get(key)!]!.input;
          return { requestId: owner.requestId, trace: owner.trace };
        },
      });

  let decisions = new Map<string, EnrichmentDecision>();
  let outcomes: CommittedBatch['outcomes'] = [];
  let claimCommitted = false;
  // a connection whose PREPARE failed or broke is discarded, an open transaction rolled back (withPrepared)
  try {
    await withIngestSession(deps.pool, async (session) => {
      // ── round trip 1 ──
      const first: string[] = [];
      // the claims commit on their own, first, so a concurrent duplicate sees them (409) at once (signalsStore)
      const claims = idems.length > 0 ? sql.claimCommitted(idems) : [];
      first.push(...claims);
      // a bulk request's signals go in with COPY after this round trip, in the same transaction (docs/data-access.md
      // "COPY"); a micro-batch's few single signals stay one statement of the round trip
      first.push(sql.begin);
      if (application) first.push(sql.insertSignals(now, rowsOf.flat()), ...application.first());
      else first.push(sql.enqueueProjection(rowsOf.flat()), sql.assetState(assets));
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
      if (!application) await session.copyIn(sql.copySignals, sql.signalsCopyData(now, rowsOf.flat()));
      const offset = application ? claims.length + 2 : claims.length + 1;
      const second = application ? application.second(r1.slice(offset, offset + 3)) : [];
      if (application) decisions = application.decisions;
      else {
        const states = previousStates(r1[offset + 1]!.rows);
        decisions = decideAssets(deps.config, { now, assets, previous: (key) => states.get(key) ?? null }).decisions;
      }

      const queuedOf = requests.map(() => 0);
      for (const a of assets) if (decisions.get(keyOf(a))!.status === 'queued') queuedOf[ownerOf.get(keyOf(a))!]!++;
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
      const responses = requests.flatMap((r, k) =>
        r.idem ? [{ idem: r.idem, status: outcomes[k]!.status, body: outcomes[k]!.json }] : [],
      );
      if (responses.length > 0) second.push({ tag: 'complete', sql: sql.complete(responses) });
      second.push({ tag: 'commit', sql: sql.commit });
      const r2 = await session.run(second.map((q) => q.sql).join(';\n'));
      session.inTransaction = false;
      claimCommitted = false;
      second.forEach((q, i) => application?.collect(q.tag, r2[i]!));
    });
  } catch (err) {
    // the claims were committed on their own: release them so a corrected retry with the same key runs
    if (claimCommitted) await releaseClaims(deps.pool, idems).catch(() => undefined);
    throw err;
  }

  if (!application) {
    deps.projector?.kick(); // the projection of this batch starts now rather than at the next poll
    return { outcomes, flushed: Promise.resolve() };
  }
  const flushed = enrichmentEnqueuer(deps).enqueue(application.jobs, application.outboxIds);
  // asset.created deliveries carry the request id when the batch served one request (a micro-batch of several
  // cannot say which request's asset each delivery is for)
  const requestId = requests.length === 1 ? requests[0]!.input.requestId : undefined;
  if (application.deliveries.length > 0) await enqueueDeliveries(deps, application.deliveries, { requestId });
  return { outcomes, flushed };
}
