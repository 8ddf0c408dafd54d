import { DatabaseError, type Pool, type PoolClient, type QueryResult } from 'pg';
import { copyIn } from './copy';
import { assertNoNul } from './literal';

/** One server-side prepared statement: its parameter types ($1 … $n) and its text. */
export interface StatementDef {
  types: readonly string[];
  sql: string;
}

/**
 * A set of statements prepared once per pooled connection, then run as `EXECUTE name(literal, …)`
 * inside multi-statement simple queries (docs/data-access.md "Prepared statements"): a transaction of a
 * dozen statements travels in one or two round trips and is neither re-parsed nor re-planned.
 *
 * PREPARE is not transactional: a PREPARE batch that fails half-way leaves the statements before the
 * failure defined on the connection, and preparing again there fails for good ("prepared statement …
 * already exists"). So a connection whose PREPARE failed is never handed out again (`withPrepared`).
 */
export class PreparedStatements<Name extends string> {
  private readonly prepareAll: string;
  private readonly preparedOn = new WeakSet<PoolClient>();

  constructor(readonly statements: Readonly<Record<Name, StatementDef>>) {
    this.prepareAll = (Object.entries(statements) as Array<[string, StatementDef]>)
      .map(([name, st]) => `PREPARE ${name}${st.types.length > 0 ? `(${st.types.join(', ')})` : ''} AS ${st.sql}`)
      .join(';\n');
  }

  /** `EXECUTE name(args)`; each argument is already a literal (./literal.ts). */
  execute(name: Name, args: readonly string[]): string {
    return args.length > 0 ? `EXECUTE ${name}(${args.join(', ')})` : `EXECUTE ${name}`;
  }

  /** Prepares the set on the connection the first time it serves this set. */
  async prepare(client: PoolClient): Promise<void> {
    if (this.preparedOn.has(client)) return;
    await client.query(this.prepareAll);
    this.preparedOn.add(client);
  }
}

/**
 * The settings, inside its transaction, of a statement pinned to its generic plan (docs/data-access.md "Generic
 * plans"): that plan, made without sequential scans. The plan is cached when the statement first runs on a connection,
 * maybe while its tables are small and just analysed, when a sequential scan is the cheapest read; the cached plan
 * would keep scanning them whole once they have grown, until autovacuum's next ANALYZE. Every read of such a statement
 * is a probe by key, so an index is there for it.
 */
export const GENERIC_PLAN_SETTINGS = [
  'SET LOCAL plan_cache_mode = force_generic_plan',
  'SET LOCAL enable_seqscan = off',
] as const;
/** Back to Postgres's own choices, for the statements after a pinned one in the same transaction. */
export const CHOSEN_PLAN_SETTINGS = [
  'SET LOCAL plan_cache_mode = DEFAULT',
  'SET LOCAL enable_seqscan = DEFAULT',
] as const;

/** What `withPrepared` hands its work: the connection, and a flag the work keeps while a transaction is open. */
export interface PreparedSession {
  /** runs SQL text of one or more statements; always one result per statement */
  run(sql: string): Promise<QueryResult[]>;
  /**
   * runs one statement (an EXECUTE of the set) in a transaction of its own on the statement's generic plan, never
   * planned anew (docs/data-access.md "Generic plans": only for a statement whose generic plan a test proves)
   */
  runGeneric(statement: string): Promise<QueryResult>;
  /** `COPY … FROM STDIN` with `chunks` as its data (COPY's text format, ./copy.ts), e.g. inside the open transaction */
  copyIn(sql: string, chunks: Iterable<string>): Promise<void>;
  /** set true before sending BEGIN, false once COMMIT has returned: a failure meanwhile rolls back */
  inTransaction: boolean;
}

/**
 * An error after which the connection cannot be trusted: the server ended the session (class 08
 * connection exception, 57P01–57P03 shutdown / terminated) or the socket failed (a Node system error
 * such as ECONNRESET, or pg's "Connection terminated"). Errors of the work itself (a constraint, a
 * value) leave the connection usable. (pg-pool also drops a client whose socket has already ended.)
 */
export function isConnectionBroken(err: unknown): boolean {
  if (err instanceof DatabaseError) {
    const code = err.code ?? '';
    return code.startsWith('08') || code.startsWith('57P');
  }
  if (!(err instanceof Error)) return false;
  const code = (err as Error & { code?: unknown }).code;
  return (typeof code === 'string' && /^E[A-Z]+$/.test(code)) || err.message.startsWith('Connection terminated');
}

/**
 * Runs `work` on one pooled connection with `statements` prepared. The connection is discarded, not
 * returned to the pool, when its PREPARE failed, when the connection broke, or when the ROLLBACK of an
 * open transaction failed; otherwise an open transaction is rolled back and the connection released.
 */
export async function withPrepared<Name extends string, T>(
  db: Pick<Pool, 'connect'>,
  statements: PreparedStatements<Name>,
  work: (session: PreparedSession) => Promise<T>,
): Promise<T> {
  const client = await db.connect();
  let discard: Error | undefined;
  // a checked-out client has no listener of pg-pool's: an error the socket raises between queries (the
  // server terminated the session) would otherwise be an unhandled 'error' event, i.e. a crash
  const onError = (err: Error) => {
    discard ??= err;
  };
  client.on('error', onError);
  const session: PreparedSession = {
    inTransaction: false,
    async run(sql) {
      const out = (await client.query(sql)) as unknown as QueryResult | QueryResult[];
      return Array.isArray(out) ? out : [out];
    },
    copyIn: (sql, chunks) => copyIn(client, sql, chunks),
    async runGeneric(statement) {
      session.inTransaction = true;
      // results: BEGIN, the settings, the statement, COMMIT
      const out = await session.run(assertNoNul(['BEGIN', ...GENERIC_PLAN_SETTINGS, statement, 'COMMIT'].join(';\n')));
      session.inTransaction = false;
      return out[1 + GENERIC_PLAN_SETTINGS.length]!;
    },
  };
  try {
    try {
      await statements.prepare(client);
    } catch (err) {
      discard = err as Error; // half-prepared: never hand this connection out again
      throw err;
    }
    return await work(session);
  } catch (err) {
    if (isConnectionBroken(err)) discard ??= err as Error;
    if (session.inTransaction && !discard) {
      await client.query('ROLLBACK').catch((e: Error) => {
        discard = e;
      });
    }
    throw err;
  } finally {
    client.off('error', onError);
    client.release(discard);
  }
}

/**
 * One statement of `statements`, alone in its own transaction on a pooled connection, on its generic plan
 * (`PreparedSession.runGeneric`; docs/data-access.md "Generic plans"): the batched reads pinned that way.
 */
export function executeGeneric<Name extends string>(
  db: Pick<Pool, 'connect'>,
  statements: PreparedStatements<Name>,
  statement: { name: Name; args: readonly string[] },
): Promise<QueryResult> {
  return withPrepared(db, statements, (session) =>
    session.runGeneric(statements.execute(statement.name, statement.args)),
  );
}
