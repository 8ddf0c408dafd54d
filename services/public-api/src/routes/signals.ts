import { defineRoute, ReplayResponse, SerializedResponse } from '@risk/common';
import {
  z,
  ZCreateSignalBody,
  ZCreateSignalsBulkBody,
  ZSignal,
  ZSignalAccepted,
  ZSignalBatch,
  type SignalBatch,
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
  render: (r): SignalBatch => ({ object: 'signal_batch', data: r.signals, enrichment_queued: r.enrichmentQueued }),
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
      summary: 'Submit one signal (scope signals:write)',
      description:
        'Stores the signal, upserts its asset and decides whether enrichment is needed (a new asset, changed content, a failed asset, or an enrichment older than the TTL). ' +
        "org_id must equal the key's org (403 org_mismatch).",
      response: { description: 'the stored signal and the enrichment decision', schema: ZSignalAccepted },
    },
    handler: async ({ deps, auth, requestId, body, idempotency }) =>
      answer(
        await ingestSignals(deps, { auth, requestId, signals: [body], bulk: false }, SINGLE_RESPONSE, idempotency),
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
      summary: 'Submit 1–500 signals at once, all or nothing (scope signals:write)',
      description:
        'Every signal is validated before any is written; an error names the item, e.g. signals[12].observed_at. Body limit 10 MiB.',
      response: { description: 'the stored signals', schema: ZSignalBatch },
    },
    handler: async ({ deps, auth, requestId, body, idempotency }) =>
      answer(
        await ingestSignals(deps, { auth, requestId, signals: body.signals, bulk: true }, BULK_RESPONSE, idempotency),
      ),
  }),
  defineRoute({
    method: 'get',
    path: '/signals/:signal_id',
    auth: apiKey('signals:read'),
    params: z.object({ signal_id: z.string().min(1).max(255).openapi({ example: 'sig_01jd3q5k8m0000000000000000' }) }),
    doc: {
      summary: "Retrieve a signal of the key's org (scope signals:read)",
      response: { description: 'the signal', schema: ZSignal },
      errors: [404],
    },
    handler: ({ deps, auth, params }) => getSignal(deps, { auth, signalId: params.signal_id }),
  }),
];
