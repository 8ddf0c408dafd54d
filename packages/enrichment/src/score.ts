import type { FindingDraft } from './types';

export const SCORE_FORMULA =
  'base = max(floor, 100*(1 - prod(1 - w_i/100))) over rule findings (w_i = severity weight x confidence); floor = 90 if a critical finding has confidence >= 0.9, 70 if a high one does, else 0; total = min(100, base + sum(threat risk_penalty)); score = round(total)';

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
  items: ScoreItem[];
}

const clampW = (w: number): number => (Number.isFinite(w) ? Math.round(Math.min(100, Math.max(0, w)) * 100) / 100 : 0);

/**
 * Deterministic score. Findings with rule_id 'threat_match' are additive penalties; every other finding enters the
 * probabilistic OR. Each item's exact marginal contribution is computed in weight order (ties by rule id, then input
 * order), scaled for floors and the cap, then rounded with the largest-remainder method so integer contributions sum
 * exactly to the integer score.
 */
export function computeScore(
  findings: ReadonlyArray<Pick<FindingDraft, 'rule_id' | 'weight' | 'severity' | 'confidence' | 'threat_ids'>>,
): ScoreResult {
  const order = findings
    .map((f, index) => ({ f, index }))
    .sort(
      (a, b) =>
        b.f.weight - a.f.weight ||
        (a.f.rule_id < b.f.rule_id ? -1 : a.f.rule_id > b.f.rule_id ? 1 : 0) ||
        a.index - b.index,
    );
  let remaining = 1;
  let floor = 0;
  let threatPenalty = 0;
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
      item.exact = 100 * remaining * (w / 100);
      remaining *= 1 - w / 100;
      if (f.confidence >= 0.9 && w > 0) {
        if (f.severity === 'critical') floor = Math.max(floor, 90);
        else if (f.severity === 'high') floor = Math.max(floor, 70);
      }
    }
    items.push(item);
  }
  const raw = 100 * (1 - remaining);
  const base = Math.max(raw, floor);
  const total = Math.min(100, base + threatPenalty);
  const score = Math.round(total);
  // scale rule contributions up to the floor, then everything down to the cap
  const ruleScale = raw > 0 ? base / raw : 0;
  const capScale = base + threatPenalty > 0 ? total / (base + threatPenalty) : 0;
  for (const it of items) it.exact = (it.rule_id === 'threat_match' ? it.exact : it.exact * ruleScale) * capScale;
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
    items,
  };
}
