// The asset side of an ingest (docs/data-access.md "Stores", docs/reliability.md "Asset projection"): new assets,
// the locked previous state, the enrichment decisions, updates, asset_orgs, outbox rows, asset.created events and
// their fan-out. The single POST runs it inside its ingest transaction; the projector runs it for accepted bulk
// signals. One implementation, so both write the same rows and events.
import { type FannedOutDelivery } from '@risk/db';
import { type TraceCarrier } from '@risk/common/observability';
import { JOBS, type EnrichmentJob } from '@risk/common/queue';
import { newId, ID_PREFIXES } from '@risk/db';
import { signalsStore as sql, type AssetWrite } from '@risk/db';
import type { EventData } from '@risk/contracts';
import type { QueryResult } from 'pg';
import type { AppDeps } from '../../deps';
import { renderAsset } from '../assets/render';
import {
  decideEnrichment,
  observationSetDigest,
  type EnrichmentDecision,
  type PreviousAssetState,
} from './enrichment-decision';
import { assetKey, newAssetRow } from './ingest-rows';

/** Who an asset's job is for: the request id (and trace) its log lines and spans continue (docs/observability.md). */
export interface AssetOwner {
  requestId: string | undefined;
  trace?: TraceCarrier;
}

type Keyed = { livemode: boolean; fingerprint: string };
const keyOf = (a: Keyed) => assetKey(a.livemode, a.fingerprint);
type OrgObservation = Pick<PreviousAssetState, 'org_digest' | 'org_last_seen'>;

/**
 * The enrichment decision of every asset of a batch against its previous state (null: a new asset). Sets each
 * existing asset's observation-set digest (a.latest_digest). Pure: the bulk request predicts its receipts with
 * it from an unlocked read, the application decides with it under the locks.
 */
export function decideAssets(
  config: Pick<AppDeps['config'], 'ENRICHMENT_TTL_DAYS' | 'OBSERVATION_TTL_DAYS'>,
  batch: { now: Date; assets: readonly AssetWrite[]; previous: (key: string) => PreviousAssetState | null },
): { decisions: Map<string, EnrichmentDecision>; existing: AssetWrite[]; created: AssetWrite[] } {
  const { now, assets } = batch;
  const decisions = new Map<string, EnrichmentDecision>();
  const existing: AssetWrite[] = [];
  const created: AssetWrite[] = [];
  for (const a of assets) {
    const p = batch.previous(keyOf(a));
    if (!p) {
      decisions.set(
        keyOf(a),
        decideEnrichment(null, { digest: a.latest_digest, now, ttlDays: config.ENRICHMENT_TTL_DAYS }),
      );
      created.push(a);
      continue;
    }
    // the org's new observation replaces only its own: the set digest says whether the set changed
    a.latest_digest = observationSetDigest(p, {
      orgId: a.org_id,
      contentDigest: a.content_digest,
      now,
      observationTtlDays: config.OBSERVATION_TTL_DAYS,
    });
    decisions.set(keyOf(a), decideEnrichment(p, { digest: a.latest_digest, now, ttlDays: config.ENRICHMENT_TTL_DAYS }));
    existing.push(a);
  }
  return { decisions, existing, created };
}

/** The previous states of an unlocked state read (ri_assets_state rows). */
export const previousStates = (rows: ReadonlyArray<PreviousAssetState & Keyed>) =>
  new Map(rows.map(({ livemode, fingerprint, ...state }) => [assetKey(livemode, fingerprint), state]));

/**
 * One application of a batch's assets on a prepared session, in two round trips the caller shares with its own
 * statements: `first` (insert new assets, lock all, read the orgs' observations), then, from their results,
 * `second` (update, asset_orgs, outbox, events, fan-out), then `collect` the outbox ids and deliveries.
 */
export class AssetApplication {
  decisions = new Map<string, EnrichmentDecision>();
  readonly jobs: EnrichmentJob[] = [];
  outboxIds: string[] = [];
  deliveries: FannedOutDelivery[] = [];
  private existing: AssetWrite[] = [];
  private created: AssetWrite[] = [];

