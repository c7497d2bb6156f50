import { Form, Input, Modal, Select } from 'antd';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { Entity, Module } from '../../api/workbench.ts';
import { KEY_PATTERN, keyFromName, loadPinyin } from './field-key.ts';
import { showServerError } from './server-errors.ts';

export interface EntityValues {
  name: string;
  code: string;
  module: string | null;
}

interface Props {
  entity?: Entity;
  modules: Module[];
  defaultModule?: string | null;
  onSubmit(values: EntityValues): Promise<unknown>;
  onClose(): void;
}

/** Create or edit a table: name, code (derived from the name until typed), module. */
export function EntityModal({ entity, modules, defaultModule, onSubmit, onClose }: Props) {
  const { t } = useTranslation();
  const [form] = Form.useForm<EntityValues>();
  const codeTouched = useRef(Boolean(entity));

  // Chinese names need the pinyin dictionary: derive again once it arrives.
  useEffect(() => {
    void loadPinyin().then(() => {
      if (!codeTouched.current) form.setFieldValue('code', keyFromName(form.getFieldValue('name') ?? ''));
    });
  }, [form]);

  async function finish(v: EntityValues) {
    try {
      await onSubmit({ name: v.name.trim(), code: v.code?.trim() ?? '', module: v.module ?? null });
      onClose();
    } catch (err) {
      showServerError(form, err, { name: 'name', code: 'code', module: 'module' });
    }
  }

  return (
    <Modal
      open
      title={entity ? t('entity.edit') : t('entity.create')}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t('common.ok')}
      cancelText={t('common.cancel')}
      destroyOnHidden
    >
      <Form
        form={form}
        layout="vertical"
        name="entity-form"
        onFinish={finish}
        initialValues={{
          name: entity?._name ?? '',
          code: entity?._code ?? '',
          module: entity ? entity._module : (defaultModule ?? null),
        }}
        onValuesChange={(changed: Partial<EntityValues>) => {
          if ('code' in changed) codeTouched.current = true;
          if ('name' in changed && !codeTouched.current)
            form.setFieldValue('code', keyFromName(changed.name ?? ''));
        }}
      >
        <Form.Item
          name="name"
          label={t('entity.name')}
          rules={[{ required: true, whitespace: true, message: t('common.required') }]}
        >
          <Input maxLength={128} autoFocus />
        </Form.Item>
        <Form.Item
          name="code"
          label={t('entity.code')}
          extra={t('entity.codeHint')}
          rules={[{ pattern: KEY_PATTERN, message: t('entity.codeHint') }]}
        >
          <Input maxLength={32} />
        </Form.Item>
        <Form.Item name="module" label={t('entity.module')}>
          <Select
            allowClear
            placeholder={t('module.ungrouped')}
            options={modules.map((m) => ({ value: m._id, label: m._name }))}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
