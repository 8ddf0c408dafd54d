import { ApiError } from '@risk/common/errors';
import { recordEventsWithDeliveries } from '@risk/common/events';
import { ID_PREFIXES, newId } from '@risk/db';
import type { CreateThreatBody, Threat } from '@risk/contracts';
import type { Prisma } from '@risk/db';
import { assertKnownAttackTechniques } from '../attack-techniques/validate';
import { enqueueAfterCommit, markMatchingAssetsForReenrichment, type ThreatDeps } from './reenrich';
import { renderThreat } from './render';

export interface ThreatActor {
  org_id: string;
  livemode: boolean;
}

/** Re-enrichment reason: distinct per threat version, so each change gets its own enrichment job. */
export const threatReason = (id: string, updated: Date): string => `threat:${id}:${updated.getTime()}`;

/**
 * POST /v1/threats. In one transaction: the threat, its matching assets (of the threat's mode) marked stale with outbox rows
 * for re-enrichment, and a threat.created event (audience: every org) fanned out to webhooks. After
 * commit the jobs are enqueued at once when Redis answers quickly.
 */
export async function createThreat(deps: ThreatDeps, actor: ThreatActor, body: CreateThreatBody): Promise<Threat> {
  assertKnownAttackTechniques(body.attack_techniques);
  if (body.fingerprints && new Set(body.fingerprints).size !== body.fingerprints.length) {
    throw new ApiError('parameter_invalid', { param: 'fingerprints', message: 'fingerprints must not repeat.' });
  }
  await deps.countWrites?.(1);
  const { threat, enrichments, deliveries } = await deps.prisma.$transaction(async (tx) => {
    const row = await tx.threat.create({
      data: {
        ...newThreatColumns(actor, body),
        metadata: (body.metadata ?? undefined) as Prisma.InputJsonValue | undefined,
      },
    });
    // a threat re-enriches the matching assets of its own mode only (docs/threats.md "Modes")
    const enrichments = await markMatchingAssetsForReenrichment(tx, [row], threatReason(row.id, row.updated));
    const rendered = renderThreat(row);
    const events = await recordEventsWithDeliveries(tx, [
      { type: 'threat.created', livemode: row.livemode, object: rendered },
    ]);
    return { threat: rendered, enrichments, deliveries: events.deliveries };
  });
  await enqueueAfterCommit(deps, enrichments, deliveries);
  return threat;
}

export function dedupe<T>(items: T[]): T[] {
  return [...new Set(items)];
}

/** A new threat's columns but metadata, from a create body: POST /v1/threats and the STIX import's creates. */
export function newThreatColumns(actor: ThreatActor, body: CreateThreatBody) {
  return {
    id: newId(ID_PREFIXES.threat),
    livemode: actor.livemode,
    created_by_org: actor.org_id,
    category: body.category,
    title: body.title,
    severity: body.severity,
    description: body.description ?? null,
    confidence: body.confidence ?? null,
    affected_asset_types: dedupe(body.affected_asset_types ?? []),
    fingerprints: body.fingerprints ?? [],
    attack_techniques: dedupe(body.attack_techniques ?? []),
    cve_id: body.cve_id ?? null,
    remediation: body.remediation ?? null,
    source: body.source ?? null,
    risk_penalty: body.risk_penalty ?? 0,
  };
}
