import { ApiError } from '@risk/common/errors';
import { resolveTakenKey, type ApiKeyPrincipal, type IdempotencyRequest, type StoredResponse } from '@risk/common/http';
import { type TraceCarrier } from '@risk/common/observability';
import type { CreateSignalBody, SignalAccepted } from '@risk/contracts';
import { MicroBatch, type MicroBatchOptions } from '@risk/db';
import { admitSignals } from './admission';
import { ingestBatch, KeyTaken, type CommittedBatch } from './ingest-batch';
import { assetKey } from './ingest-rows';
import type { AppDeps } from '../../deps';

export interface IngestInput {
  auth: ApiKeyPrincipal;
  requestId: string;
  /** the request's trace context when tracing is on: its enrichment jobs continue the trace (docs/observability.md) */
  trace?: TraceCarrier;
  signals: CreateSignalBody[];
  /** bulk: error params are prefixed `signals[i].` */
  bulk: boolean;
}

export interface IngestResult {
  signals: SignalAccepted[];
  enrichmentQueued: number;
}

export { contentDigest } from './ingest-rows';

/** How the route answers a stored batch: the status and the body built from the result. */
export interface IngestResponse {
  status: number;
  render: (result: IngestResult) => unknown;
}

export type IngestOutcome =
  { kind: 'stored'; status: number; json: string; result: IngestResult } | { kind: 'replay'; stored: StoredResponse };

/** One request's part of an ingest transaction. */
export interface IngestRequest {
  input: IngestInput;
  respond: IngestResponse;
  idem?: IdempotencyRequest;
}

/**
 * Stores the signals of one request (1–500) with every guarantee of docs/public-api.md: the signals, their
 * assets, asset_orgs, outbox rows and events, and the 2xx response for the Idempotency-Key, in one
 * transaction committed before the 202. A bulk request runs as its own transaction; single signals
 * of concurrent requests share one (a MicroBatch, docs/data-access.md), each request keeping its own claim, response
 * and errors.
 */
export async function ingestSignals(
  deps: AppDeps,
  input: IngestInput,
  reply: { respond: IngestResponse; idem?: IdempotencyRequest },
): Promise<IngestOutcome> {
  const { respond, idem } = reply;
  const { auth } = input;
  admitSignals(deps); // before any claim or write: a 503 leaves the Idempotency-Key free
  input.signals.forEach((s, i) => {
    if (s.org_id !== auth.org_id) {
      const param = input.bulk ? `signals[${i}].org_id` : 'org_id';
      throw new ApiError('org_mismatch', { param, message: `${param} must equal the API key's org (${auth.org_id}).` });
    }
  });
  // (a NUL anywhere in the body never gets here: parseOrThrow refuses it, and statements carry literals)
  const request: IngestRequest = { input, respond, idem };
  return input.bulk ? ingestAlone(deps, request) : singleSignalBatcher(deps).submit(request);
}

/**
 * One request in a transaction of its own. A taken Idempotency-Key resolves to the stored response
 * (replay), 400 idempotency_replay_mismatch or 409 idempotency_key_in_use; a key released meanwhile is
 * claimed again once. `released` is called once the database work is over (commit or failure).
 */
async function ingestAlone(
  deps: AppDeps,
  request: IngestRequest,
  released: () => void = () => undefined,
): Promise<IngestOutcome> {
  for (let attempt = 0; ; attempt++) {
    let committed: CommittedBatch;
    try {
      committed = await ingestBatch(deps, [request]);
    } catch (err) {
      released();
      if (!(request.idem && err instanceof KeyTaken)) throw err;
      const stored = await resolveTakenKey(deps.pool, request.idem);
      if (stored) return { kind: 'replay', stored };
      if (attempt >= 1)
        throw new ApiError('idempotency_key_in_use', { message: 'Could not claim the Idempotency-Key; retry.' });
      continue;
    }
    released();
    // A single signal waits for its (shared, batched) enqueue, so its outbox row is marked processed when
    // the 202 arrives. A bulk batch does not: 500 BullMQ adds take ~100 ms of Redis time, the flush runs
    // in the background, and the outbox relay covers a flush that fails.
    if (!request.input.bulk) await committed.flushed;
    return committed.outcomes[0]!;
  }
}

/** Per app (deps): requests of different apps never share a transaction. */
const batchers = new WeakMap<AppDeps, MicroBatch<IngestRequest, IngestOutcome>>();

function singleSignalBatcher(deps: AppDeps): MicroBatch<IngestRequest, IngestOutcome> {
  let b = batchers.get(deps);
  if (!b) {
    b = new MicroBatch<IngestRequest, IngestOutcome>({
      ...SINGLE_SIGNAL_BATCHING,
      keys: (r) => [
        ...r.input.signals.map((s) => `fp:${assetKey(r.input.auth.livemode, s.fingerprint)}`),
        ...(r.idem ? [`idem:${idempotencyScopeKey(r.idem)}`] : []),
      ],
      runAlone: (r, released) => ingestAlone(deps, r, released),
      runBatch: async (rs, released) => {
        let committed: CommittedBatch;
        try {
          committed = await ingestBatch(deps, rs);
        } finally {
          released();
        }
        await committed.flushed;
        return committed.outcomes;
      },
    });
    batchers.set(deps, b);
  }
  return b;
}

/**
 * Up to 4 shared transactions at once (one batch waits on its COMMIT while the next ones are built,
 * sent and executed; `pnpm bench` found 4 best of 1/2/4/8 on 2 cores, within its noise), each holding
 * one pooled connection until it commits; at most 64 requests share one.
 */
const SINGLE_SIGNAL_BATCHING: Pick<MicroBatchOptions<IngestRequest, IngestOutcome>, 'maxInFlight' | 'maxItems'> = {
  maxInFlight: 4,
  maxItems: 64,
};

const idempotencyScopeKey = (r: IdempotencyRequest) =>
  JSON.stringify([r.scope.org_id, r.scope.livemode, r.scope.method, r.scope.path, r.scope.key]);
