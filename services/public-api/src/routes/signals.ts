import { defineRoute, ReplayResponse, SerializedResponse } from '@risk/common/http';
import { currentTraceCarrier } from '@risk/common/observability';
import {
  EXAMPLE_CREATE_SIGNAL,
  EXAMPLE_CREATE_SIGNALS_BULK,
  EXAMPLE_SIGNAL,
  EXAMPLE_SIGNAL_ACCEPTED,
  EXAMPLE_SIGNAL_BATCH,
  type SignalBatch,
  z,
  ZCreateSignalBody,
  ZCreateSignalsBulkBody,
  ZSignal,
  ZSignalAccepted,
  ZSignalBatch,
} from '@risk/contracts';
import { getSignal } from '../domain/signals/get-signal';
import { ingestSignals } from '../domain/signals/ingest-signals';
import type { IngestOutcome, IngestResponse } from '../domain/signals/ingest-signals';
import { apiKey } from '../http/route';

const answer = (out: IngestOutcome) =>
  out.kind === 'replay' ? new ReplayResponse(out.stored) : new SerializedResponse(out.status, out.json);

// the 202 bodies, built by ingestSignals before its commit so the idempotency row stores them in the same transaction
const BULK_RESPONSE: IngestResponse = {
  status: 202,
  // the compact receipts (docs/public-api.md "Signals and assets"): the full signal is at GET /v1/signals/{id}
  render: (r): SignalBatch => ({
    object: 'signal_batch',
    data: r.signals.map((s) => ({
      id: s.id,
      object: s.object,
      fingerprint: s.fingerprint,
      content_digest: s.content_digest,
      created: s.created,
      enrichment: s.enrichment,
    })),
    enrichment_queued: r.enrichmentQueued,
  }),
};
const SINGLE_RESPONSE: IngestResponse = { status: 202, render: (r) => r.signals[0] };

export const signalRoutes = [
  defineRoute({
    method: 'post',
    path: '/signals',
    auth: apiKey('signals:write'),
    body: ZCreateSignalBody,
    status: 202,
    idempotency: 'inline',
    doc: {
      examples: { request: EXAMPLE_CREATE_SIGNAL, response: EXAMPLE_SIGNAL_ACCEPTED },
      summary: 'Submit one signal (scope signals:write)',
      description:
        'Stores the signal, upserts its asset and decides whether enrichment is needed (a new asset, changed content, a failed asset, or an enrichment older than the TTL). ' +
        "org_id must equal the key's org (403 org_mismatch). " +
        'While the bulk projection backlog is past its bound (PROJECTION_BACKLOG_MAX) it answers 503 service_unavailable ' +
        'with Retry-After and writes nothing, so a retry with the same Idempotency-Key runs as a first attempt.',
      response: { description: 'the stored signal and the enrichment decision', schema: ZSignalAccepted },
      errors: [503],
    },
    handler: async ({ deps, auth, requestId, body, idempotency }) =>
      answer(
        await ingestSignals(
          deps,
          { auth, requestId, trace: currentTraceCarrier(), signals: [body], bulk: false },
          { respond: SINGLE_RESPONSE, idem: idempotency },
        ),
      ),
  }),
  defineRoute({
    method: 'post',
    path: '/signals/bulk',
    auth: apiKey('signals:write'),
    body: ZCreateSignalsBulkBody,
    status: 202,
    idempotency: 'inline',
    bulk: true,
    doc: {
      examples: { request: EXAMPLE_CREATE_SIGNALS_BULK, response: EXAMPLE_SIGNAL_BATCH },
      summary: 'Submit 1–500 signals at once, all or nothing (scope signals:write)',
      description:
        'Every signal is validated before any is written; an error names the item, e.g. signals[12].observed_at. Body limit 10 MiB. ' +
        'The 202 does not echo the signals: each item is a receipt (id, fingerprint, content_digest, created, enrichment decision) in request order; GET /v1/signals/{id} returns the stored signal. ' +
        'The 202 means the signals are durably stored; their assets, events and enrichment jobs are applied asynchronously, usually within a second (lists may lag by up to ~1 s). ' +
        'Until then GET /v1/assets/{fingerprint} and the look-up answer the asset as enrichment_status pending; the receipts carry the enrichment decision predicted at acceptance. ' +
        'While the backlog of accepted, unapplied signals is past its bound (PROJECTION_BACKLOG_MAX) it answers 503 service_unavailable with Retry-After and writes nothing; retry with the same Idempotency-Key.',
      response: { description: 'one receipt per stored signal, in request order', schema: ZSignalBatch },
      errors: [503],
    },
    handler: async ({ deps, auth, requestId, body, idempotency }) =>
      answer(
        await ingestSignals(
          deps,
          { auth, requestId, trace: currentTraceCarrier(), signals: body.signals, bulk: true },
          { respond: BULK_RESPONSE, idem: idempotency },
        ),
      ),
  }),
  defineRoute({
    method: 'get',
    path: '/signals/:signal_id',
    auth: apiKey('signals:read'),
    params: z.object({ signal_id: z.string().min(1).max(255).openapi({ example: 'sig_01jd3q5k8m0000000000000000' }) }),
    doc: {
      examples: { response: EXAMPLE_SIGNAL },
      summary: "Retrieve a signal of the key's org (scope signals:read)",
      response: { description: 'the signal', schema: ZSignal },
      errors: [404],
    },
    handler: ({ deps, auth, params }) => getSignal(deps, { auth, signalId: params.signal_id }),
  }),
];
