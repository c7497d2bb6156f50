import { Empty, Segmented, Spin } from 'antd';
import {
  type CSSProperties,
  type KeyboardEvent as ReactKeyboardEvent,
  type PointerEvent as ReactPointerEvent,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { bool, num, str } from '../../src/shared/props.ts';
import type { WidgetRenderProps } from '../define.ts';
import { cellText } from '../kit/table-columns.ts';
import { useDispatch, useRuntime, useWidgetData } from '../kit/widget-context.ts';
import {
  axisRange,
  axisTicks,
  DAY_PX,
  type DragMode,
  dayOf,
  dayText,
  dragDates,
  type GanttTask,
  ganttTasks,
  type Zoom,
} from './gantt.ts';

const TEXT = {
  zh: {
    setup: '选择数据表、任务名称和开始日期字段',
    empty: '暂无任务',
    failed: '保存失败',
    task: '任务',
    day: '日',
    week: '周',
    month: '月',
    hint: '左右方向键移动,Shift+方向键调整结束日期,Enter 打开',
  },
  en: {
    setup: 'Choose a table, a task title field and a start date field',
    empty: 'No tasks',
    failed: 'Save failed',
    task: 'Task',
    day: 'Day',
    week: 'Week',
    month: 'Month',
    hint: 'Arrow keys move, Shift+arrow keys change the end day, Enter opens',
  },
};

const HEADER = 32;

interface Drag {
  id: string;
  mode: DragMode;
  x: number;
  delta: number;
  moved: boolean;
}

/**
 * Tasks of a table as bars on a time axis (day, week or month scale) with arrows from each task's
 * predecessors. Dragging a bar moves it, dragging its edge changes its start or end; arrow keys do the
 * same on a focused bar. New dates are saved through the data API, and with `realtime` on everyone on
 * the page sees them at once.
 */
export function GanttWidget({ id, props }: WidgetRenderProps) {
  const rt = useRuntime();
  const data = useWidgetData(id);
  const dispatch = useDispatch(id);
  const t = TEXT[rt.lang] ?? TEXT.en;
  const entity = str(props.entity);
  const [titleField, startField, endField, progressField, depsField] = [
    str(props.titleField),
    str(props.startField),
    str(props.endField),
    str(props.progressField),
    str(props.dependencyField),
  ];
  const f = useMemo(
    () => ({ title: titleField, start: startField, end: endField, progress: progressField, deps: depsField }),
    [titleField, startField, endField, progressField, depsField],
  );
  const propZoom = str(props.zoom, 'day');
  const [zoom, setZoom] = useState<Zoom>(propZoom === 'week' || propZoom === 'month' ? propZoom : 'day');
  useEffect(() => setZoom(propZoom === 'week' || propZoom === 'month' ? propZoom : 'day'), [propZoom]);
  const rowH = Math.max(24, Math.min(80, num(props.rowHeight, 36)));
  const labelW = Math.max(80, Math.min(400, num(props.labelWidth, 180)));
  const color = str(props.barColor, '#1677ff') || '#1677ff';
  const canEdit = bool(props.draggable, true) && Boolean(rt.saveRecords) && Boolean(entity && f.start);

  // New dates show at once; the stored rows replace them when the reload after saving arrives.
  const [pending, setPending] = useState<Map<string, { start: number; end: number }> | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new load of rows ends the optimistic overlay
  useEffect(() => setPending(null), [data.rows]);

  const base = useMemo(
    () =>
      ganttTasks(data.rows, f, (row) => {
        const shown = f.title ? (row[`_${f.title}`] ?? row[f.title]) : undefined;
        return cellText(shown ?? row.__name ?? row._id) || cellText(row._id);
      }),
    [data.rows, f],
  );
  const tasks = useMemo(
    () => (pending ? base.map((k) => ({ ...k, ...(pending.get(k.id) ?? {}) })) : base),
    [base, pending],
  );
  const today = useMemo(() => dayOf(Date.now()) ?? 0, []);
  const { from, to } = useMemo(() => axisRange(tasks, zoom, today), [tasks, zoom, today]);
  const ticks = useMemo(() => axisTicks(from, to, zoom), [from, to, zoom]);
  const px = DAY_PX[zoom];
  const width = (to - from + 1) * px;

  // The drag in progress: the ref is what the pointer handlers read (events may come before a render).
  const [drag, setDragState] = useState<Drag | null>(null);
  const dragRef = useRef<Drag | null>(null);
  const setDrag = (d: Drag | null) => {
    dragRef.current = d;
    setDragState(d);
  };

  const save = (task: GanttTask, dates: { start: number; end: number }) => {
    if (!rt.saveRecords || (dates.start === task.start && dates.end === task.end)) return;
    setPending((p) => new Map(p ?? []).set(task.id, dates));
    const values: Record<string, unknown> = { [f.start]: dayText(dates.start) };
    if (f.end) values[f.end] = dayText(dates.end);
    dispatch('onDateChange', { record: task.row, start: dayText(dates.start), end: dayText(dates.end) });
    rt.saveRecords(entity, [{ id: task.id, values }]).catch((err: unknown) => {
      setPending(null);
      rt.notify?.('error', err instanceof Error ? err.message : String(err), t.failed);
    });
  };

  const onPointerDown = (e: ReactPointerEvent, task: GanttTask, mode: DragMode) => {
    if (e.button !== 0) return;
    e.stopPropagation();
    try {
      (e.currentTarget as Element).setPointerCapture?.(e.pointerId);
    } catch {
      // No capture (a synthetic event): moves still reach the chart while over it.
    }
    setDrag({ id: task.id, mode, x: e.clientX, delta: 0, moved: false });
  };
  const onPointerMove = (e: ReactPointerEvent) => {
    const d = dragRef.current;
    if (!d || !canEdit) return;
    const dx = e.clientX - d.x;
    const delta = Math.round(dx / px);
    if (delta !== d.delta || (!d.moved && Math.abs(dx) > 3))
      setDrag({ ...d, delta, moved: d.moved || Math.abs(dx) > 3 });
  };
  const onPointerUp = (task: GanttTask) => {
    const d = dragRef.current;
    setDrag(null);
    if (!d || d.id !== task.id) return;
    if (!d.moved) dispatch('onTaskClick', task.row);
    else if (canEdit && d.delta) save(task, dragDates(task, d.mode, d.delta));
  };
  const onKeyDown = (e: ReactKeyboardEvent, task: GanttTask) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      dispatch('onTaskClick', task.row);
      return;
    }
    const step = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0;
    if (!step || !canEdit) return;
    e.preventDefault();
    save(task, dragDates(task, e.shiftKey ? 'end' : 'move', step));
  };

  if (!entity || !f.start)
    return (
      <div className="lc-gantt lc-gantt-setup" style={{ padding: 16 }}>
        <Empty description={t.setup} />
      </div>
    );

  const rowOf = new Map(tasks.map((k, i) => [k.id, i]));
  const shown = (k: GanttTask) => (drag && drag.id === k.id ? dragDates(k, drag.mode, drag.delta) : k);
  const x0 = (day: number) => (day - from) * px;

  return (
    <div className="lc-gantt" data-gantt={id} style={rootStyle}>
      <div style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', padding: 4 }}>
        <span style={{ color: '#999', fontSize: 12 }}>{canEdit ? t.hint : ''}</span>
        <Segmented
          size="small"
          value={zoom}
          onChange={(v) => setZoom(v as Zoom)}
          options={[
            { value: 'day', label: t.day },
            { value: 'week', label: t.week },
            { value: 'month', label: t.month },
          ]}
        />
      </div>
      {data.loading && !data.rows.length && <Spin style={{ margin: 24 }} />}
      {!data.loading && !tasks.length && <Empty description={t.empty} />}
      {tasks.length > 0 && (
        <div
          style={{ display: 'flex', flex: 1, minHeight: 0, overflow: 'auto', border: '1px solid #f0f0f0' }}
        >
          <div
            style={{ flex: `0 0 ${labelW}px`, position: 'sticky', left: 0, zIndex: 2, background: '#fff' }}
          >
            <div style={{ ...headCell, height: HEADER }}>{t.task}</div>
            {tasks.map((k) => (
              <div
                key={k.id}
                className="lc-gantt-label"
                style={{ ...labelCell, height: rowH }}
                title={k.title}
              >
                {k.title}
              </div>
            ))}
          </div>
          <div
            style={{ position: 'relative', width, minWidth: width, height: HEADER + tasks.length * rowH }}
            onPointerMove={onPointerMove}
          >
            <div style={{ position: 'sticky', top: 0, height: HEADER, background: '#fafafa', zIndex: 1 }}>
              {ticks.map((tk) => (
                <span key={tk.day} style={{ ...tickLabel, left: x0(tk.day) }}>
                  {tk.label}
                </span>
              ))}
            </div>
            {ticks.map((tk) => (
              <div key={tk.day} style={{ ...gridLine, left: x0(tk.day), top: HEADER }} />
            ))}
            {today >= from && today <= to && (
              <div style={{ ...gridLine, left: x0(today) + px / 2, top: HEADER, background: '#ff4d4f' }} />
            )}
            <svg
              aria-hidden="true"
              width={width}
              height={tasks.length * rowH}
              style={{ position: 'absolute', left: 0, top: HEADER, pointerEvents: 'none' }}
            >
              <defs>
                <marker
                  id={`lc-gantt-arrow-${id}`}
                  markerWidth="8"
                  markerHeight="8"
                  refX="7"
                  refY="4"
                  orient="auto"
                >
                  <path d="M0,0 L8,4 L0,8 z" fill="#8c8c8c" />
                </marker>
              </defs>
              {tasks.flatMap((k, i) =>
                k.deps
                  .filter((d) => rowOf.has(d))
                  .map((d) => {
                    const j = rowOf.get(d) as number;
                    const pre = shown(tasks[j] as GanttTask);
                    const cur = shown(k);
                    const sx = x0(pre.end + 1);
                    const sy = j * rowH + rowH / 2;
                    const ex = x0(cur.start);
                    const ey = i * rowH + rowH / 2;
                    const mx = Math.max(sx + 8, Math.min(ex - 8, sx + 8));
                    return (
                      <path
                        key={`${d}>${k.id}`}
                        className="lc-gantt-link"
                        data-from={d}
                        data-to={k.id}
                        d={`M${sx},${sy} H${mx} V${ey} H${ex}`}
                        fill="none"
                        stroke="#8c8c8c"
                        strokeWidth={1.2}
                        markerEnd={`url(#lc-gantt-arrow-${id})`}
                      />
                    );
                  }),
              )}
            </svg>
            {tasks.map((k, i) => {
              const s = shown(k);
              const left = x0(s.start);
              const w = Math.max(px, (s.end - s.start + 1) * px);
              const label = `${k.title}: ${dayText(s.start)} – ${dayText(s.end)}`;
              return (
                <button
                  type="button"
                  key={k.id}
                  aria-label={label}
                  title={label}
                  className="lc-gantt-bar"
                  data-task={k.id}
                  data-start={dayText(s.start)}
                  data-end={dayText(s.end)}
                  onPointerDown={(e) => onPointerDown(e, k, 'move')}
                  onPointerUp={() => onPointerUp(k)}
                  onPointerCancel={() => setDrag(null)}
                  onKeyDown={(e) => onKeyDown(e, k)}
                  style={{
                    ...barStyle,
                    left,
                    width: w,
                    top: HEADER + i * rowH + 6,
                    height: rowH - 12,
                    background: `${color}55`,
                    borderColor: color,
                    cursor: canEdit ? (drag?.id === k.id ? 'grabbing' : 'grab') : 'pointer',
                    touchAction: canEdit ? 'none' : 'auto',
                  }}
                >
                  <div
                    style={{ width: `${k.progress}%`, height: '100%', background: color, borderRadius: 3 }}
                  />
                  <span style={barText}>{k.title}</span>
                  {canEdit && (
                    <>
                      <span
                        className="lc-gantt-handle"
                        data-edge="start"
                        style={{ ...handle, left: -2 }}
                        onPointerDown={(e) => onPointerDown(e, k, 'start')}
                      />
                      <span
                        className="lc-gantt-handle"
                        data-edge="end"
                        style={{ ...handle, right: -2 }}
                        onPointerDown={(e) => onPointerDown(e, k, 'end')}
                      />
                    </>
                  )}
                </button>
              );
            })}
          </div>
        </div>
      )}
    </div>
  );
}

