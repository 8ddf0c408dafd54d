import { MicroBatch } from './micro-batch';

const tick = () => new Promise((r) => setImmediate(r));

describe('MicroBatch', () => {
  it('sends a lone item at once and groups items submitted while a batch is out', async () => {
    const batches: number[][] = [];
    let open: (() => void) | undefined;
    const mb = new MicroBatch<number, number>({
      maxInFlight: 1,
      maxItems: 10,
      runBatch: async (items) => {
        batches.push(items);
        if (batches.length === 1) await new Promise<void>((r) => (open = r));
        return items.map((n) => n * 2);
      },
    });
    const first = mb.submit(1);
    await tick();
    const rest = [mb.submit(2), mb.submit(3), mb.submit(4)];
    await tick();
    expect(batches).toEqual([[1]]); // the others wait for the slot
    open!();
    expect(await Promise.all([first, ...rest])).toEqual([2, 4, 6, 8]);
    expect(batches).toEqual([[1], [2, 3, 4]]);
  });

  it('never puts two items sharing a key in one batch, and caps a batch at maxItems', async () => {
    const batches: string[][] = [];
    const mb = new MicroBatch<string, string>({
      maxInFlight: 1,
      maxItems: 2,
      keys: (s) => [s[0]!],
      runBatch: async (items) => {
        batches.push(items);
        return items;
      },
    });
    await Promise.all(['a1', 'a2', 'b1', 'c1'].map((s) => mb.submit(s)));
    expect(batches).toEqual([['a1', 'b1'], ['a2', 'c1']]);
  });

  it('runs each item of a failed batch again alone when runAlone is given, else rejects each', async () => {
    const alone: number[] = [];
    const withFallback = new MicroBatch<number, number>({
      maxInFlight: 1,
      maxItems: 10,
      runBatch: async () => {
        throw new Error('shared run failed');
      },
      runAlone: async (n) => {
        alone.push(n);
        if (n === 2) throw new Error('two is bad');
        return n;
      },
    });
    const results = await Promise.allSettled([1, 2, 3].map((n) => withFallback.submit(n)));
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message))).toEqual([
      1,
      'two is bad',
      3,
    ]);
    expect(alone.sort()).toEqual([1, 2, 3]);

    const without = new MicroBatch<number, number>({
      maxInFlight: 2,
      maxItems: 10,
      tick: 'nextTick',
      runBatch: async () => {
        throw new Error('read failed');
      },
    });
    const failed = await Promise.allSettled([without.submit(1), without.submit(2)]);
    expect(failed.map((r) => r.status)).toEqual(['rejected', 'rejected']);
  });
});
