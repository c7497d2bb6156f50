/**
 * The write a record trigger's test run is run after: the kind of write (among those the program runs
 * after), the row it changes (update, remove: `params.old`) and the values it writes (create, update:
 * `params.new` is the row as the write leaves it). The server makes the write in the rolled-back run.
 */
import { Form, Input, InputNumber, Segmented, Select, Switch, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Field } from '../../shared/api/fields.ts';
import type { TriggerOp, TriggerTestInput, TriggerTestWrite } from '../../shared/program/index.ts';
import type { DataRecord } from '../api/workbench.ts';
import { useFields } from '../designer/panel/data.ts';
import { diff, RecordPicker } from './RecordPicker.tsx';

/** Field types a test write can take from a plain control; the others keep what the row has. */
const EDITABLE = new Set([
  'string',
  'longtext',
  'email',
  'phone',
  'url',
  'number',
  'date',
  'time',
  'boolean',
  'option',
  'relate',
]);

export interface TriggerDraft {
  op: TriggerOp;
  record?: string | undefined;
  /** The row picked (update, remove): edited values are compared with it. */
  row?: DataRecord | undefined;
  values: Record<string, unknown>;
}

/** The test call's `trigger`: for an update only the values that differ from the picked row. */
export function triggerBody(d: TriggerDraft): TriggerTestInput {
  if (d.op === 'remove') return { op: d.op, ...(d.record ? { record: d.record } : {}) };
  const values: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(d.values)) {
    if (v === undefined) continue;
    if (d.op === 'update' && d.row && JSON.stringify(d.row[k] ?? null) === JSON.stringify(v ?? null))
      continue;
    values[k] = v;
  }
  return { op: d.op, ...(d.op === 'update' && d.record ? { record: d.record } : {}), values };
}

function FieldControl(props: { field: Field; value: unknown; onChange: (v: unknown) => void }) {
  const { field: f, value: v } = props;
  const label = f._name || f._field;
  switch (f._type) {
    case 'number':
      return (
        <InputNumber
          value={typeof v === 'number' ? v : null}
          onChange={(x) => props.onChange(x ?? null)}
          style={{ width: '100%' }}
          aria-label={label}
        />
      );
    case 'boolean':
      return <Switch checked={v === true} onChange={(x) => props.onChange(x)} aria-label={label} />;
    case 'option':
      return (
        <Select
          value={typeof v === 'string' ? v : undefined}
          options={(f._option.info?.list ?? []).map((o) => ({ value: o, label: o }))}
          onChange={(x?: string) => props.onChange(x ?? null)}
          allowClear
          aria-label={label}
        />
      );
    default:
      return (
        <Input
          value={v === null || v === undefined ? '' : String(v)}
          onChange={(e) => props.onChange(e.target.value)}
          aria-label={label}
        />
      );
  }
}

export function TriggerTestForm(props: {
  project: string;
  entity: string;
  ops: TriggerOp[];
  value: TriggerDraft;
  onChange: (d: TriggerDraft) => void;
}) {
  const { t } = useTranslation();
  const { data: fields } = useFields(props.project, props.entity);
  const d = props.value;
  const editable = (fields ?? []).filter((f) => EDITABLE.has(f._type) && f._status !== 'disabled');
  const pick = (id: string | undefined, row: DataRecord | undefined) => {
    // An update starts from the row as it is: the builder edits what the write changes.
    const values: Record<string, unknown> = {};
    if (row && d.op === 'update') for (const f of editable) values[f._field] = row[f._field] ?? null;
    props.onChange({ ...d, record: id, row, values });
  };
  return (
    <div className="prog-trigger-test" data-testid="test-trigger">
      <Form layout="vertical" component="div">
        <Form.Item label={t('progEditor.triggerTest.op')}>
          <Segmented<TriggerOp>
            value={d.op}
            options={props.ops.map((o) => ({ value: o, label: t(`progEditor.ops.${o}`) }))}
            onChange={(op) => props.onChange({ op, values: {} })}
            data-testid="test-trigger-op"
          />
        </Form.Item>
        {d.op !== 'create' && (
          <Form.Item label={t('progEditor.triggerTest.old')} required>
            <RecordPicker
              project={props.project}
              entity={props.entity}
              value={d.record}
              onChange={(id, row) => pick(id, row)}
            />
          </Form.Item>
        )}
        {d.op !== 'remove' && (
          <div data-testid="test-trigger-values">
            <Typography.Text strong>{t('progEditor.triggerTest.new')}</Typography.Text>
            <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
              {t(d.op === 'update' ? 'progEditor.triggerTest.newUpdate' : 'progEditor.triggerTest.newCreate')}
            </Typography.Paragraph>
            {d.op === 'update' && !d.record
              ? null
              : editable.map((f) => (
                  <Form.Item key={f._id} label={f._name || f._field}>
                    <FieldControl
                      field={f}
                      value={d.values[f._field]}
                      onChange={(v) => props.onChange({ ...d, values: { ...d.values, [f._field]: v } })}
                    />
                  </Form.Item>
                ))}
          </div>
        )}
      </Form>
    </div>
  );
}

/** The write the answer was run after, as `op · row · field: old → new`. */
export function TriggerWrite(props: { write: TriggerTestWrite; tableName: (id: string) => string }) {
  const { t } = useTranslation();
  const w = props.write;
  const row = w.new ?? w.old;
  const name = typeof row?.__name === 'string' && row.__name ? row.__name : w.id.slice(-6);
  const change = w.op === 'update' ? diff(w.old, w.new) : '';
  return (
    <Typography.Paragraph data-testid="test-trigger-write" style={{ marginTop: 12 }}>
      {t('progEditor.triggerTest.ran', {
        op: t(`progEditor.ops.${w.op}`),
        table: props.tableName(w.entity),
        row: name,
      })}
      {change && (
        <>
          {' · '}
          <Typography.Text code>{change}</Typography.Text>
        </>
      )}
    </Typography.Paragraph>
  );
}
