import type { Advisory } from '@risk/contracts';
import { readAdvisoriesByIdOrAlias, type StoredAdvisory } from '@risk/db';
import { normalizeOsv, type Severity } from '@risk/enrichment';
import type { AppDeps } from '../../deps';

const seconds = (d: Date | null): number | null => (d ? Math.floor(d.getTime() / 1000) : null);

function render(row: StoredAdvisory, related: string[]): Advisory {
  const n = normalizeOsv(row.osv);
  return {
    object: 'advisory',
    id: row.id,
    aliases: row.aliases,
    source: row.source,
    summary: row.summary,
    severity: (row.severity as Severity | null) ?? null,
    published: seconds(row.published),
    modified: seconds(row.modified) ?? 0,
    withdrawn: seconds(row.withdrawn),
    affected: n.ok ? n.record.affected : [],
    references: n.ok ? n.record.references : [],
    related,
    url: `/v1/advisories/${encodeURIComponent(row.id)}`,
    osv: row.osv,
  };
}

/**
 * GET /v1/advisories/{id} (docs/advisories.md "API"): the record with that id, or else the first record that lists
 * it as an alias; `related` names the other records of the same id. Null when no loaded feed knows it.
 */
export async function getAdvisory(deps: Pick<AppDeps, 'pool'>, input: { id: string }): Promise<Advisory | null> {
  const rows = await readAdvisoriesByIdOrAlias(deps.pool, input.id);
  const [first, ...others] = rows;
  if (!first) return null;
  return render(
    first,
    others.map((r) => r.id),
  );
}
