import { cursorFrom, withParams } from './address';

describe('address', () => {
  it('reads the cursor, starting_after first', () => {
    expect(cursorFrom(new URLSearchParams(''))).toEqual({});
    expect(cursorFrom(new URLSearchParams('ending_before=b'))).toEqual({ ending_before: 'b' });
    expect(cursorFrom(new URLSearchParams('starting_after=a&ending_before=b'))).toEqual({ starting_after: 'a' });
  });
  it('a new cursor replaces the old one and keeps the filters', () => {
    const s = new URLSearchParams('severity=high&starting_after=thr_1');
    expect(withParams('/threats', s, { ending_before: 'thr_9' })).toBe('/threats?severity=high&ending_before=thr_9');
  });
  it('a filter change starts from the newest page; an emptied filter is removed', () => {
    const s = new URLSearchParams('severity=high&category=jailbreak&starting_after=thr_1');
    expect(withParams('/threats', s, { severity: 'low' })).toBe('/threats?severity=low&category=jailbreak');
    expect(withParams('/threats', s, { severity: null, category: '' })).toBe('/threats');
  });
  it('values are encoded, never spliced into the path', () => {
    expect(withParams('/threats', new URLSearchParams(), { q: 'a&b=c/#' })).toBe('/threats?q=a%26b%3Dc%2F%23');
  });
});