const rootStyle: CSSProperties = {
  display: 'flex',
  flexDirection: 'column',
  height: '100%',
  background: '#fff',
};
const headCell: CSSProperties = {
  display: 'flex',
  alignItems: 'center',
  padding: '0 8px',
  fontWeight: 600,
  background: '#fafafa',
  borderBottom: '1px solid #f0f0f0',
  position: 'sticky',
  top: 0,
  zIndex: 3,
};
const labelCell: CSSProperties = {
  display: 'flex',
  alignItems: 'center',
  padding: '0 8px',
  borderBottom: '1px solid #f5f5f5',
  overflow: 'hidden',
  whiteSpace: 'nowrap',
  textOverflow: 'ellipsis',
};
const tickLabel: CSSProperties = {
  position: 'absolute',
  top: 8,
  fontSize: 11,
  color: '#666',
  paddingLeft: 2,
  whiteSpace: 'nowrap',
};
const gridLine: CSSProperties = { position: 'absolute', bottom: 0, width: 1, background: '#f0f0f0' };
const barStyle: CSSProperties = {
  position: 'absolute',
  border: '1px solid',
  borderRadius: 4,
  overflow: 'visible',
  userSelect: 'none',
  boxSizing: 'border-box',
  zIndex: 1,
  padding: 0,
  font: 'inherit',
  textAlign: 'left',
};
const barText: CSSProperties = {
  position: 'absolute',
  left: 6,
  top: 0,
  bottom: 0,
  display: 'flex',
  alignItems: 'center',
  fontSize: 12,
  color: '#1f1f1f',
  whiteSpace: 'nowrap',
  pointerEvents: 'none',
};
const handle: CSSProperties = {
  position: 'absolute',
  top: 0,
  bottom: 0,
  width: 8,
  cursor: 'ew-resize',
};
