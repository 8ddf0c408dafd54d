// The list table every page shows (docs/console-pages.md): a scrollable wrapper, a header row of column labels
// (`num` columns right-aligned; the actions column labelled for screen readers only), one row per item; and
// PagedTable, the same table inside the loading / error / empty states with the Pager under it.
import type { ReactNode } from 'react';
import type { PagedSource } from '../app/use-paged';
import { Pager } from './pager';
import { ScrollArea } from './scroll-area';
import { Async, Empty } from './states';

export interface Column {
  label: ReactNode;
  num?: boolean;
}

/** The last column of a table whose rows end with buttons (Revoke, Suspend…). */
export const ACTIONS_COLUMN: Column = { label: <span className="visually-hidden">Actions</span> };

export function DataTable<T>(props: {
  /** read by screen readers only */
  caption?: string;
  columns: readonly (Column | string)[];
  items: readonly T[];
  keyOf: (item: T) => string;
  /** the row's cells (`<td>`s) */
  row: (item: T) => ReactNode;
  /** `data-*` attributes of the row (the browser tests find rows by them) */
  rowData?: (item: T) => Record<`data-${string}`, string>;
}) {
  return (
    <ScrollArea label={props.caption}>
      <table>
        {props.caption ? <caption className="visually-hidden">{props.caption}</caption> : null}
        <thead>
          <tr>
            {props.columns.map((c, i) => {
              const col = typeof c === 'string' ? { label: c } : c;
              return (
                <th key={i} scope="col" className={col.num ? 'num' : undefined}>
                  {col.label}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>
          {props.items.map((item) => (
            <tr key={props.keyOf(item)} {...props.rowData?.(item)}>
              {props.row(item)}
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollArea>
  );
}

/** A cursor-paged list (app/use-paged.ts) as a table: loading / error, the empty text, or the rows and the Pager. */
export function PagedTable<T extends { id: string }>(props: {
  list: PagedSource<T>;
  empty: ReactNode;
  columns: readonly (Column | string)[];
  row: (item: T) => ReactNode;
}) {
  const { list } = props;
  return (
    <Async state={list.state}>
      {(page) =>
        page.data.length === 0 ? (
          <Empty>{props.empty}</Empty>
        ) : (
          <>
            <DataTable columns={props.columns} items={page.data} keyOf={idOf} row={props.row} />
            {list.pageState ? <Pager page={page} state={list.pageState} idOf={idOf} onCursor={list.setCursor} /> : null}
          </>
        )
      }
    </Async>
  );
}

function idOf(item: { id: string }): string {
  return item.id;
}
