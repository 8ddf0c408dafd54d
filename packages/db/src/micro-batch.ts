/**
 * THE group-commit / micro-batch primitive (docs/data-access.md "Micro-batches"). Under load many
 * callers want the same round trip at once (an ingest transaction, a read, an enqueue); each alone pays
 * the per-statement and per-round-trip cost. Items submitted while `maxInFlight` batches are out wait
 * and go out together in the next batch; a lone item goes out on the next turn of the event loop (no
 * timer), so under low load nothing waits.
 *
 * - `keys`: items that share a key never share a batch (they run in different batches, which the
 *   database serialises as it would two unbatched calls); the others keep their place in the queue.
 * - `runBatch` runs the items (results in item order); it may call `released()` as soon as the batch
 *   no longer needs its slot (e.g. after COMMIT, before slower post-commit work).
 * - `runAlone`, when given, runs a batch of one, and, when a batch of several fails, each of its items
 *   again on its own (where an item's own error surfaces), `maxInFlight` of them at a time: each may hold a
 *   pooled connection, and a failed batch of 50 must not queue 50 checkouts on a pool of 10. Without it a
 *   failed batch rejects every item.
 */
export interface MicroBatchOptions<T, R> {
  /** batches running at once (e.g. each holds a database connection) */
  maxInFlight: number;
  /** items per batch */
  maxItems: number;
  /** `setImmediate` (default) lets I/O callbacks of this turn join; `nextTick` flushes before any I/O */
  tick?: 'immediate' | 'nextTick';
  keys?: (item: T) => readonly string[];
  runBatch: (items: T[], released: () => void) => Promise<R[]>;
  runAlone?: (item: T, released: () => void) => Promise<R>;
}

interface Queued<T, R> {
  item: T;
  keys: readonly string[];
  resolve: (r: R) => void;
  reject: (err: unknown) => void;
}

const NO_KEYS: readonly string[] = [];
const noop = () => undefined;

export class MicroBatch<T, R> {
  private queue: Array<Queued<T, R>> = [];
  private inFlight = 0;
  private scheduled = false;

  constructor(private readonly opts: MicroBatchOptions<T, R>) {}

  submit(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ item, keys: this.opts.keys?.(item) ?? NO_KEYS, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.inFlight >= this.opts.maxInFlight || this.queue.length === 0) return;
    this.scheduled = true;
    const flush = () => {
      this.scheduled = false;
      while (this.inFlight < this.opts.maxInFlight && this.queue.length > 0) void this.run(this.take());
    };
    if (this.opts.tick === 'nextTick') process.nextTick(flush);
    else setImmediate(flush);
  }

  /** The oldest queued items that share no key, in arrival order; the others keep their place. */
  private take(): Array<Queued<T, R>> {
    if (!this.opts.keys) return this.queue.splice(0, this.opts.maxItems);
    const taken: Array<Queued<T, R>> = [];
    const left: Array<Queued<T, R>> = [];
    const used = new Set<string>();
    for (const q of this.queue) {
      if (taken.length >= this.opts.maxItems || q.keys.some((k) => used.has(k))) {
        left.push(q);
        continue;
      }
      for (const k of q.keys) used.add(k);
      taken.push(q);
    }
    this.queue = left;
    return taken;
  }

  private async run(batch: Array<Queued<T, R>>): Promise<void> {
    this.inFlight++;
    let held = true;
    const released = () => {
      if (!held) return;
      held = false;
      this.inFlight--;
      this.schedule();
    };
    const { runAlone } = this.opts;
    try {
      if (batch.length === 1 && runAlone) {
        await settle(batch[0]!, runAlone(batch[0]!.item, released));
        return;
      }
      let results: R[];
      try {
        results = await this.opts.runBatch(
          batch.map((q) => q.item),
          released,
        );
      } catch (err) {
        released();
        if (!runAlone) {
          for (const q of batch) q.reject(err);
          return;
        }
        // the batch's items again alone, as many at a time as batches may run at once
        let next = 0;
        const lane = async () => {
          for (let i = next++; i < batch.length; i = next++) await settle(batch[i]!, runAlone(batch[i]!.item, noop));
        };
        await Promise.all(Array.from({ length: Math.min(this.opts.maxInFlight, batch.length) }, lane));
        return;
      }
      batch.forEach((q, i) => q.resolve(results[i]!));
    } finally {
      released();
    }
  }
}

async function settle<T, R>(q: Queued<T, R>, p: Promise<R>): Promise<void> {
  try {
    q.resolve(await p);
  } catch (err) {
    q.reject(err);
  }
}
