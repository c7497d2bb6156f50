import {
  closestCorners,
  DndContext,
  type DragEndEvent,
  DragOverlay,
  type DragStartEvent,
  KeyboardSensor,
  PointerSensor,
  TouchSensor,
  useDroppable,
  useSensor,
  useSensors,
} from '@dnd-kit/core';
import {
  SortableContext,
  sortableKeyboardCoordinates,
  useSortable,
  verticalListSortingStrategy,
} from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { Badge, Empty, Spin } from 'antd';
import { type CSSProperties, memo, useEffect, useMemo, useState } from 'react';
import { bool, list, num, obj, str } from '../../src/shared/props.ts';
import type { WidgetRenderProps } from '../define.ts';
import { cellText, dateText } from '../kit/table-columns.ts';
import { useDispatch, useRuntime, useWidgetData } from '../kit/widget-context.ts';
import {
  applyWrites,
  boardCards,
  boardColumns,
  type KanbanCard,
  type KanbanColumn,
  planMove,
  type RankWrite,
} from './board.ts';

const TEXT = {
  zh: { other: '未分组', empty: '暂无卡片', setup: '选择数据表和分组字段', failed: '移动失败' },
  en: {
    other: 'No group',
    empty: 'No cards',
    setup: 'Choose a table and a column field',
    failed: 'Move failed',
  },
};

const columnDropId = (value: string) => `column:${value}`;

interface FieldInfo {
  type?: string;
  options: string[];
}

/** A cell as the user reads it: relates by their display name, dates in the project's zone. */
function cardText(row: Record<string, unknown>, field: string, info: FieldInfo | undefined): string {
  if (!field) return '';
  const shown = row[`_${field}`];
  if (typeof shown === 'string' && (info?.type === 'relate' || info?.type === 'collection')) return shown;
  if (info?.type === 'date' || info?.type === 'time') return dateText(row[field], info.type);
  return cellText(row[field]);
}

/**
 * A board of cards grouped into columns by one field of a table; moving a card (mouse, touch or
 * keyboard) writes its column and order back through the data API. With `realtime` on, everyone on
 * the page sees the move at once (the page joins its room on the socket channel).
 */
