// Number and time formatting for every page (docs/console.md "Pages"): numbers grouped per locale, times
// relative ("3 min ago") with the absolute ISO time for the hover title.
const numberFormat = new Intl.NumberFormat('en-US');
const relativeFormat = new Intl.RelativeTimeFormat('en-US', { numeric: 'auto' });

export function formatNumber(n: number | null | undefined): string {
  return n === null || n === undefined || !Number.isFinite(n) ? '—' : numberFormat.format(n);
}

const UNITS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
  ['second', 1],
];

/** Unix seconds, an ISO string or a Date → epoch milliseconds (NaN when unreadable). */
export function toMillis(value: number | string | Date): number {
  if (value instanceof Date) return value.getTime();
  if (typeof value === 'number') return value * 1000;
  return Date.parse(value);
}

/** "5 minutes ago", "in 2 hours", "now"; `now` in epoch ms (tests pass it). */
export function formatRelative(value: number | string | Date, now = Date.now()): string {
  const ms = toMillis(value);
  if (!Number.isFinite(ms)) return '—';
  const seconds = Math.round((ms - now) / 1000);
  const abs = Math.abs(seconds);
  if (abs < 10) return 'now';
  for (const [unit, size] of UNITS) {
    if (abs >= size) return relativeFormat.format(Math.trunc(seconds / size), unit);
  }
  return 'now';
}

export function formatAbsolute(value: number | string | Date): string {
  const ms = toMillis(value);
  return Number.isFinite(ms) ? new Date(ms).toISOString().replace('.000Z', 'Z') : '—';
}
