// The asset projection of accepted bulk signals (docs/reliability.md "Asset projection").
import { enqueueDeliveries } from '@risk/common/events';
import { projectionBacklog, projectionsApplied } from '@risk/common/observability';
import {
  countPendingProjections,
  PROJECTION_BUCKETS,
  projectionsPending,
  recordProjectionFailure,
  signalsStore as sql,
  withIngestSession,
  type ClaimedSignal,
  type ProjectedSignal,
} from '@risk/db';
import type { QueryResult } from 'pg';
import type { AppDeps } from '../../deps';
import { AssetApplication, type AssetOwner } from './apply-assets';
import { enrichmentEnqueuer } from './enqueuer';
import { aggregateAssets, assetKey } from './ingest-rows';

/** Signals applied per projection transaction (the bulk request's own maximum). */
export const PROJECTION_BATCH = 500;
/** The poll interval of the loop (lists lag at most ~1 s behind a 202; docs/public-api.md). */
export const PROJECTION_POLL_MS = 200;
/** How often each replica counts the backlog admission control reads (docs/reliability.md "Admission control"). */
const BACKLOG_REFRESH_MS = 500;

type ProjectorDeps = Pick<AppDeps, 'config' | 'pool' | 'prisma' | 'producer' | 'logger'>;

/**
 * Applies the oldest pending signals (up to `limit`) of up to `claim.buckets` buckets (all free ones by default) in
 * one transaction and returns how many. The claim takes the buckets' advisory locks, so one projector at a time
 * applies a bucket, in acceptance order, while other projectors apply other buckets; a crash before the COMMIT
 * leaves the markers for the next run (the application is all or nothing). Each accepting request's signals are
 * one application (rounds), in acceptance order. Sets `claim.bucket` to the first signal's bucket (the bucket of a
 * failing signal tried alone). 0 means nothing pending, or every pending bucket is another projector's.
 */
export async function projectPending(
  deps: ProjectorDeps,
  limit = PROJECTION_BATCH,
  claim: { buckets?: number; bucket?: number } = {},
): Promise<number> {
  const applied: AssetApplication[] = [];
  let count = 0;
  await withIngestSession(deps.pool, async (session) => {
    session.inTransaction = true;
    const [, claimed] = await session.run(
      [sql.begin, sql.claimProjection(limit, claim.buckets ?? PROJECTION_BUCKETS)].join(';\n'),
    );
    const signals = claimed!.rows as ClaimedSignal[];
    if (signals.length === 0) {
      await session.run(sql.commit);
      session.inTransaction = false;
      return;
    }
    claim.bucket = signals[0]!.bucket;
    for (const wave of waves(rounds(signals))) {
      const apps = wave.map((round) => {
        const { assets } = aggregateAssets([round]);
        const latest = new Map(round.map((s) => [assetKey(s.livemode, s.fingerprint), s]));
        const owner = (key: string): AssetOwner => ({ requestId: latest.get(key)?.request_id ?? undefined });
        const now = round[0]!.created; // the time of acceptance, as the request itself would have written
        return new AssetApplication(deps.config, { now, assets, ownerOf: owner });
      });
      const r1 = await session.run(apps.flatMap((a) => a.first()).join(';\n'));
      const seconds = apps.map((a, i) => a.second(r1.slice(3 * i, 3 * i + 3)));
      const r2: QueryResult[] = await session.run(
        seconds
          .flat()
          .map((q) => q.sql)
          .join(';\n'),
      );
      let k = 0;
      seconds.forEach((qs, i) => qs.forEach((q) => apps[i]!.collect(q.tag, r2[k++]!)));
      applied.push(...apps);
    }
    await session.run([sql.projectionDone(signals.map((s) => s.id)), sql.commit].join(';\n'));
    session.inTransaction = false;
    count = signals.length;
  });
  if (count > 0) projectionsApplied.inc(count);
  // after commit, as the ingest does: the jobs to the enqueuer (the outbox relay covers a failure), the
  // asset.created deliveries to the queue
  for (const a of applied) {
    void enrichmentEnqueuer(deps).enqueue(a.jobs, a.outboxIds);
    if (a.deliveries.length > 0) await enqueueDeliveries(deps, a.deliveries);
  }
  return count;
}

/**
 * A failure that retrying the same signals cannot cure: Postgres data, integrity or limit errors (SQLSTATE
 * classes 22, 23, 54; P0001 raised by a trigger), or a TypeError/RangeError of our code on the rows. A lost
 * connection, a timeout or a deadlock is transient and is retried as it is.
 */
export function isDataFailure(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && code.length === 5)
    return ['22', '23', '54'].includes(code.slice(0, 2)) || code === 'P0001';
  return err instanceof TypeError || err instanceof RangeError;
}

/**
 * projectPending, robust to a signal that cannot be applied (docs/reliability.md "A signal that cannot be
 * applied"): when a batch fails on its data, the oldest pending signal is applied alone; when it fails alone,
 * the failure is counted against it, and at PROJECTION_MAX_ATTEMPTS it is set aside, so one hostile or broken
 * signal never holds back those accepted after it. Returns the signals applied or counted (0: nothing to do).
 */
