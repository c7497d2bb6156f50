import { Button, Form, Input, InputNumber, Space } from 'antd';
import { lazy, Suspense, useEffect } from 'react';
import { bool, list, num, obj, str } from '../../src/shared/props.ts';
import type { WidgetRenderProps } from '../define.ts';
import { useDispatch, useWidgetData } from '../kit/widget-context.ts';

type InputKind = 'text' | 'textarea' | 'number' | 'phone' | 'region' | 'image';
const INPUTS: readonly InputKind[] = ['text', 'textarea', 'number', 'phone', 'region', 'image'];

const loadRich = () => import('./rich-inputs.tsx');
const RegionInput = lazy(() => loadRich().then((m) => ({ default: m.RegionInput })));
const ImageInput = lazy(() => loadRich().then((m) => ({ default: m.ImageInput })));

/**
 * A region or image input, loaded with its file on first use (rich-inputs.tsx). Form.Item hands its
 * value and onChange to its direct child: this wrapper, which passes them on inside the Suspense.
 */
function DeferredInput({
  input,
  entity,
  ...field
}: {
  input: 'region' | 'image';
  entity: string;
  value?: unknown;
  onChange?: (v: string) => void;
}) {
  return (
    <Suspense fallback={<Input disabled />}>
      {input === 'region' ? <RegionInput {...field} /> : <ImageInput {...field} entity={entity} />}
    </Suspense>
  );
}

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
      input: (INPUTS as readonly string[]).includes(str(f.input)) ? (str(f.input) as InputKind) : 'text',
    }))
    .filter((f) => f.field && !f.hide);
  const columns = Math.max(1, Math.min(4, Math.trunc(num(props.columns, 1))));
  const entity = str(props.entity);
  const control = (input: InputKind) => {
    switch (input) {
      case 'textarea':
        return <Input.TextArea autoSize={{ minRows: 2, maxRows: 6 }} />;
      case 'number':
        return <InputNumber style={{ width: '100%' }} />;
      case 'phone':
        return <Input inputMode="tel" maxLength={20} />;
      case 'region':
      case 'image':
        return <DeferredInput input={input} entity={entity} />;
      default:
        return <Input />;
    }
  };
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
          {control(f.input)}
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
