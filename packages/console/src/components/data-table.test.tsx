// The shared list table as rendered (react-dom/server): the header cells the pages used to write by hand (scope,
// `num` alignment, the screen-reader-only actions column, the caption), row data attributes the browser tests
// select by, and PagedTable's states: the empty text, the rows with the Pager, the error with Retry.
import { renderToStaticMarkup } from 'react-dom/server';
import type { PagedSource } from '../app/use-paged';
import { ACTIONS_COLUMN, DataTable, PagedTable } from './data-table';

interface Item {
  id: string;
  name: string;
}
const items: Item[] = [
  { id: 'a', name: 'first <b>' },
  { id: 'b', name: 'second' },
];
const row = (i: Item) => <td>{i.name}</td>;

function source(state: PagedSource<Item>['state'], hasMore = false): PagedSource<Item> {
  return {
    state,
    setCursor: () => undefined,
    pageState: state.status === 'ready' ? { cursor: {}, hasPrevious: false, hasNext: hasMore } : null,
  };
}

describe('DataTable', () => {
  const html = renderToStaticMarkup(
    <DataTable
      caption="Things"
      columns={['Name', { label: 'Count', num: true }, ACTIONS_COLUMN]}
      items={items}
      keyOf={(i) => i.id}
      rowData={(i) => ({ 'data-thing': i.id })}
      row={row}
    />,
  );

  it('header cells are column headers; num columns right-aligned; the actions column named for screen readers', () => {
    expect(html).toContain('<div class="table-wrap"><table><caption class="visually-hidden">Things</caption>');
    expect(html).toContain(
      '<th scope="col">Name</th><th scope="col" class="num">Count</th>' +
        '<th scope="col"><span class="visually-hidden">Actions</span></th>',
    );
  });

  it('one row per item in order with its data attribute; values are text, never markup', () => {
    expect([...html.matchAll(/data-thing="(\w)"/g)].map((m) => m[1])).toEqual(['a', 'b']);
    expect(html).toContain('<td>first &lt;b&gt;</td>');
  });
});

describe('PagedTable', () => {
  const reload = () => undefined;
  const render = (list: PagedSource<Item>) =>
    renderToStaticMarkup(<PagedTable list={list} empty="Nothing yet." columns={['Name']} row={row} />);

  it('an empty page shows the empty text and no table', () => {
    const html = render(source({ status: 'ready', data: { data: [], has_more: false }, reload }));
    expect(html).toBe('<p class="state empty">Nothing yet.</p>');
  });

  it('a page shows the rows and the Pager, Older enabled only when there is more', () => {
    const html = render(source({ status: 'ready', data: { data: items, has_more: true }, reload }, true));
    expect(html).toContain('<td>second</td>');
    expect(html).toContain('<nav class="pager" aria-label="Pages">');
    expect(html).toMatch(/<button type="button" disabled="">← Newer<\/button><button type="button">Older →<\/button>/);
  });

  it('an error shows the alert with Retry', () => {
    const html = render(source({ status: 'error', error: new Error('boom'), reload }));
    expect(html).toContain('role="alert"');
    expect(html).toContain('boom');
    expect(html).toContain('Retry');
  });
});
