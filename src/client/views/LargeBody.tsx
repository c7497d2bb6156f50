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
 * columns by the same sticky offsets, the same edge shadow once scrolled sideways). Sideways, only
 * the columns near the view are drawn (with every fixed one): of 20 fields at 160 px, a desktop shows
 * about 7; the others are one empty gap each. The selection cell is a plain checkbox (or radio) in
 * antd's markup: it toggles the row as antd's would, without the row's click.
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
import { flushSync } from 'react-dom';
import { columnWindow, edgeShadows, rowSlots, rowWindow, type Side, stickies } from './large-body.ts';
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
  const width = columns.reduce((a, c) => a + c.width, 0);
  const sticks = useMemo(() => stickies(columns), [columns]);
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
  // The body's inner size, measured when it is laid out (mount, resize), never while it scrolls.
  // Until then the window's width stands for it (wider: every column that shows is drawn).
  const size = useRef({ width: globalThis.innerWidth || 0, height: maxHeight });
  const [win, setWin] = useState<[number, number]>(() => rowWindow(0, maxHeight, rowHeight, rows.length));
  const [xwin, setXwin] = useState<[number, number]>(() =>
    columnWindow(
      columns.map((c) => c.width),
      0,
      size.current.width,
    ),
  );
  const [shadowKey, setShadowKey] = useState('');
  // What was last asked of React: a scroll step that changes none of it renders nothing.
  const asked = useRef({ win, xwin, shadowKey });
  // Where the body is scrolled to: the rows, the columns and the edge shadows that go with it (the
  // sideways ones only when `sideways`: a scroll down does not move them); `now` outside React's
  // commit (a scroll, a resize), where new columns must be drawn before the coming paint.
  const follow = useCallback(
    (top: number, left: number, sideways: boolean, now = false) => {
      const { width: w, height: h } = size.current;
      const a = asked.current;
      const next = rowWindow(top, h, rowHeight, rows.length);
      if (next[0] !== a.win[0] || next[1] !== a.win[1]) {
        a.win = next;
        setWin(next);
      }
      if (!sideways) return;
      const x = columnWindow(
        columns.map((c) => c.width),
        left,
        w,
      );
      const shown = edgeShadows(columns, sticks, left, Math.max(0, width - w))
        .map((on) => (on ? 1 : 0))
        .join('');
      const moved = x[0] !== a.xwin[0] || x[1] !== a.xwin[1];
      if (!moved && shown === a.shadowKey) return;
      a.xwin = x;
      a.shadowKey = shown;
      const apply = () => {
        setXwin(x);
        setShadowKey(shown);
      };
      // Columns come into view without overscan: a sideways scroll draws them before its frame
      // paints (else the frame shows an empty strip where they go).
      if (now && moved) flushSync(apply);
      else apply();
    },
    [rowHeight, rows.length, columns, sticks, width],
  );
  const followRef = useRef(follow);
  followRef.current = follow;
  useLayoutEffect(() => {
    const el = holder.current;
    if (!el) return;
    const measure = () => {
      const { clientWidth, clientHeight } = el;
      const s = size.current;
      if (clientWidth === s.width && (clientHeight || maxHeight) === s.height) return false;
      size.current = { width: clientWidth, height: clientHeight || maxHeight };
      return true;
    };
    if (measure()) followRef.current(el.scrollTop, el.scrollLeft, true);
    // Told after a layout, before its paint: the columns a wider body shows are drawn for that paint.
    const watch = new ResizeObserver(() => {
      if (measure()) followRef.current(el.scrollTop, el.scrollLeft, true, true);
    });
    watch.observe(el);
    return () => watch.disconnect();
  }, [maxHeight]);
  // New rows, columns or row height: the windows follow the scroll position as it now is.
  useLayoutEffect(() => {
    const el = holder.current;
    if (el) follow(el.scrollTop, el.scrollLeft, true);
  }, [follow]);
  const left = useRef(0);
  const onScroll = (e: UIEvent<HTMLDivElement>) => {
    const el = e.currentTarget;
    const scrollLeft = el.scrollLeft;
    const sideways = scrollLeft !== left.current;
    if (sideways) {
      left.current = scrollLeft;
      props.onScroll({ currentTarget: el, scrollLeft });
    }
    // Rendered as React schedules a scroll's update (not forced into this frame: forcing it made
    // every frame wait for the new rows' layout; the 5 rows either side cover a wheel step). Nothing
    // renders while the rows and columns in view stay the same.
    follow(el.scrollTop, scrollLeft, sideways, true);
  };

  // Each column's classes and sticky placement, shared by its cells in every row.
  const looks = useMemo<CellLook[]>(() => {
    return columns.map((c, i) => {
      const s = sticks[i];
      const cls = ['ant-table-cell', 'dv-vcell'];
      if (c.key === SELECT_KEY) cls.push('ant-table-selection-column');
      if (c.ellipsis) cls.push('ant-table-cell-ellipsis');
      const style: CSSProperties = { width: c.width, flex: `0 0 ${c.width}px` };
      if (s) {
        const start = s.side === 'left';
        cls.push('ant-table-cell-fix', start ? 'ant-table-cell-fix-start' : 'ant-table-cell-fix-end');
        if (s.edge) {
          const shadow = start ? 'ant-table-cell-fix-start-shadow' : 'ant-table-cell-fix-end-shadow';
          cls.push(shadow);
          // antd's scroll shadow on the pinned columns' inner edge, as its own cells show it.
          if (shadowKey[i] === '1') cls.push(`${shadow}-show`);
        }
        Object.assign(style, {
          [start ? 'insetInlineStart' : 'insetInlineEnd']: s.offset,
          '--z-offset-reverse': s.z,
        });
      }
      return { className: cls.join(' '), style };
    });
  }, [columns, sticks, shadowKey]);
  // The cells a row draws (the columns near the view and the fixed ones) and the gaps between them.
  const slots = useMemo<RowSlot[]>(
    () =>
      rowSlots(columns, xwin).map((s, i) =>
        typeof s === 'number' ? s : { key: `gap${i}`, style: { flex: `0 0 ${s.gap}px` } },
      ),
    [columns, xwin],
  );

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
        slots={slots}
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

/** A column's cell (its index) or the room of the columns not drawn before the next cell. */
type RowSlot = number | { key: string; style: CSSProperties };

interface BodyRowProps {
  row: ViewRow;
  index: number;
  top: number;
  height: number;
  width: number;
  columns: readonly BodyColumn[];
  looks: readonly CellLook[];
  slots: readonly RowSlot[];
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
      {p.slots.map((slot) => {
        if (typeof slot !== 'number') return <div key={slot.key} style={slot.style} />;
        const c = p.columns[slot]!;
        const look = p.looks[slot]!;
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
