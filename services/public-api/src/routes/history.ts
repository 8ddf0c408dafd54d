import { defineRoute } from '@risk/common/http';
import {
  EXAMPLE_AIBOM_DIFF,
  EXAMPLE_AIBOM_VERSIONS,
  EXAMPLE_HISTORY_LIST,
  ZAiBomDiff,
  ZAiBomDiffQuery,
  ZAiBomVersionList,
  ZAssetHistoryList,
  ZHistoryQuery,
} from '@risk/contracts';
import { diffAiBom } from '../domain/history/diff-aibom';
import { listAiBomVersions } from '../domain/history/list-aibom-versions';
import { listAssetHistory } from '../domain/history/list-asset-history';
import { ZFingerprintParams, readAssets, ofAsset } from './asset-params';

// Asset history and AI-BOM diffs (docs/history.md); same fingerprint parameter and scope as routes/assets.ts.

export const historyRoutes = [
  defineRoute({
    method: 'get',
    path: '/assets/:fingerprint/history',
    auth: readAssets,
    doc: {
      examples: { response: EXAMPLE_HISTORY_LIST },
      summary: "An asset's history, newest first (scope assets:read)",
      description:
        'One entry per enrichment that changed the score, severity, finding set or AI-BOM version: the score and severity, ' +
        'the findings added, removed and changed in severity, and the bom_version. Capped per asset (docs/history.md).',
      response: { description: 'a list envelope of history entries', schema: ZAssetHistoryList },
      errors: [404],
    },
    params: ZFingerprintParams,
    query: ZHistoryQuery,
    handler: (req) => listAssetHistory(req.deps, ofAsset(req)),
  }),
  defineRoute({
    method: 'get',
    path: '/assets/:fingerprint/aibom/versions',
    auth: readAssets,
    doc: {
      examples: { response: EXAMPLE_AIBOM_VERSIONS },
      summary: "An asset's AI-BOM versions, newest first (scope assets:read)",
      response: { description: 'a list envelope of AI-BOM versions', schema: ZAiBomVersionList },
      errors: [404],
    },
    params: ZFingerprintParams,
    query: ZHistoryQuery,
    handler: (req) => listAiBomVersions(req.deps, ofAsset(req)),
  }),
  defineRoute({
    method: 'get',
    path: '/assets/:fingerprint/aibom/diff',
    auth: readAssets,
    doc: {
      examples: { response: EXAMPLE_AIBOM_DIFF },
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
    handler: (req) => diffAiBom(req.deps, ofAsset(req)),
  }),
];
