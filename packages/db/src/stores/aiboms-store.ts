// AI-BOM versions (docs/history.md "Routes"): the page of an asset's versions without their documents.
import type { PrismaClient } from '../generated/prisma/client';
import { keysetSql, type KeysetPage } from './keyset-sql';

/** An AI-BOM version without its document: the component count is computed in SQL. */
export interface AiBomVersionRow {
  id: string;
  fingerprint: string;
  bom_version: number;
  content_hash: string;
  component_count: number;
  created: Date;
}

/**
 * One keyset page of an asset's AI-BOM versions. The component count is jsonb_array_length in the query: no AI-BOM
 * document or component list is loaded into Node.
 */
export async function listAiBomVersionRows(
  prisma: Pick<PrismaClient, '$queryRaw'>,
  input: { livemode: boolean; fingerprint: string; page: KeysetPage; take: number },
): Promise<AiBomVersionRow[]> {
  const keyset = keysetSql('b', input.page);
  return prisma.$queryRaw<AiBomVersionRow[]>`
    SELECT b.id, b.fingerprint, b.bom_version, b.content_hash, b.created,
           CASE jsonb_typeof(b.components) WHEN 'array' THEN jsonb_array_length(b.components) ELSE 0 END
             AS component_count
    FROM aiboms b
    WHERE b.livemode = ${input.livemode} AND b.fingerprint = ${input.fingerprint} ${keyset.and}
    ${keyset.orderBy} LIMIT ${input.take}`;
}
