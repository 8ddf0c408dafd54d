/**
 * Group commit for single-signal ingests. Under load many POST /v1/signals are in flight at once;
 * each alone costs a dozen statements, two round trips and a commit, most of it per statement rather
 * than per row. The batcher collects the requests whose bodies arrived in the same turn of the event
 * loop (no timer: a lone request starts at once) and runs them as ONE transaction of the same
 * multi-row statements a bulk request uses, so the per-statement cost is shared.
 *
 * Each request keeps every guarantee it has alone: its own idempotency claim and stored response, its
 * own 202 sent only after the shared COMMIT, its own errors. Two requests that share a key (an asset
 * fingerprint, an Idempotency-Key) never share a batch: they run in different transactions, which the
 * database serialises (row locks, the claim's unique index) exactly as it would two unbatched
 * requests, so each sees the other's effects as if they had run one after the other. If a shared run fails
 * (a taken Idempotency-Key, a deadlock, anything), nothing of it is committed and every request of it
 * runs again on its own, where a taken key resolves to its replay, 400 or 409.
 */
export interface BatchRunner<T, R> {
  /** the keys an item touches: items sharing a key never share a batch */
  keys(item: T): readonly string[];
  /** runs 2+ items in one shared unit; calls `released()` once the unit no longer needs its slot */
  runShared(items: T[], released: () => void): Promise<R[]>;
  /** runs one item on its own (also what each item of a failed shared run falls back to) */
  runAlone(item: T, released: () => void): Promise<R>;
}

interface Queued<T, R> {
  item: T;
  keys: readonly string[];
  resolve: (r: R) => void;
  reject: (err: unknown) => void;
}

export interface BatcherLimits {
  /** shared units running at once (each holds a database connection until it commits) */
  maxInFlight: number;
  /** items per shared unit */
  maxItems: number;
}

export class MicroBatcher<T, R> {
  private queue: Array<Queued<T, R>> = [];
  private inFlight = 0;
  private scheduled = false;

  constructor(
    private readonly runner: BatchRunner<T, R>,
    private readonly limits: BatcherLimits,
  ) {}

  submit(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ item, keys: this.runner.keys(item), resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.inFlight >= this.limits.maxInFlight || this.queue.length === 0) return;
    this.scheduled = true;
    // let the event loop turn once: requests whose bodies were parsed in this turn join the batch
    setImmediate(() => {
      this.scheduled = false;
      while (this.inFlight < this.limits.maxInFlight && this.queue.length > 0) void this.run(this.take());
    });
  }

  /** The oldest queued items that share no key, in arrival order; the others keep their place. */
  private take(): Array<Queued<T, R>> {
    const taken: Array<Queued<T, R>> = [];
    const left: Array<Queued<T, R>> = [];
    const used = new Set<string>();
    for (const q of this.queue) {
      if (taken.length >= this.limits.maxItems || q.keys.some((k) => used.has(k))) {
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
    try {
      if (batch.length === 1) {
        await settle(batch[0]!, this.runner.runAlone(batch[0]!.item, released));
        return;
      }
      let results: R[];
      try {
        results = await this.runner.runShared(
          batch.map((q) => q.item),
          released,
        );
      } catch {
        released();
        await Promise.all(
          batch.map((q) =>
            settle(
              q,
              this.runner.runAlone(q.item, () => undefined),
            ),
          ),
        );
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
