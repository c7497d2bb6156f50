import { ExportOutlined, FilterOutlined, ReloadOutlined } from '@ant-design/icons';
import { Button, Input, Popover, Space, Table } from 'antd';
import { useMemo, useState } from 'react';
import { PAGE_SIZE_DEFAULT } from '../../src/shared/constants.ts';
import { bool, num } from '../../src/shared/props.ts';
import { completeConditions } from '../../src/shared/query/conditions.ts';
import type { WidgetRenderProps } from '../define.ts';
import { FILTER_TEXT, FilterControl, type FilterValue } from '../kit/FilterControl.tsx';
import { dataColumns, rowKey } from '../kit/table-columns.ts';
import { totalText, useTableView } from '../kit/table-view.ts';
import { useDispatch, useRuntime, useWidgetData } from '../kit/widget-context.ts';
import { treeField, treeRows } from './tree.ts';

/** The designer table: columns from the entity's field meta; each of the 18 toggles switches a feature on. */
export function TableWidget({ id, props }: WidgetRenderProps) {
  const rt = useRuntime();
  const data = useWidgetData(id);
  const dispatch = useDispatch(id);
  const on = (k: string) => bool(props[k]);
  const pageSize = num(props.pageSize, PAGE_SIZE_DEFAULT);
  const view = useTableView(id, pageSize);
  const [filterOpen, setFilterOpen] = useState(false);
  const columns = dataColumns(data.meta.fields, {
    index: on('index'),
    indexFrom: (view.page - 1) * pageSize,
    sort: on('sort'),
    sorted: view.sort,
  });
  const toolbar = on('search') || on('filter') || on('refresh') || on('export');
  const fields = data.meta.fields ?? [];
  const active = completeConditions(view.filter.conditions, fields).length;
  const ft = FILTER_TEXT[rt.lang] ?? FILTER_TEXT.en;
  // Tree: a table relating to itself nests rows under their parent (toggle rows open).
  const parentField = on('tree') ? treeField(fields, data.rows) : undefined;
  const rows = useMemo(
    () => (parentField ? treeRows(data.rows, parentField) : data.rows),
    [data.rows, parentField],
  );
  return (
    <div>
      {toolbar && (
        <Space style={{ marginBottom: 8 }}>
          {on('search') && (
            <Input.Search
              allowClear
              data-testid="table-search"
              value={view.search}
              onChange={(e) => view.setSearch(e.target.value)}
              onSearch={(q) => {
                view.setSearch(q, true);
                dispatch('onSearch', q);
              }}
            />
          )}
          {on('filter') && (
            <Popover
              trigger="click"
              placement="bottomLeft"
              open={filterOpen}
              onOpenChange={setFilterOpen}
              content={
                <FilterControl
                  fields={fields}
                  value={view.filter}
                  lang={rt.lang}
                  onApply={(v: FilterValue) => {
                    view.setFilter(v);
                    setFilterOpen(false);
                  }}
                />
              }
            >
              <Button
                icon={<FilterOutlined />}
                type={active ? 'primary' : 'default'}
                data-testid="table-filter-open"
              >
                {active ? ft.filterCount(active) : ft.filter}
              </Button>
            </Popover>
          )}
          {on('refresh') && (
            <Button
              icon={<ReloadOutlined />}
              data-testid="table-refresh"
              onClick={() => {
                rt.reload?.(id);
                dispatch('onRefresh');
              }}
            />
          )}
          {on('export') && <Button icon={<ExportOutlined />} onClick={() => dispatch('onExport')} />}
        </Space>
      )}
      <Table
        size="small"
        rowKey={rowKey}
        loading={data.loading}
        columns={columns}
        dataSource={rows}
        expandable={parentField ? { indentSize: 20 } : undefined}
        showSorterTooltip={false}
        rowSelection={
          on('select') || on('multiple') ? { type: on('multiple') ? 'checkbox' : 'radio' } : undefined
        }
        // The server sorts (through the query language); the table only shows the order it asked for.
        onChange={(_p, _f, sorter, extra) => {
          if (extra.action === 'sort') view.setSortFrom(sorter);
        }}
        pagination={{
          current: view.page,
          pageSize,
          total: view.pagerTotal(data),
          simple: on('simplePage'),
          showQuickJumper: on('pageIndex'),
          showSizeChanger: false,
          showTotal: () => <span data-testid="table-total">{totalText(data, rt.lang)}</span>,
          // The runtime loads the asked page from the server (rows are never all in the browser).
          onChange: (index, size) => {
            if (view.setPage(index)) dispatch('onPageChange', { index, size });
          },
        }}
        onRow={(record) => ({ onClick: () => dispatch('onRowClick', record) })}
      />
    </div>
  );
}
