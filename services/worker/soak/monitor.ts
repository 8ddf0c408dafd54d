import { readFileSync } from 'node:fs';
import { QUEUES, type QueueProducer } from '@risk/common/queue';
import type { Pool } from 'pg';
import type { Sample } from './traffic';

/** What the soak reads of the stack every interval and at the end (docs/reliability.md "Soak"). */

export function rssMiB(pid: number | undefined): number | null {
  if (!pid) return null;
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8')
      .split('\n')
      .find((l) => l.startsWith('VmRSS:'));
    return line ? Math.round(Number(line.split(/\s+/)[1]) / 1024) : null;
  } catch {
    return null;
  }
}

/**
 * V8 heap in use (MiB) as the process's own /metrics reports it (prom-client's default
 * `nodejs_heap_size_used_bytes`): the figure that tells a leak from V8 sizing its heap, which RSS cannot
 * (docs/reliability.md "Soak").
 */
export async function heapUsedMiB(baseUrl: string, token: string): Promise<number | null> {
  try {
    const res = await fetch(`${baseUrl}/metrics`, { headers: { authorization: `Bearer ${token}` } });
    if (!res.ok) return null;
    const line = (await res.text()).split('\n').find((l) => l.startsWith('nodejs_heap_size_used_bytes '));
    return line ? Math.round(Number(line.split(' ')[1]) / 2 ** 20) : null;
  } catch {
    return null;
  }
}

export interface Lag {
  /** BullMQ jobs not finished (waiting, delayed, active), by queue */
  queued: Record<string, number>;
  /** outbox rows waiting for the relay */
  outbox: number;
  /** assets waiting for enrichment and the oldest one's wait in seconds */
  unenriched: number;
  oldestUnenrichedS: number;
}

export async function queueLag(pool: Pool, producer: QueueProducer): Promise<Lag> {
  const queued: Record<string, number> = {};
  for (const name of [QUEUES.enrichment, QUEUES.webhooks, QUEUES.firewallSync]) {
    const c = await producer.queue(name).getJobCounts('waiting', 'delayed', 'active', 'prioritized');
    queued[name] = Object.values(c).reduce((a, b) => a + b, 0);
  }
  const { rows } = await pool.query<{ outbox: number; unenriched: number; oldest: number }>(
    `SELECT (SELECT count(*)::int FROM outbox WHERE processed_at IS NULL AND dead_lettered_at IS NULL) AS outbox,
            count(*)::int AS unenriched,
            coalesce(extract(epoch FROM now() - min(updated)), 0)::float8 AS oldest
       FROM assets WHERE enrichment_status IN ('pending', 'stale')`,
  );
  const r = rows[0]!;
  return { queued, outbox: r.outbox, unenriched: r.unenriched, oldestUnenrichedS: Math.round(r.oldest) };
}

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! : 0;

export interface RouteStats {
  route: string;
  count: number;
  perSecond: number;
  p50: number;
  p99: number;
  max: number;
  /** answers other than 2xx (0 = no answer) by status */
  errors: Record<string, number>;
}

export function routeStats(samples: Sample[], seconds: number): RouteStats[] {
  const byRoute = new Map<string, Sample[]>();
  for (const s of samples) byRoute.set(s.route, [...(byRoute.get(s.route) ?? []), s]);
  return [...byRoute.entries()]
    .map(([route, xs]) => {
      const ms = xs.map((x) => x.ms).sort((a, b) => a - b);
      const errors: Record<string, number> = {};
      for (const x of xs) if (x.status < 200 || x.status >= 300) errors[x.status] = (errors[x.status] ?? 0) + 1;
      return {
        route,
        count: xs.length,
        perSecond: xs.length / seconds,
        p50: percentile(ms, 50),
        p99: percentile(ms, 99),
        max: ms[ms.length - 1] ?? 0,
        errors,
      };
    })
    .sort((a, b) => b.count - a.count);
}

/**
 * The heap's floor after warm-up: the lowest sample of the first half against the lowest of the second.
 * Heap in use is a saw-tooth (it climbs between collections), so max/min mostly measures where a sample
 * fell in the cycle; a leak raises the floor the collector returns to, and that is what this compares.
 */
export function heapFloorVerdict(
  series: Record<string, number[]>,
  tolerance = 0.2,
): Record<string, { first: number; second: number; growth: number; pass: boolean }> {
  return Object.fromEntries(
    Object.entries(series)
      .filter(([, xs]) => xs.length >= 2)
      .map(([name, xs]) => {
        const half = Math.floor(xs.length / 2);
        const first = Math.min(...xs.slice(0, half));
        const second = Math.min(...xs.slice(half));
        const growth = first > 0 ? (second - first) / first : 0;
        return [name, { first, second, growth, pass: growth <= tolerance }];
      }),
  );
}

/** RSS is flat when, after warm-up, each process stays within `tolerance` (20 %) of its lowest sample. */
export function rssVerdict(
  series: Record<string, number[]>,
  tolerance = 0.2,
): Record<string, { min: number; max: number; growth: number; pass: boolean }> {
  return Object.fromEntries(
    Object.entries(series).map(([name, xs]) => {
      const min = Math.min(...xs);
      const max = Math.max(...xs);
      const growth = min > 0 ? (max - min) / min : 0;
      return [name, { min, max, growth, pass: growth <= tolerance }];
    }),
  );
}
