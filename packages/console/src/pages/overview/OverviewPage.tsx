// Overview (docs/console.md "Pages"): one call to GET /v1/overview, which the public API aggregates over every asset
// the org observed in the session's mode (docs/public-api.md "Overview"); the page only draws the figures.
import { publicApi, unwrap } from '../../api/client';
import { useAsync } from '../../app/use-async';
import { Async, Empty } from '../../components/states';
import { OverviewBody } from './OverviewBody';

/** Days of risk changes the page asks for (the API's default and its maximum are 30 and 90). */
export const OVERVIEW_DAYS = 30;

const loadOverview = () => unwrap(publicApi.GET('/v1/overview', { params: { query: { days: OVERVIEW_DAYS } } }));

export function OverviewPage() {
  const state = useAsync(loadOverview, 'overview');
  return (
    <section aria-labelledby="overview-title">
      <h1 id="overview-title">Overview</h1>
      <Async state={state}>
        {(overview) =>
          overview.assets.total === 0 ? (
            <Empty>
              No assets yet. Send signals to the public API (<code>POST /v1/signals</code>) and they appear here once
              enriched.
            </Empty>
          ) : (
            <OverviewBody overview={overview} />
          )
        }
      </Async>
    </section>
  );
}

export { AtlasLink } from './OverviewBody';
