// Assets (docs/console.md "Pages"): the org's assets, newest first, filtered by type, intrinsic and effective
// severity and enrichment status, paged through the API's cursors; or found by name through the look-up
// (GET /v1/assets/lookup). Filters and cursor live in the address, so every view is a deep link.
import { useState, type FormEvent } from 'react';
import { publicApi, unwrap } from '../../api/client';
import { ENRICHMENT_STATUSES, type Asset, type AssetList } from '../../api/types';
import { Link, useRouter } from '../../app/router';
import { useAsync } from '../../app/use-async';
import { DataTable } from '../../components/data-table';
import { FilterSelect } from '../../components/filter-select';
import { Pager } from '../../components/pager';
import { SeverityBadge } from '../../components/severity';
import { Async, Empty } from '../../components/states';
import { RelativeTime } from '../../components/time';
import { formatNumber } from '../../lib/format';
import { cursorFrom, withParams } from '../../lib/address';
import { pageState } from '../../lib/paging';
import { SEVERITIES } from '../../lib/severity';
import { THREAT_ASSET_TYPES } from '../../lib/threats';

const FILTERS = ['asset_type', 'intrinsic_risk_severity', 'effective_risk_severity', 'enrichment_status'] as const;
type Filter = (typeof FILTERS)[number];
const OPTIONS: Record<Filter, readonly string[]> = {
  asset_type: THREAT_ASSET_TYPES,
  intrinsic_risk_severity: SEVERITIES,
  effective_risk_severity: SEVERITIES,
  enrichment_status: ENRICHMENT_STATUSES,
};
const LABELS: Record<Filter, string> = {
  asset_type: 'Type',
  intrinsic_risk_severity: 'Severity',
  effective_risk_severity: 'Effective severity',
  enrichment_status: 'Status',
};

export function AssetsPage() {
  const { location, navigate } = useRouter();
  const search = location.search;
  const name = search.get('name') ?? '';
  const filters = Object.fromEntries(FILTERS.map((f) => [f, search.get(f) ?? ''])) as Record<Filter, string>;
  const cursor = cursorFrom(search);
  // a filter or search change starts from the newest asset; a pager click replaces the cursor (lib/address.ts)
  const go = (changes: Record<string, string | null>) => navigate(withParams('/assets', search, changes));
  const state = useAsync(async () => {
    if (name) {
      const res = await unwrap(publicApi.GET('/v1/assets/lookup', { params: { query: { lookup_name: [name] } } }));
      const result = res.data[0];
      const found = [result?.asset, ...(result?.candidates ?? []).map((c) => c.asset)].filter((a): a is Asset => !!a);
      return { data: found, has_more: false, lookup: true };
    }
    const query: Record<string, string | number> = { limit: 25, ...cursor };
    for (const f of FILTERS) if (filters[f]) query[f] = filters[f];
    const page = (await unwrap(publicApi.GET('/v1/assets', { params: { query: query as never } }))) as AssetList;
    return { data: page.data, has_more: page.has_more, lookup: false };
  }, search.toString());
  return (
    <section aria-labelledby="assets-title">
      <h1 id="assets-title">Assets</h1>
      <SearchBox initial={name} onSearch={(q) => go({ name: q || null })} />
      <div className="filters" role="group" aria-label="Filters">
        {FILTERS.map((f) => (
          <FilterSelect
            key={f}
            label={LABELS[f]}
            name={f}
            value={filters[f]}
            options={OPTIONS[f]}
            set={(k, v) => go({ [k]: v })}
            disabled={!!name}
          />
        ))}
      </div>
      <Async state={state}>
        {(page) =>
          page.data.length === 0 ? (
            <Empty>{page.lookup ? `No asset named “${name}”.` : 'No assets match these filters.'}</Empty>
          ) : (
            <>
              <AssetTable assets={page.data} />
              {page.lookup ? null : (
                <Pager
                  page={page}
                  state={pageState(cursor, page)}
                  idOf={(a: Asset) => a.fingerprint}
                  onCursor={(c) => go({ ...c })}
                />
              )}
            </>
          )
        }
      </Async>
    </section>
  );
}

function SearchBox({ initial, onSearch }: { initial: string; onSearch: (q: string) => void }) {
  const [q, setQ] = useState(initial);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSearch(q.trim());
  };
  return (
    <form className="filters" role="search" onSubmit={submit}>
      <div>
        <label htmlFor="asset-search">Search by name</label>
        <input id="asset-search" type="search" value={q} maxLength={512} onChange={(e) => setQ(e.target.value)} />
      </div>
      <button type="submit">Search</button>
      {initial ? (
        <button type="button" onClick={() => (setQ(''), onSearch(''))}>
          Clear
        </button>
      ) : null}
    </form>
  );
}

function AssetTable({ assets }: { assets: Asset[] }) {
  return (
    <DataTable
      caption="Assets"
      columns={['Name', 'Type', 'Status', { label: 'Score', num: true }, 'Severity', 'Effective', 'Last seen']}
      items={assets}
      keyOf={(a) => a.fingerprint}
      row={(a) => (
        <>
          <td>
            <Link to={`/assets/${encodeURIComponent(a.fingerprint)}`}>{a.name ?? a.fingerprint}</Link>
            {a.version ? <span className="muted"> {a.version}</span> : null}
          </td>
          <td>{a.asset_type}</td>
          <td>{a.enrichment_status}</td>
          <td className="num">{formatNumber(a.effective_risk_score)}</td>
          <td>
            <SeverityBadge severity={a.intrinsic_risk_severity} />
          </td>
          <td>
            <SeverityBadge severity={a.effective_risk_severity} />
          </td>
          <td>
            <RelativeTime value={a.last_seen} />
          </td>
        </>
      )}
    />
  );
}
