import { Table } from 'antd';
import { PAGE_SIZE_DEFAULT } from '../../src/shared/constants.ts';
import { bool, list, obj, str } from '../../src/shared/props.ts';
import type { WidgetRenderProps } from '../define.ts';
import { dataColumns, rowKey } from '../kit/table-columns.ts';
import { totalText, useTableView } from '../kit/table-view.ts';
import { useDispatch, useRuntime, useWidgetData } from '../kit/widget-context.ts';

/** Table view of the simple mode: fields chosen and hidden by `field` (_field, _hide); border, summary, index. */
export function SimpleTableWidget({ id, props }: WidgetRenderProps) {
  const rt = useRuntime();
  const data = useWidgetData(id);
  const dispatch = useDispatch(id);
  // No page size of its own: the runtime's default page, and the pager asks the server for the next.
  const view = useTableView(id, PAGE_SIZE_DEFAULT);
  const picked = list(props.field).map(obj);
  const hidden = new Set(picked.filter((f) => bool(f._hide)).map((f) => str(f._field)));
  const order = picked.map((f) => str(f._field));
  const fields = (data.meta.fields ?? [])
    .filter((f) => !hidden.has(f.key))
    .sort((a, b) => (order.indexOf(a.key) + 1 || 1e9) - (order.indexOf(b.key) + 1 || 1e9));
  return (
    <div>
      {str(props.title) && <div style={{ fontWeight: 600, marginBottom: 8 }}>{str(props.title)}</div>}
      <Table
        size="small"
        rowKey={rowKey}
        bordered={bool(props.border)}
        loading={data.loading}
        columns={dataColumns(fields, {
          index: bool(props.index),
          indexFrom: (view.page - 1) * PAGE_SIZE_DEFAULT,
        })}
        dataSource={data.rows}
        pagination={{
          current: view.page,
          pageSize: PAGE_SIZE_DEFAULT,
          total: view.pagerTotal(data),
          showSizeChanger: false,
          showTotal: () => totalText(data, rt.lang),
          onChange: (index) => view.setPage(index),
        }}
        onRow={(record) => ({ onClick: () => dispatch('onRowClick', record) })}
        summary={
          bool(props.summary)
            ? () => (
                <Table.Summary.Row>
                  <Table.Summary.Cell index={0}>{totalText(data, rt.lang)}</Table.Summary.Cell>
                </Table.Summary.Row>
              )
            : undefined
        }
      />
    </div>
  );
}
