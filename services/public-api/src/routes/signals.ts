import type { ApiKeyAuthenticator } from '@risk/common';
import { ZCreateSignalBody, ZCreateSignalsBulkBody, type SignalBatch } from '@risk/contracts';
import { Router } from 'express';
import { z } from 'zod';
import type { AppDeps } from '../deps';
import { getSignal } from '../domain/signals/get-signal';
import { ingestSignals } from '../domain/signals/ingest-signals';
import { defineRoute, mountRoutes, ReplayResponse, SerializedResponse } from '../http/route';
import type { IngestOutcome, IngestResponse } from '../domain/signals/ingest-signals';

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
    path: '/signals/bulk',
    scope: 'signals:write',
    body: ZCreateSignalsBulkBody,
    status: 202,
    idempotency: 'inline',
    bulk: true,
    handler: async ({ deps, auth, requestId, body, idempotency }) =>
      answer(
        await ingestSignals(deps, { auth, requestId, signals: body.signals, bulk: true }, BULK_RESPONSE, idempotency),
      ),
  }),
  defineRoute({
    method: 'post',
    path: '/signals',
    scope: 'signals:write',
    body: ZCreateSignalBody,
    status: 202,
    idempotency: 'inline',
    handler: async ({ deps, auth, requestId, body, idempotency }) =>
      answer(
        await ingestSignals(deps, { auth, requestId, signals: [body], bulk: false }, SINGLE_RESPONSE, idempotency),
      ),
  }),
  defineRoute({
    method: 'get',
    path: '/signals/:signal_id',
    scope: 'signals:read',
    params: z.object({ signal_id: z.string().min(1).max(255) }),
    handler: ({ deps, auth, params }) => getSignal(deps, { auth, signalId: params.signal_id }),
  }),
];

export function signalsRouter(deps: AppDeps, authenticator: ApiKeyAuthenticator): Router {
  return mountRoutes(Router(), deps, authenticator, signalRoutes);
}
