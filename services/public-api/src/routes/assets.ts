import { type ApiKeyAuthenticator, zQueryBool, zQueryList, ZListQuery } from '@risk/common';
import {
  AIBOM_FORMATS,
  ASSET_EXPANDS,
  ASSET_TYPE_VALUES,
  ENRICHMENT_STATUSES,
  FINDING_EXPANDS,
  NO_CONTROL,
  RISK_SEVERITIES,
  ZFingerprint,
} from '@risk/contracts';
import { Router } from 'express';
import { z } from 'zod';
import type { AppDeps } from '../deps';
import { getAiBom } from '../domain/assets/get-aibom';
import { getAsset } from '../domain/assets/get-asset';
import { assertExpandBound, parseExpand, ZExpandParam } from '../domain/assets/expand';
import { listAssetThreats } from '../domain/assets/list-asset-threats';
import { listAssets } from '../domain/assets/list-assets';
import { listFindings } from '../domain/assets/list-findings';
import { lookupAssets, lookupKeyOrder } from '../domain/assets/lookup-assets';
import { defineRoute, mountRoutes, RawResponse } from '../http/route';

// Fingerprints may hold `/`, `:` or `@`: clients URL-encode them and express decodes the :fingerprint
// param (a `%2F` never splits a path segment), so one plain named parameter serves every form.
const ZFingerprintParams = z.object({ fingerprint: ZFingerprint });

// look-up keys are compared with stored names and fingerprints, which never hold control characters
const zLookupText = (min: number, max: number) =>
  z.string().min(min).max(max).regex(NO_CONTROL, 'must not contain control characters');

const ZListAssetsQuery = ZListQuery.extend({
  asset_type: z.enum(ASSET_TYPE_VALUES).optional(),
  enrichment_status: z.enum(ENRICHMENT_STATUSES).optional(),
  intrinsic_risk_severity: z.enum(RISK_SEVERITIES).optional(),
  expand: ZExpandParam,
}).strict();

const ZExpandOnlyQuery = z.strictObject({ expand: ZExpandParam });

const ZLookupQuery = z.strictObject({
  fingerprints: zQueryList(ZFingerprint),
  lookup_name: zQueryList(zLookupText(1, 512)),
  // empty values keep positions aligned and mean "any"
  lookup_version: zQueryList(zLookupText(0, 256)),
  lookup_ecosystem: zQueryList(zLookupText(0, 64)),
  lookup_fingerprint: zQueryList(zLookupText(0, 512)),
  include_candidates: zQueryBool.optional(),
  expand: ZExpandParam,
});

const ZFindingsQuery = ZListQuery.extend({ expand: ZExpandParam }).strict();
const ZAiBomQuery = z.strictObject({ format: z.enum(AIBOM_FORMATS).default('json') });

export const assetRoutes = [
  defineRoute({
    method: 'get',
    path: '/assets',
    scope: 'assets:read',
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
    scope: 'assets:read',
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
    scope: 'assets:read',
    params: ZFingerprintParams,
    query: ZExpandOnlyQuery,
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
    scope: 'assets:read',
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
    scope: 'assets:read',
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
    scope: 'assets:read',
    params: ZFingerprintParams,
    query: ZListQuery.strict(),
    handler: ({ deps, auth, params, query }) =>
      listAssetThreats(deps, { ...query, auth, fingerprint: params.fingerprint }),
  }),
];

export function assetsRouter(deps: AppDeps, authenticator: ApiKeyAuthenticator): Router {
  return mountRoutes(Router(), deps, authenticator, assetRoutes);
}
