import { Table } from 'antd';
import { PAGE_SIZE_DEFAULT } from '../../src/shared/constants.ts';
import { bool, list, num, obj, str } from '../../src/shared/props.ts';
import type { WidgetRenderProps } from '../define.ts';
import { dataColumns, rowKey } from '../kit/table-columns.ts';
import { useDispatch, useWidgetData } from '../kit/widget-context.ts';

export function AdvancedTableWidget({ id, props }: WidgetRenderProps) {
  const data = useWidgetData(id);
  const dispatch = useDispatch(id);
  const declared = list(props.columns).map(obj);
  const columns = declared.length
    ? declared.map((c) => ({
        key: str(c.field),
        dataIndex: str(c.field),
        title: str(c.title, str(c.field)),
        width: num(c.width, 0) || undefined,
        fixed: c.fixed === 'left' ? ('left' as const) : c.fixed === 'right' ? ('right' as const) : undefined,
        sorter: bool(c.sortable) ? true : undefined,
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
      virtual={bool(props.virtual) && rows.length > 30}
      scroll={bool(props.virtual) ? { y: 400, x: 'max-content' } : undefined}
      pagination={{ pageSize: num(props.pageSize, PAGE_SIZE_DEFAULT), total: data.meta.total }}
      onChange={(p, _f, s) => dispatch('onChange', { page: p.current, sort: s })}
    />
  );
}
