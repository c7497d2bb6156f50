import { Table } from 'antd';
import { PAGE_SIZE_DEFAULT } from '../../src/shared/constants.ts';
import { bool, list, num, obj, str } from '../../src/shared/props.ts';
import type { WidgetRenderProps } from '../define.ts';
import { dataColumns, rowKey, sortable } from '../kit/table-columns.ts';
import { totalText, useTableView } from '../kit/table-view.ts';
import { useDispatch, useRuntime, useWidgetData } from '../kit/widget-context.ts';

/** Declared columns (or every field); sortable columns and the pager ask the server (kit/table-view.ts). */
export function AdvancedTableWidget({ id, props }: WidgetRenderProps) {
  const rt = useRuntime();
  const data = useWidgetData(id);
  const dispatch = useDispatch(id);
  const pageSize = num(props.pageSize, PAGE_SIZE_DEFAULT);
  const view = useTableView(id, pageSize);
  const declared = list(props.columns).map(obj);
  const types = new Map((data.meta.fields ?? []).map((f) => [f.key, f.type]));
  const order = (field: string) =>
    view.sort?.field === field
      ? view.sort.order === 'asc'
        ? ('ascend' as const)
        : ('descend' as const)
      : null;
  const columns = declared.length
    ? declared.map((c) => ({
        key: str(c.field),
        dataIndex: str(c.field),
        title: str(c.title, str(c.field)),
        width: num(c.width, 0) || undefined,
        fixed: c.fixed === 'left' ? ('left' as const) : c.fixed === 'right' ? ('right' as const) : undefined,
        ...(bool(c.sortable) && sortable(types.get(str(c.field)))
          ? { sorter: true, sortOrder: order(str(c.field)) }
          : {}),
      }))
    : dataColumns(data.meta.fields, {});
  const rows = data.rows;
  return (
    <Table
      size="small"
      rowKey={rowKey}
      bordered={bool(props.bordered)}
      loading={data.loading}
      columns={columns}
      dataSource={rows}
      showSorterTooltip={false}
      virtual={bool(props.virtual) && rows.length > 30}
      scroll={bool(props.virtual) ? { y: 400, x: 'max-content' } : undefined}
      pagination={{
        current: view.page,
        pageSize,
        total: view.pagerTotal(data),
        showSizeChanger: false,
        showTotal: () => totalText(data, rt.lang),
      }}
      // Paging and sorting load from the server; the builder's onChange actions hear of both.
      onChange={(p, _f, s, extra) => {
        if (extra.action === 'sort') view.setSortFrom(s);
        else if (extra.action === 'paginate') view.setPage(p.current ?? 1);
        dispatch('onChange', { page: extra.action === 'sort' ? 1 : p.current, sort: s });
      }}
    />
  );
}
