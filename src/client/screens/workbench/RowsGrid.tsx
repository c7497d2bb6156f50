import { DeleteOutlined, FilterOutlined, PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import { App, Button, Empty, Modal, Popover, Table, type TableProps, Tag } from 'antd';
import dayjs from 'dayjs';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  countBody,
  type KnownCount,
  pagerTotal,
  type Total,
  totalAfterPage,
} from '../../../shared/query/page-total.ts';
import { type DataRecord, type Entity, type Field, type SortKey, wb } from '../../api/workbench.ts';
import { FieldContext } from '../../fields/context.ts';
import { fieldKind } from '../../fields/registry.ts';
import { RecordForm } from '../../views/RecordForm.tsx';
import { XlsxTools } from '../../views/XlsxTools.tsx';
import { DATE_FORMAT, FieldInput } from './FieldInput.tsx';
import { FilterBuilder } from './FilterBuilder.tsx';
import { formatNumber, optionList, relatedChoices, storedDayToLocal } from './field-values.ts';
import { type Condition, complete, type Match, toQuery } from './filter-query.ts';
import { useProject } from './workbench-context.ts';

interface Props {
  entity: Entity;
  fields: Field[];
}

const PAGE_SIZES = [100, 500, 1000, 5000];
const COL_WIDTH = 150;
/** Pages longer than this are drawn by the virtual list (short ones keep the plain table). */
const VIRTUAL_FROM = 100;

/** A cell being edited: the record, the field, and the value typed so far. */
interface Editing {
  id: string;
  code: string;
  value: unknown;
}

/**
 * The rows of a table: server paging (large pages drawn by a virtual list), sort, filter, inline
 * edit by field type, add (the one record form, views/RecordForm.tsx), delete and bulk delete.
 */
