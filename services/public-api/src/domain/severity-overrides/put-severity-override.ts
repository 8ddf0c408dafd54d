import { ApiError } from '@risk/common/errors';
import type { RiskSeverity, SeverityOverride } from '@risk/contracts';
import type { AppDeps } from '../../deps';
import { assertKnownRule } from '../suppressions/known-rule';
import { THREAT_RULE_ID } from '../triage/effective';
import type { OrgScope } from '../triage/org-view';
import { renderSeverityOverride } from '../triage/render';

/**
 * Sets the org's severity for a rule (PUT: the same call twice is the same state). It feeds the org's
 * effective score only (docs/triage.md "Severity overrides"); threat findings weigh their threat's
 * risk_penalty, not a severity, so `threat_match` cannot be overridden.
 */
export async function putSeverityOverride(
  deps: Pick<AppDeps, 'prisma'>,
  input: { scope: OrgScope; keyId: string; ruleId: string; severity: RiskSeverity; reason?: string; now?: Date },
): Promise<SeverityOverride> {
  assertKnownRule(input.ruleId);
  if (input.ruleId === THREAT_RULE_ID)
    throw new ApiError('parameter_invalid', {
      param: 'rule_id',
      message: 'threat_match findings weigh their threat’s risk_penalty; update the threat instead.',
    });
  const now = input.now ?? new Date();
  const id = { org_id: input.scope.orgId, livemode: input.scope.livemode, rule_id: input.ruleId };
  const fields = { severity: input.severity, reason: input.reason ?? null, set_by: input.keyId, updated: now };
  const row = await deps.prisma.severityOverride.upsert({
    where: { org_id_livemode_rule_id: id },
    create: { ...id, ...fields, created: now },
    update: fields,
  });
  return renderSeverityOverride(row);
}
