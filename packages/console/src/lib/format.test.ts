import { formatAbsolute, formatNumber, formatRelative } from './format';

const NOW = Date.UTC(2026, 10, 24, 12, 0, 0);

describe('formatNumber', () => {
  it('groups thousands and shows a dash for missing values', () => {
    expect(formatNumber(1234567)).toBe('1,234,567');
    expect(formatNumber(0)).toBe('0');
    expect(formatNumber(null)).toBe('—');
    expect(formatNumber(Number.NaN)).toBe('—');
  });
});

describe('formatRelative', () => {
  it('picks the largest whole unit, past and future, from Unix seconds or ISO strings', () => {
    expect(formatRelative(NOW / 1000 - 5, NOW)).toBe('now');
    expect(formatRelative(NOW / 1000 - 90, NOW)).toBe('1 minute ago');
    expect(formatRelative(NOW / 1000 - 3 * 3600, NOW)).toBe('3 hours ago');
    expect(formatRelative(new Date(NOW - 2 * 86400_000).toISOString(), NOW)).toBe('2 days ago');
    expect(formatRelative(NOW / 1000 + 7200, NOW)).toBe('in 2 hours');
  });
  it('shows a dash for an unreadable time', () => {
    expect(formatRelative('not a date', NOW)).toBe('—');
    expect(formatAbsolute('not a date')).toBe('—');
  });
  it('gives the absolute UTC time for the hover title', () => {
    expect(formatAbsolute(NOW / 1000)).toBe('2026-11-24T12:00:00Z');
  });
});
