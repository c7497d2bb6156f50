import { ExportOutlined, ReloadOutlined } from '@ant-design/icons';
import { Button, Input, Space, Table } from 'antd';
import { PAGE_SIZE_DEFAULT } from '../../src/shared/constants.ts';
import { bool, num } from '../../src/shared/props.ts';
import type { WidgetRenderProps } from '../define.ts';
import { dataColumns, rowKey } from '../kit/table-columns.ts';
import { useDispatch, useWidgetData } from '../kit/widget-context.ts';

/** The designer table: columns from the entity's field meta; each of the 18 toggles switches a feature on. */
export function TableWidget({ id, props }: WidgetRenderProps) {
  const data = useWidgetData(id);
  const dispatch = useDispatch(id);
  const on = (k: string) => bool(props[k]);
  const columns = dataColumns(data.meta.fields, { index: on('index'), sort: on('sort') });
  const toolbar = on('search') || on('refresh') || on('export');
  return (
    <div>
      {toolbar && (
        <Space style={{ marginBottom: 8 }}>
          {on('search') && <Input.Search allowClear onSearch={(q) => dispatch('onSearch', q)} />}
          {on('refresh') && <Button icon={<ReloadOutlined />} onClick={() => dispatch('onRefresh')} />}
          {on('export') && <Button icon={<ExportOutlined />} onClick={() => dispatch('onExport')} />}
        </Space>
      )}
      <Table
        size="small"
        rowKey={rowKey}
        loading={data.loading}
        columns={columns}
        dataSource={data.rows}
        rowSelection={
          on('select') || on('multiple') ? { type: on('multiple') ? 'checkbox' : 'radio' } : undefined
        }
        pagination={{
          pageSize: num(props.pageSize, PAGE_SIZE_DEFAULT),
          total: data.meta.total,
          simple: on('simplePage'),
          showQuickJumper: on('pageIndex'),
          // The runtime loads the asked page from the server (rows are never all in the browser).
          onChange: (index, size) => dispatch('onPageChange', { index, size }),
        }}
        onRow={(record) => ({ onClick: () => dispatch('onRowClick', record) })}
      />
    </div>
  );
}
