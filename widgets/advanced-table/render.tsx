import { Table } from 'antd';
import { PAGE_SIZE_DEFAULT } from '../../src/shared/constants.ts';
import { bool, list, num, obj, str } from '../../src/shared/props.ts';
import { widgetViewOptions } from '../../src/shared/view-features.ts';
import type { WidgetRenderProps } from '../define.ts';
import { dataColumns, rowKey, sortable } from '../kit/table-columns.ts';
import { totalText, useTableView } from '../kit/table-view.ts';
import { useDispatch, useRuntime, useWidgetData, type ViewColumn } from '../kit/widget-context.ts';

/** A declared column as the data view takes it (`fixed: none` is no side). */
function viewColumn(c: Record<string, unknown>): ViewColumn {
  const width = num(c.width, 0);
  return {
    field: str(c.field),
    ...(str(c.title) ? { title: str(c.title) } : {}),
    ...(width ? { width } : {}),
    ...(c.fixed === 'left' || c.fixed === 'right' ? { fixed: c.fixed } : {}),
    ...(bool(c.sortable) ? { sortable: true } : {}),
  };
}

/**
 * Declared columns (or every field). Bound to a table or a dataset, end users get the data view list
 * menu entries open (the runtime's `dataView`) with the declared columns and the 17 toggles (over a
 * dataset, read-only); on the designer canvas and in tests it draws its picture from the runtime's rows.
 */
export function AdvancedTableWidget(p: WidgetRenderProps) {
  const rt = useRuntime();
  const entity = str(p.props.entity).trim();
  const dataset = str(p.props.dataset).trim();
  if (rt.dataView && (entity || dataset))
    return <AdvancedTableView {...p} entity={entity} dataset={dataset} />;
  return <AdvancedTablePicture {...p} />;
}

function AdvancedTableView({
  id,
  props,
  entity,
  dataset,
}: WidgetRenderProps & { entity: string; dataset: string }) {
  const rt = useRuntime();
  const dispatch = useDispatch(id);
  const declared = list(props.columns)
    .map(obj)
    .map(viewColumn)
    .filter((c) => c.field);
  return rt.dataView?.({
    widget: id,
    entity,
    ...(dataset ? { dataset } : {}),
    options: widgetViewOptions(props, num(props.pageSize, PAGE_SIZE_DEFAULT)),
    ...(declared.length ? { columns: declared } : {}),
    bordered: bool(props.bordered),
    onEvent: (e) => {
      if (e.type === 'page') dispatch('onChange', { page: e.index, sort: null });
      else if (e.type === 'sort')
        dispatch('onChange', {
          page: 1,
          sort: e.field ? { field: e.field, order: e.order === 'asc' ? 'ascend' : 'descend' } : null,
        });
    },
  });
}

function AdvancedTablePicture({ id, props }: WidgetRenderProps) {
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
