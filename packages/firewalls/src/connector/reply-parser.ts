// Firewall replies are parsed off the main thread, under a CPU budget (docs/firewalls.md "Replies",
// docs/security.md "Firewall replies"). The admin API (POST /firewalls/v1/{id}/test, logging) and the worker (policy
// sync) call firewalls a tenant registered, i.e. hosts the tenant may control; a crafted reply parsed on the main
// thread held admin /health for 16 s and the worker's lock renewals for 10 s per call. Here the parse runs in a
// @risk/thread-pool budgeted pool: the main thread only waits, and a parse over REPLY_PARSE_BUDGET_MS of CPU is
// stopped (its thread terminated) and fails the call with a connector error.
import path from 'node:path';
import { createBudgetedPool, defaultThreads, taskFile, type BudgetedPool } from '@risk/thread-pool';
import { ConnectorError } from './errors';
import type { XmlNode } from '../lib/xml-tree';
import type { ReplyParse } from './reply-task';

/**
 * CPU a reply's parse may take. A real reply (a few KiB) parses in a few milliseconds; the largest a connector
 * accepts (256 KiB, docs/firewalls.md "Replies") in well under this on a quiet machine. Counted in the thread's CPU
 * time, so a busy machine does not fail a benign reply (packages/thread-pool).
 */
export const REPLY_PARSE_BUDGET_MS = 1000;

class ReplyParseBudgetError extends Error {
  constructor(readonly budgetMs: number) {
    super(`reply parse over its budget of ${budgetMs} ms of CPU`);
  }
}

let pool: BudgetedPool<ReplyParse, unknown> | undefined;
let budgetMs = REPLY_PARSE_BUDGET_MS;

/**
 * One pool per process, started on the first reply: the admin API may never call a firewall. Threads leave when
 * idle for a minute (a firewall call is rare next to what the services otherwise do); at most two, one per core of
 * a small machine, at a lower CPU priority than the main thread.
 */
function replyPool(): BudgetedPool<ReplyParse, unknown> {
  pool ??= createBudgetedPool<ReplyParse, unknown>({
    filename: taskFile({
      source: path.join(__dirname, 'reply-task.ts'),
      name: 'firewall-reply-task',
      fallback: path.join(__dirname, 'reply-task-entry.cjs'),
    }),
    threads: defaultThreads(),
    minThreads: 0,
    idleTimeoutMs: 60_000,
    budgetMs,
    overBudget: (budgetMs) => new ReplyParseBudgetError(budgetMs),
  });
  return pool;
}

/** Terminates the reply threads (a service's shutdown; tests). The next reply starts a new pool. */
export async function closeReplyParsers(): Promise<void> {
  const current = pool;
  pool = undefined;
  await current?.close();
}

/** Test-only: parses from now on get `ms` of CPU (the pool restarts with it). */
export async function setReplyParseBudgetForTests(ms: number): Promise<void> {
  await closeReplyParsers();
  budgetMs = ms;
}

async function parseInThread(parse: ReplyParse, product: string): Promise<unknown> {
  try {
    return await replyPool().run(parse);
  } catch (err) {
    if (err instanceof ReplyParseBudgetError) {
      throw new ConnectorError(
        'unexpected_response',
        `${product} sent a reply that took more than ${err.budgetMs} ms of CPU to parse; it was refused ` +
          `(a real ${product} reply parses in milliseconds)`,
      );
    }
    throw err;
  }
}

/** The elements of an XML reply; rejects with the parser's error when the body is not XML. */
export async function parseXmlReply(body: string, product: string): Promise<XmlNode[]> {
  return (await parseInThread({ format: 'xml', body }, product)) as XmlNode[];
}

/** A JSON reply's value; rejects with the parser's error when the body is not JSON. */
export async function parseJsonReply(body: string, product: string): Promise<unknown> {
  return parseInThread({ format: 'json', body }, product);
}
