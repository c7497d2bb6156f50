import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Form, Input, InputNumber, Modal, Select, Space, Switch } from 'antd';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import {
  type Entity,
  FIELD_TYPES,
  type Field,
  type FieldOption,
  type FieldType,
} from '../../api/workbench.ts';
import { FieldShareInputs } from '../system/admin/FieldShareInputs.tsx';
import { KEY_PATTERN, keyFromName, loadPinyin } from './field-key.ts';
import { showServerError } from './server-errors.ts';

export interface FieldValues {
  name: string;
  field: string;
  type: FieldType;
  relate?: string;
  alias?: string;
  decimals?: number | null;
  listEnable?: boolean;
  list?: string[];
  /** An option set's key (option fields) and an auto-numbering rule's key (text fields), /system/share. */
  selection?: string | null;
  increment?: string | null;
  hide: boolean;
  status: 'normal' | 'disabled';
}

/** The field's `option` JSON from the form. */
export function optionOf(v: FieldValues, base: FieldOption = {}): FieldOption {
  const o: FieldOption = { ...base };
  if (v.alias?.trim()) o.alias = v.alias.trim();
  else delete o.alias;
  if (v.type === 'number' && typeof v.decimals === 'number') o.decimals = v.decimals;
  else delete o.decimals;
  const list = (v.list ?? []).map((x) => x.trim()).filter(Boolean);
  if (v.type === 'string' || v.type === 'number') o.info = { enable: v.listEnable === true, list };
  else if (v.type === 'option' || v.type === 'options')
    o.info = v.selection ? { enable: true, list: [], selection: v.selection } : { enable: true, list };
  else delete o.info;
  if (v.type === 'string' && v.increment) o.increment = v.increment;
  else delete o.increment;
  return o;
}

interface Props {
  field?: Field;
  entities: Entity[];
  onSubmit(values: FieldValues): Promise<unknown>;
  onClose(): void;
}

const SERVER_INPUTS = {
  name: 'name',
  field: 'field',
  relate: 'relate',
  type: 'type',
  option: 'list',
  status: 'status',
};

