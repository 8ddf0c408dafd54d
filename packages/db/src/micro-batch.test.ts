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
    expect(batches).toEqual([
      ['a1', 'b1'],
      ['a2', 'c1'],
    ]);
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

  it('runs the items of a failed batch alone at most maxInFlight at a time', async () => {
    let running = 0;
    let most = 0;
    const mb = new MicroBatch<number, number>({
      maxInFlight: 2,
      maxItems: 50,
      runBatch: async () => {
        throw new Error('batch failed');
      },
      runAlone: async (n) => {
        running++;
        most = Math.max(most, running);
        await new Promise((r) => setTimeout(r, 2));
        running--;
        if (n === 7) throw new Error('seven is bad');
        return n * 10;
      },
    });
    // the 50 go out as one batch, which fails; on the old code all 50 ran alone at once
    const results = await Promise.allSettled(Array.from({ length: 50 }, (_, n) => mb.submit(n)));
    expect(most).toBeLessThanOrEqual(2);
    expect(most).toBe(2);
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message))).toEqual(
      Array.from({ length: 50 }, (_, n) => (n === 7 ? 'seven is bad' : n * 10)),
    );
  });
});

describe("MicroBatch with keys and runAlone (the single-signal ingest's use)", () => {
  /** a runner that records how items were grouped; `failShared` makes shared runs throw */
  function recorder(opts: { failShared?: boolean } = {}) {
    const calls: Array<{ kind: 'shared' | 'alone'; items: string[] }> = [];
    const runner = {
      keys: (item: string) => [item.split(':')[0]!],
      runBatch: async (items: string[], released: () => void) => {
        calls.push({ kind: 'shared', items });
        await new Promise((r) => setTimeout(r, 5));
        released();
        if (opts.failShared) throw new Error('shared run failed');
        return items.map((i) => `done ${i}`);
      },
      runAlone: async (item: string, released: () => void) => {
        calls.push({ kind: 'alone', items: [item] });
        released();
        return `alone ${item}`;
      },
    };
    return { calls, runner };
  }

  test('items submitted in the same turn share one run; each gets its own result', async () => {
    const { calls, runner } = recorder();
    const b = new MicroBatch<string, string>({ ...runner, maxInFlight: 1, maxItems: 10 });
    const results = await Promise.all(['a:1', 'b:1', 'c:1'].map((i) => b.submit(i)));
    expect(results).toEqual(['done a:1', 'done b:1', 'done c:1']);
    expect(calls).toEqual([{ kind: 'shared', items: ['a:1', 'b:1', 'c:1'] }]);
  });

  test('items sharing a key never share a run; the later one keeps its place for the next run', async () => {
    const { calls, runner } = recorder();
    const b = new MicroBatch<string, string>({ ...runner, maxInFlight: 1, maxItems: 10 });
    const results = await Promise.all(['a:1', 'a:2', 'b:1'].map((i) => b.submit(i)));
    expect(results).toEqual(['done a:1', 'alone a:2', 'done b:1']);
    expect(calls).toEqual([
      { kind: 'shared', items: ['a:1', 'b:1'] },
      { kind: 'alone', items: ['a:2'] },
    ]);
  });

  test('a run holds at most maxItems items', async () => {
    const { calls, runner } = recorder();
    const b = new MicroBatch<string, string>({ ...runner, maxInFlight: 1, maxItems: 2 });
    await Promise.all(['a', 'b', 'c', 'd', 'e'].map((i) => b.submit(i)));
    expect(calls.map((c) => c.items.length)).toEqual([2, 2, 1]);
  });

  test('a failed shared run falls back to running each item alone', async () => {
    const { calls, runner } = recorder({ failShared: true });
    const b = new MicroBatch<string, string>({ ...runner, maxInFlight: 1, maxItems: 10 });
    const results = await Promise.all(['a', 'b'].map((i) => b.submit(i)));
    expect(results).toEqual(['alone a', 'alone b']);
    expect(calls.map((c) => c.kind)).toEqual(['shared', 'alone', 'alone']);
  });

  test('an item that fails alone rejects only its own promise', async () => {
    const runner = {
      keys: (i: string) => [i],
      runBatch: async (): Promise<string[]> => {
        throw new Error('shared');
      },
      runAlone: async (i: string) => {
        if (i === 'bad') throw new Error('bad item');
        return i;
      },
    };
    const b = new MicroBatch<string, string>({ ...runner, maxInFlight: 2, maxItems: 10 });
    const results = await Promise.allSettled(['good', 'bad'].map((i) => b.submit(i)));
    expect(results[0]).toEqual({ status: 'fulfilled', value: 'good' });
    expect(results[1]).toMatchObject({ status: 'rejected', reason: new Error('bad item') });
  });
});
