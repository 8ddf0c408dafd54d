import { MicroBatch, readAssetsByKeys, type AssetReadKey, type OrgAssetTriage } from '@risk/db';
import type { AppDeps } from '../../deps';
import type { OrgScope } from '../triage/org-view';
import type { AssetRow } from './render';

const MAX_BATCH = 500;

type ReadKey = AssetReadKey;

/** An asset with the org's triage context of it (`now`: the time the context was read at). */
export interface AssetForOrg {
  row: AssetRow;
  org: OrgAssetTriage & { now: Date };
}

/**
 * Primary-key reads of assets, batched like a group commit (a MicroBatch, docs/data-access.md): while
 * one read is in flight, the reads that arrive meanwhile wait and then go out together as ONE statement
 * (the keys as arrays, a named statement, planned once per connection). A lone read goes out at once,
 * so an idle server adds no latency; under load the Postgres round trip (the largest cost of
 * GET /v1/assets/{fp}) is shared by every request that arrived during the previous one. A read for an
 * org also carries the org's triage context of the asset (its rules, overrides, triage rows and, when
 * any of these applies, the asset's findings), so the effective score needs no second round trip.
 *
 * Consistency is that of one read per request: every statement starts after all the requests it
 * serves arrived, so a request never sees data older than its own arrival.
 */
export class AssetReader {
  private readonly reads: MicroBatch<ReadKey, AssetForOrg | undefined>;

  constructor(pool: AppDeps['pool']) {
    this.reads = new MicroBatch({
      maxInFlight: 1,
      maxItems: MAX_BATCH,
      tick: 'nextTick',
      runBatch: async (keys) => {
        // equal keys (the same asset for the same org) are read once
        const index = new Map<string, number>();
        const unique: ReadKey[] = [];
        for (const k of keys) {
          const id = readKey(k);
          if (!index.has(id)) {
            index.set(id, unique.length);
            unique.push(k);
          }
        }
        const now = new Date();
        const found = await readAssetsByKeys(pool, { keys: unique, now });
        return keys.map((k) => {
          const f = found.get(index.get(readKey(k))!);
          return f && { row: f.row, org: { ...f.org, now } };
        });
      },
    });
  }

  async read(livemode: boolean, fingerprint: string): Promise<AssetRow | undefined> {
    return (await this.reads.submit({ livemode, fingerprint, orgId: null }))?.row;
  }

  /** The asset of the scope's mode with the scope's org's triage context of it, in the same batched read. */
  readForOrg(scope: OrgScope, fingerprint: string): Promise<AssetForOrg | undefined> {
    return this.reads.submit({ livemode: scope.livemode, fingerprint, orgId: scope.orgId });
  }
}

/** mode, org and fingerprint (a fingerprint is the last part: it may hold any character) */
const readKey = (k: ReadKey) => `${k.livemode ? 'live' : 'test'}:${k.orgId ?? ''}:${k.fingerprint}`;

const readers = new WeakMap<object, AssetReader>();

/** One reader per pool (deps objects are built by main.ts, tests and the bench). */
export function assetReader(deps: Pick<AppDeps, 'pool'>): AssetReader {
  let r = readers.get(deps.pool);
  if (!r) {
    r = new AssetReader(deps.pool);
    readers.set(deps.pool, r);
  }
  return r;
}
