// A reorderable list (docs/console-pages.md "URL-filter policies"): drag a row by its handle, or with the keyboard
// focus the handle, Space to grab, ↑/↓ to move, Space to drop, Escape to cancel; every row also has Move up /
// Move down buttons. Each step is announced in a polite live region. The order is committed (onCommit) on a drop
// or a button press; while a commit runs, the list is read-only. The logic is lib/reorder.ts.
import { useEffect, useReducer, useState, type DragEvent, type KeyboardEvent, type ReactNode } from 'react';
import { initialReorder, keyAction, orderChanged, reorderReducer, type ReorderAction } from '../lib/reorder';

export interface ReorderListProps {
  /** the saved order */
  ids: string[];
  /** short name of an item for announcements and button labels */
  labelOf: (id: string) => string;
  renderItem: (id: string) => ReactNode;
  /** saves the new order; a rejection puts the saved order back */
  onCommit: (order: string[]) => Promise<void>;
  /** e.g. "Rules" */
  label: string;
}

export function ReorderList({ ids, labelOf, renderItem, onCommit, label }: ReorderListProps) {
  const [state, dispatch] = useReducer(
    (s: ReturnType<typeof initialReorder>, a: ReorderAction) => reorderReducer(s, a, labelOf),
    ids,
    initialReorder,
  );
  const [saving, setSaving] = useState(false);
  const [over, setOver] = useState<number | null>(null);
  const savedKey = ids.join('\n');
  useEffect(() => dispatch({ type: 'reset', order: savedKey === '' ? [] : savedKey.split('\n') }), [savedKey]);

  const commit = (order: string[]) => {
    if (!orderChanged(order, ids)) return;
    setSaving(true);
    onCommit(order)
      .catch(() => dispatch({ type: 'reset', order: ids }))
      .finally(() => setSaving(false));
  };
  const step = (action: ReorderAction) => {
    const next = reorderReducer(state, action, labelOf);
    dispatch(action);
    return next;
  };
  const onKey = (e: KeyboardEvent, id: string) => {
    const action = keyAction(e.key, id, state.grabbed);
    if (!action || saving) return;
    e.preventDefault();
    const next = step(action);
    if (action.type === 'drop') commit(next.order);
  };
  const onButton = (id: string, by: -1 | 1) => {
    if (saving) return;
    commit(step({ type: 'move', id, by }).order);
  };
  const onDragStart = (e: DragEvent, id: string) => {
    e.dataTransfer.effectAllowed = 'move';
    e.dataTransfer.setData('text/plain', id);
    dispatch({ type: 'grab', id });
  };
  const onDrop = (e: DragEvent, index: number) => {
    e.preventDefault();
    setOver(null);
    if (!state.grabbed) return;
    const moved = step({ type: 'moveTo', id: state.grabbed, index });
    dispatch({ type: 'drop' });
    commit(moved.order);
  };
  const onDragEnd = () => {
    setOver(null);
    if (state.grabbed) dispatch({ type: 'cancel' });
  };

  const total = state.order.length;
  return (
    <div className="reorder">
      <p id="reorder-help" className="muted">
        Drag a row by its handle, or focus the handle and press Space, then ↑ / ↓, then Space to drop (Escape cancels).
      </p>
      <ol className="reorder-list" aria-label={label} aria-busy={saving}>
        {state.order.map((id, index) => {
          const name = labelOf(id);
          const grabbed = state.grabbed === id;
          return (
            <li
              key={id}
              className={`reorder-row${grabbed ? ' grabbed' : ''}${over === index ? ' drop-target' : ''}`}
              data-id={id}
              onDragOver={(e) => {
                e.preventDefault();
                setOver(index);
              }}
              onDrop={(e) => onDrop(e, index)}
            >
              <button
                type="button"
                className="handle"
                draggable={!saving}
                aria-describedby="reorder-help"
                aria-pressed={grabbed}
                aria-label={`Reorder ${name}, position ${index + 1} of ${total}`}
                onKeyDown={(e) => onKey(e, id)}
                onDragStart={(e) => onDragStart(e, id)}
                onDragEnd={onDragEnd}
              >
                ⠿
              </button>
              <div className="reorder-body">{renderItem(id)}</div>
              <span className="reorder-buttons">
                <button
                  type="button"
                  disabled={saving || index === 0}
                  aria-label={`Move ${name} up`}
                  onClick={() => onButton(id, -1)}
                >
                  ↑
                </button>
                <button
                  type="button"
                  disabled={saving || index === total - 1}
                  aria-label={`Move ${name} down`}
                  onClick={() => onButton(id, 1)}
                >
                  ↓
                </button>
              </span>
            </li>
          );
        })}
      </ol>
      <p className="visually-hidden" role="status" aria-live="polite">
        {saving ? `Saving the new order… ${state.announcement}` : state.announcement}
      </p>
    </div>
  );
}