export async function projectPendingIsolating(deps: ProjectorDeps, buckets = PROJECTION_BUCKETS): Promise<number> {
  try {
    return await projectPending(deps, PROJECTION_BATCH, { buckets });
  } catch (err) {
    if (!isDataFailure(err)) throw err;
  }
  const alone: { buckets: number; bucket?: number } = { buckets: 1 };
  try {
    return await projectPending(deps, 1, alone);
  } catch (err) {
    if (!isDataFailure(err) || alone.bucket === undefined) throw err;
    const error = err instanceof Error ? err.message : String(err);
    const failed = await recordProjectionFailure(deps.pool, error, alone.bucket);
    if (!failed) return 0;
    const log = failed.set_aside ? deps.logger.error.bind(deps.logger) : deps.logger.warn.bind(deps.logger);
    log(failed.set_aside ? 'signal projection set aside' : 'signal projection failed', {
      err,
      signal_id: failed.signal_id,
      attempts: failed.attempts,
    });
    return 1;
  }
}

/**
 * How many buckets one claim of the loop takes: about the number that holds PROJECTION_BATCH signals of the
 * backlog (its buckets fill evenly). A small backlog goes in one transaction from all buckets, as one request's
 * signals; a large one is split a bucket or two per claim, so the other replicas' projectors find free buckets.
 */
function bucketsPerClaim(backlog: number | undefined): number {
  if (backlog === undefined || backlog <= PROJECTION_BATCH) return PROJECTION_BUCKETS;
  return Math.max(1, Math.min(PROJECTION_BUCKETS, Math.ceil((PROJECTION_BUCKETS * PROJECTION_BATCH) / backlog)));
}

/**
 * Returns once no accepted signal awaits its projection: projects here, or, while another projector holds the
 * turn, polls until it is done. What the tests wait on after a bulk 202 (the documented lag, not a sleep).
 */
export async function drainProjections(deps: ProjectorDeps): Promise<void> {
  for (;;) {
    if ((await projectPendingIsolating(deps)) > 0) continue;
    if (!(await projectionsPending(deps.pool))) return;
    await new Promise((r) => setTimeout(r, 10));
  }
}

/**
 * The signals of each accepting request, in order: one application per request, as the request itself would
 * have made it (its time for the assets' and events' `created`, one org per asset).
 */
function rounds(signals: readonly ProjectedSignal[]): ProjectedSignal[][] {
  const out: ProjectedSignal[][] = [];
  let current: ProjectedSignal[] = [];
  for (const s of signals) {
    const head = current[0];
    if (head && (head.request_id !== s.request_id || head.created.getTime() !== s.created.getTime())) {
      out.push(current);
      current = [];
    }
    current.push(s);
  }
  if (current.length > 0) out.push(current);
  return out;
}

/**
 * Consecutive rounds that share no asset, in order: their applications are independent, so each wave's go to
 * Postgres together (two round trips per wave rather than per round). A round that touches an asset of an earlier
 * round of the wave starts the next wave, so each asset's rounds still apply in acceptance order. A bucket's batch
 * holds the bucket's share of many requests, i.e. many small rounds.
 */
function waves(all: ProjectedSignal[][]): ProjectedSignal[][][] {
  const out: ProjectedSignal[][][] = [];
  let wave: ProjectedSignal[][] = [];
  let seen = new Set<string>();
  for (const round of all) {
    const keys = round.map((s) => assetKey(s.livemode, s.fingerprint));
    if (keys.some((k) => seen.has(k))) {
      out.push(wave);
      wave = [];
      seen = new Set();
    }
    wave.push(round);
    keys.forEach((k) => seen.add(k));
  }
  if (wave.length > 0) out.push(wave);
  return out;
}

export interface Projector {
  /** run now (after this process's own bulk commit) rather than at the next poll */
  kick(): void;
  /** the unprojected backlog as last counted (undefined before the first count), for admission control */
  backlog(): number | undefined;
  /** stops the loop; resolves once a running projection has committed or failed */
  stop(): Promise<void>;
}

/**
 * The projection loop every public-api replica runs (main.ts): projects until nothing is pending, then waits
 * for the poll interval or a kick. A failure is logged and retried at the next poll. Alongside, it counts the
 * backlog every 500 ms (risk_projection_backlog; what admission control compares with PROJECTION_BACKLOG_MAX).
 */
export function startProjector(deps: ProjectorDeps, opts: { pollMs?: number } = {}): Projector {
  const pollMs = opts.pollMs ?? PROJECTION_POLL_MS;
  let stopped = false;
  let kicked = false;
  let running: Promise<void> | null = null;
  let timer: NodeJS.Timeout | undefined;
  let backlog: number | undefined;
  let counting: Promise<void> = Promise.resolve();

  const schedule = (ms: number) => {
    clearTimeout(timer);
    timer = setTimeout(run, ms);
    timer.unref();
  };
  function run(): void {
    if (stopped || running) return;
    running = (async () => {
      do {
        kicked = false;
        try {
          while (!stopped && (await projectPendingIsolating(deps, bucketsPerClaim(backlog))) > 0);
        } catch (err) {
          deps.logger.warn('asset projection failed; retrying at the next poll', { err });
          break;
        }
      } while (kicked && !stopped);
    })().finally(() => {
      running = null;
      if (!stopped) schedule(pollMs);
    });
  }
  // a failed count keeps the last one: admission neither opens nor closes on a database hiccup
  const count = () => {
    counting = countPendingProjections(deps.pool).then(
      (n) => {
        backlog = n;
        projectionBacklog.set(n);
      },
      (err: unknown) => {
        deps.logger.warn('counting the projection backlog failed', { err });
      },
    );
  };
  const counter = setInterval(count, BACKLOG_REFRESH_MS);
  counter.unref();
  count();
  schedule(0);
  return {
    kick() {
      if (stopped) return;
      if (running) kicked = true;
      else schedule(0);
    },
    backlog: () => backlog,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      clearInterval(counter);
      await Promise.all([running, counting]);
    },
  };
}
