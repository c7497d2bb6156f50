/**
 * The data view's body in large mode (a page of 500 rows or more, not grouped): antd's Table keeps
 * the header (sticky, sorting, resizing, select-all), the summary and the pager, and hands its
 * scrolling body to this component (rc-table's `components.body` as a function).
 *
 * Why not antd's own virtual body: per visible row it measures the row's height (a forced layout on
 * every scroll step) and draws each cell through rc-table's cell machinery (contexts, hover state,
 * an antd Checkbox per row); scrolling 1,000 rows spent most of its frames there. Here every row has
 * the view's fixed row height (no measuring), the rows in view plus 5 either side are drawn, a row
 * already drawn is not drawn again while it stays in view (memoised on its data, index, class and
 * check state), and cells are plain elements with antd's table classes (the same look, fixed
 * columns by the same sticky offsets). The selection cell is a plain checkbox (or radio) in antd's
 * markup: it toggles the row as antd's would, without the row's click.
 */
import {
  type CSSProperties,
  memo,
  type ReactNode,
  type Ref,
  type UIEvent,
  useCallback,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { rowWindow, type Side, stickies } from './large-body.ts';
import type { ViewRow } from './view-rows.ts';

export interface BodyColumn {
  key: string;
  /** The width antd's header gives the column (px). */
  width: number;
  fixed?: Side | undefined;
  ellipsis?: boolean | undefined;
  /** The cell's content; absent for the selection column. */
  render?: ((row: ViewRow, index: number) => ReactNode) | undefined;
}

export interface BodySelect {
  type: 'checkbox' | 'radio';
  selected: ReadonlySet<string>;
  /** These rows' check boxes were ticked (true) or cleared (false): one row, or a shift-click's range. */
  toggle(ids: readonly string[], on: boolean): void;
}

export interface LargeBodyProps {
  rows: readonly ViewRow[];
  /** In antd's column order, the selection column (key `__select`) first when rows are selectable. */
  columns: readonly BodyColumn[];
  /** rc-table's: its header narrows the last column by this much (the body's scroll bar). */
  scrollbarSize: number;
  rowHeight: number;
  /** The body's height when the rows overflow it (antd's `scroll.y`). */
  maxHeight: number;
  select?: BodySelect | undefined;
  rowClassName(row: ViewRow): string;
  onRowClick(row: ViewRow): void;
  empty: ReactNode;
  /** From rc-table: the scrolling element (it sets `scrollLeft` on it to follow the header). */
  scrollRef: Ref<unknown>;
  /** From rc-table: a sideways scroll, so the header follows. */
  onScroll(info: { currentTarget: HTMLElement; scrollLeft: number }): void;
}

export const SELECT_KEY = '__select';

interface CellLook {
  className: string;
  style: CSSProperties;
}

export function LargeBody(props: LargeBodyProps) {
  const { rows, rowHeight, maxHeight, scrollbarSize } = props;
  // The header's widths: the last column gives the scroll bar its room.
  const columns = useMemo(
    () =>
      props.columns.map((c, i, all) =>
        i === all.length - 1 && scrollbarSize ? { ...c, width: Math.max(0, c.width - scrollbarSize) } : c,
      ),
    [props.columns, scrollbarSize],
  );
  const holder = useRef<HTMLDivElement | null>(null);
  const scrollRef = props.scrollRef;
  const setHolder = useCallback(
    (el: HTMLDivElement | null) => {
      holder.current = el;
      if (typeof scrollRef === 'function') scrollRef(el);
      else if (scrollRef) (scrollRef as { current: unknown }).current = el;
    },
    [scrollRef],
  );
  const [win, setWin] = useState<[number, number]>(() => rowWindow(0, maxHeight, rowHeight, rows.length));
  const windowAt = useCallback(
    (el: HTMLElement) => rowWindow(el.scrollTop, el.clientHeight || maxHeight, rowHeight, rows.length),
    [maxHeight, rowHeight, rows.length],
  );
  // New rows, a new row height: the window follows the scroll position as it now is.
  useLayoutEffect(() => {
    const el = holder.current;
    if (!el) return;
    const next = windowAt(el);
    setWin((w) => (w[0] === next[0] && w[1] === next[1] ? w : next));
  }, [windowAt]);
  const left = useRef(0);
  const onScroll = (e: UIEvent<HTMLDivElement>) => {
    const el = e.currentTarget;
    if (el.scrollLeft !== left.current) {
      left.current = el.scrollLeft;
      props.onScroll({ currentTarget: el, scrollLeft: el.scrollLeft });
    }
    // Rendered as React schedules a scroll's update (not forced into this frame: forcing it made
    // every frame wait for the new rows' layout; the 5 rows either side cover a wheel step).
    const next = windowAt(el);
    if (next[0] !== win[0] || next[1] !== win[1]) setWin(next);
  };

  const width = columns.reduce((a, c) => a + c.width, 0);
  // Each column's classes and sticky placement, shared by its cells in every row.
  const looks = useMemo<CellLook[]>(() => {
    const stick = stickies(columns);
    return columns.map((c, i) => {
      const s = stick[i];
      const cls = ['ant-table-cell', 'dv-vcell'];
      if (c.key === SELECT_KEY) cls.push('ant-table-selection-column');
      if (c.ellipsis) cls.push('ant-table-cell-ellipsis');
      const style: CSSProperties = { width: c.width, flex: `0 0 ${c.width}px` };
      if (s) {
        const start = s.side === 'left';
        cls.push('ant-table-cell-fix', start ? 'ant-table-cell-fix-start' : 'ant-table-cell-fix-end');
        if (s.edge) cls.push(start ? 'ant-table-cell-fix-start-shadow' : 'ant-table-cell-fix-end-shadow');
        Object.assign(style, {
          [start ? 'insetInlineStart' : 'insetInlineEnd']: s.offset,
          '--z-offset-reverse': s.z,
        });
      }
      return { className: cls.join(' '), style };
    });
  }, [columns]);

  // What a row's clicks call, read when clicked: rows are not redrawn when these change. A shift-click
  // on a check box sets the rows from the last one clicked to this one, as antd's table does.
  const last = useRef<number | undefined>(undefined);
  const acts = useRef<BodyActs>({ click: props.onRowClick, toggle: () => {} });
  acts.current.click = props.onRowClick;
  const select = props.select;
  acts.current.toggle = (index, on, shift) => {
    if (!select) return;
    const from = last.current;
    last.current = index;
    const range = shift && select.type === 'checkbox' && from !== undefined && from !== index;
    const ids = range
      ? rows.slice(Math.min(from, index), Math.max(from, index) + 1).map((r) => r._id)
      : [rows[index]!._id];
    select.toggle(ids, on);
  };

  const drawn: ReactNode[] = [];
  for (let i = win[0]; i < win[1]; i++) {
    const row = rows[i];
    if (!row) break;
    drawn.push(
      <BodyRow
        key={row._id}
        row={row}
        index={i}
        top={i * rowHeight}
        height={rowHeight}
        width={width}
        columns={columns}
        looks={looks}
        className={props.rowClassName(row)}
        check={props.select?.type}
        checked={props.select?.selected.has(row._id) ?? false}
        acts={acts}
      />,
    );
  }

  return (
    // antd's virtual body classes: its cell borders and row layout apply as to its own virtual rows.
    <div className="ant-table-tbody-virtual dv-vbody-wrap">
      <div
        ref={setHolder}
        className="ant-table-tbody-virtual-holder dv-vbody"
        style={{ maxHeight, overflowY: 'scroll', overflowX: 'auto' }}
        onScroll={onScroll}
        data-testid="view-large-body"
      >
        {rows.length ? (
          <div
            className="ant-table-tbody ant-table-tbody-virtual-holder-inner dv-vbody-inner"
            style={{ height: rows.length * rowHeight, width }}
          >
            {drawn}
          </div>
        ) : (
          <div className="ant-table-placeholder dv-vempty" style={{ width }}>
            {props.empty}
          </div>
        )}
      </div>
    </div>
  );
}

interface BodyRowProps {
  row: ViewRow;
  index: number;
  top: number;
  height: number;
  width: number;
  columns: readonly BodyColumn[];
  looks: readonly CellLook[];
  className: string;
  check: BodySelect['type'] | undefined;
  checked: boolean;
  acts: { current: BodyActs };
}

interface BodyActs {
  click(row: ViewRow): void;
  toggle(index: number, on: boolean, shift: boolean): void;
}

const BodyRow = memo(function BodyRow(p: BodyRowProps) {
  const { row, checked } = p;
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions lint/a11y/useKeyWithClickEvents: a row opens its detail on click, as antd's rows do
    <div
      className={`ant-table-row dv-vrow${checked ? ' ant-table-row-selected' : ''}${p.className ? ` ${p.className}` : ''}`}
      data-row-key={row._id}
      style={{ top: p.top, height: p.height, width: p.width }}
      onClick={() => p.acts.current.click(row)}
    >
      {p.columns.map((c, i) => {
        const look = p.looks[i]!;
        if (c.key === SELECT_KEY)
          return (
            <div key={c.key} className={look.className} style={look.style}>
              {p.check ? (
                <Check
                  type={p.check}
                  checked={checked}
                  onChange={(on, shift) => p.acts.current.toggle(p.index, on, shift)}
                />
              ) : null}
            </div>
          );
        return (
          <div key={c.key} className={look.className} style={look.style}>
            {c.render?.(row, p.index)}
          </div>
        );
      })}
    </div>
  );
});

/** antd's Checkbox / Radio markup (so its styles apply) as plain elements. */
function Check(props: {
  type: 'checkbox' | 'radio';
  checked: boolean;
  onChange(on: boolean, shift: boolean): void;
}) {
  const k = props.type === 'radio' ? 'ant-radio' : 'ant-checkbox';
  const on = props.checked ? ` ${k}-checked` : '';
  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: only keeps the click from the row (the input takes the keys)
    <label className={`${k}-wrapper${props.checked ? ` ${k}-wrapper-checked` : ''}`} onClick={stop}>
      <span className={`${k}${on}`}>
        <input
          type={props.type}
          className={`${k}-input`}
          checked={props.checked}
          // React reports a check box's change from its click: the click says whether shift was down.
          onChange={(e) => props.onChange(e.target.checked, (e.nativeEvent as MouseEvent).shiftKey === true)}
        />
      </span>
    </label>
  );
}

// The check box's click selects the row; it does not open the row as a click elsewhere on it does.
const stop = (e: { stopPropagation(): void }) => e.stopPropagation();
