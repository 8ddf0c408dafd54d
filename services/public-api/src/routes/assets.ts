import { ApiError } from '@risk/common/errors';
import { defineRoute, RawResponse } from '@risk/common/http';
import {
  EXAMPLE_ASSET_LIST_SARIF,
  EXAMPLE_FINDINGS_SARIF,
  ASSET_EXPANDS,
  EXAMPLE_AIBOM,
  EXAMPLE_ASSET_EXPANDED,
  EXAMPLE_ASSET_LIST,
  EXAMPLE_ASSET_THREAT_LIST,
  EXAMPLE_FINDING_LIST,
  EXAMPLE_LOOKUP,
  FINDING_EXPANDS,
  ZAiBomContent,
  ZAiBomQuery,
  ZAsset,
  ZAssetList,
  ZAssetQuery,
  ZAssetThreatList,
  ZFindingList,
  ZFindingsQuery,
  ZListAssetsQuery,
  ZListQuery,
  ZLookupQuery,
  ZLookupResponse,
  ZSarifLog,
  SARIF_MEDIA_TYPE,
} from '@risk/contracts';
import { assertNoListParams, assetFindingsSarif, assetListSarif } from '../domain/assets/findings-sarif';
import { getAiBom } from '../domain/assets/get-aibom';
import { getAsset } from '../domain/assets/get-asset';
import { assertExpandBound, parseExpand } from '../domain/assets/expand';
import { listAssetThreats } from '../domain/assets/list-asset-threats';
import { listAssets } from '../domain/assets/list-assets';
import { listFindings } from '../domain/assets/list-findings';
import { lookupAssets, lookupKeyOrder } from '../domain/assets/lookup-assets';
import { ZFingerprintParams, readAssets } from './asset-params';

