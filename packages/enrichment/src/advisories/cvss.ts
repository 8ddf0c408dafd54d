// CVSS v3.0/v3.1 base score from a vector string (FIRST's specification, section 7.1), so an OSV record that carries
// only a vector still gets a severity (docs/advisories.md "Severity").

const W = {
  AV: { N: 0.85, A: 0.62, L: 0.55, P: 0.2 },
  AC: { L: 0.77, H: 0.44 },
  UI: { N: 0.85, R: 0.62 },
  C: { H: 0.56, L: 0.22, N: 0 },
} as const;

/** CVSS's round-up to one decimal, in integers to avoid floating-point surprises (spec Appendix A). */
function roundUp(x: number): number {
  const i = Math.round(x * 100000);
  return i % 10000 === 0 ? i / 100000 : (Math.floor(i / 10000) + 1) / 10;
}

/** The base score of a `CVSS:3.x/…` vector, or null for anything else (v2, v4, malformed). */
export function cvss3BaseScore(vector: string): number | null {
  if (vector.length > 200) return null;
  const parts = vector.split('/');
  if (parts[0] !== 'CVSS:3.0' && parts[0] !== 'CVSS:3.1') return null;
  const m = new Map<string, string>();
  for (const p of parts.slice(1)) {
    const [k, v] = p.split(':');
    if (k && v) m.set(k, v);
  }
  const av = W.AV[m.get('AV') as keyof typeof W.AV];
  const ac = W.AC[m.get('AC') as keyof typeof W.AC];
  const ui = W.UI[m.get('UI') as keyof typeof W.UI];
  const scope = m.get('S');
  const pr = m.get('PR');
  const cia = ['C', 'I', 'A'].map((k) => W.C[m.get(k) as keyof typeof W.C]);
  if (av === undefined || ac === undefined || ui === undefined || cia.some((x) => x === undefined)) return null;
  if (scope !== 'U' && scope !== 'C') return null;
  const prW =
    pr === 'N' ? 0.85 : pr === 'L' ? (scope === 'C' ? 0.68 : 0.62) : pr === 'H' ? (scope === 'C' ? 0.5 : 0.27) : null;
  if (prW === null) return null;
  const [c = 0, i = 0, a = 0] = cia as number[];
  const iss = 1 - (1 - c) * (1 - i) * (1 - a);
  const impact = scope === 'U' ? 6.42 * iss : 7.52 * (iss - 0.029) - 3.25 * Math.pow(iss - 0.02, 15);
  if (impact <= 0) return 0;
  const exploitability = 8.22 * av * ac * prW * ui;
  const raw = scope === 'U' ? impact + exploitability : 1.08 * (impact + exploitability);
  return roundUp(Math.min(raw, 10));
}
