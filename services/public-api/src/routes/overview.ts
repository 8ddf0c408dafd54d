import { defineRoute } from '@risk/common/http';
import { EXAMPLE_OVERVIEW, ZOverview, ZOverviewQuery } from '@risk/contracts';
import { getOverview } from '../domain/overview/get-overview';
import { readAssets } from './asset-params';

// The org's inventory and risk in aggregate (docs/public-api.md "Overview"); the scope of the asset routes.
export const overviewRoutes = [
  defineRoute({
    method: 'get',
    path: '/overview',
    auth: readAssets,
    doc: {
      examples: { response: EXAMPLE_OVERVIEW },
      summary: "The org's assets in aggregate: severities, scores, risk changes, top rules (scope assets:read)",
      description:
        "Computed by the database over every asset the org observed in the key's mode (never another org's, never " +
        "the other mode's): assets by intrinsic and by effective severity (after the org's triage), a histogram of " +
        'scores in ten buckets, risk changes per UTC day over the last `days` days (default 30, at most 90), the ' +
        "rules and ATLAS techniques with the most assets with an open finding, the threats matching the org's " +
        'assets most recently, and the enrichment backlog.',
      response: { description: 'the overview', schema: ZOverview },
    },
    query: ZOverviewQuery,
    handler: ({ deps, auth, query }) =>
      getOverview(deps, { scope: { orgId: auth.org_id, livemode: auth.livemode }, days: query.days }),
  }),
];
