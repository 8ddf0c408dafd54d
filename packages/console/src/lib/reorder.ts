// The rule list's reorder logic (docs/console-pages.md "URL-filter policies"): one pure state machine behind both the
// pointer (drag and drop) and the keyboard (grab with Space, move with the arrows, drop with Space, cancel with
// Escape; or the Move up / Move down buttons). Every step yields the sentence the live region announces.
export interface ReorderState {
  /** ids in their current (possibly unsaved) order */
  order: string[];
  /** the id picked up with the keyboard or the pointer, null when none */
  grabbed: string | null;
  /** the order when the item was grabbed (Escape restores it) */
  before: string[] | null;
  /** the last announcement for the live region */
  announcement: string;
}

export type ReorderAction =
  | { type: 'reset'; order: string[] }
  | { type: 'grab'; id: string }
  | { type: 'move'; id: string; by: -1 | 1 }
  | { type: 'moveTo'; id: string; index: number }
  | { type: 'drop' }
  | { type: 'cancel' };

export function initialReorder(order: string[]): ReorderState {
  return { order: [...order], grabbed: null, before: null, announcement: '' };
}

/** The list with the item at `from` moved to `to` (both clamped); a new array, the input untouched. */
export function moveItem<T>(list: readonly T[], from: number, to: number): T[] {
  const out = [...list];
  if (from < 0 || from >= out.length) return out;
  const target = Math.max(0, Math.min(out.length - 1, to));
  const [item] = out.splice(from, 1);
  out.splice(target, 0, item as T);
  return out;
}

/** True when the two orders differ (what the Save step sends only then). */
export function orderChanged(a: readonly string[], b: readonly string[]): boolean {
  return a.length !== b.length || a.some((id, i) => id !== b[i]);
}

export function reorderReducer(
  state: ReorderState,
  action: ReorderAction,
  labelOf: (id: string) => string = (id) => id,
): ReorderState {
  const total = state.order.length;
  const position = (order: string[], id: string) => `position ${order.indexOf(id) + 1} of ${total}`;
  switch (action.type) {
    case 'reset':
      return initialReorder(action.order);
    case 'grab': {
      if (!state.order.includes(action.id)) return state;
      const announcement = `${labelOf(action.id)} grabbed, ${position(state.order, action.id)}. Use the arrow keys to move, Space to drop, Escape to cancel.`;
      return { ...state, grabbed: action.id, before: [...state.order], announcement };
    }
    case 'move':
    case 'moveTo': {
      const from = state.order.indexOf(action.id);
      if (from < 0) return state;
      const to = action.type === 'move' ? from + action.by : action.index;
      if (to < 0 || to >= total || to === from)
        return {
          ...state,
          announcement: `${labelOf(action.id)} cannot move further, ${position(state.order, action.id)}.`,
        };
      const order = moveItem(state.order, from, to);
      return { ...state, order, announcement: `${labelOf(action.id)} moved to ${position(order, action.id)}.` };
    }
    case 'drop': {
      if (!state.grabbed) return state;
      const announcement = `${labelOf(state.grabbed)} dropped at ${position(state.order, state.grabbed)}.`;
      return { ...state, grabbed: null, before: null, announcement };
    }
    case 'cancel': {
      if (!state.grabbed || !state.before) return state;
      const announcement = `Move cancelled; ${labelOf(state.grabbed)} is back at ${position(state.before, state.grabbed)}.`;
      return { order: state.before, grabbed: null, before: null, announcement };
    }
  }
}

/** What a key press on a row's handle does, or null when the key is not ours (the browser keeps it). */
export function keyAction(key: string, id: string, grabbed: string | null): ReorderAction | null {
  if (key === ' ' || key === 'Enter') return grabbed === id ? { type: 'drop' } : { type: 'grab', id };
  if (grabbed !== id) return null;
  if (key === 'ArrowUp') return { type: 'move', id, by: -1 };
  if (key === 'ArrowDown') return { type: 'move', id, by: 1 };
  if (key === 'Escape') return { type: 'cancel' };
  return null;
}
