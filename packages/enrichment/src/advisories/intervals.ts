// OSV range events → intervals in one version order (docs/advisories.md "Matching"), following the OSV schema's
// evaluation: events sorted by version, `introduced: "0"` below every version, `fixed` exclusive, `last_affected`
// inclusive, `limit` ignored (it only bounds git history).
import type { OsvRange } from './osv';
import type { VersionOrder } from './order';

export interface Interval {
  /** null: from the first version (`introduced: "0"`) */
  from: string | null;
  /** null: no fix known */
  to: string | null;
  /** true when `to` is a `last_affected` (inclusive) */
  inclusive: boolean;
}

type Ev = { kind: 'introduced' | 'fixed' | 'last_affected'; v: string | null };

export function rangeIntervals(range: OsvRange, order: VersionOrder): Interval[] {
  const evs: Ev[] = [];
  for (const e of range.events) {
    if (e.introduced !== undefined) {
      const v = e.introduced === '0' ? null : order.parse(e.introduced);
      if (v !== null || e.introduced === '0') evs.push({ kind: 'introduced', v });
    } else if (e.fixed !== undefined) {
      const v = order.parse(e.fixed);
      if (v !== null) evs.push({ kind: 'fixed', v });
    } else if (e.last_affected !== undefined) {
      const v = order.parse(e.last_affected);
      if (v !== null) evs.push({ kind: 'last_affected', v });
    }
  }
  evs.sort((a, b) => (a.v === null ? (b.v === null ? 0 : -1) : b.v === null ? 1 : order.compare(a.v, b.v)));
  const out: Interval[] = [];
  let open: Interval | null = null;
  for (const e of evs) {
    if (e.kind === 'introduced') {
      if (!open) open = { from: e.v, to: null, inclusive: false };
    } else if (open) {
      out.push({ ...open, to: e.v, inclusive: e.kind === 'last_affected' });
      open = null;
    }
  }
  if (open) out.push(open);
  return out;
}

export function inInterval(v: string, i: Interval, order: VersionOrder): boolean {
  if (i.from !== null && order.compare(v, i.from) < 0) return false;
  if (i.to === null) return true;
  const c = order.compare(v, i.to);
  return i.inclusive ? c <= 0 : c < 0;
}

/** `>=1.0, <2.0`-style text of an interval, for descriptions and evidence. */
export function intervalText(i: Interval): string {
  const parts: string[] = [];
  if (i.from !== null) parts.push(`>=${i.from}`);
  if (i.to !== null) parts.push(`${i.inclusive ? '<=' : '<'}${i.to}`);
  return parts.length ? parts.join(' ') : '*';
}
