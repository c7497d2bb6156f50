import { PlusOutlined } from '@ant-design/icons';
import { Avatar, Button, Cascader, Form, Input, InputNumber, Space, Upload } from 'antd';
import { useEffect, useState } from 'react';
import { bool, list, num, obj, str } from '../../src/shared/props.ts';
import { safeUrl } from '../../src/shared/sanitize.ts';
import type { WidgetRenderProps } from '../define.ts';
import { useDispatch, useRuntime, useWidgetData } from '../kit/widget-context.ts';
import { REGIONS, regionPath, regionText } from './regions.ts';

type InputKind = 'text' | 'textarea' | 'number' | 'phone' | 'region' | 'image';
const INPUTS: readonly InputKind[] = ['text', 'textarea', 'number', 'phone', 'region', 'image'];

/** A region picker (province / city / district) whose value is the text "省/市/区". */
function RegionInput({ value, onChange }: { value?: unknown; onChange?: (v: string) => void }) {
  const rt = useRuntime();
  return (
    <Cascader
      options={REGIONS}
      value={regionPath(value)}
      onChange={(path) => onChange?.(regionText((path ?? []) as unknown[]))}
      placeholder={rt.lang === 'en' ? 'Province / city / district' : '省 / 市 / 区'}
      style={{ width: '100%' }}
    />
  );
}

/** An image (an avatar) the user uploads; the value is the stored file's URL. */
function ImageInput({
  value,
  onChange,
  entity,
}: {
  value?: unknown;
  onChange?: (v: string) => void;
  entity: string;
}) {
  const rt = useRuntime();
  const [busy, setBusy] = useState(false);
  const src = safeUrl(str(value));
  return (
    <Upload
      accept="image/png,image/jpeg,image/gif,image/webp"
      showUploadList={false}
      disabled={!rt.upload || busy}
      customRequest={({ file }) => {
        if (!rt.upload) return;
        setBusy(true);
        rt.upload(file as File, 'image', entity || undefined)
          .then((u) => onChange?.(u.url))
          .catch((e: unknown) => rt.notify?.('error', e instanceof Error ? e.message : String(e)))
          .finally(() => setBusy(false));
      }}
    >
      <Space>
        <Avatar size={64} src={src || undefined} icon={src ? undefined : <PlusOutlined />} />
        <Button loading={busy}>
          {rt.lang === 'en' ? (src ? 'Change' : 'Upload') : src ? '更换' : '上传'}
        </Button>
      </Space>
    </Upload>
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
        return <RegionInput />;
      case 'image':
        return <ImageInput entity={entity} />;
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
