import { ApiError } from '@risk/common/errors';
import { enqueueDeliveries, recordEventsWithDeliveries } from '@risk/common/events';
import { newId, ID_PREFIXES } from '@risk/db';
import { MAX_ACCEPTANCE_DAYS, ZFindingTriage, type FindingTriageResult, type TriageBody } from '@risk/contracts';
import type { AppDeps } from '../../deps';
import { assertEnriched, findAssetOr404 } from '../assets/get-asset';
import { findingOr404, readTriageResult } from './get-triage';
import type { OrgScope } from './org-view';
import { renderTriage } from './render';

export interface SetTriageInput {
  scope: OrgScope;
  /** the API key that sets the state: recorded as set_by */
  keyId: string;
  fingerprint: string;
  findingId: string;
  body: TriageBody;
  now?: Date;
}

/**
 * The state's companion fields (docs/triage.md "States"): a justification with not_affected only (and
 * required there), an expiry with accepted_risk only (required, in the future, at most a year ahead).
 */
function checkBody(body: TriageBody, now: Date): void {
  if (body.state === 'not_affected' && !body.justification)
    throw new ApiError('missing_required_param', {
      param: 'justification',
      message: 'not_affected needs a justification (component_not_present, vulnerable_code_not_present, …).',
    });
  if (body.state !== 'not_affected' && body.justification)
    throw new ApiError('parameter_invalid', {
      param: 'justification',
      message: 'justification goes with not_affected only.',
    });
  if (body.state === 'accepted_risk' && body.expires_at === undefined)
    throw new ApiError('missing_required_param', { param: 'expires_at', message: 'accepted_risk needs expires_at.' });
  if (body.state !== 'accepted_risk' && body.expires_at !== undefined)
    throw new ApiError('parameter_invalid', {
      param: 'expires_at',
      message: 'expires_at goes with accepted_risk only.',
    });
  if (body.expires_at !== undefined) {
    const ms = body.expires_at * 1000;
    if (ms <= now.getTime() || ms > now.getTime() + MAX_ACCEPTANCE_DAYS * 86_400_000)
      throw new ApiError('parameter_invalid', {
        param: 'expires_at',
        message: `expires_at must be in the future and at most ${MAX_ACCEPTANCE_DAYS} days ahead.`,
      });
  }
}

/**
 * Sets the org's analysis state of a finding. The row is keyed by the finding's identity (finding_key),
 * so the state carries over to the same finding in later enrichments; every call adds a history row.
 * Nothing shared changes: the finding, the asset and its intrinsic score stay as the engine wrote them.
 * A `finding.triage_updated` event to the org alone is written in the same transaction (docs/triage.md "Events").
 */
export async function setTriage(
  deps: Pick<AppDeps, 'prisma' | 'pool' | 'producer'>,
  input: SetTriageInput,
): Promise<FindingTriageResult> {
  const now = input.now ?? new Date();
  const { scope, body } = input;
  checkBody(body, now);
  const asset = await findAssetOr404(deps, scope.livemode, input.fingerprint);
  assertEnriched(asset);
  const { finding, key } = await findingOr404(deps, {
    livemode: scope.livemode,
    fingerprint: asset.fingerprint,
    findingId: input.findingId,
  });
  const id = { org_id: scope.orgId, livemode: scope.livemode, fingerprint: asset.fingerprint, finding_key: key };
  const fields = {
    state: body.state,
    justification: body.justification ?? null,
    comment: body.comment ?? null,
    expires_at: body.expires_at !== undefined ? new Date(body.expires_at * 1000) : null,
    set_by: input.keyId,
    updated: now,
  };
  const deliveries = await deps.prisma.$transaction(async (tx) => {
    const before = await tx.findingTriage.findUnique({
      where: { org_id_livemode_fingerprint_finding_key: id },
      select: { state: true },
    });
    const row = await tx.findingTriage.upsert({
      where: { org_id_livemode_fingerprint_finding_key: id },
      create: { ...id, rule_id: finding.rule_id, ...fields, created: now },
      update: fields,
    });
    await tx.findingTriageEvent.create({
      data: {
        id: newId(ID_PREFIXES.triageChange, now.getTime()),
        ...id,
        from_state: before?.state ?? 'open',
        to_state: body.state,
        justification: fields.justification,
        comment: fields.comment,
        expires_at: fields.expires_at,
        set_by: input.keyId,
        created: now,
      },
    });
    const recorded = await recordEventsWithDeliveries(tx, [
      {
        type: 'finding.triage_updated',
        livemode: scope.livemode,
        org_id: scope.orgId,
        object: { ...renderTriage(row), fingerprint: asset.fingerprint, rule_id: finding.rule_id },
        extra: { previous_attributes: { state: ZFindingTriage.shape.state.parse(before?.state ?? 'open') } },
      },
    ]);
    return recorded.deliveries;
  });
  // after commit, at once; on failure the worker's outbox relay delivers (docs/reliability.md)
  await enqueueDeliveries(deps, deliveries);
  return readTriageResult(deps, { scope, fingerprint: asset.fingerprint, finding, key });
}
