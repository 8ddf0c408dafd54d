// The asset's AI-BOM: components, the lineage graph (plain SVG) and downloads in every format the API renders
// (GET …/aibom?format=, through the same-origin proxy; docs/formats.md).
import { publicApi, unwrap } from '../../api/client';
import { useAsync } from '../../app/use-async';
import { Async } from '../../components/states';
import { ScrollArea } from '../../components/scroll-area';

const FORMATS = [
  ['json', 'AI-BOM JSON'],
  ['spdx_json', 'SPDX 2.3 JSON'],
  ['spdx_tv', 'SPDX 2.3 tag-value'],
  ['cyclonedx_json', 'CycloneDX 1.6'],
  ['spdx3_json', 'SPDX 3.0.1 JSON-LD'],
] as const;

export function AiBomSection({ fingerprint }: { fingerprint: string }) {
  const bom = useAsync(
    () => unwrap(publicApi.GET('/v1/assets/{fingerprint}/aibom', { params: { path: { fingerprint } } })),
    fingerprint,
  );
  const base = `/console/v1/public/v1/assets/${encodeURIComponent(fingerprint)}/aibom`;
  return (
    <section aria-labelledby="aibom-title">
      <h2 id="aibom-title">AI-BOM</h2>
      <Async state={bom}>
        {(b) => {
          const data = b as {
            bom_version?: number;
            components?: Array<Record<string, unknown>>;
            lineage?: Record<string, unknown> | null;
          };
          const components = data.components ?? [];
          return (
            <>
              <p className="muted">Version {data.bom_version ?? '—'}</p>
              <nav aria-label="Download the AI-BOM">
                <ul className="downloads">
                  {FORMATS.map(([f, label]) => (
                    <li key={f}>
                      <a href={`${base}?format=${f}`} download>
                        {label}
                      </a>
                    </li>
                  ))}
                </ul>
              </nav>
              <ScrollArea label="AI-BOM components">
                <table>
                  <caption className="visually-hidden">AI-BOM components</caption>
                  <thead>
                    <tr>
                      <th scope="col">Type</th>
                      <th scope="col">Name</th>
                      <th scope="col">Version</th>
                      <th scope="col">Licence</th>
                    </tr>
                  </thead>
                  <tbody>
                    {components.map((c, i) => (
                      <tr key={i}>
                        <td>{text(c.type)}</td>
                        <td>{text(c.name)}</td>
                        <td>{text(c.version)}</td>
                        <td>{text(c.license)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </ScrollArea>
              <Lineage lineage={data.lineage ?? null} />
            </>
          );
        }}
      </Async>
    </section>
  );
}

const text = (v: unknown) => (v === null || v === undefined ? '—' : typeof v === 'string' ? v : JSON.stringify(v));

function Lineage({ lineage }: { lineage: Record<string, unknown> | null }) {
  const bases = Array.isArray(lineage?.base_models) ? (lineage.base_models as unknown[]).map(text) : [];
  if (!lineage || bases.length === 0) return <p className="muted">No model lineage derived.</p>;
  const relation = text(lineage.relation);
  const row = 40;
  const height = Math.max(1, bases.length) * row + 10;
  return (
    <figure className="lineage">
      <figcaption>
        Lineage: this asset is {relation === '—' ? 'derived from' : `a ${relation} of`} {bases.join(', ')}
      </figcaption>
      <svg
        viewBox={`0 0 640 ${height}`}
        width="100%"
        role="img"
        aria-label={`Lineage graph: ${bases.join(', ')} → this asset`}
      >
        {bases.map((b, i) => (
          <g key={b} className="node">
            <rect x="4" y={i * row + 6} width="300" height="28" rx="4" />
            <text x="12" y={i * row + 25}>
              {b.length > 40 ? `${b.slice(0, 39)}…` : b}
            </text>
            <line x1="304" y1={i * row + 20} x2="420" y2={height / 2} />
          </g>
        ))}
        <g className="node">
          <rect x="420" y={height / 2 - 14} width="210" height="28" rx="4" />
          <text x="428" y={height / 2 + 5}>
            this asset ({relation})
          </text>
        </g>
      </svg>
    </figure>
  );
}
