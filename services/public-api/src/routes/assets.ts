import { defineRoute, RawResponse } from '@risk/common';
import {
  ASSET_EXPANDS,
  FINDING_EXPANDS,
  z,
  ZAiBomContent,
  ZAiBomQuery,
  ZAsset,
  ZAssetList,
  ZAssetQuery,
  ZAssetThreatList,
  ZFindingList,
  ZFindingsQuery,
  ZFingerprint,
  ZListAssetsQuery,
  ZListQuery,
  ZLookupQuery,
  ZLookupResponse,
} from '@risk/contracts';
import { getAiBom } from '../domain/assets/get-aibom';
import { getAsset } from '../domain/assets/get-asset';
import { assertExpandBound, parseExpand } from '../domain/assets/expand';
import { listAssetThreats } from '../domain/assets/list-asset-threats';
import { listAssets } from '../domain/assets/list-assets';
import { listFindings } from '../domain/assets/list-findings';
import { lookupAssets, lookupKeyOrder } from '../domain/assets/lookup-assets';
import { apiKey } from '../http/route';

// Fingerprints may hold `/`, `:` or `@`: clients URL-encode them and express decodes the :fingerprint
// param (a `%2F` never splits a path segment), so one plain named parameter serves every form.
const ZFingerprintParams = z.object({ fingerprint: ZFingerprint });
const readAssets = apiKey('assets:read');

export const assetRoutes = [
  defineRoute({
    method: 'get',
    path: '/assets',
    auth: readAssets,
    doc: {
      summary: 'List assets, newest first (scope assets:read); the cursor is a fingerprint',
      response: { description: 'a list envelope of assets', schema: ZAssetList },
    },
    query: ZListAssetsQuery,
    handler: ({ deps, auth, query }) => {
      const expand = parseExpand(query.expand, ASSET_EXPANDS, { list: true });
      assertExpandBound(expand, query.limit, deps.config.EXPAND_AIBOM_MAX_ITEMS, 'limit');
      return listAssets(deps, { ...query, livemode: auth.livemode, expand });
    },
  }),
  // literal path before /assets/:fingerprint
  defineRoute({
    method: 'get',
    path: '/assets/lookup',
    auth: readAssets,
    doc: {
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
      assertExpandBound(
        expand,
        keys,
        deps.config.EXPAND_AIBOM_MAX_ITEMS,
        query.fingerprints.length ? 'fingerprints' : 'lookup_name',
      );
      return lookupAssets(deps, {
        ...query,
        livemode: auth.livemode,
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
      summary: 'Retrieve an asset (scope assets:read)',
      response: { description: 'the asset', schema: ZAsset },
      errors: [404],
    },
    params: ZFingerprintParams,
    query: ZAssetQuery,
    handler: ({ deps, auth, params, query }) =>
      getAsset(deps, {
        livemode: auth.livemode,
        fingerprint: params.fingerprint,
        expand: parseExpand(query.expand, ASSET_EXPANDS),
      }),
  }),
  defineRoute({
    method: 'get',
    path: '/assets/:fingerprint/findings',
    auth: readAssets,
    doc: {
      summary: 'Findings of an enriched asset (scope assets:read)',
      description: 'pending or failed assets: 404 asset_not_enriched; stale assets serve the last good result.',
      response: { description: 'a list envelope of findings', schema: ZFindingList },
      errors: [404],
    },
    params: ZFingerprintParams,
    query: ZFindingsQuery,
    handler: ({ deps, auth, params, query }) =>
      listFindings(deps, {
        ...query,
        livemode: auth.livemode,
        fingerprint: params.fingerprint,
        expandThreats: parseExpand(query.expand, FINDING_EXPANDS, { list: true }).has('threats'),
      }),
  }),
  defineRoute({
    method: 'get',
    path: '/assets/:fingerprint/aibom',
    auth: readAssets,
    doc: {
      summary: 'AI-BOM of an enriched asset (scope assets:read)',
      response: { description: 'the AI-BOM in the requested format', content: ZAiBomContent },
      errors: [404],
    },
    params: ZFingerprintParams,
    query: ZAiBomQuery,
    handler: async ({ deps, auth, params, query }) => {
      const out = await getAiBom(deps, {
        livemode: auth.livemode,
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
