import {
  ArrowDownOutlined,
  ArrowUpOutlined,
  DeleteOutlined,
  EditOutlined,
  HolderOutlined,
  PlusOutlined,
} from '@ant-design/icons';
import {
  closestCenter,
  DndContext,
  type DragEndEvent,
  KeyboardSensor,
  PointerSensor,
  type UniqueIdentifier,
  useSensor,
  useSensors,
} from '@dnd-kit/core';
import {
  arrayMove,
  SortableContext,
  sortableKeyboardCoordinates,
  useSortable,
  verticalListSortingStrategy,
} from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { App, Button, Space, Table, Tag } from 'antd';
import { type CSSProperties, createContext, type HTMLAttributes, useContext, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/api-error.ts';
import { effects } from '../../api/effects.ts';
import { type Entity, type Field, wb } from '../../api/workbench.ts';
import { confirmRemoval } from './confirm-removal.ts';
import { FieldModal, type FieldValues, optionOf } from './FieldModal.tsx';
import { useProject } from './workbench-context.ts';

interface Props {
  entity: Entity;
  entities: Entity[];
  fields: Field[];
  reload(): Promise<void>;
}

/** The fields of a table: list in order, create, edit, reorder, remove. */
export function FieldEditor({ entity, entities, fields, reload }: Props) {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const p = useProject()._id;
  const e = entity._id;
  const [editing, setEditing] = useState<Field | 'new' | null>(null);
  const [busy, setBusy] = useState(false);

  /** The order shown while a new one is being saved (a drop shows at once). */
  const [pending, setPending] = useState<Field[] | null>(null);
  const shown = pending ?? fields;

  /** Saves an order; answers whether every field took its place (else the stored order shows again). */
  async function reorder(list: Field[]): Promise<boolean> {
    setPending(list);
    setBusy(true);
    try {
      // Renumber every field: stored sorts may tie.
      for (const [sort, f] of list.entries())
        if (f._sort !== sort) await wb.updateField(p, e, f._id, { sort });
      return true;
    } catch (err) {
      // The field calls are quiet (their forms show errors beside inputs): say it here.
      if (err instanceof ApiError && !err.silent) effects.notifyError(err.code, err.message);
      return false;
    } finally {
      await reload();
      setPending(null);
      setBusy(false);
    }
  }

  function move(i: number, by: -1 | 1) {
    if (i + by < 0 || i + by >= fields.length) return;
    void reorder(arrayMove([...fields], i, i + by));
  }

  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const nameOf = (id: UniqueIdentifier) => shown.find((f) => f._id === id)?._name ?? String(id);
  const placeOf = (id: UniqueIdentifier) => shown.findIndex((f) => f._id === id) + 1;
  function dragEnd({ active, over }: DragEndEvent) {
    if (!over || active.id === over.id) return;
    const from = shown.findIndex((f) => f._id === active.id);
    const to = shown.findIndex((f) => f._id === over.id);
    if (from < 0 || to < 0) return;
    void reorder(arrayMove([...shown], from, to)).then((ok) => {
      if (ok) message.success(t('field.dragMoved', { n: to + 1 }));
    });
  }

  async function save(v: FieldValues) {
    const field = editing === 'new' ? undefined : (editing ?? undefined);
    if (field) {
      await wb.updateField(p, e, field._id, {
        name: v.name,
        ...(v.field && v.field !== field._field ? { field: v.field } : {}),
        option: optionOf(v, field._option),
        hide: v.hide,
        status: v.status,
      });
    } else {
      const created = await wb.createField(p, e, {
        name: v.name,
        type: v.type,
        ...(v.field ? { field: v.field } : {}),
        ...(v.relate && (v.type === 'relate' || v.type === 'collection') ? { relate: v.relate } : {}),
        option: optionOf(v),
        hide: v.hide,
        sort: fields.length,
      });
      if (v.status === 'disabled') await wb.updateField(p, e, created._id, { status: 'disabled' });
    }
    message.success(t('field.saved'));
    await reload();
  }

  async function remove(f: Field) {
    const labels = { ok: t('common.remove'), cancel: t('common.cancel') };
    if (
      await confirmRemoval(modal, t('field.removeTitle', { name: f._name }), labels, (c) =>
        wb.removeField(p, e, f._id, c),
      )
    ) {
      await reload();
    }
  }

  const tableName = (id: string | undefined) => entities.find((x) => x._id === id)?._name ?? id ?? '';
  return (
    <div data-testid="field-editor">
      <div className="wb-bar">
        <Button
          type="primary"
          icon={<PlusOutlined />}
          onClick={() => setEditing('new')}
          data-testid="new-field"
        >
          {t('field.add')}
        </Button>
      </div>
      <DndContext
        sensors={sensors}
        collisionDetection={closestCenter}
        onDragEnd={dragEnd}
        accessibility={{
          screenReaderInstructions: { draggable: t('field.dragHelp') },
          announcements: {
            onDragStart: ({ active }) => t('field.dragStart', { name: nameOf(active.id) }),
            onDragOver: ({ active, over }) =>
              over ? t('field.dragOver', { name: nameOf(active.id), n: placeOf(over.id) }) : undefined,
            onDragEnd: ({ active, over }) =>
              over
                ? t('field.dragDrop', { name: nameOf(active.id), n: placeOf(over.id) })
                : t('field.dragCancel', { name: nameOf(active.id) }),
            onDragCancel: ({ active }) => t('field.dragCancel', { name: nameOf(active.id) }),
          },
        }}
      >
        <SortableContext items={shown.map((f) => f._id)} strategy={verticalListSortingStrategy}>
          <Table<Field>
            rowKey="_id"
            size="small"
            loading={busy}
            pagination={false}
            dataSource={shown}
            components={{ body: { row: SortableRow } }}
            locale={{ emptyText: t('field.empty') }}
            columns={[
              {
                title: t('field.sort'),
                width: 110,
                render: (_, _f, i) => (
                  <Space size={0}>
                    <DragHandle label={t('field.drag')} disabled={busy} />
                    <Button
                      type="text"
                      size="small"
                      icon={<ArrowUpOutlined />}
                      disabled={i === 0 || busy}
                      onClick={() => move(i, -1)}
                      aria-label={t('field.up')}
                    />
                    <Button
                      type="text"
                      size="small"
                      icon={<ArrowDownOutlined />}
                      disabled={i === shown.length - 1 || busy}
                      onClick={() => move(i, 1)}
                      aria-label={t('field.down')}
                    />
                  </Space>
                ),
              },
              { title: t('field.name'), dataIndex: '_name' },
              { title: t('field.key'), dataIndex: '_field', render: (v: string) => <code>{v}</code> },
              {
                title: t('field.type'),
                dataIndex: '_type',
                render: (v: Field['_type'], f) => (
                  <span>
                    {t(`field.types.${v}`)}
                    {f._relate.length ? ` → ${tableName(f._relate[0])}` : ''}
                    {v === 'number' && f._option.decimals !== undefined ? ` (${f._option.decimals})` : ''}
                  </span>
                ),
              },
              { title: t('field.alias'), render: (_, f) => f._option.alias ?? '' },
              {
                title: t('field.options'),
                render: (_, f) =>
                  f._option.info?.enable
                    ? (f._option.info.list ?? []).map((o) => <Tag key={o}>{o}</Tag>)
                    : null,
              },
              {
                title: t('field.status'),
                render: (_, f) => (
                  <Space size={4}>
                    {f._status === 'disabled' ? (
                      <Tag color="orange">{t('field.disabled')}</Tag>
                    ) : (
                      <Tag color="green">{t('field.normal')}</Tag>
                    )}
                    {f._hide ? <Tag>{t('field.hide')}</Tag> : null}
                  </Space>
                ),
              },
              {
                title: t('field.actions'),
                width: 100,
                render: (_, f) => (
                  <Space size={0}>
                    <Button
                      type="text"
                      size="small"
                      icon={<EditOutlined />}
                      onClick={() => setEditing(f)}
                      aria-label={t('common.edit')}
                    />
                    <Button
                      type="text"
                      size="small"
                      danger
                      icon={<DeleteOutlined />}
                      onClick={() => void remove(f)}
                      aria-label={t('common.remove')}
                    />
                  </Space>
                ),
              },
            ]}
          />
        </SortableContext>
      </DndContext>
      {editing ? (
        <FieldModal
          field={editing === 'new' ? undefined : editing}
          entities={entities}
          onClose={() => setEditing(null)}
          onSubmit={save}
        />
      ) : null}
    </div>
  );
}

/** What a sortable row hands its drag handle. */
const RowDrag = createContext<Partial<ReturnType<typeof useSortable>>>({});

/** A table row that dnd-kit can move; only its handle starts a drag (pointer or keyboard). */
function SortableRow(props: HTMLAttributes<HTMLTableRowElement> & { 'data-row-key'?: string }) {
  const sortable = useSortable({ id: props['data-row-key'] ?? '' });
  const { setNodeRef, transform, transition, isDragging } = sortable;
  const style: CSSProperties = {
    ...props.style,
    transform: CSS.Translate.toString(transform),
    transition,
    ...(isDragging ? { position: 'relative', zIndex: 9, background: '#e6f4ff' } : {}),
  };
  const value = useMemo(
    () => ({
      setActivatorNodeRef: sortable.setActivatorNodeRef,
      listeners: sortable.listeners,
      attributes: sortable.attributes,
    }),
    [sortable.setActivatorNodeRef, sortable.listeners, sortable.attributes],
  );
  return (
    <RowDrag.Provider value={value}>
      <tr {...props} ref={setNodeRef} style={style} />
    </RowDrag.Provider>
  );
}

/** The row's drag handle: a button, so Tab reaches it and Space/arrows/Space move the row. */
function DragHandle({ label, disabled }: { label: string; disabled: boolean }) {
  const { setActivatorNodeRef, listeners, attributes } = useContext(RowDrag);
  return (
    <Button
      type="text"
      size="small"
      className="wb-drag"
      icon={<HolderOutlined />}
      ref={setActivatorNodeRef}
      disabled={disabled}
      {...attributes}
      {...listeners}
      aria-label={label}
      data-testid="field-drag"
    />
  );
}