export default function RowsGrid({ entity, fields }: Props) {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const p = useProject()._id;
  const e = entity._id;
  const [rows, setRows] = useState<DataRecord[]>([]);
  const [total, setTotal] = useState<Total>({ n: 0, exact: true });
  const [loading, setLoading] = useState(false);
  const [page, setPage] = useState({ index: 1, size: 500 });
  const [sort, setSort] = useState<SortKey[]>([]);
  const [conditions, setConditions] = useState<Condition[]>([]);
  const [match, setMatch] = useState<Match>('and');
  const [filterOpen, setFilterOpen] = useState(false);
  const [selected, setSelected] = useState<string[]>([]);
  const [editing, setEditing] = useState<Editing | null>(null);
  const [adding, setAdding] = useState(false);
  const seq = useRef(0);

  const query = useMemo(() => toQuery(conditions, match, fields), [conditions, match, fields]);
  /** The count of the current filter, once known (a sort or another page does not change it). */
  const counted = useRef<KnownCount | null>(null);
  const queryKey = useRef('');

  /** The full count, off the critical path: the first rows paint before it answers. */
  const countRows = useCallback(
    async (key: string) => {
      try {
        const a = await wb.rows(p, e, countBody(query));
        if (key !== queryKey.current || a.count === undefined) return;
        counted.current = { key, n: a.count };
        setTotal({ n: a.count, exact: true });
      } catch {
        // The request wrapper showed the error; the bound stays.
      }
    },
    [p, e, query],
  );

  /** Loads the page without its count; `recount` after rows were added or removed. */
  const load = useCallback(
    async (recount = false) => {
      const n = ++seq.current;
      const key = JSON.stringify(query ?? null);
      queryKey.current = key;
      if (recount) counted.current = null;
      setLoading(true);
      try {
        const a = await wb.rows(p, e, { query, sort, page });
        if (n !== seq.current) return;
        setRows(a.data);
        setSelected((s) => s.filter((id) => a.data.some((r) => r._id === id)));
        const after = totalAfterPage(page, a.data.length, key, counted.current);
        counted.current = after.known;
        setTotal(after.total);
        if (after.ask) void countRows(key);
      } catch {
        // The request wrapper showed the error.
      } finally {
        if (n === seq.current) setLoading(false);
      }
    },
    [p, e, query, sort, page, countRows],
  );
  useEffect(() => {
    void load();
  }, [load]);

  const commit = useCallback(
    async (edit: Editing) => {
      setEditing(null);
      const before = rows.find((r) => r._id === edit.id);
      if (before && JSON.stringify(before[edit.code] ?? null) === JSON.stringify(edit.value ?? null)) return;
      try {
        const updated = await wb.updateRow(p, e, edit.id, { [edit.code]: edit.value ?? null });
        setRows((list) => list.map((r) => (r._id === updated._id ? updated : r)));
        message.success(t('grid.saved'));
      } catch {
        // Notice shown by the request wrapper; the cell keeps its stored value.
      }
    },
    [rows, p, e, message, t],
  );

  function removeRows(ids: string[]) {
    modal.confirm({
      title: t('grid.removeConfirm', { count: ids.length }),
      okText: t('common.remove'),
      cancelText: t('common.cancel'),
      okButtonProps: { danger: true },
      onOk: async () => {
        let done = 0;
        // A few at a time: there is no bulk call, and the shared request queue stays free.
        for (let i = 0; i < ids.length; i += 4) {
          const results = await Promise.allSettled(ids.slice(i, i + 4).map((id) => wb.removeRow(p, e, id)));
          done += results.filter((r) => r.status === 'fulfilled').length;
        }
        message.success(t('grid.removed', { count: done }));
        setSelected([]);
        await load(true);
      },
    });
  }

  const visible = fields;
  const columns: TableProps<DataRecord>['columns'] = [
    ...visible.map((f) => ({
      key: f._field,
      dataIndex: f._field,
      title: (
        <span title={f._field}>
          {f._option.alias || f._name}
          {f._hide ? <Tag className="wb-col-tag">{t('field.hide')}</Tag> : null}
        </span>
      ),
      width: COL_WIDTH,
      sorter: !['collection', 'image', 'options', 'attachment'].includes(f._type),
      sortOrder: (() => {
        const s = sort.find((x) => x.field === f._field);
        return s ? (s.order === 'asc' ? 'ascend' : 'descend') : null;
      })() as 'ascend' | 'descend' | null,
      render: (_: unknown, r: DataRecord) => {
        const kind = fieldKind(f._type);
        if (editing && editing.id === r._id && editing.code === f._field && kind?.edit === 'dialog') {
          // Uploads need room: the cell's editor opens in a dialog, saved with OK.
          return (
            <>
              <CellView field={f} record={r} />
              <Modal
                open
                title={f._option.alias || f._name}
                okText={t('common.save')}
                cancelText={t('common.cancel')}
                onOk={() => void commit(editing)}
                onCancel={() => setEditing(null)}
                destroyOnHidden
              >
                <FieldInput
                  field={f}
                  value={editing.value}
                  onChange={(value) => setEditing({ ...editing, value })}
                />
              </Modal>
            </>
          );
        }
        if (editing && editing.id === r._id && editing.code === f._field) {
          const textLike = kind
            ? kind.edit === 'commit'
            : ['string', 'number'].includes(f._type) && !optionList(f);
          return (
            <div className="wb-cell-edit">
              <FieldInput
                field={f}
                value={editing.value}
                known={relatedChoices(f, r)}
                autoFocus
                onChange={(value) => {
                  const next = { ...editing, value };
                  if (textLike || f._type === 'collection') setEditing(next);
                  else void commit(next);
                }}
                onCommit={() => void commit(editing)}
                onCancel={() => setEditing(null)}
              />
            </div>
          );
        }
        return (
          <button
            type="button"
            className="wb-cell"
            data-testid={`cell-${f._field}`}
            onClick={() => setEditing({ id: r._id, code: f._field, value: r[f._field] ?? null })}
          >
            <CellView field={f} record={r} />
          </button>
        );
      },
    })),
    {
      key: '_actions',
      // No width: this column takes what the fields leave, so narrow tables do not stretch them.
      fixed: 'right' as const,
      render: (_: unknown, r: DataRecord) => (
        <Button
          type="text"
          size="small"
          danger
          icon={<DeleteOutlined />}
          aria-label={t('grid.remove')}
          data-testid="row-remove"
          onClick={() => removeRows([r._id])}
        />
      ),
    },
  ];

  if (fields.length === 0) return <Empty description={t('grid.noFields')} />;
  const active = complete(conditions, fields).length;
  return (
    <FieldContext.Provider value={{ project: p, entity: e }}>
      <div data-testid="rows-grid">
        <div className="wb-bar">
          <Button
            type="primary"
            icon={<PlusOutlined />}
            onClick={() => setAdding(true)}
            data-testid="row-add"
          >
            {t('grid.add')}
          </Button>
          <Popover
            trigger="click"
            placement="bottomLeft"
            open={filterOpen}
            onOpenChange={setFilterOpen}
            content={
              <FilterBuilder
                fields={fields}
                conditions={conditions}
                match={match}
                onApply={(c, m) => {
                  setConditions(c);
                  setMatch(m);
                  setPage((pg) => ({ ...pg, index: 1 }));
                  setFilterOpen(false);
                }}
              />
            }
          >
            <Button
              icon={<FilterOutlined />}
              type={active ? 'primary' : 'default'}
              ghost={active > 0}
              data-testid="filter-open"
            >
              {active ? t('grid.filterCount', { count: active }) : t('grid.filter')}
            </Button>
          </Popover>
          <Button
            danger
            icon={<DeleteOutlined />}
            disabled={selected.length === 0}
            onClick={() => removeRows(selected)}
            data-testid="rows-remove"
          >
            {t('grid.removeSelected', { count: selected.length })}
          </Button>
          <XlsxTools
            project={p}
            entity={e}
            query={query}
            sort={sort}
            page={page}
            onImported={() => void load(true)}
          />
          <Button icon={<ReloadOutlined />} onClick={() => void load(true)} aria-label={t('grid.refresh')} />
          <span
            className="wb-bar-end"
            data-testid="row-count"
            data-exact={total.exact ? '1' : '0'}
            title={total.exact ? undefined : t('grid.counting')}
          >
            {total.exact ? t('grid.total', { count: total.n }) : t('grid.totalAtLeast', { count: total.n })}
          </span>
        </div>
        <Table<DataRecord>
          virtual={rows.length > VIRTUAL_FROM}
          showSorterTooltip={false}
          rowKey="_id"
          size="small"
          bordered
          loading={loading}
          dataSource={rows}
          columns={columns}
          scroll={{ x: visible.length * COL_WIDTH + 112, y: rows.length > VIRTUAL_FROM ? 560 : undefined }}
          rowSelection={{
            selectedRowKeys: selected,
            onChange: (keys) => setSelected(keys as string[]),
            columnWidth: 48,
          }}
          onChange={(pg, _filters, sorter, extra) => {
            if (extra.action === 'sort') {
              const s = Array.isArray(sorter) ? sorter[0] : sorter;
              setSort(
                s?.order && s.columnKey
                  ? [{ field: String(s.columnKey), order: s.order === 'ascend' ? 'asc' : 'desc' }]
                  : [],
              );
              setPage((x) => ({ ...x, index: 1 }));
            } else if (extra.action === 'paginate') {
              setPage({ index: pg.current ?? 1, size: pg.pageSize ?? 500 });
            }
          }}
          pagination={{
            current: page.index,
            pageSize: page.size,
            total: pagerTotal(total, page.size),
            showSizeChanger: true,
            pageSizeOptions: PAGE_SIZES,
            showTotal: () =>
              total.exact ? t('grid.total', { count: total.n }) : t('grid.totalAtLeast', { count: total.n }),
          }}
        />
        {adding ? (
          <RecordForm
            fields={fields}
            onClose={() => setAdding(false)}
            onSave={async (values) => {
              await wb.saveRow(p, e, values);
              message.success(t('grid.saved'));
              await load(true);
            }}
          />
        ) : null}
      </div>
    </FieldContext.Provider>
  );
}

/** A cell's value as text, tags or thumbnails. */
function CellView({ field: f, record: r }: { field: Field; record: DataRecord }) {
  const v = r[f._field];
  const kind = fieldKind(f._type);
  if (kind) return <kind.Cell field={f} value={v} />;
  if (v === null || v === undefined || v === '') return <span className="wb-empty" />;
  switch (f._type) {
    case 'number':
      return optionList(f) ? (
        <Tag>{formatNumber(f, v)}</Tag>
      ) : (
        <span className="wb-num">{formatNumber(f, v)}</span>
      );
    case 'date':
      return <span>{typeof v === 'number' ? dayjs(storedDayToLocal(v)).format(DATE_FORMAT) : ''}</span>;
    case 'relate':
    case 'collection':
      return (
        <span>
          {relatedChoices(f, r).map((c) => (
            <Tag key={c.value} color="blue">
              {c.label}
            </Tag>
          ))}
        </span>
      );
    default:
      return optionList(f) ? <Tag>{String(v)}</Tag> : <span>{String(v)}</span>;
  }
}
