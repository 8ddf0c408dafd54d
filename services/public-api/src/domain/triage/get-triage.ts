import { ApiError } from '@risk/common/errors';
import type { FindingTriageResult } from '@risk/contracts';
import { findingKeys } from '@risk/db';
import type { AppDeps } from '../../deps';
import { assertEnriched, findAssetOr404 } from '../assets/get-asset';
import type { FindingRow } from '../assets/render';
import type { OrgScope } from './org-view';
import { renderTriage, renderTriageChange } from './render';

/** Changes shown with a finding's triage (newest first); older ones stay stored. */
export const TRIAGE_HISTORY_SHOWN = 100;

/**
 * A current finding of the asset and its identity. The key depends on the asset's whole finding set
 * (docs/history.md), so all of the asset's findings are read: one query.
 */
export async function findingOr404(
  deps: Pick<AppDeps, 'prisma'>,
  input: { livemode: boolean; fingerprint: string; findingId: string },
): Promise<{ finding: FindingRow; key: string }> {
  const all = await deps.prisma.finding.findMany({
    where: { livemode: input.livemode, fingerprint: input.fingerprint },
    orderBy: { id: 'asc' },
  });
  const i = all.findIndex((f) => f.id === input.findingId);
  if (i < 0)
    throw new ApiError('resource_missing', {
      param: 'finding_id',
      message: `No such finding of this asset: '${input.findingId}' (finding ids change at every enrichment; list the current ones at /v1/assets/{fingerprint}/findings).`,
    });
  return { finding: all[i]!, key: findingKeys(all)[i]! };
}

export async function readTriageResult(
  deps: Pick<AppDeps, 'prisma'>,
  input: { scope: OrgScope; fingerprint: string; finding: FindingRow; key: string },
): Promise<FindingTriageResult> {
  const where = {
    org_id: input.scope.orgId,
    livemode: input.scope.livemode,
    fingerprint: input.fingerprint,
    finding_key: input.key,
  };
  const [row, history] = await Promise.all([
    deps.prisma.findingTriage.findUnique({ where: { org_id_livemode_fingerprint_finding_key: where } }),
    deps.prisma.findingTriageEvent.findMany({ where, orderBy: { id: 'desc' }, take: TRIAGE_HISTORY_SHOWN }),
  ]);
  const base = row
    ? renderTriage(row)
    : {
        object: 'finding_triage' as const,
        finding_key: input.key,
        state: 'open' as const,
        justification: null,
        comment: null,
        expires_at: null,
        set_by: null,
        created: null,
        updated: null,
      };
  return {
    ...base,
    finding_id: input.finding.id,
    fingerprint: input.fingerprint,
    rule_id: input.finding.rule_id,
    history: history.map(renderTriageChange),
  };
}

/** GET: the org's triage of a finding and its history (an untriaged finding is `open` with no history). */
export async function getTriage(
  deps: Pick<AppDeps, 'prisma' | 'pool'>,
  input: { scope: OrgScope; fingerprint: string; findingId: string },
): Promise<FindingTriageResult> {
  const asset = await findAssetOr404(deps, input.scope.livemode, input.fingerprint);
  assertEnriched(asset);
  const { finding, key } = await findingOr404(deps, {
    livemode: input.scope.livemode,
    fingerprint: asset.fingerprint,
    findingId: input.findingId,
  });
  return readTriageResult(deps, { scope: input.scope, fingerprint: asset.fingerprint, finding, key });
}
