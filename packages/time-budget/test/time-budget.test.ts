import { currentSlowdown, expectWithinBudget } from '../src/index';

function busyFor(ms: number): number {
  const until = performance.now() + ms;
  let spins = 0;
  while (performance.now() < until) spins++;
  return spins;
}

describe('time budgets', () => {
  it('measures the machine as between 1 and 4 times slower than the reference', () => {
    const slowdown = currentSlowdown();
    expect(slowdown).toBeGreaterThanOrEqual(1);
    expect(slowdown).toBeLessThanOrEqual(4);
  });

  it('passes a call within its budget and returns its result and time', () => {
    const timed = expectWithinBudget(1000, () => 'done');
    expect(timed.result).toBe('done');
    expect(timed.ms).toBeLessThan(timed.budgetMs);
  });

  it('fails a call over its budget however busy the machine is (no load excuses more than 4 times)', () => {
    let calls = 0;
    expect(() =>
      expectWithinBudget(20, () => {
        calls++;
        return busyFor(100);
      }),
    ).toThrow(/over its budget of 20 ms/);
    expect(calls).toBe(3);
  });
});
