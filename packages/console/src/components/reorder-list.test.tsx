// The reorder list as rendered (react-dom/server): every row's handle names the rule and its position and points
// at the instructions, the first row cannot move up nor the last down, and the live region is there (empty) to
// announce each step (the steps themselves: lib/reorder.test.ts; in a browser: test/console-pages.test.ts).
import { renderToStaticMarkup } from 'react-dom/server';
import { ReorderList } from './reorder-list';

const names: Record<string, string> = { a: 'allow chat', b: 'block <clones>', c: 'alert notebooks' };

function render(ids: string[]) {
  return renderToStaticMarkup(
    <ReorderList
      label="Rules in order"
      ids={ids}
      labelOf={(id) => names[id] ?? id}
      renderItem={(id) => <span className="item">{names[id]}</span>}
      onCommit={() => Promise.resolve()}
    />,
  );
}

describe('ReorderList markup', () => {
  const html = render(['a', 'b', 'c']);

  it('an ordered list named for screen readers, one row per id in order', () => {
    expect(html).toContain('<ol class="reorder-list" aria-label="Rules in order" aria-busy="false">');
    expect([...html.matchAll(/data-id="(\w)"/g)].map((m) => m[1])).toEqual(['a', 'b', 'c']);
  });

  it('each handle is a button naming the rule and its position, described by the instructions', () => {
    expect(html).toContain('aria-label="Reorder allow chat, position 1 of 3"');
    expect(html).toContain('aria-label="Reorder alert notebooks, position 3 of 3"');
    expect(html.match(/aria-describedby="reorder-help"/g)).toHaveLength(3);
    expect(html).toContain('id="reorder-help"');
    expect(html.match(/draggable="true"/g)).toHaveLength(3);
    expect(html.match(/aria-pressed="false"/g)).toHaveLength(3);
  });

  it('the first row cannot move up and the last cannot move down', () => {
    expect(html).toMatch(/<button type="button" disabled="" aria-label="Move allow chat up">/);
    expect(html).toMatch(/<button type="button" aria-label="Move allow chat down">/);
    expect(html).toMatch(/<button type="button" disabled="" aria-label="Move alert notebooks down">/);
  });

  it('names are text, never markup', () => {
    expect(html).toContain('block &lt;clones&gt;');
    expect(html).not.toContain('<clones>');
  });

  it('a polite live region waits for announcements', () => {
    expect(html).toMatch(/<p class="visually-hidden" role="status" aria-live="polite"><\/p>/);
  });

  it('a single rule can move nowhere', () => {
    const one = render(['a']);
    expect(one.match(/disabled=""/g)).toHaveLength(2);
  });
});
