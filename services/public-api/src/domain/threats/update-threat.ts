import { isDeepStrictEqual } from 'node:util';
import { ApiError } from '@risk/common/errors';
import { recordEventsWithDeliveries } from '@risk/common/events';
import type { Threat, UpdateThreatBody } from '@risk/contracts';
import { lockThreat, Prisma, type Threat as ThreatRow } from '@risk/db';
import { assertKnownAttackTechniques } from '../attack-techniques/validate';
import { dedupe, threatReason, type ThreatActor } from './create-threat';
import { enqueueAfterCommit, markMatchingAssetsForReenrichment, type ThreatDeps } from './reenrich';
import { renderThreat } from './render';

/** Fields whose change alters which assets match or what the threat contributes to their enrichment. */
const ENRICHMENT_FIELDS = [
  'category',
  'title',
  'severity',
  'affected_asset_types',
  'fingerprints',
  'attack_techniques',
  'cve_id',
  'remediation',
  'risk_penalty',
] as const;

/**
 * POST /v1/threats/{id}: partial update by the creating org only (else 403 not_owner). The row is
 * locked for the transaction; assets matching before OR after the change are re-enriched, so
 * removing a fingerprint un-matches. threat.updated carries previous_attributes (old values of the
 * changed fields). An update that changes nothing writes nothing and returns the threat.
 */
export async function updateThreat(
  deps: ThreatDeps,
  input: { actor: ThreatActor; id: string; body: UpdateThreatBody },
): Promise<Threat> {
  const { actor, id, body } = input;
  assertKnownAttackTechniques(body.attack_techniques);
  if (body.fingerprints && new Set(body.fingerprints).size !== body.fingerprints.length) {
    throw new ApiError('parameter_invalid', { param: 'fingerprints', message: 'fingerprints must not repeat.' });
  }
  const result = await deps.prisma.$transaction(async (tx) => {
    if (!(await lockThreat(tx, { id, livemode: actor.livemode })))
      throw new ApiError('resource_missing', { param: 'threat_id', message: `No such threat: '${id}'.` });
    const before = await tx.threat.findUniqueOrThrow({ where: { id } });
    if (before.created_by_org !== actor.org_id) {
      throw new ApiError('not_owner', {
        message: 'Only the organization that created this threat can update it.',
      });
    }
    const data = normalise(body);
    const changed = (Object.keys(data) as Array<keyof typeof data>).filter((k) => !sameValue(before[k], data[k]));
    if (changed.length === 0) return { threat: renderThreat(before), enrichments: [], deliveries: [] };
    // a change counts against the threat-write cap; one that changes nothing costs nothing (docs/security.md)
    await deps.countWrites?.(1);

    const row = await tx.threat.update({
      where: { id },
      data: Object.fromEntries(changed.map((k) => [k, data[k] === null && k === 'metadata' ? Prisma.DbNull : data[k]])),
    });
    const enrichments = changed.some((k) => (ENRICHMENT_FIELDS as readonly string[]).includes(k))
      ? await markMatchingAssetsForReenrichment(tx, [before, row], threatReason(row.id, row.updated))
      : [];
    const rendered = renderThreat(row);
    const previous = renderThreat(before) as unknown as Record<string, unknown>;
    const previous_attributes = Object.fromEntries([...changed, 'updated'].map((k) => [k, previous[k]]));
    const events = await recordEventsWithDeliveries(tx, [
      { type: 'threat.updated', livemode: row.livemode, object: rendered, extra: { previous_attributes } },
    ]);
    return { threat: rendered, enrichments, deliveries: events.deliveries };
  });
  await enqueueAfterCommit(deps, result.enrichments, result.deliveries);
  return result.threat;
}

type Mutable = Partial<
  Pick<
    ThreatRow,
    | 'category'
    | 'title'
    | 'severity'
    | 'description'
    | 'confidence'
    | 'affected_asset_types'
    | 'fingerprints'
    | 'attack_techniques'
    | 'cve_id'
    | 'remediation'
    | 'source'
    | 'risk_penalty'
  > & { metadata: Record<string, unknown> | null }
>;

function normalise(body: UpdateThreatBody): Mutable {
  const out: Mutable = {};
  for (const [key, value] of Object.entries(body) as Array<[keyof UpdateThreatBody, unknown]>) {
    if (value === undefined) continue;
    if (key === 'affected_asset_types' || key === 'attack_techniques')
      (out as Record<string, unknown>)[key] = dedupe(value as string[]);
    else (out as Record<string, unknown>)[key] = value;
  }
  return out;
}

/** Deep equality regardless of object key order (jsonb hands metadata back with its keys re-sorted). */
function sameValue(a: unknown, b: unknown): boolean {
  return isDeepStrictEqual(a ?? null, b ?? null);
}
