// Admission control of signal intake (docs/reliability.md "Admission control"): past PROJECTION_BACKLOG_MAX
// unprojected bulk signals, both signal routes answer 503 service_unavailable with Retry-After instead of letting
// the projection lag grow without bound. Checked before anything is claimed or written, so a retry with the same
// Idempotency-Key runs as a first attempt.
import { ApiError } from '@risk/common/errors';
import type { AppDeps } from '../../deps';

/** Seconds a refused submission is told to wait: a few projections of 500 signals on every replica. */
const BACKLOG_RETRY_AFTER_SECONDS = 2;

/** Throws 503 when this replica's last count of the backlog is at or past the bound (no count yet: admitted). */
export function admitSignals(deps: Pick<AppDeps, 'config' | 'projector'>): void {
  const max = deps.config.PROJECTION_BACKLOG_MAX;
  const backlog = deps.projector?.backlog();
  if (max === 0 || backlog === undefined || backlog < max) return;
  throw new ApiError('service_unavailable', {
    // no figures: the backlog is every tenant's
    message: 'Too many accepted signals are waiting to be applied to their assets; retry after the Retry-After delay.',
    headers: { 'Retry-After': String(BACKLOG_RETRY_AFTER_SECONDS) },
  });
}
