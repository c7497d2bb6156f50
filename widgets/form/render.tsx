import { Button, Form, Input, Space } from 'antd';
import { useEffect } from 'react';
import { bool, list, num, obj, str } from '../../src/shared/props.ts';
import type { WidgetRenderProps } from '../define.ts';
import { useDispatch, useWidgetData } from '../kit/widget-context.ts';

/** A form over an entity: fields from props, else from the entity's field meta. Submit goes to the runtime. */
export function FormWidget({ id, props }: WidgetRenderProps) {
  const data = useWidgetData(id);
  const dispatch = useDispatch(id);
  const [form] = Form.useForm();
  // The record arrives after the form mounts (a modal opened with { id }): show it when it does.
  const record = data.rows[0];
  useEffect(() => {
    if (record) form.setFieldsValue(record);
  }, [form, record]);
  const declared = list(props.fields).map(obj);
  const fields = (
    declared.length
      ? declared
      : (data.meta.fields ?? []).map(
          (f): Record<string, unknown> => ({ field: f.key, label: f.name, hide: f.hide }),
        )
  )
    .map((f) => ({
      field: str(f.field),
      label: str(f.label, str(f.field)),
      required: bool(f.required),
      hide: bool(f.hide),
    }))
    .filter((f) => f.field && !f.hide);
  const columns = Math.max(1, Math.min(4, Math.trunc(num(props.columns, 1))));
  return (
    <Form
      form={form}
      layout="horizontal"
      labelCol={{ flex: `${num(props.labelWidth, 100)}px` }}
      initialValues={data.rows[0]}
      onFinish={(values) => dispatch('onSubmit', values)}
      style={{ display: 'grid', gridTemplateColumns: `repeat(${columns}, 1fr)`, columnGap: 16 }}
    >
      {fields.map((f) => (
        <Form.Item
          key={f.field}
          name={f.field}
          label={f.label}
          rules={f.required ? [{ required: true }] : []}
        >
          <Input />
        </Form.Item>
      ))}
      <Form.Item style={{ gridColumn: '1 / -1' }}>
        <Space>
          <Button type="primary" htmlType="submit">
            {str(props.submitText, '提交')}
          </Button>
          {bool(props.showReset, true) && <Button htmlType="reset">重置</Button>}
        </Space>
      </Form.Item>
    </Form>
  );
}