export function KanbanWidget({ id, props }: WidgetRenderProps) {
  const rt = useRuntime();
  const data = useWidgetData(id);
  const dispatch = useDispatch(id);
  const t = TEXT[rt.lang] ?? TEXT.en;
  const entity = str(props.entity);
  const groupField = str(props.groupField);
  const rankField = str(props.rankField);
  const titleField = str(props.titleField);
  const descriptionField = str(props.descriptionField);
  const width = Math.max(160, Math.min(600, num(props.columnWidth, 260)));
  const canMove = bool(props.draggable, true) && Boolean(rt.saveRecords) && Boolean(entity && groupField);

  const fields = useMemo(() => {
    const m = new Map<string, FieldInfo>();
    for (const f of data.meta.fields ?? []) {
      const option = obj((f as { option?: unknown }).option);
      m.set(f.key, { type: f.type, options: list<unknown>(obj(option.info).list).map((v) => String(v)) });
    }
    return m;
  }, [data.meta.fields]);

  // Moves show at once; the stored rows replace them when the reload after saving arrives.
  const [pending, setPending] = useState<RankWrite[] | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new load of rows ends the optimistic overlay
  useEffect(() => setPending(null), [data.rows]);
  const rows = useMemo(() => (pending ? applyWrites(data.rows, pending) : data.rows), [data.rows, pending]);

  const columns = useMemo(
    () =>
      boardColumns(
        list<Record<string, unknown>>(props.columns),
        fields.get(groupField)?.options ?? [],
        rows,
        groupField,
        t.other,
      ),
    [props.columns, fields, groupField, rows, t.other],
  );
  const board = useMemo(
    () => boardCards(rows, columns, groupField, rankField),
    [rows, columns, groupField, rankField],
  );

  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 5 } }),
    useSensor(TouchSensor, { activationConstraint: { delay: 200, tolerance: 8 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const [dragging, setDragging] = useState<KanbanCard | null>(null);

  const cardById = (cardId: string): KanbanCard | undefined => {
    for (const cards of board.values()) {
      const hit = cards.find((c) => c.id === cardId);
      if (hit) return hit;
    }
    return undefined;
  };

  const onDragStart = (e: DragStartEvent) => setDragging(cardById(String(e.active.id)) ?? null);

  const onDragEnd = (e: DragEndEvent) => {
    setDragging(null);
    const card = cardById(String(e.active.id));
    if (!card || !e.over || !rt.saveRecords) return;
    const overId = String(e.over.id);
    let to: string;
    let index: number;
    if (overId.startsWith('column:')) {
      to = overId.slice('column:'.length);
      index = (board.get(to) ?? []).filter((c) => c.id !== card.id).length;
    } else {
      const over = cardById(overId);
      if (!over) return;
      to = over.group;
      const cards = board.get(to) ?? [];
      index = cards.findIndex((c) => c.id === over.id);
      if (to !== card.group) {
        // Across columns: before the card under the pointer, or after it when past its middle.
        const dragged = e.active.rect.current.translated;
        if (dragged && dragged.top + dragged.height / 2 > e.over.rect.top + e.over.rect.height / 2)
          index += 1;
      }
    }
    const writes = planMove(board, card.id, to, index, groupField, rankField);
    if (!writes.length) return;
    setPending((p) => [...(p ?? []), ...writes]);
    dispatch('onMove', { record: card.row, from: card.group, to, index });
    rt.saveRecords(entity, writes).catch((err: unknown) => {
      setPending(null);
      rt.notify?.('error', err instanceof Error ? err.message : String(err), t.failed);
    });
  };

  if (!entity || !groupField)
    return (
      <div className="lc-kanban lc-kanban-setup" style={{ padding: 16 }}>
        <Empty description={t.setup} />
      </div>
    );

  return (
    <DndContext
      sensors={sensors}
      collisionDetection={closestCorners}
      onDragStart={onDragStart}
      onDragEnd={onDragEnd}
      onDragCancel={() => setDragging(null)}
    >
      <div className="lc-kanban" data-kanban={id} style={boardStyle}>
        {data.loading && !data.rows.length && <Spin style={{ margin: 24 }} />}
        {columns.map((c) => (
          <Column
            key={c.value}
            column={c}
            cards={board.get(c.value) ?? []}
            width={width}
            canMove={canMove}
            emptyText={t.empty}
            titleOf={(row) =>
              cardText(row, titleField, fields.get(titleField)) || cellText(row.__name ?? row._id)
            }
            textOf={(row) => cardText(row, descriptionField, fields.get(descriptionField))}
            onOpen={(row) => dispatch('onCardClick', row)}
          />
        ))}
      </div>
      <DragOverlay>
        {dragging ? (
          <CardView
            title={cardText(dragging.row, titleField, fields.get(titleField)) || cellText(dragging.row._id)}
            text={cardText(dragging.row, descriptionField, fields.get(descriptionField))}
            lifted
          />
        ) : null}
      </DragOverlay>
    </DndContext>
  );
}

const boardStyle: CSSProperties = {
  display: 'flex',
  gap: 12,
  alignItems: 'flex-start',
  overflowX: 'auto',
  height: '100%',
  padding: 4,
};

interface ColumnProps {
  column: KanbanColumn;
  cards: KanbanCard[];
  width: number;
  canMove: boolean;
  emptyText: string;
  titleOf: (row: Record<string, unknown>) => string;
  textOf: (row: Record<string, unknown>) => string;
  onOpen: (row: Record<string, unknown>) => void;
}

function Column(p: ColumnProps) {
  const { setNodeRef, isOver } = useDroppable({ id: columnDropId(p.column.value), disabled: !p.canMove });
  return (
    <section
      ref={setNodeRef}
      className="lc-kanban-column"
      data-column={p.column.value}
      aria-label={p.column.title}
      style={{
        flex: `0 0 ${p.width}px`,
        background: isOver ? '#e6f4ff' : '#f5f5f5',
        borderRadius: 8,
        borderTop: `3px solid ${p.column.color ?? '#d9d9d9'}`,
        padding: 8,
        maxHeight: '100%',
        overflowY: 'auto',
        minHeight: 120,
      }}
    >
      <header style={{ display: 'flex', justifyContent: 'space-between', fontWeight: 600, marginBottom: 8 }}>
        <span>{p.column.title}</span>
        <Badge count={p.cards.length} showZero color="#bfbfbf" data-count={p.cards.length} />
      </header>
      <SortableContext items={p.cards.map((c) => c.id)} strategy={verticalListSortingStrategy}>
        {p.cards.map((c) => (
          <SortableCard
            key={c.id}
            card={c}
            canMove={p.canMove}
            title={p.titleOf(c.row)}
            text={p.textOf(c.row)}
            onOpen={p.onOpen}
          />
        ))}
      </SortableContext>
      {!p.cards.length && (
        <div style={{ color: '#999', textAlign: 'center', padding: 16 }}>{p.emptyText}</div>
      )}
    </section>
  );
}

const SortableCard = memo(function SortableCard(p: {
  card: KanbanCard;
  canMove: boolean;
  title: string;
  text: string;
  onOpen: (row: Record<string, unknown>) => void;
}) {
  const { attributes, listeners, setNodeRef, transform, transition, isDragging } = useSortable({
    id: p.card.id,
    disabled: !p.canMove,
  });
  return (
    <div
      ref={setNodeRef}
      data-card={p.card.id}
      style={{ transform: CSS.Transform.toString(transform), transition, opacity: isDragging ? 0.4 : 1 }}
      {...attributes}
      {...listeners}
    >
      <CardView title={p.title} text={p.text} onOpen={() => p.onOpen(p.card.row)} />
    </div>
  );
});

function CardView(p: { title: string; text: string; lifted?: boolean; onOpen?: () => void }) {
  return (
    <div
      className="lc-kanban-card"
      style={{
        background: '#fff',
        borderRadius: 6,
        padding: '8px 10px',
        marginBottom: 8,
        boxShadow: p.lifted ? '0 6px 16px rgba(0,0,0,0.18)' : '0 1px 2px rgba(0,0,0,0.08)',
        cursor: p.lifted ? 'grabbing' : 'grab',
      }}
    >
      {p.onOpen ? (
        <button type="button" className="lc-kanban-card-title" style={titleButton} onClick={p.onOpen}>
          {p.title}
        </button>
      ) : (
        <div className="lc-kanban-card-title" style={{ fontWeight: 500 }}>
          {p.title}
        </div>
      )}
      {p.text && <div style={{ color: '#666', fontSize: 12, marginTop: 4 }}>{p.text}</div>}
    </div>
  );
}

const titleButton: CSSProperties = {
  all: 'unset',
  fontWeight: 500,
  cursor: 'pointer',
  display: 'block',
  width: '100%',
};
