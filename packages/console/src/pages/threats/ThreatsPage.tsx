// Threats (docs/console-pages.md "Threats"): the shared threat records every org reads, filtered by category, severity
// and asset type (filters and cursor in the address), with create, STIX import and STIX export.
import { useState } from 'react';
import { publicApi, unwrap } from '../../api/client';
import type { Threat } from '../../api/types';
import { Link, useRouter } from '../../app/router';
import { useSession } from '../../app/session';
import { usePagedList } from '../../app/use-paged';
import { PagedTable } from '../../components/data-table';
import { FilterSelect } from '../../components/filter-select';
import { useSubmit } from '../../components/form';
import { SeverityBadge } from '../../components/severity';
import { RelativeTime } from '../../components/time';
import { formatNumber } from '../../lib/format';
import { createBody, THREAT_ASSET_TYPES, THREAT_CATEGORIES, THREAT_SEVERITIES } from '../../lib/threats';
import { ThreatForm } from './ThreatForm';
import { ExportThreats, ImportThreats } from './ThreatExchange';

type Filters = {
  category?: Threat['category'];
  severity?: Threat['severity'];
  affected_asset_type?: Threat['affected_asset_types'][number];
};

const FILTER_FIELDS = [
  { label: 'Category', name: 'category', options: THREAT_CATEGORIES },
  { label: 'Severity', name: 'severity', options: THREAT_SEVERITIES },
  { label: 'Asset type', name: 'affected_asset_type', options: THREAT_ASSET_TYPES },
] as const satisfies readonly { label: string; name: keyof Filters; options: readonly string[] }[];

export function threatFilters(search: URLSearchParams): Filters {
  const pick = <T extends string>(name: string, allowed: readonly T[]) => {
    const v = search.get(name);
    return v && (allowed as readonly string[]).includes(v) ? (v as T) : undefined;
  };
  return {
    category: pick('category', THREAT_CATEGORIES),
    severity: pick('severity', THREAT_SEVERITIES),
    affected_asset_type: pick('affected_asset_type', THREAT_ASSET_TYPES),
  };
}

export function ThreatsPage() {
  const { session } = useSession();
  const [creating, setCreating] = useState(false);
  const list = usePagedList<Threat>((cursor, search) =>
    unwrap(publicApi.GET('/v1/threats', { params: { query: { limit: 20, ...cursor, ...threatFilters(search) } } })),
  );
  const filters = threatFilters(list.filters);
  const mine = session?.tenant?.org_id;
  return (
    <section>
      <h1>Threats</h1>
      <p className="actions">
        <button type="button" className="primary" aria-expanded={creating} onClick={() => setCreating(!creating)}>
          {creating ? 'Close the form' : 'New threat'}
        </button>
      </p>
      {creating ? <CreateThreat /> : null}
      <div className="filters" role="group" aria-label="Filters">
        {FILTER_FIELDS.map((f) => (
          <FilterSelect key={f.name} {...f} value={filters[f.name]} set={list.setFilter} />
        ))}
      </div>
      <PagedTable
        list={list}
        empty="No threats match these filters."
        columns={['Title', 'Category', 'Severity', { label: 'Risk penalty', num: true }, 'CVE', 'Source', 'Updated']}
        row={(t) => (
          <>
            <td>
              <Link to={`/threats/${encodeURIComponent(t.id)}`}>{t.title}</Link>
              {t.created_by_org === mine ? <span className="badge"> yours</span> : null}
            </td>
            <td>{t.category}</td>
            <td>
              <SeverityBadge severity={t.severity} />
            </td>
            <td className="num">{formatNumber(t.risk_penalty)}</td>
            <td>{t.cve_id ?? '—'}</td>
            <td>{t.source ?? '—'}</td>
            <td>
              <RelativeTime value={t.updated} />
            </td>
          </>
        )}
      />
      <ImportThreats onImported={list.state.reload} />
      <ExportThreats filters={filters} />
    </section>
  );
}

function CreateThreat() {
  const { navigate } = useRouter();
  const submit = useSubmit();
  return (
    <ThreatForm
      title="New threat"
      submitLabel="Create threat"
      busy={submit.busy}
      error={submit.error}
      onSubmit={(d) =>
        void submit.run(async () => {
          const created = await unwrap(publicApi.POST('/v1/threats', { body: createBody(d) }));
          navigate(`/threats/${encodeURIComponent(created.id)}`);
        })
      }
    />
  );
}
