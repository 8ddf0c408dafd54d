import { ApiError } from '@risk/common/errors';
import { RawResponse } from '@risk/common/http';
import { SARIF_MEDIA_TYPE, type Asset } from '@risk/contracts';
import type { Finding as FindingRow } from '@risk/db';
import { buildSarif, type SarifAsset, type SarifFinding } from '@risk/enrichment';
import { readDbOf, type AppDeps, type ReadDeps } from '../../deps';
import { assertEnriched, findOwnAssetOr404 } from './get-asset';
import type { OrgScope } from '../triage/org-view';
import { ownReportedFindings, readOwnReports } from './client-reported';
import { listAssets, type ListAssetsInput } from './list-assets';

/**
 * Findings as SARIF 2.1.0 (docs/formats.md "SARIF"): GET /v1/assets/{fp}/findings?format=sarif (every finding of one
 * enriched asset) and GET /v1/assets?format=sarif (the findings of one page of the filtered asset list).
 */

/** A stored finding as buildSarif reads it: buildSarif takes only SarifFinding's fields, so only the severity narrows. */
const sarifFinding = (row: FindingRow): SarifFinding => ({
  ...row,
  severity: row.severity as SarifFinding['severity'],
});

/** The org's own client-reported findings of one asset (docs/artifacts.md "Client-reported scan results"). */
function reportedSarif(reports: Parameters<typeof ownReportedFindings>[0] | undefined): SarifFinding[] {
  return ownReportedFindings(reports ?? []).map((f) => ({ ...f, cve_ids: [], threat_ids: [] }));
}

type AssetFacts = Omit<SarifAsset, 'findings'>;

const sarifResponse = (log: unknown): RawResponse => new RawResponse(SARIF_MEDIA_TYPE, JSON.stringify(log));

/** Pagination and expansion belong to the list envelope: with format=sarif they are 400, not silently ignored. */
export function assertNoListParams(query: { starting_after?: string; ending_before?: string; expand?: unknown }): void {
  const given = (['starting_after', 'ending_before'] as const).find((k) => query[k] !== undefined);
  const expand = Array.isArray(query.expand) ? query.expand.length > 0 : query.expand !== undefined;
  if (given || expand)
    throw new ApiError('parameter_invalid', {
      param: given ?? 'expand',
      message: 'format=sarif returns every finding of the asset in one SARIF log: no cursors and no expand[].',
    });
}

/** Every finding of one enriched (or stale: last good result) asset, by finding id. */
export async function assetFindingsSarif(
  deps: Pick<AppDeps, 'prisma' | 'pool'>,
  input: { scope: OrgScope; fingerprint: string },
): Promise<RawResponse> {
  const asset = await findOwnAssetOr404(deps, input.scope, input.fingerprint);
  assertEnriched(asset);
  const [rows, reports] = await Promise.all([
    deps.prisma.finding.findMany({
      where: { livemode: input.scope.livemode, fingerprint: asset.fingerprint },
      orderBy: { id: 'asc' },
    }),
    readOwnReports(deps, input.scope, [asset.fingerprint]),
  ]);
  // the platform's findings, then the org's own client-reported ones (evidence.source: client_reported)
  const findings = [...rows.map(sarifFinding), ...reportedSarif(reports.get(asset.fingerprint))];
  const log = buildSarif([{ ...(asset as unknown as AssetFacts), findings }], {
    automation_id: `risk-intel/asset/${asset.fingerprint}/`,
  });
  return sarifResponse(log);
}

/**
 * One page of GET /v1/assets (same filters, order and cursor) as one SARIF run: one query for the page, one for the
 * findings of all its assets. The next page's cursor is in the `Link` header (rel="next") when there is one.
 */
export async function assetListSarif(
  appDeps: ReadDeps,
  input: Omit<ListAssetsInput, 'expand'>,
): Promise<{ response: RawResponse; next: string | null }> {
  const deps = readDbOf(appDeps); // a list tolerates replication lag (docs/scaling.md "Read replicas")
  const page = await listAssets(deps, { ...input, expand: new Set() });
  const fingerprints = page.data.map((a: Asset) => a.fingerprint);
  const [rows, reports] = fingerprints.length
    ? await Promise.all([
        deps.prisma.finding.findMany({
          where: { livemode: input.scope.livemode, fingerprint: { in: fingerprints } },
          orderBy: { id: 'asc' },
        }),
        readOwnReports(deps, input.scope, fingerprints),
      ])
    : [[], new Map()];
  const byAsset = new Map<string, SarifFinding[]>();
  for (const row of rows) {
    const list = byAsset.get(row.fingerprint) ?? [];
    list.push(sarifFinding(row));
    byAsset.set(row.fingerprint, list);
  }
  const assets = page.data.map((a) => ({
    ...a,
    findings: [...(byAsset.get(a.fingerprint) ?? []), ...reportedSarif(reports.get(a.fingerprint))],
  }));
  const filters = [input.asset_type, input.enrichment_status, input.intrinsic_risk_severity].filter(Boolean).join('/');
  const log = buildSarif(assets, { automation_id: `risk-intel/assets/${filters || 'all'}/` });
  const last = page.data.at(-1);
  return { response: sarifResponse(log), next: page.has_more && last ? last.fingerprint : null };
}