/** Create or edit a field: every type, with the inputs its type needs. */
export function FieldModal({ field, entities, onSubmit, onClose }: Props) {
  const { t } = useTranslation();
  const [form] = Form.useForm<FieldValues>();
  const keyTouched = useRef(Boolean(field));
  const type = Form.useWatch('type', form) ?? field?._type ?? 'string';
  const listEnable = Form.useWatch('listEnable', form);
  const optionType = type === 'option' || type === 'options';
  const fromSet = Boolean(Form.useWatch('selection', form));

  // Chinese names need the pinyin dictionary: derive again once it arrives.
  useEffect(() => {
    void loadPinyin().then(() => {
      if (!keyTouched.current) form.setFieldValue('field', keyFromName(form.getFieldValue('name') ?? ''));
    });
  }, [form]);

  async function finish(v: FieldValues) {
    try {
      await onSubmit({ ...v, name: v.name.trim(), field: v.field?.trim() ?? '' });
      onClose();
    } catch (err) {
      showServerError(form, err, SERVER_INPUTS);
    }
  }

  return (
    <Modal
      open
      title={field ? t('field.edit') : t('field.add')}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      destroyOnHidden
      width={560}
    >
      <Form
        form={form}
        layout="vertical"
        name="field-form"
        data-testid="field-form"
        onFinish={finish}
        initialValues={{
          name: field?._name ?? '',
          field: field?._field ?? '',
          type: field?._type ?? 'string',
          relate: field?._relate[0],
          alias: field?._option.alias ?? '',
          decimals: field?._option.decimals ?? null,
          listEnable: field?._option.info?.enable === true,
          list: field?._option.info?.selection ? [] : (field?._option.info?.list ?? []),
          selection: field?._option.info?.selection ?? null,
          increment: field?._option.increment ?? null,
          hide: field?._hide ?? false,
          status: field?._status ?? 'normal',
        }}
        onValuesChange={(changed: Partial<FieldValues>) => {
          if ('field' in changed) keyTouched.current = true;
          if ('name' in changed && !keyTouched.current)
            form.setFieldValue('field', keyFromName(changed.name ?? ''));
          // An option field starts with one empty option to fill in.
          if (
            (changed.type === 'option' || changed.type === 'options') &&
            !form.getFieldValue('list')?.length
          )
            form.setFieldValue('list', ['']);
        }}
      >
        <Space.Compact block className="wb-field-row">
          <Form.Item
            name="name"
            label={t('field.name')}
            className="wb-grow"
            rules={[{ required: true, whitespace: true, message: t('common.required') }]}
          >
            <Input maxLength={128} autoFocus />
          </Form.Item>
          <Form.Item name="type" label={t('field.type')} className="wb-type">
            <Select
              disabled={Boolean(field)}
              data-testid="field-type"
              // Fifteen types: all drawn, so each can be reached without scrolling a virtual list.
              virtual={false}
              listHeight={400}
              options={FIELD_TYPES.map((ft) => ({ value: ft, label: t(`field.types.${ft}`) }))}
            />
          </Form.Item>
        </Space.Compact>
        <Form.Item
          name="field"
          label={t('field.key')}
          extra={t('field.keyHint')}
          rules={[{ pattern: KEY_PATTERN, message: t('field.keyHint') }]}
        >
          <Input maxLength={32} />
        </Form.Item>
        {type === 'relate' || type === 'collection' ? (
          <Form.Item
            name="relate"
            label={t('field.relate')}
            rules={[{ required: true, message: t('common.required') }]}
          >
            <Select
              disabled={Boolean(field)}
              data-testid="field-relate"
              showSearch={{ optionFilterProp: 'label' }}
              options={entities.map((e) => ({ value: e._id, label: `${e._name} (${e._code})` }))}
            />
          </Form.Item>
        ) : null}
        <Form.Item name="alias" label={t('field.alias')}>
          <Input maxLength={128} />
        </Form.Item>
        {type === 'number' ? (
          <Form.Item name="decimals" label={t('field.decimals')}>
            <InputNumber min={0} max={10} precision={0} />
          </Form.Item>
        ) : null}
        {type === 'string' || type === 'number' ? (
          <Form.Item name="listEnable" label={t('field.options')} valuePropName="checked">
            <Switch data-testid="field-list-enable" />
          </Form.Item>
        ) : null}
        <FieldShareInputs type={type} />
        {optionType && !fromSet ? <div className="ant-form-item-label">{t('field.options')}</div> : null}
        {(listEnable && (type === 'string' || type === 'number')) || (optionType && !fromSet) ? (
          <Form.List
            name="list"
            rules={[
              {
                validator: async (_, list?: string[]) => {
                  if (optionType && !(list ?? []).some((x) => x?.trim()))
                    throw new Error(t('fieldValue.optionsRequired'));
                },
              },
            ]}
          >
            {(items, { add, remove }, { errors }) => (
              <div className="wb-option-list" data-testid="option-list">
                {items.map((item, i) => (
                  <Space.Compact key={item.key} block>
                    <Form.Item
                      name={item.name}
                      noStyle
                      rules={[{ required: true, whitespace: true, message: t('common.required') }]}
                    >
                      <Input placeholder={t('field.optionValue', { n: i + 1 })} maxLength={128} />
                    </Form.Item>
                    <Button
                      icon={<DeleteOutlined />}
                      onClick={() => remove(item.name)}
                      aria-label={t('common.remove')}
                    />
                  </Space.Compact>
                ))}
                <Form.ErrorList errors={errors} />
                <Button
                  type="dashed"
                  icon={<PlusOutlined />}
                  onClick={() => add('')}
                  block
                  data-testid="option-add"
                >
                  {t('field.optionAdd')}
                </Button>
              </div>
            )}
          </Form.List>
        ) : null}
        <Space size="large">
          <Form.Item name="hide" label={t('field.hide')} valuePropName="checked">
            <Switch />
          </Form.Item>
          <Form.Item name="status" label={t('field.status')}>
            <Select
              className="wb-type"
              options={[
                { value: 'normal', label: t('field.normal') },
                { value: 'disabled', label: t('field.disabled') },
              ]}
            />
          </Form.Item>
        </Space>
      </Form>
    </Modal>
  );
}
