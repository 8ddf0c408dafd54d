import type { FindingDraft, Severity } from './types';

/**
 * The calibrated score model (docs/enrichment.md "Scoring model" has worked examples).
 * Bands are those of @risk/contracts severityForScore: informational 0–9, low 10–39, medium 40–69, high 70–89,
 * critical 90–100.
 */
export const SCORE_FORMULA =
  'band = worst finding band (severity, one band lower when confidence < 0.75); score = floor(band) + room(band) x (1 - prod(1 - w_i/100)) over rule findings (w_i = severity weight x confidence; floors 0/10/40/70/90, room 9/29/29/19/10); total = min(100, score + sum(threat risk_penalty)); score = round(total)';

/** Below this confidence a finding counts one band lower (a high at 0.6 lands in medium, not low). */
export const CONFIDENT = 0.75;

const ORDER: readonly Severity[] = ['informational', 'low', 'medium', 'high', 'critical'];
/** Lowest score of each band (contracts severityForScore). */
export const BAND_FLOOR: Record<Severity, number> = { informational: 0, low: 10, medium: 40, high: 70, critical: 90 };
/** How far further findings can raise a score inside its band (top of the band minus its floor). */
export const BAND_ROOM: Record<Severity, number> = { informational: 9, low: 29, medium: 29, high: 19, critical: 10 };

/** The band a finding sets a floor for: its severity, one lower when it is not confident; weight-0 findings none. */
export function effectiveBand(f: { severity: Severity; confidence: number; weight: number }): Severity {
  if (!(f.weight > 0)) return 'informational';
  const i = ORDER.indexOf(f.severity);
  if (i <= 0) return 'informational';
  return f.confidence >= CONFIDENT ? f.severity : (ORDER[i - 1] ?? 'informational');
}

export interface ScoreItem {
  index: number;
  rule_id: string;
  threat_id?: string;
  weight: number;
  exact: number;
  contribution: number;
}
export interface ScoreResult {
  score: number;
  base: number;
  threat_penalty: number;
  total: number;
  floor: number;
  band: Severity;
  items: ScoreItem[];
}

const clampW = (w: number): number => (Number.isFinite(w) ? Math.round(Math.min(100, Math.max(0, w)) * 100) / 100 : 0);

/**
 * Deterministic score. Findings with rule_id 'threat_match' are additive penalties; every other finding enters the
 * band model. Items are processed worst first (band, then weight, then rule id, then input order): the first carries
 * the band floor plus its share of the room, each next one its marginal share (diminishing: room x w_i x what is
 * left). Contributions are scaled to the cap and rounded with the largest-remainder method so the integer
 * contributions sum exactly to the integer score.
 */
export function computeScore(
  findings: ReadonlyArray<Pick<FindingDraft, 'rule_id' | 'weight' | 'severity' | 'confidence' | 'threat_ids'>>,
): ScoreResult {
  const rank = (f: (typeof findings)[number]): number =>
    f.rule_id === 'threat_match' ? -1 : ORDER.indexOf(effectiveBand({ ...f, weight: clampW(f.weight) }));
  const order = findings
    .map((f, index) => ({ f, index }))
    .sort(
      (a, b) =>
        rank(b.f) - rank(a.f) ||
        b.f.weight - a.f.weight ||
        (a.f.rule_id < b.f.rule_id ? -1 : a.f.rule_id > b.f.rule_id ? 1 : 0) ||
        a.index - b.index,
    );
  const worst = order.find((o) => o.f.rule_id !== 'threat_match');
  const band: Severity = worst ? effectiveBand({ ...worst.f, weight: clampW(worst.f.weight) }) : 'informational';
  const floor = BAND_FLOOR[band];
  const room = BAND_ROOM[band];
  let remaining = 1;
  let threatPenalty = 0;
  let base = 0;
  const items: ScoreItem[] = [];
  for (const { f, index } of order) {
    const w = clampW(f.weight);
    const item: ScoreItem = { index, rule_id: f.rule_id, weight: w, exact: 0, contribution: 0 };
    if (f.rule_id === 'threat_match') {
      const tid = f.threat_ids[0];
      if (tid !== undefined) item.threat_id = tid;
      item.exact = w;
      threatPenalty += w;
    } else {
      item.exact = room * remaining * (w / 100) + (worst && index === worst.index ? floor : 0);
      remaining *= 1 - w / 100;
      base += item.exact;
    }
    items.push(item);
  }
  const total = Math.min(100, base + threatPenalty);
  const score = Math.round(total);
  const capScale = base + threatPenalty > 0 ? total / (base + threatPenalty) : 0;
  for (const it of items) it.exact = it.exact * capScale;
  // largest remainder to integers summing to score
  let assigned = 0;
  for (const it of items) {
    it.contribution = Math.max(0, Math.floor(it.exact + 1e-9));
    assigned += it.contribution;
  }
  let left = score - assigned;
  const rem = (it: ScoreItem): number => it.exact - Math.floor(it.exact + 1e-9);
  const byRemainder = [...items].sort((a, b) => rem(b) - rem(a) || b.weight - a.weight || a.index - b.index);
  while (left > 0 && byRemainder.length > 0) {
    for (const it of byRemainder) {
      if (left <= 0) break;
      it.contribution += 1;
      left--;
    }
  }
  while (left < 0) {
    let changed = false;
    for (let i = byRemainder.length - 1; i >= 0 && left < 0; i--) {
      const it = byRemainder[i];
      if (it && it.contribution > 0) {
        it.contribution -= 1;
        left++;
        changed = true;
      }
    }
    if (!changed) break;
  }
  return {
    score,
    base: Math.round(base * 100) / 100,
    threat_penalty: threatPenalty,
    total: Math.round(total * 100) / 100,
    floor,
    band,
    items,
  };
}
