import { createAnalysisPool, type AnalysisPool } from './pool';
import { warmUpAnalysis } from './warm-up';

// Real analysis threads (the esbuild bundle of task.ts, pool.test.ts): the warm-up the worker runs before it takes
// jobs (main.ts), and that it never keeps the worker from starting.
const manifest = [
  {
    fingerprint: 'pypi:acme-agent',
    asset_type: 'package' as const,
    name: 'acme-agent',
    version: '1.0.0',
    source_url: null,
    raw_manifest: 'langchain==0.0.100\n',
    metadata: null,
  },
];
const ctx = {
  threats: [],
  publisher: { org_count: 1, signal_count: 1, first_seen: '2026-01-01T00:00:00Z' },
  now: '2026-11-23T00:00:00Z',
};
// no wall-clock bound in these tests: a deadline is what the warm-up must respect, never what it is judged by
const GENEROUS = 600_000;

describe('warmUpAnalysis', () => {
  const pools: AnalysisPool[] = [];
  afterAll(async () => {
    await Promise.all(pools.map((p) => p.close()));
  });
  const pool = (opts: Parameters<typeof createAnalysisPool>[0]) => {
    const p = createAnalysisPool(opts);
    pools.push(p);
    return p;
  };

  it('warms every thread for the CPU asked, in tasks within the budget, and the pool then runs jobs', async () => {
    // 2 threads, a 400 ms budget: 300 ms of warm-up each goes in tasks of at most 200 ms, never over budget
    const p = pool({ threads: 2, timeoutMs: 400 });
    const out = await warmUpAnalysis(p, { cpuMs: 300, deadlineMs: GENEROUS });
    expect(out).toMatchObject({ ok: true });
    expect(out.error).toBeUndefined();
    expect(new Set(out.threads.map((t) => t.thread)).size).toBe(2);
    for (const t of out.threads) expect(t.cpu_ms).toBeGreaterThanOrEqual(300);
    const result = await p.run('enrich', [manifest, ctx]);
    expect(result.findings.some((f) => f.rule_id === 'R23')).toBe(true);
  }, 120_000);

  it('skips the warm-up at 0 ms', async () => {
    const p = pool({ threads: 1, timeoutMs: 1000 });
    expect(await warmUpAnalysis(p, { cpuMs: 0, deadlineMs: GENEROUS })).toMatchObject({ ok: true, threads: [] });
  });

  it('ends at a warm-up task that fails (over its budget), and the replacement thread still runs jobs', async () => {
    const p = pool({ threads: 1, timeoutMs: 50 });
    // the test-only busy loop makes the warm-up task a pathological one (pool.ts RunOptions)
    const out = await warmUpAnalysis(p, { cpuMs: 10, deadlineMs: GENEROUS, run: { busyMs: 400 } });
    expect(out).toMatchObject({ ok: false, error: 'analysis_timeout' });
    const result = await p.run('enrich', [manifest, ctx]);
    expect(result.findings.length).toBeGreaterThan(0);
  }, 120_000);

  it('gives up at the deadline when the threads never start, instead of blocking the worker', async () => {
    // a task file that never resolves: the pool never has a thread (nor anything to close: its close would wait for it)
    const p = createAnalysisPool({ threads: 1, timeoutMs: 1000, filename: new Promise<string>(() => undefined) });
    const out = await warmUpAnalysis(p, { cpuMs: 100, deadlineMs: 200 });
    expect(out).toMatchObject({ ok: false, threads: [], error: 'not warm after 200 ms' });
  });
});
