import type { Threat } from '@risk/contracts';
import type { Threat as ThreatRow } from '@risk/db';
import { unixSeconds } from '../signals/render-signal';

/** The API shape of a threat row (docs/threats.md); also inlined by GET /v1/assets/{fp}/findings?expand[]=threats. */
export function renderThreat(row: ThreatRow): Threat {
  return {
    object: 'threat',
    id: row.id,
    category: row.category as Threat['category'],
    title: row.title,
    description: row.description,
    severity: row.severity as Threat['severity'],
    confidence: row.confidence,
    affected_asset_types: (row.affected_asset_types ?? []) as Threat['affected_asset_types'],
    fingerprints: row.fingerprints ?? [],
    attack_techniques: row.attack_techniques ?? [],
    cve_id: row.cve_id,
    remediation: row.remediation,
    source: row.source,
    risk_penalty: row.risk_penalty,
    metadata: (row.metadata ?? null) as Threat['metadata'],
    created_by_org: row.created_by_org,
    livemode: row.livemode,
    created: unixSeconds(row.created),
    updated: unixSeconds(row.updated),
  };
}
