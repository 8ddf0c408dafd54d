// A severity as a coloured label; the word itself carries the meaning (not only the colour).
export function SeverityBadge({ severity }: { severity: string | null | undefined }) {
  if (!severity) return <span className="muted">—</span>;
  return <span className={`sev sev-${severity}`}>{severity}</span>;
}
