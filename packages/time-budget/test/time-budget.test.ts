import { cpuSlowdown, currentSlowdown, expectWithinBudget, loadFactor, scaledByLoad } from '../src/index';

function busyFor(ms: number): number {
  const until = performance.now() + ms;
  let spins = 0;
  while (performance.now() < until) spins++;
  return spins;
}

describe('time budgets', () => {
  it('measures the machine as between 1 and 8 times slower than the reference, never below its load', () => {
    const load = loadFactor();
    const slowdown = currentSlowdown();
    expect(slowdown).toBeGreaterThanOrEqual(1);
    expect(slowdown).toBeLessThanOrEqual(8);
    // the load average moves slowly; a reading a moment later is within a small margin of the one before
    expect(slowdown).toBeGreaterThanOrEqual(Math.min(8, load) * 0.8);
  });

  it('measures CPU slowdown in CPU time: between 1 and 8, and not above the wall-clock slowdown by more than noise', () => {
    const cpu = cpuSlowdown();
    expect(cpu).toBeGreaterThanOrEqual(1);
    expect(cpu).toBeLessThanOrEqual(8);
    // the same passes take at least as long in wall time as in CPU time (up to timer noise)
    expect(cpu).toBeLessThanOrEqual(currentSlowdown() * 1.5);
  });

  it('stretches a wait by the load, never shrinks it, and by at most 8 times', () => {
    const factor = loadFactor();
    expect(factor).toBeGreaterThanOrEqual(1);
    expect(factor).toBeLessThanOrEqual(8);
    const wait = scaledByLoad(20_000);
    expect(wait).toBeGreaterThanOrEqual(20_000);
    expect(wait).toBeLessThanOrEqual(160_000);
  });

  it('passes a call within its budget and returns its result and time', () => {
    const timed = expectWithinBudget(1000, () => 'done');
    expect(timed.result).toBe('done');
    expect(timed.ms).toBeLessThan(timed.budgetMs);
  });

  it('fails a call over its budget however busy the machine is (no load excuses more than 8 times)', () => {
    let calls = 0;
    expect(() =>
      expectWithinBudget(20, () => {
        calls++;
        return busyFor(250);
      }),
    ).toThrow(/over its budget of 20 ms/);
    expect(calls).toBe(3);
  });
});
