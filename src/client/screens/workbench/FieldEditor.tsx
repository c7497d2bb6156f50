import {
  ArrowDownOutlined,
  ArrowUpOutlined,
  DeleteOutlined,
  EditOutlined,
  PlusOutlined,
} from '@ant-design/icons';
import { App, Button, Space, Table, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
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

  async function move(i: number, by: -1 | 1) {
    const list = [...fields];
    const a = list[i];
    const b = list[i + by];
    if (!a || !b) return;
    list[i] = b;
    list[i + by] = a;
    setBusy(true);
    try {
      // Renumber every field: stored sorts may tie.
      for (const [sort, f] of list.entries())
        if (f._sort !== sort) await wb.updateField(p, e, f._id, { sort });
    } finally {
      setBusy(false);
      await reload();
    }
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
      <Table<Field>
        rowKey="_id"
        size="small"
        loading={busy}
        pagination={false}
        dataSource={fields}
        locale={{ emptyText: t('field.empty') }}
        columns={[
          {
            title: t('field.sort'),
            width: 80,
            render: (_, _f, i) => (
              <Space size={0}>
                <Button
                  type="text"
                  size="small"
                  icon={<ArrowUpOutlined />}
                  disabled={i === 0}
                  onClick={() => void move(i, -1)}
                  aria-label={t('field.up')}
                />
                <Button
                  type="text"
                  size="small"
                  icon={<ArrowDownOutlined />}
                  disabled={i === fields.length - 1}
                  onClick={() => void move(i, 1)}
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
              f._option.info?.enable ? (f._option.info.list ?? []).map((o) => <Tag key={o}>{o}</Tag>) : null,
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
