import { MicroBatch } from '@risk/db';
import type { AppDeps } from '../../deps';
import { ASSET_COLUMNS_SQL, type AssetRow } from './render';

// keyed by (livemode, fingerprint): a key reads only the assets of its own mode. $1 = live fingerprints,
// $2 = test ones: two primary-key index conditions, whatever the planner's guess of the array sizes.
const BY_KEYS_SQL = `SELECT a.livemode, ${ASSET_COLUMNS_SQL} FROM assets a
  WHERE (a.livemode AND a.fingerprint = ANY($1::text[])) OR (NOT a.livemode AND a.fingerprint = ANY($2::text[]))`;
const MAX_BATCH = 500;

interface ReadKey {
  livemode: boolean;
  fingerprint: string;
}

/**
 * Primary-key reads of assets, batched like a group commit (a MicroBatch, docs/data-access.md): while
 * one read is in flight, the reads that arrive meanwhile wait and then go out together as ONE statement
 * (the (livemode, fingerprint) keys as two arrays, a named statement, planned once per connection). A
 * lone read goes out at once, so an idle server adds no latency; under load the Postgres round trip (the
 * largest cost of GET /v1/assets/{fp}) is shared by every request that arrived during the previous one.
 *
 * Consistency is that of one read per request: every statement starts after all the requests it
 * serves arrived, so a request never sees data older than its own arrival.
 */
export class AssetReader {
  private readonly reads: MicroBatch<ReadKey, AssetRow | undefined>;

  constructor(db: AppDeps['pool']) {
    this.reads = new MicroBatch({
      maxInFlight: 1,
      maxItems: MAX_BATCH,
      tick: 'nextTick',
      runBatch: async (keys) => {
        const { rows } = await db.query<AssetRow & { livemode: boolean }>({
          name: 'public_api_assets_by_keys',
          text: BY_KEYS_SQL,
          values: [
            [...new Set(keys.filter((k) => k.livemode).map((k) => k.fingerprint))],
            [...new Set(keys.filter((k) => !k.livemode).map((k) => k.fingerprint))],
          ],
        });
        const found = new Map(rows.map(({ livemode, ...row }) => [readKey(livemode, row.fingerprint), row]));
        return keys.map((k) => found.get(readKey(k.livemode, k.fingerprint)));
      },
    });
  }

  read(livemode: boolean, fingerprint: string): Promise<AssetRow | undefined> {
    return this.reads.submit({ livemode, fingerprint });
  }
}

/** 'live:' or 'test:' + the fingerprint */
const readKey = (livemode: boolean, fingerprint: string) => `${livemode ? 'live' : 'test'}:${fingerprint}`;

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
