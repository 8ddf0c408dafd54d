// Charts as plain SVG (docs/console.md "Pages"): horizontal bars and a column histogram. Each chart has a title
// for screen readers and a visually hidden table with the same numbers.
import { formatNumber } from '../lib/format';

export interface Bar {
  label: string;
  value: number;
  className?: string;
}

export function BarChart({ title, bars, unit = '' }: { title: string; bars: Bar[]; unit?: string }) {
  const max = Math.max(1, ...bars.map((b) => Math.abs(b.value)));
  const row = 26;
  const height = bars.length * row + 4;
  return (
    <figure className="chart">
      <svg viewBox={`0 0 400 ${height}`} width="400" height={height} role="img" aria-label={title}>
        <title>{title}</title>
        {bars.map((b, i) => {
          const w = Math.max(2, (Math.abs(b.value) / max) * 230);
          return (
            <g key={`${b.label}-${i}`} transform={`translate(0 ${i * row + 2})`}>
              <text x="0" y="16" className="chart-label">
                {b.label.length > 22 ? `${b.label.slice(0, 21)}…` : b.label}
              </text>
              <rect x="150" y="3" width={w} height="18" rx="2" className={b.className ?? 'bar'} />
              <text x={156 + w} y="16" className="chart-value">
                {formatNumber(b.value)}
                {unit}
              </text>
            </g>
          );
        })}
      </svg>
      <DataTable caption={title} rows={bars.map((b) => [b.label, `${formatNumber(b.value)}${unit}`])} />
    </figure>
  );
}

export function Histogram({
  title,
  bins,
}: {
  title: string;
  bins: Array<{ from: number; to: number; count: number }>;
}) {
  const max = Math.max(1, ...bins.map((b) => b.count));
  const width = 400;
  const height = 160;
  const col = width / Math.max(1, bins.length);
  return (
    <figure className="chart">
      <svg viewBox={`0 0 ${width} ${height + 20}`} width={width} height={height + 20} role="img" aria-label={title}>
        <title>{title}</title>
        {bins.map((b, i) => {
          const h = (b.count / max) * height;
          return (
            <g key={b.from}>
              <rect x={i * col + 2} y={height - h} width={col - 4} height={h} className="bar" />
              <text x={i * col + col / 2} y={height + 14} textAnchor="middle" className="chart-axis">
                {b.from}
              </text>
            </g>
          );
        })}
      </svg>
      <DataTable caption={title} rows={bins.map((b) => [`${b.from}–${b.to}`, formatNumber(b.count)])} />
    </figure>
  );
}

function DataTable({ caption, rows }: { caption: string; rows: string[][] }) {
  return (
    <table className="visually-hidden">
      <caption>{caption}</caption>
      <tbody>
        {rows.map((r, i) => (
          <tr key={i}>
            {r.map((c, j) => (
              <td key={j}>{c}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
