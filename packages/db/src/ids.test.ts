import { newId } from './ids';

describe('newId', () => {
  it('is prefixed, 26 base32 chars, and strictly increasing even within one millisecond', () => {
    const now = Date.now();
    const ids = Array.from({ length: 1000 }, () => newId('sig', now));
    for (const id of ids) expect(id).toMatch(/^sig_[0-9a-hjkmnp-tv-z]{26}$/);
    const sorted = [...ids].sort();
    expect(sorted).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('sorts by creation time across milliseconds', () => {
    const a = newId('evt', 1_700_000_000_000);
    const b = newId('evt', 1_700_000_000_001);
    expect(a < b).toBe(true);
  });
});
