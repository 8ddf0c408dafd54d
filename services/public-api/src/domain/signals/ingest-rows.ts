// The rows of one ingest batch, built before any SQL runs: each request's signal rows and one aggregate per asset
// (docs/data-access.md "Stores").
import { canonicalJson, sha256Hex } from '@risk/common/crypto';
import { newId, ID_PREFIXES } from '@risk/db';
import type { CreateSignalBody } from '@risk/contracts';
import { normalizeAssetName } from '@risk/enrichment';
import { redactText, redactUrl } from '@risk/redaction';
import type { AssetWrite } from '@risk/db';
import type { IngestInput } from './ingest-signals';
import type { AssetRow } from '../assets/render';
import type { SignalRow } from './render-signal';

/** A signal row as inserted (@risk/db's SignalInsert) with its creation time, as rendered. */
export type SignalInsert = SignalRow & { request_id: string };

/**
 * sha256 of the canonical JSON of the content enrichment reads (docs/public-api.md "Signals and assets"). `artifacts`
 * enters only when the signal names some, so the digest of a signal without them is what it always was.
 */
export function contentDigest(s: CreateSignalBody): string {
  return sha256Hex(
    canonicalJson({
      asset_type: s.asset_type,
      name: s.name ?? null,
      version: s.version ?? null,
      source_url: s.source_url ?? null,
      raw_manifest: s.raw_manifest ?? null,
      metadata: s.metadata ?? null,
      ...(s.artifacts?.length ? { artifacts: s.artifacts } : {}),
    }),
  );
}

/** An asset's key within a batch: test mode is a sandbox, so a fingerprint names one asset per mode. */
export const assetKey = (livemode: boolean, fingerprint: string) => `${livemode ? 'live' : 'test'}:${fingerprint}`;

/** A batch's rows: per request its signal rows; per asset (mode + fingerprint) one aggregate and its request. */
export interface BatchRows {
  rowsOf: SignalInsert[][];
  byAsset: Map<string, AssetWrite>;
  ownerOf: Map<string, number>;
  /** the batch's assets in lock order, shared fields redacted */
  assets: AssetWrite[];
}

export function batchRows(requests: ReadonlyArray<{ input: IngestInput }>, now: Date): BatchRows {
  const rowsOf: SignalInsert[][] = [];
  requests.forEach(({ input }) => {
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
      artifacts: s.artifacts?.length ? s.artifacts : null,
      content_digest: contentDigest(s),
      created: now,
      request_id: requestId,
    }));
    rowsOf.push(rows);
  });
  return { rowsOf, ...aggregateAssets(rowsOf) };
}

/** The signal columns an asset aggregate is built from (a request's rows, or stored ones for the projection). */
export type AggregatedSignal = Pick<
  SignalInsert,
  | 'id'
  | 'org_id'
  | 'livemode'
  | 'fingerprint'
  | 'asset_type'
  | 'observed_at'
  | 'name'
  | 'version'
  | 'source_url'
  | 'content_digest'
>;

/**
 * One aggregate per asset (mode + fingerprint) over groups of signals in order (a group is a request; an asset
 * belongs to one group); the last signal of an asset is its org's latest observation. Used by the ingest and by
 * the asset projection (projector.ts), so both write the same rows.
 */
export function aggregateAssets(groups: ReadonlyArray<readonly AggregatedSignal[]>): Omit<BatchRows, 'rowsOf'> {
  const byAsset = new Map<string, AssetWrite>();
  const ownerOf = new Map<string, number>();
  groups.forEach((rows, k) => {
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
  return { byAsset, ownerOf, assets };
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

/** The fields of an aggregate a new asset's row is made from. */
type NewAsset = Pick<
  AssetWrite,
  'livemode' | 'fingerprint' | 'asset_type' | 'name' | 'version' | 'count' | 'first_seen' | 'last_seen'
>;

/** The row of an asset seen for the first time: pending, nothing enriched yet (also what the scale seeding writes). */
export function newAssetRow(a: NewAsset, now: Date): { livemode: boolean; row: AssetRow } {
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
