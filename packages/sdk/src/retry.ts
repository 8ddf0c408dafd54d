// The transport under both clients: adds an Idempotency-Key to every POST (public API) and retries what is safe
// to retry, always with the same key, so a retried write is applied at most once (docs/idempotency in
// README "First calls", DESIGN §3: same key + same body replays the first answer).
import { randomUUID } from 'node:crypto';
import { parseRetryAfterSeconds, RiskConnectionError } from './errors';

export interface RetryOptions {
  /** total tries per request, the first included (default 4); 1 disables retries */
  maxAttempts?: number;
  /** first backoff step in ms (default 500); step n waits base·2^(n-1), capped, with jitter */
  baseDelayMs?: number;
  /** cap of one backoff wait in ms (default 10 000) */
  maxDelayMs?: number;
  /** a `Retry-After` longer than this (ms, default 60 000) is not waited for: the 429 is returned at once */
  maxRetryAfterMs?: number;
  /** per-attempt timeout in ms (default 60 000); a timed-out attempt counts as a network error */
  timeoutMs?: number;
  /** called before each wait, e.g. to log retries */
  onRetry?: (info: RetryInfo) => void;
}

export interface RetryInfo {
  method: string;
  url: string;
  /** the attempt that failed (1 = the first try) */
  attempt: number;
  /** how long the SDK waits before the next attempt */
  delayMs: number;
  reason: 'network_error' | 'idempotency_key_in_use' | 'rate_limited' | 'server_error';
  status?: number;
  idempotencyKey?: string;
}

export interface TransportOptions extends RetryOptions {
  /**
   * Whether the API honours `Idempotency-Key` on POST (the public API does). With it, every POST gets a UUID
   * key (unless the caller set one) and POSTs are retried like idempotent methods; without it, a POST is retried
   * only when the server certainly did not process it (429, or a connection that was refused). A function decides
   * per request (the admin API honours it on `POST /keys/v1` only).
   */
  idempotencyKeys: boolean | ((request: Request) => boolean);
  fetch?: typeof globalThis.fetch;
  random?: () => number;
  sleep?: (ms: number, signal: AbortSignal | undefined) => Promise<void>;
}

const IDEMPOTENT_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);
const RETRYABLE_5XX = new Set([500, 502, 503, 504]);

/** A fetch for openapi-fetch's `fetch` option: takes the Request it built, returns the final answer. */
export function createTransport(options: TransportOptions): (request: Request) => Promise<Response> {
  const maxAttempts = Math.max(1, options.maxAttempts ?? 4);
  const baseDelayMs = options.baseDelayMs ?? 500;
  const maxDelayMs = options.maxDelayMs ?? 10_000;
  const maxRetryAfterMs = options.maxRetryAfterMs ?? 60_000;
  const timeoutMs = options.timeoutMs ?? 60_000;
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const random = options.random ?? Math.random;
  const sleep = options.sleep ?? abortableSleep;

  /** exponential backoff with "equal jitter": half fixed, half random, so concurrent clients spread out */
  const backoff = (attempt: number) => {
    const step = Math.min(maxDelayMs, baseDelayMs * 2 ** (attempt - 1));
    return Math.round(step / 2 + random() * (step / 2));
  };

  return async (request) => {
    const method = request.method.toUpperCase();
    const headers = new Headers(request.headers);
    const withKeys =
      typeof options.idempotencyKeys === 'function' ? options.idempotencyKeys(request) : options.idempotencyKeys;
    if (withKeys && method === 'POST' && !headers.has('idempotency-key')) {
      headers.set('idempotency-key', randomUUID());
    }
    const idempotencyKey = headers.get('idempotency-key') ?? undefined;
    const safeToRepeat = IDEMPOTENT_METHODS.has(method) || (withKeys && idempotencyKey !== undefined);
    // the body is read once so every attempt sends the same bytes
    const body = request.body === null ? undefined : await request.arrayBuffer();

    for (let attempt = 1; ; attempt++) {
      const timeout = AbortSignal.timeout(timeoutMs);
      const signal = AbortSignal.any([request.signal, timeout]);
      let response: Response;
      try {
        response = await fetchImpl(request.url, { method, headers, body, signal, redirect: request.redirect });
      } catch (err) {
        if (request.signal.aborted) throw err; // the caller cancelled: not ours to retry
        const retry = attempt < maxAttempts && (safeToRepeat || neverSent(err));
        if (!retry) {
          throw new RiskConnectionError(
            `${method} ${request.url} failed after ${attempt} attempt(s): ${describe(err)}`,
            attempt,
            {
              cause: err,
            },
          );
        }
        const delayMs = backoff(attempt);
        options.onRetry?.({ method, url: request.url, attempt, delayMs, reason: 'network_error', idempotencyKey });
        await sleep(delayMs, request.signal);
        continue;
      }

      const decision = attempt < maxAttempts ? await retryDecision(response, safeToRepeat, attempt) : null;
      if (decision === null) return response;
      await response.body?.cancel().catch(() => undefined);
      options.onRetry?.({ method, url: request.url, attempt, ...decision, status: response.status, idempotencyKey });
      await sleep(decision.delayMs, request.signal);
    }
  };

  async function retryDecision(
    response: Response,
    safeToRepeat: boolean,
    attempt: number,
  ): Promise<Pick<RetryInfo, 'delayMs' | 'reason'> | null> {
    if (response.status === 429) {
      // refused before any work (rate limits are checked before idempotency and the body, DESIGN §5): always safe
      const seconds = parseRetryAfterSeconds(response.headers.get('retry-after'));
      if (seconds === null) return { delayMs: backoff(attempt), reason: 'rate_limited' };
      const delayMs = seconds * 1000;
      return delayMs > maxRetryAfterMs ? null : { delayMs, reason: 'rate_limited' };
    }
    if (!safeToRepeat) return null;
    if (response.status === 409 && (await errorCode(response)) === 'idempotency_key_in_use') {
      // the first request with this key is still running: its answer is replayed once it is stored
      return { delayMs: backoff(attempt), reason: 'idempotency_key_in_use' };
    }
    if (RETRYABLE_5XX.has(response.status)) {
      const seconds = parseRetryAfterSeconds(response.headers.get('retry-after'));
      const delayMs = Math.max(backoff(attempt), seconds === null ? 0 : Math.min(seconds * 1000, maxRetryAfterMs));
      return { delayMs, reason: 'server_error' };
    }
    return null;
  }
}

async function errorCode(response: Response): Promise<string | undefined> {
  try {
    const body = (await response.clone().json()) as { error?: { code?: unknown } };
    return typeof body.error?.code === 'string' ? body.error.code : undefined;
  } catch {
    return undefined;
  }
}

/** Node's fetch (undici) reports the socket error as the cause; a refused connection never reached the server. */
function neverSent(err: unknown): boolean {
  const cause = (err as { cause?: { code?: unknown } } | null)?.cause;
  return cause?.code === 'ECONNREFUSED';
}

function describe(err: unknown): string {
  const cause = (err as { cause?: { code?: unknown; message?: unknown } } | null)?.cause;
  const message = err instanceof Error ? err.message : String(err);
  return cause?.code ? `${message} (${String(cause.code)})` : message;
}

function abortableSleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