export const assetRoutes = [
  defineRoute({
    method: 'get',
    path: '/assets',
    auth: readAssets,
    doc: {
      examples: { response: EXAMPLE_ASSET_LIST },
      summary: 'List assets, newest first (scope assets:read); the cursor is a fingerprint',
      description:
        "format=sarif: the findings of this page of assets as one SARIF 2.1.0 log (docs/formats.md); the next page's " +
        'cursor is in the Link header (rel="next").',
      response: {
        description: 'a list envelope of assets, or a SARIF log',
        content: {
          'application/json': { schema: ZAssetList },
          [SARIF_MEDIA_TYPE]: { schema: ZSarifLog, example: EXAMPLE_ASSET_LIST_SARIF },
        },
      },
    },
    query: ZListAssetsQuery,
    handler: async ({ deps, auth, query, res }) => {
      if (query.format === 'sarif') {
        if (query.expand?.length)
          throw new ApiError('parameter_invalid', { param: 'expand', message: 'format=sarif takes no expand[].' });
        const { format: _format, expand: _expand, ...filters } = query;
        const out = await assetListSarif(deps, { ...filters, scope: { orgId: auth.org_id, livemode: auth.livemode } });
        if (out.next && !filters.ending_before)
          res.setHeader('Link', `<${nextSarifPage(filters, out.next)}>; rel="next"`);
        return out.response;
      }
      const expand = parseExpand(query.expand, ASSET_EXPANDS, { list: true });
      assertExpandBound(expand, { items: query.limit, max: deps.config.EXPAND_AIBOM_MAX_ITEMS, param: 'limit' });
      return listAssets(deps, { ...query, scope: { orgId: auth.org_id, livemode: auth.livemode }, expand });
    },
  }),
  // literal path before /assets/:fingerprint
  defineRoute({
    method: 'get',
    path: '/assets/lookup',
    auth: readAssets,
    doc: {
      examples: { response: EXAMPLE_LOOKUP },
      summary: 'Look up 1–500 assets by fingerprint or name keys (scope assets:read)',
      description:
        'One result per key, in the order the query string lists the fingerprints and lookup_name values (interleaved as sent). match is exact, fingerprint (lookup_fingerprint fallback), ' +
        'flexible (name alone, closest pg_trgm match) or none. Mismatched lookup_* list lengths: 400 naming the parameter.',
      response: { description: 'the look-up results', schema: ZLookupResponse },
    },
    query: ZLookupQuery,
    handler: ({ deps, auth, query, req }) => {
      const expand = parseExpand(query.expand, ASSET_EXPANDS, { list: true });
      // one expanded asset at most per key (candidates are never expanded)
      const keys = query.fingerprints.length + query.lookup_name.length;
      assertExpandBound(expand, {
        items: keys,
        max: deps.config.EXPAND_AIBOM_MAX_ITEMS,
        param: query.fingerprints.length ? 'fingerprints' : 'lookup_name',
      });
      return lookupAssets(deps, {
        ...query,
        livemode: auth.livemode,
        orgId: auth.org_id,
        order: lookupKeyOrder(req.url),
        include_candidates: query.include_candidates ?? false,
        expand,
      });
    },
  }),
  defineRoute({
    method: 'get',
    path: '/assets/:fingerprint',
    auth: readAssets,
    doc: {
      examples: { response: EXAMPLE_ASSET_EXPANDED },
      summary: 'Retrieve an asset (scope assets:read)',
      response: { description: 'the asset', schema: ZAsset },
      errors: [404],
    },
    params: ZFingerprintParams,
    query: ZAssetQuery,
    handler: ({ deps, auth, params, query }) =>
      getAsset(deps, {
        scope: { orgId: auth.org_id, livemode: auth.livemode },
        fingerprint: params.fingerprint,
        expand: parseExpand(query.expand, ASSET_EXPANDS),
      }),
  }),
  defineRoute({
    method: 'get',
    path: '/assets/:fingerprint/findings',
    auth: readAssets,
    doc: {
      examples: { response: EXAMPLE_FINDING_LIST },
      summary: 'Findings of an enriched asset (scope assets:read)',
      description: 'pending or failed assets: 404 asset_not_enriched; stale assets serve the last good result.',
      response: {
        description: 'a list envelope of findings, or (format=sarif) every finding as one SARIF 2.1.0 log',
        content: {
          'application/json': { schema: ZFindingList },
          [SARIF_MEDIA_TYPE]: { schema: ZSarifLog, example: EXAMPLE_FINDINGS_SARIF },
        },
      },
      errors: [404],
    },
    params: ZFingerprintParams,
    query: ZFindingsQuery,
    handler: ({ deps, auth, params, query }) => {
      if (query.format === 'sarif') {
        assertNoListParams(query);
        return assetFindingsSarif(deps, {
          scope: { orgId: auth.org_id, livemode: auth.livemode },
          fingerprint: params.fingerprint,
        });
      }
      return listFindings(deps, {
        ...query,
        scope: { orgId: auth.org_id, livemode: auth.livemode },
        fingerprint: params.fingerprint,
        expandThreats: parseExpand(query.expand, FINDING_EXPANDS, { list: true }).has('threats'),
      });
    },
  }),
  defineRoute({
    method: 'get',
    path: '/assets/:fingerprint/aibom',
    auth: readAssets,
    doc: {
      examples: { response: EXAMPLE_AIBOM },
      summary: 'AI-BOM of an enriched asset (scope assets:read)',
      response: { description: 'the AI-BOM in the requested format', content: ZAiBomContent },
      errors: [404],
    },
    params: ZFingerprintParams,
    query: ZAiBomQuery,
    handler: async ({ deps, auth, params, query }) => {
      const out = await getAiBom(deps, {
        livemode: auth.livemode,
        orgId: auth.org_id,
        fingerprint: params.fingerprint,
        format: query.format,
      });
      return 'text' in out
        ? new RawResponse(out.contentType, out.text)
        : new RawResponse(out.contentType, JSON.stringify(out.json));
    },
  }),
  defineRoute({
    method: 'get',
    path: '/assets/:fingerprint/threats',
    auth: readAssets,
    doc: {
      examples: { response: EXAMPLE_ASSET_THREAT_LIST },
      summary: 'Threats matching an asset (scope assets:read)',
      description:
        "A threat matches when it lists the fingerprint or its cve_id is among the asset's findings, and its affected_asset_types is empty or holds the asset's type.",
      response: { description: 'a list envelope of threats', schema: ZAssetThreatList },
      errors: [404],
    },
    params: ZFingerprintParams,
    query: ZListQuery.strict(),
    handler: ({ deps, auth, params, query }) =>
      listAssetThreats(deps, { ...query, auth, fingerprint: params.fingerprint }),
  }),
];

/** The next SARIF page: the same filters and limit, after the page's last fingerprint. */
function nextSarifPage(filters: Record<string, unknown>, cursor: string): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filters))
    if (value !== undefined && key !== 'starting_after' && key !== 'ending_before') params.set(key, String(value));
  params.set('format', 'sarif');
  params.set('starting_after', cursor);
  return `/v1/assets?${params.toString()}`;
}
