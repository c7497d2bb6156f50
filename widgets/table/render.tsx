import { ExportOutlined, FilterOutlined, ReloadOutlined } from '@ant-design/icons';
import { Button, Input, Popover, Space, Table } from 'antd';
import { useMemo, useState } from 'react';
import { PAGE_SIZE_DEFAULT } from '../../src/shared/constants.ts';
import { bool, list, num, str } from '../../src/shared/props.ts';
import { completeConditions } from '../../src/shared/query/conditions.ts';
import { widgetViewOptions } from '../../src/shared/view-features.ts';
import type { WidgetRenderProps } from '../define.ts';
import { FILTER_TEXT, FilterControl, type FilterValue } from '../kit/FilterControl.tsx';
import { dataColumns, rowKey } from '../kit/table-columns.ts';
import { totalText, useTableView } from '../kit/table-view.ts';
import { useDispatch, useRuntime, useWidgetData } from '../kit/widget-context.ts';
import { treeField, treeRows } from './tree.ts';

/**
 * The designer's table. Bound to a table or a dataset, end users get the data view list menu entries
 * open (the runtime's `dataView`): each of the spec's 17 toggles switches its feature on, and the bound
 * programs the user is granted are toolbar buttons acting on the selected rows (over a dataset the
 * view is read-only). On the designer canvas and in tests it draws its picture (`TablePicture`).
 */
export function TableWidget(p: WidgetRenderProps) {
  const rt = useRuntime();
  const entity = str(p.props.entity).trim();
  const dataset = str(p.props.dataset).trim();
  if (rt.dataView && (entity || dataset)) return <TableView {...p} entity={entity} dataset={dataset} />;
  return <TablePicture {...p} />;
}

function TableView({ id, props, entity, dataset }: WidgetRenderProps & { entity: string; dataset: string }) {
  const rt = useRuntime();
  const dispatch = useDispatch(id);
  return rt.dataView?.({
    widget: id,
    entity,
    // Over a dataset the view is read-only: its rows, paged, sorted and filtered by its columns.
    ...(dataset ? { dataset } : {}),
    options: widgetViewOptions(props, num(props.pageSize, PAGE_SIZE_DEFAULT), { summary: 'stat' }),
    programs: list(props.programs).filter((x): x is string => typeof x === 'string'),
    onEvent: (e) => {
      if (e.type === 'rowClick') dispatch('onRowClick', e.row);
      else if (e.type === 'search') dispatch('onSearch', e.text);
      else if (e.type === 'refresh') dispatch('onRefresh');
      else if (e.type === 'export') dispatch('onExport');
      else if (e.type === 'page') dispatch('onPageChange', { index: e.index, size: e.size });
    },
  });
}

/** The table drawn from the runtime's rows: the designer canvas, tests, a dataset's rows. */
function TablePicture({ id, props }: WidgetRenderProps) {
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
