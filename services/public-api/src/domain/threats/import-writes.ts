import { Prisma, type Threat as ThreatRow } from '@risk/db';
import { newThreatColumns, type ThreatActor } from './create-threat';
import type { MergeDecision } from './import-merge';

/**
 * The import's writes, one statement each whatever the bundle's size (docs/data-access.md: no query in a loop): every
 * new threat in one INSERT, every changed one in one UPDATE … FROM jsonb_to_recordset.
 */

/** The created rows, in the order of the 'create' decisions. */
export async function createThreatRows(
  tx: Prisma.TransactionClient,
  actor: ThreatActor,
  decisions: readonly MergeDecision[],
): Promise<ThreatRow[]> {
  const creates = decisions.flatMap((d) => (d.kind === 'create' ? [d] : []));
  if (creates.length === 0) return [];
  const data = creates.map(({ body }) => ({
    ...newThreatColumns(actor, body),
    metadata: body.metadata ?? null,
  }));
  // one INSERT from a jsonb record set: Prisma's createManyAndReturn took seconds for a 1000-threat bundle
  const rows = await tx.$queryRaw<ThreatRow[]>`
    INSERT INTO threats (id, livemode, created_by_org, category, title, severity, description, confidence,
      affected_asset_types, fingerprints, attack_techniques, cve_id, remediation, source, risk_penalty, metadata)
    SELECT v.id, v.livemode, v.created_by_org, v.category, v.title, v.severity, v.description, v.confidence,
      v.affected_asset_types, v.fingerprints, v.attack_techniques, v.cve_id, v.remediation, v.source, v.risk_penalty,
      CASE WHEN jsonb_typeof(v.metadata) = 'null' THEN NULL ELSE v.metadata END
    FROM jsonb_to_recordset(${JSON.stringify(data)}::jsonb) AS v(
      id text, livemode boolean, created_by_org text, category text, title text, severity text, description text,
      confidence float8, affected_asset_types text[], fingerprints text[], attack_techniques text[], cve_id text,
      remediation text, source text, risk_penalty int, metadata jsonb)
    RETURNING *`;
  const byId = new Map(rows.map((r) => [r.id, r]));
  return data.map((d) => byId.get(d.id)!);
}

const COLUMNS = [
  'category',
  'title',
  'severity',
  'description',
  'confidence',
  'affected_asset_types',
  'fingerprints',
  'attack_techniques',
  'cve_id',
  'remediation',
  'source',
  'risk_penalty',
  'metadata',
] as const;

/** Every changed threat in one statement: each row's full new values (old ones where unchanged). */
export async function updateThreatRows(
  tx: Prisma.TransactionClient,
  decisions: readonly MergeDecision[],
): Promise<Array<{ before: ThreatRow; after: ThreatRow; changed: string[] }>> {
  const updates = decisions.flatMap((d) => (d.kind === 'update' ? [d] : []));
  if (updates.length === 0) return [];
  const records = updates.map((u) => {
    const next = { ...u.row, ...u.values } as Record<string, unknown>;
    return { id: u.row.id, ...Object.fromEntries(COLUMNS.map((c) => [c, next[c] ?? null])) };
  });
  const rows = await tx.$queryRaw<ThreatRow[]>`
    UPDATE threats AS t SET
      category = v.category, title = v.title, severity = v.severity, description = v.description,
      confidence = v.confidence, affected_asset_types = v.affected_asset_types, fingerprints = v.fingerprints,
      attack_techniques = v.attack_techniques, cve_id = v.cve_id, remediation = v.remediation, source = v.source,
      risk_penalty = v.risk_penalty, updated = now(),
      metadata = CASE WHEN jsonb_typeof(v.metadata) = 'null' THEN NULL ELSE v.metadata END
    FROM jsonb_to_recordset(${JSON.stringify(records)}::jsonb) AS v(
      id text, category text, title text, severity text, description text, confidence float8,
      affected_asset_types text[], fingerprints text[], attack_techniques text[], cve_id text, remediation text,
      source text, risk_penalty int, metadata jsonb)
    WHERE t.id = v.id
    RETURNING t.*`;
  const byId = new Map(rows.map((r) => [r.id, r]));
  return updates.map((u) => ({ before: u.row, after: byId.get(u.row.id)!, changed: u.changed }));
}
