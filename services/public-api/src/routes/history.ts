import { defineRoute } from '@risk/common';
import {
  z,
  ZAiBomDiff,
  ZAiBomDiffQuery,
  ZAiBomVersionList,
  ZAssetHistoryList,
  ZFingerprint,
  ZHistoryQuery,
} from '@risk/contracts';
import { diffAiBom } from '../domain/history/diff-aibom';
import { listAiBomVersions } from '../domain/history/list-aibom-versions';
import { listAssetHistory } from '../domain/history/list-asset-history';
import { apiKey } from '../http/route';

// Asset history and AI-BOM diffs (docs/history.md); same fingerprint parameter and scope as routes/assets.ts.
const ZFingerprintParams = z.object({ fingerprint: ZFingerprint });
const readAssets = apiKey('assets:read');

export const historyRoutes = [
  defineRoute({
    method: 'get',
    path: '/assets/:fingerprint/history',
    auth: readAssets,
    doc: {
      summary: "An asset's history, newest first (scope assets:read)",
      description:
        'One entry per enrichment that changed the score, severity, finding set or AI-BOM version: the score and severity, ' +
        'the findings added, removed and changed in severity, and the bom_version. Capped per asset (docs/history.md).',
      response: { description: 'a list envelope of history entries', schema: ZAssetHistoryList },
      errors: [404],
    },
    params: ZFingerprintParams,
    query: ZHistoryQuery,
    handler: ({ deps, auth, params, query }) =>
      listAssetHistory(deps, { ...query, livemode: auth.livemode, fingerprint: params.fingerprint }),
  }),
  defineRoute({
    method: 'get',
    path: '/assets/:fingerprint/aibom/versions',
    auth: readAssets,
    doc: {
      summary: "An asset's AI-BOM versions, newest first (scope assets:read)",
      response: { description: 'a list envelope of AI-BOM versions', schema: ZAiBomVersionList },
      errors: [404],
    },
    params: ZFingerprintParams,
    query: ZHistoryQuery,
    handler: ({ deps, auth, params, query }) =>
      listAiBomVersions(deps, { ...query, livemode: auth.livemode, fingerprint: params.fingerprint }),
  }),
  defineRoute({
    method: 'get',
    path: '/assets/:fingerprint/aibom/diff',
    auth: readAssets,
    doc: {
      summary: 'Compare two AI-BOM versions of an asset (scope assets:read)',
      description:
        'Components added, removed and changed (version, licence, hashes, supplier), lineage changes (base models, relation), ' +
        "the primary component's licence change and the findings added and removed between the two enrichments. " +
        'Defaults: to = the current version, from = the version before it.',
      response: { description: 'the diff', schema: ZAiBomDiff },
      errors: [404],
    },
    params: ZFingerprintParams,
    query: ZAiBomDiffQuery,
    handler: ({ deps, auth, params, query }) =>
      diffAiBom(deps, { ...query, livemode: auth.livemode, fingerprint: params.fingerprint }),
  }),
];
