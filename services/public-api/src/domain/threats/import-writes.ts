import { insertThreats, updateThreats, type Prisma, type Threat as ThreatRow } from '@risk/db';
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
  // one INSERT from a jsonb record set (docs/data-access.md "Stores")
  const rows = await insertThreats(tx, data);
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
  const rows = await updateThreats(tx, records);
  const byId = new Map(rows.map((r) => [r.id, r]));
  return updates.map((u) => ({ before: u.row, after: byId.get(u.row.id)!, changed: u.changed }));
}
