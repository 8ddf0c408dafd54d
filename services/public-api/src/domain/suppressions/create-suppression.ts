import { ApiError } from '@risk/common/errors';
import { newId, ID_PREFIXES } from '@risk/db';
import type { CreateSuppressionBody, Suppression } from '@risk/contracts';
import type { AppDeps } from '../../deps';
import type { OrgScope } from '../triage/org-view';
import { renderSuppression } from '../triage/render';
import { assertKnownRule } from './known-rule';

/**
 * Rules per org and mode: a read checks every rule once per asset it renders (its glob in linear time) and the
 * asset's rules against each finding (docs/security.md "Suppression globs in linear time").
 */
export const SUPPRESSIONS_PER_ORG = 500;

const CRITERIA = ['rule_id', 'cve_id', 'attack_technique', 'fingerprint_glob', 'asset_type'] as const;

export async function createSuppression(
  deps: Pick<AppDeps, 'prisma'>,
  input: { scope: OrgScope; keyId: string; body: CreateSuppressionBody; now?: Date },
): Promise<Suppression> {
  const { body, scope } = input;
  const now = input.now ?? new Date();
  if (!CRITERIA.some((c) => body[c] !== undefined))
    throw new ApiError('missing_required_param', {
      param: 'rule_id',
      message: `A suppression rule needs at least one criterion: ${CRITERIA.join(', ')}.`,
    });
  if (body.rule_id !== undefined) assertKnownRule(body.rule_id);
  if (body.expires_at !== undefined && body.expires_at * 1000 <= now.getTime())
    throw new ApiError('parameter_invalid', { param: 'expires_at', message: 'expires_at must be in the future.' });
  const count = await deps.prisma.suppressionRule.count({ where: { org_id: scope.orgId, livemode: scope.livemode } });
  if (count >= SUPPRESSIONS_PER_ORG)
    throw new ApiError('suppression_limit_reached', {
      message: `This org already has ${SUPPRESSIONS_PER_ORG} suppression rules in this mode; delete one first.`,
    });
  const row = await deps.prisma.suppressionRule.create({
    data: {
      id: newId(ID_PREFIXES.suppression, now.getTime()),
      org_id: scope.orgId,
      livemode: scope.livemode,
      rule_id: body.rule_id ?? null,
      cve_id: body.cve_id ?? null,
      attack_technique: body.attack_technique ?? null,
      fingerprint_glob: body.fingerprint_glob ?? null,
      asset_type: body.asset_type ?? null,
      reason: body.reason,
      expires_at: body.expires_at !== undefined ? new Date(body.expires_at * 1000) : null,
      created_by: input.keyId,
      created: now,
    },
  });
  return renderSuppression(row, now);
}
