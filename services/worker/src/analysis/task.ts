/**
 * What runs inside an analysis thread (services/worker/src/analysis/pool.ts): the pure engine from
 * @risk/enrichment, called by name from a table, on serializable arguments. Nothing here does I/O.
 *
 * Threads load this file bundled by esbuild with the engine into one CommonJS file (pool.ts,
 * analysisTaskFile), or, should bundling fail, through task-entry.cjs, which registers tsx first. Either
 * way works under `node --import tsx` (pnpm start) and under jest: a worker thread is a fresh Node.js
 * isolate that jest's module system never sees.
 */
import { threadId } from 'node:worker_threads';
import { budgetedTask, threadCpuClock } from '@risk/thread-pool';
import {
  analyzeObservations,
  analyzeObservationsWithPackages,
  finalize,
  type Analysis,
  type EnrichmentInput,
  type EnrichmentResult,
  type FinalizeContext,
  type MatchedThreat,
  type PackageKey,
} from '@risk/enrichment';
import { warmUpInputs } from './warm-up-samples';

/**
 * A threat read before the analysis, without the asset's row lock (services/worker/src/jobs/enrichment.ts, packages/db/src/stores/enrichment-reads.ts):
 * every live threat that lists the fingerprint, plus those whose cve_id is one the engine can report at all.
 * `by_fingerprint` says which; a CVE-only candidate counts once the analysis has produced its CVE id.
 */
export type CandidateThreat = MatchedThreat & { by_fingerprint: boolean };

/**
 * analyzeObservations (every org's latest observation, docs/security.md "Modes and shared
 * observations"), then the shared threat rule (packages/db/src/stores/threats-store.ts) applied in memory to the
 * candidates — a threat matches when it lists the fingerprint or its cve_id is among the CVE ids of the
 * rule findings just computed — then finalize (score, AI-BOM).
 */
function enrichWithCandidates(
  inputs: EnrichmentInput[],
  ctx: Omit<FinalizeContext, 'threats'> & { threats: CandidateThreat[] },
): EnrichmentResult {
  // the asset's MCP tool baseline goes to the rules (docs/drift.md)
  return finalizeWithCandidates(analyzeObservations(inputs, { tool_baseline: ctx.tool_baseline }), ctx);
}

function finalizeWithCandidates(
  analysis: Analysis,
  ctx: Omit<FinalizeContext, 'threats'> & { threats: CandidateThreat[] },
): EnrichmentResult {
  const cves = new Set(analysis.cve_ids);
  const threats = ctx.threats
    .filter((t) => t.by_fingerprint || (t.cve_id !== null && cves.has(t.cve_id)))
    .map(({ by_fingerprint: _, ...t }) => t);
  return finalize(analysis, { ...ctx, threats });
}

/**
 * A job's first (and usually only) task (docs/advisories.md "Enrichment"): the packages to read advisories for, and
 * the whole enrichment on the advisories the engine ships, in one thread hop. The worker keeps that result when the
 * database holds no advisory for those packages (then the two agree: the engine's curated records are what the
 * look-up would hand it); otherwise it runs 'enrich' again with the records read.
 */
function packagesAndEnrich(
  inputs: EnrichmentInput[],
  ctx: Omit<FinalizeContext, 'threats'> & { threats: CandidateThreat[] },
): { packages: PackageKey[]; result: EnrichmentResult } {
  // the packages come off the analysis's own parse: each manifest is parsed once (a second parse was a seventh of
  // the thread's time, docs/performance.md)
  const { analysis, packages } = analyzeObservationsWithPackages(inputs, { tool_baseline: ctx.tool_baseline });
  return { packages, result: finalizeWithCandidates(analysis, ctx) };
}

/** What one warm-up task did in its thread (warm-up.ts). */
export interface WarmUpResult {
  thread: number;
  rounds: number;
  /** the CPU this thread has spent warming up so far (of wall time where that is not readable) */
  cpu_ms: number;
}

/** this thread's warm-up CPU so far, across its warm-up tasks */
let warmedMs = 0;

/**
 * Runs the whole job path (packagesAndEnrich) over the warm-up samples until this thread has spent `cpuMs` warming
 * up, or this task `chunkMs` (within the pool's budget), so V8 has compiled the engine's hot functions before the
 * first job (docs/performance.md "A cold worker"). A thread already warm returns at once: the pool cannot address a
 * thread, so warm-up.ts posts tasks until every thread has reported its warm-up done.
 */
function warmUp(cpuMs: number, chunkMs: number): WarmUpResult {
  const clock = cpuClock();
  const ctx = {
    threats: [],
    publisher: { org_count: 1, signal_count: 1, first_seen: '2026-01-01T00:00:00.000Z' },
    now: new Date().toISOString(),
    tool_baseline: null,
  };
  let rounds = 0;
  const start = clock();
  const already = warmedMs;
  while (warmedMs < cpuMs && warmedMs - already < chunkMs) {
    for (const inputs of warmUpInputs(rounds)) packagesAndEnrich(inputs, ctx);
    rounds++;
    warmedMs = already + clock() - start;
  }
  return { thread: threadId, rounds, cpu_ms: warmedMs };
}

/** The engine entries a task may name; each takes and returns structured-cloneable values. */
export const ENTRIES = {
  packages_and_enrich: packagesAndEnrich,
  enrich: enrichWithCandidates,
  warm_up: warmUp,
} satisfies Record<string, (...args: never[]) => unknown>;

export type AnalysisEntries = typeof ENTRIES;
export type EntryName = keyof AnalysisEntries;

export interface AnalysisTask<E extends EntryName = EntryName> {
  entry: E;
  args: Parameters<AnalysisEntries[E]>;
  /** test-only (ENRICHMENT_TEST_BUSY_MS): burn this much CPU first, as a pathological input would */
  busy_ms: number;
}

/** this thread's CPU clock in ms, or wall time where that is not readable */
function cpuClock(): () => number {
  return threadCpuClock && Number.isFinite(threadCpuClock.now()) ? threadCpuClock.now : Date.now;
}

/** test-only (ENRICHMENT_TEST_BUSY_MS): burn `ms` of this thread's CPU (of wall time where that is not readable) */
function spin(ms: number): void {
  const clock = cpuClock();
  const until = clock() + ms;
  while (clock() < until) {
    /* the event loop of this thread is blocked, like a super-linear regex would block it */
  }
}

/** A thread's entry: the budgeted pool (@risk/thread-pool) stamps the task's start, then this runs it. */
export default budgetedTask(function runAnalysisTask(task: AnalysisTask): ReturnType<AnalysisEntries[EntryName]> {
  if (task.busy_ms > 0) spin(task.busy_ms);
  const entry = ENTRIES[task.entry] as (...args: unknown[]) => ReturnType<AnalysisEntries[EntryName]>;
  return entry(...task.args);
});
