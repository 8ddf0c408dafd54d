import type { AppDeps } from '../../deps';
import { ASSET_COLUMNS_SQL, type AssetRow } from './render';

// keyed by (livemode, fingerprint): a key reads only the assets of its own mode. $1 = live fingerprints,
// $2 = test ones: two primary-key index conditions, whatever the planner's guess of the array sizes.
const BY_KEYS_SQL = `SELECT a.livemode, ${ASSET_COLUMNS_SQL} FROM assets a
  WHERE (a.livemode AND a.fingerprint = ANY($1::text[])) OR (NOT a.livemode AND a.fingerprint = ANY($2::text[]))`;
const MAX_BATCH = 500;

interface Waiter {
  resolve: (row: AssetRow | undefined) => void;
  reject: (err: unknown) => void;
}

/**
 * Primary-key reads of assets, batched like a group commit: while one read is in flight, the reads
 * that arrive meanwhile wait and then go out together as ONE statement (the (livemode, fingerprint)
 * keys as two arrays, a named statement, planned once per connection). A lone read goes out at once, so an idle server
 * adds no latency; under load the Postgres round trip (the largest cost of GET /v1/assets/{fp}) is
 * shared by every request that arrived during the previous one.
 *
 * Consistency is that of one read per request: every statement starts after all the requests it
 * serves arrived, so a request never sees data older than its own arrival.
 */
export class AssetReader {
  private queue = new Map<string, Waiter[]>();
  private inFlight = false;

  constructor(private readonly pool: AppDeps['pool']) {}

  read(livemode: boolean, fingerprint: string): Promise<AssetRow | undefined> {
    return new Promise((resolve, reject) => {
      const key = readKey(livemode, fingerprint);
      const waiters = this.queue.get(key);
      if (waiters) waiters.push({ resolve, reject });
      else this.queue.set(key, [{ resolve, reject }]);
      if (!this.inFlight) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.inFlight = true;
    try {
      while (this.queue.size > 0) {
        let batch: Map<string, Waiter[]>;
        if (this.queue.size <= MAX_BATCH) {
          batch = this.queue;
          this.queue = new Map();
        } else {
          batch = new Map();
          for (const [fp, w] of this.queue) {
            if (batch.size >= MAX_BATCH) break;
            batch.set(fp, w);
            this.queue.delete(fp);
          }
        }
        try {
          const keys = [...batch.keys()];
          const { rows } = await this.pool.query<AssetRow & { livemode: boolean }>({
            name: 'public_api_assets_by_keys',
            text: BY_KEYS_SQL,
            values: [
              keys.filter((k) => k.startsWith('live:')).map((k) => k.slice(5)),
              keys.filter((k) => k.startsWith('test:')).map((k) => k.slice(5)),
            ],
          });
          const found = new Map(rows.map(({ livemode, ...row }) => [readKey(livemode, row.fingerprint), row]));
          for (const [key, waiters] of batch) for (const w of waiters) w.resolve(found.get(key));
        } catch (err) {
          for (const waiters of batch.values()) for (const w of waiters) w.reject(err);
        }
      }
    } finally {
      this.inFlight = false;
    }
  }
}

/** 'live:' or 'test:' (both 5 characters) + the fingerprint */
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