  constructor(
    private readonly config: Pick<AppDeps['config'], 'ENRICHMENT_TTL_DAYS' | 'OBSERVATION_TTL_DAYS'>,
    private readonly batch: { now: Date; assets: readonly AssetWrite[]; ownerOf: (key: string) => AssetOwner },
  ) {}

  first(): string[] {
    const { now, assets } = this.batch;
    return [sql.insertNewAssets(now, assets), sql.lockAssets(assets), sql.orgObservations(assets)];
  }

  /** from the three results of `first()`, the statements of the second round trip (tagged) */
  second(results: readonly QueryResult[]): Array<{ tag: string; sql: string }> {
    const { now, assets } = this.batch;
    const inserted = new Set((results[0]!.rows as Keyed[]).map(keyOf));
    const observed = new Map((results[2]!.rows as Array<OrgObservation & Keyed>).map((r) => [keyOf(r), r]));
    const locked = new Map(
      (results[1]!.rows as Array<Omit<PreviousAssetState, keyof OrgObservation> & Keyed>).map((r) => [keyOf(r), r]),
    );
    const decided = decideAssets(this.config, {
      now,
      assets,
      previous: (key) => {
        if (inserted.has(key)) return null;
        const p = locked.get(key);
        if (!p) throw new Error(`asset ${key} vanished inside the ingest transaction`);
        return {
          ...p,
          org_digest: observed.get(key)?.org_digest ?? null,
          org_last_seen: observed.get(key)?.org_last_seen ?? null,
        };
      },
    });
    this.decisions = decided.decisions;
    this.existing = decided.existing;
    this.created = decided.created;
    for (const a of assets) {
      const d = this.decisions.get(keyOf(a))!;
      if (d.status !== 'queued') continue;
      const owner = this.batch.ownerOf(keyOf(a));
      this.jobs.push({
        livemode: a.livemode,
        fingerprint: a.fingerprint,
        digest: a.latest_digest,
        reason: d.reason,
        ...(owner.requestId === undefined ? {} : { request_id: owner.requestId }),
        ...owner.trace,
      });
    }

    const out: Array<{ tag: string; sql: string }> = [];
    if (this.existing.length > 0) {
      const next = this.existing.map((a) => this.decisions.get(keyOf(a))!.nextStatus);
      out.push({ tag: 'update', sql: sql.updateExistingAssets(now, this.existing, next) });
    }
    out.push({ tag: 'asset_orgs', sql: sql.upsertAssetOrgs(now, assets) });
    if (this.jobs.length > 0)
      out.push({
        tag: 'outbox',
        sql: sql.insertOutbox(
          this.jobs.map((j) => ({ payload: JSON.stringify(j), dedupe_key: JOBS.enrichment.dedupeKey(j) })),
        ),
      });
    if (this.created.length > 0) {
      // asset.created goes to the webhooks (of the asset's mode) of the orgs that submitted it (same transaction)
      const events = this.created.map((a) => {
        const { livemode, row } = newAssetRow(a, now);
        // written with plain SQL, so typed here as the catalogue's payload of the type (docs/webhooks.md)
        const data: EventData<'asset.created'> = { object: renderAsset(row) };
        return {
          id: newId(ID_PREFIXES.event, now.getTime()),
          livemode,
          fingerprint: row.fingerprint,
          data: JSON.stringify(data),
        };
      });
      out.push({ tag: 'events', sql: sql.insertAssetCreatedEvents(now, events) });
      out.push({ tag: 'fanout', sql: sql.fanOut(events.map((e) => e.id)) });
    }
    return out;
  }

  /** reads the outbox ids and fan-out deliveries from the results of the second round trip's statements */
  collect(tag: string, result: QueryResult): void {
    if (tag === 'outbox') this.outboxIds = result.rows.map((r: { id: string }) => String(r.id));
    if (tag === 'fanout')
      this.deliveries = (result.rows as Array<{ delivery_id: string; outbox_id: string }>).map((r) => ({
        delivery_id: r.delivery_id,
        outbox_id: BigInt(r.outbox_id),
      }));
  }
}
