// Threat writes and reads beyond Prisma's CRUD (docs/threats.md): the import's locks and its one-statement INSERT and
// UPDATE, the lock of one threat, the re-enrichment of the assets a threat matches, and an asset's threats page.
import { Prisma, type PrismaClient, type Threat } from '../generated/prisma/client';
import { keysetSql, type KeysetPage } from './keyset-sql';
import { reenrichMatchedSql } from './reenrich-sql';
import { matchingAssetsSql, threatsMatchingAssetWhere, type AssetMatchKeys, type ThreatMatchKeys } from './threats-store';

type Raw = Pick<PrismaClient, '$queryRaw' | '$executeRaw'>;

/** One import at a time per org and mode (held for the caller's transaction). */
export async function lockThreatImport(tx: Raw, mode: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('threats-import'), hashtext(${mode}))`;
}

/**
 * The threats an import may update, locked in id order: the mode's threats with one of `ownIds`, and the org's earlier
 * imports with one of `stixIds`.
 */
export async function lockThreatsForImport(
  tx: Raw,
  input: { livemode: boolean; orgId: string; ownIds: string[]; stixIds: string[] },
): Promise<Threat[]> {
  return tx.$queryRaw<Threat[]>`
    SELECT * FROM threats
    WHERE livemode = ${input.livemode}
      AND (id = ANY(${input.ownIds}::text[])
           OR (created_by_org = ${input.orgId} AND metadata->'stix'->>'id' = ANY(${input.stixIds}::text[])))
    ORDER BY id FOR UPDATE`;
}

/** Locks one threat of the mode; false when there is none. */
export async function lockThreat(tx: Raw, threat: { id: string; livemode: boolean }): Promise<boolean> {
  const locked = await tx.$queryRaw<Array<{ id: string }>>`
    SELECT id FROM threats WHERE id = ${threat.id} AND livemode = ${threat.livemode} FOR UPDATE`;
  return locked.length > 0;
}

/** A threat row to insert: its columns as the INSERT's record set reads them. */
export type NewThreatRecord = Record<string, unknown> & { id: string };

/**
 * Every new threat in one INSERT from a jsonb record set (Prisma's createManyAndReturn took seconds for a 1000-threat
 * bundle); the rows in no particular order.
 */
export async function insertThreats(tx: Raw, records: readonly NewThreatRecord[]): Promise<Threat[]> {
  if (records.length === 0) return [];
  return tx.$queryRaw<Threat[]>`
    INSERT INTO threats (id, livemode, created_by_org, category, title, severity, description, confidence,
      affected_asset_types, fingerprints, attack_techniques, cve_id, remediation, source, risk_penalty, metadata)
    SELECT v.id, v.livemode, v.created_by_org, v.category, v.title, v.severity, v.description, v.confidence,
      v.affected_asset_types, v.fingerprints, v.attack_techniques, v.cve_id, v.remediation, v.source, v.risk_penalty,
      CASE WHEN jsonb_typeof(v.metadata) = 'null' THEN NULL ELSE v.metadata END
    FROM jsonb_to_recordset(${JSON.stringify(records)}::jsonb) AS v(
      id text, livemode boolean, created_by_org text, category text, title text, severity text, description text,
      confidence float8, affected_asset_types text[], fingerprints text[], attack_techniques text[], cve_id text,
      remediation text, source text, risk_penalty int, metadata jsonb)
    RETURNING *`;
}

/** Every changed threat in one UPDATE … FROM jsonb_to_recordset: each record holds the row's full new values. */
export async function updateThreats(tx: Raw, records: readonly NewThreatRecord[]): Promise<Threat[]> {
  if (records.length === 0) return [];
  return tx.$queryRaw<Threat[]>`
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
}

/**
 * For every asset of the mode matching any of `keySets` (one threat before and after a change): enriched assets
 * become stale, and enriched, stale and pending ones get an enrichment outbox row (reenrich-sql.ts), in one statement
 * in the caller's transaction. Answers the outbox rows written.
 */
export async function markThreatMatchesForReenrichment(
  tx: Pick<PrismaClient, '$queryRawUnsafe'>,
  input: { livemode: boolean; keySets: ThreatMatchKeys[]; reason: string },
): Promise<Array<{ id: bigint; fingerprint: string; digest: string }>> {
  const matched = Prisma.join(
    input.keySets.map((k) => Prisma.sql`(${matchingAssetsSql(k)})`),
    ' UNION ',
  );
  const only = Prisma.sql`SELECT DISTINCT ${input.livemode}::boolean AS livemode, u.fingerprint FROM (${matched}) u`;
  return tx.$queryRawUnsafe<Array<{ id: bigint; fingerprint: string; digest: string }>>(
    reenrichMatchedSql(only.text, `$${only.values.length + 1}`),
    ...only.values,
    input.reason,
  );
}

/** One keyset page of the threats (of the asset's mode) matching an asset, under the rule of threats-store.ts. */
export async function listThreatsMatchingAsset(
  prisma: Pick<PrismaClient, '$queryRaw'>,
  input: { asset: AssetMatchKeys; page: KeysetPage; take: number },
): Promise<Threat[]> {
  const matches = threatsMatchingAssetWhere(input.asset);
  const keyset = keysetSql('t', input.page);
  return prisma.$queryRaw<Threat[]>`SELECT t.* FROM threats t WHERE ${matches} ${keyset.and} ${keyset.orderBy} LIMIT ${input.take}`;
}
