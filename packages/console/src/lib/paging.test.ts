import { nextCursor, pageState, previousCursor } from './paging';

const page = (ids: string[], has_more: boolean) => ({ data: ids.map((id) => ({ id })), has_more });
const idOf = (x: { id: string }) => x.id;

describe('cursor paging', () => {
  it('first page: older pages when has_more, no newer page', () => {
    expect(pageState({}, page(['c', 'b'], true))).toMatchObject({ hasNext: true, hasPrevious: false });
    expect(nextCursor(page(['c', 'b'], true), idOf)).toEqual({ starting_after: 'b' });
  });
  it('a page reached with starting_after can go back', () => {
    expect(pageState({ starting_after: 'b' }, page(['a'], false))).toMatchObject({ hasNext: false, hasPrevious: true });
    expect(previousCursor(page(['a'], false), idOf)).toEqual({ ending_before: 'a' });
  });
  it('a page reached with ending_before: has_more means newer items exist', () => {
    expect(pageState({ ending_before: 'a' }, page(['c', 'b'], false))).toMatchObject({
      hasNext: true,
      hasPrevious: false,
    });
    expect(pageState({ ending_before: 'a' }, page(['c', 'b'], true))).toMatchObject({ hasPrevious: true });
  });
  it('an empty page offers no cursor', () => {
    expect(nextCursor(page([], false), idOf)).toBeNull();
    expect(previousCursor(page([], false), idOf)).toBeNull();
  });
});
