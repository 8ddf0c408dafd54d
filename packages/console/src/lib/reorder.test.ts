import { initialReorder, keyAction, moveItem, orderChanged, reorderReducer, type ReorderAction } from './reorder';

const label = (id: string) => `rule ${id}`;
const run = (order: string[], actions: ReorderAction[]) =>
  actions.reduce((s, a) => reorderReducer(s, a, label), initialReorder(order));

describe('moveItem', () => {
  it('moves an item and leaves the input untouched', () => {
    const list = ['a', 'b', 'c', 'd'];
    expect(moveItem(list, 0, 2)).toEqual(['b', 'c', 'a', 'd']);
    expect(moveItem(list, 3, 0)).toEqual(['d', 'a', 'b', 'c']);
    expect(list).toEqual(['a', 'b', 'c', 'd']);
  });
  it('clamps the target and ignores an unknown source', () => {
    expect(moveItem(['a', 'b'], 0, 99)).toEqual(['b', 'a']);
    expect(moveItem(['a', 'b'], 5, 0)).toEqual(['a', 'b']);
  });
});

describe('reorderReducer (keyboard)', () => {
  it('grab, move down twice, drop: the new order and what is announced', () => {
    const grabbed = run(['a', 'b', 'c'], [{ type: 'grab', id: 'a' }]);
    expect(grabbed.grabbed).toBe('a');
    expect(grabbed.announcement).toMatch(/^rule a grabbed, position 1 of 3\./);
    const moved = run(
      ['a', 'b', 'c'],
      [
        { type: 'grab', id: 'a' },
        { type: 'move', id: 'a', by: 1 },
      ],
    );
    expect(moved.order).toEqual(['b', 'a', 'c']);
    expect(moved.announcement).toBe('rule a moved to position 2 of 3.');
    const dropped = reorderReducer(
      reorderReducer(moved, { type: 'move', id: 'a', by: 1 }, label),
      { type: 'drop' },
      label,
    );
    expect(dropped.order).toEqual(['b', 'c', 'a']);
    expect(dropped.grabbed).toBeNull();
    expect(dropped.announcement).toBe('rule a dropped at position 3 of 3.');
  });

  it('Escape puts the order back as it was when grabbed', () => {
    const s = run(
      ['a', 'b', 'c'],
      [
        { type: 'grab', id: 'c' },
        { type: 'move', id: 'c', by: -1 },
        { type: 'move', id: 'c', by: -1 },
        { type: 'cancel' },
      ],
    );
    expect(s.order).toEqual(['a', 'b', 'c']);
    expect(s.grabbed).toBeNull();
    expect(s.announcement).toBe('Move cancelled; rule c is back at position 3 of 3.');
  });

  it('a move past either end changes nothing and says so', () => {
    const s = run(['a', 'b'], [{ type: 'move', id: 'a', by: -1 }]);
    expect(s.order).toEqual(['a', 'b']);
    expect(s.announcement).toBe('rule a cannot move further, position 1 of 2.');
  });

  it('unknown ids and a drop or cancel with nothing grabbed are no-ops', () => {
    const start = initialReorder(['a', 'b']);
    expect(reorderReducer(start, { type: 'grab', id: 'zz' })).toBe(start);
    expect(reorderReducer(start, { type: 'move', id: 'zz', by: 1 })).toBe(start);
    expect(reorderReducer(start, { type: 'drop' })).toBe(start);
    expect(reorderReducer(start, { type: 'cancel' })).toBe(start);
  });
});

describe('reorderReducer (pointer)', () => {
  it('moveTo places the dragged item at the drop row', () => {
    const s = run(
      ['a', 'b', 'c', 'd'],
      [{ type: 'grab', id: 'd' }, { type: 'moveTo', id: 'd', index: 1 }, { type: 'drop' }],
    );
    expect(s.order).toEqual(['a', 'd', 'b', 'c']);
    expect(s.announcement).toBe('rule d dropped at position 2 of 4.');
  });
  it('reset adopts the saved order (after a save or a reload)', () => {
    const s = run(
      ['a', 'b'],
      [
        { type: 'grab', id: 'a' },
        { type: 'reset', order: ['b', 'a', 'c'] },
      ],
    );
    expect(s).toEqual({ order: ['b', 'a', 'c'], grabbed: null, before: null, announcement: '' });
  });
});

describe('keyAction', () => {
  it('Space / Enter grab, then drop the grabbed row', () => {
    expect(keyAction(' ', 'a', null)).toEqual({ type: 'grab', id: 'a' });
    expect(keyAction('Enter', 'a', null)).toEqual({ type: 'grab', id: 'a' });
    expect(keyAction(' ', 'a', 'a')).toEqual({ type: 'drop' });
  });
  it('arrows and Escape act only on the grabbed row; other keys stay with the browser', () => {
    expect(keyAction('ArrowUp', 'a', 'a')).toEqual({ type: 'move', id: 'a', by: -1 });
    expect(keyAction('ArrowDown', 'a', 'a')).toEqual({ type: 'move', id: 'a', by: 1 });
    expect(keyAction('Escape', 'a', 'a')).toEqual({ type: 'cancel' });
    expect(keyAction('ArrowDown', 'a', null)).toBeNull();
    expect(keyAction('ArrowDown', 'b', 'a')).toBeNull();
    expect(keyAction('Tab', 'a', 'a')).toBeNull();
  });
});

describe('orderChanged', () => {
  it('compares orders', () => {
    expect(orderChanged(['a', 'b'], ['a', 'b'])).toBe(false);
    expect(orderChanged(['a', 'b'], ['b', 'a'])).toBe(true);
    expect(orderChanged(['a'], ['a', 'b'])).toBe(true);
  });
});
