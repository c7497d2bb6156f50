/**
 * Add or edit a record in a form generated from the table's fields: one input per field, chosen by
 * its type through FieldInput (new field types plug in there), checked by type as the server checks
 * (fields/rules.ts). Server validation messages are put beside the input they name. The one record
 * form: the end user's data view and the builder's rows grid both open it.
 */
import { Alert, Form, Modal } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Field } from '../../shared/api/fields.ts';
import { ApiError } from '../api/api-error.ts';
import type { DataRecord } from '../api/workbench.ts';
import { valueRules } from '../fields/rules.ts';
import { FieldInput } from '../screens/workbench/FieldInput.tsx';
import { relatedChoices } from '../screens/workbench/field-values.ts';
import { showServerError } from '../screens/workbench/server-errors.ts';
import { errorText } from './error-text.ts';

/** The values a record form starts from: the record's own fields (relations as their ids). */
export function formValues(fields: readonly Field[], record: Record<string, unknown> | undefined) {
  const out: Record<string, unknown> = {};
  if (!record) return out;
  for (const f of fields) {
    const v = record[f._field];
    if (f._type === 'collection' && Array.isArray(v))
      out[f._field] = v.map((x) => (x && typeof x === 'object' ? (x as { _id: string })._id : x));
    else if (v !== undefined) out[f._field] = v;
  }
  return out;
}

export function RecordForm({
  fields,
  record,
  title,
  onSave,
  onClose,
}: {
  fields: Field[];
  /** The record being edited; absent, a new one. */
  record?: Record<string, unknown>;
  title?: string;
  onSave(values: Record<string, unknown>): Promise<void>;
  onClose(): void;
}) {
  const { t, i18n } = useTranslation();
  const [form] = Form.useForm<Record<string, unknown>>();
  const [busy, setBusy] = useState(false);
  // A refusal that names no input (the role's filter, a quota…): shown in the form, which stays open.
  const [failure, setFailure] = useState<string | null>(null);
  const inputs = Object.fromEntries(fields.map((f) => [f._field, f._field]));
  async function finish(values: Record<string, unknown>) {
    setBusy(true);
    setFailure(null);
    try {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(values)) {
        // A new record leaves empty inputs out; an edited one clears them.
        if (v === undefined || v === '') {
          if (record && form.isFieldTouched(k)) out[k] = null;
        } else out[k] = v;
      }
      await onSave(out);
      onClose();
    } catch (err) {
      if (!showServerError(form, err, inputs) && err instanceof ApiError)
        setFailure(errorText(err, i18n.language));
    } finally {
      setBusy(false);
    }
  }
  return (
    <Modal
      open
      // A copy (the record without its id) is a new record.
      title={title ?? (typeof record?._id === 'string' ? t('views.editTitle') : t('grid.addTitle'))}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      confirmLoading={busy}
      destroyOnHidden
      width={600}
    >
      <Form
        form={form}
        layout="vertical"
        onFinish={finish}
        name="row-form"
        data-testid="row-form"
        initialValues={formValues(fields, record)}
      >
        {failure ? (
          <Alert
            type="error"
            showIcon
            title={failure}
            style={{ marginBottom: 16 }}
            data-testid="row-form-error"
          />
        ) : null}
        {fields.map((f) => (
          <Form.Item
            key={f._id}
            name={f._field}
            label={f._option.alias || f._name}
            rules={valueRules(f, i18n.language)}
          >
            <FieldInput field={f} known={record ? relatedChoices(f, record as DataRecord) : undefined} />
          </Form.Item>
        ))}
      </Form>
    </Modal>
  );
}
