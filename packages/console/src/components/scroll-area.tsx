// A wide table's own horizontal scroller (docs/console.md "Phone width"): the page never scrolls sideways, the
// table does. While its content is wider than it (a phone, a long row), the scroller is a focusable, named region
// so keyboard users can scroll it with the arrow keys (axe-core: scrollable-region-focusable); otherwise it is a
// plain wrapper and adds no tab stop.
import { useEffect, useRef, useState, type ReactNode } from 'react';

export function ScrollArea({ label, children }: { label?: string; children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  const [scrolls, setScrolls] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const measure = () => setScrolls(el.scrollWidth > el.clientWidth + 1);
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    if (el.firstElementChild) observer.observe(el.firstElementChild);
    measure();
    return () => observer.disconnect();
  }, []);
  return (
    <div
      ref={ref}
      className="table-wrap"
      {...(scrolls ? { tabIndex: 0, role: 'region', 'aria-label': `${label ?? 'Table'} (scrolls sideways)` } : {})}
    >
      {children}
    </div>
  );
}
