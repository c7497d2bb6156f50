/**
 * Running a program from a page, a menu, a list or table, or a script: prepare (what it asks;
 * batched and cached per released version, program-calls.ts) → the input form in a modal when it
 * has one → exec (one record, or one run per selected record) → its display (messages as notices,
 * rows in a modal) → the tables it changed reload wherever they are shown (the record-change bus).
 */
import { DatePicker, Form, Input, InputNumber, Modal, Select, Switch, Table } from 'antd';
import i18next from 'i18next';
import type { DisplayItem, InputField, PreparedProgram } from '../../shared/program/index.ts';
import { ApiError } from '../api/api-error.ts';
import { entityChanged } from './data-source.ts';
import { notify } from './notices.ts';
import { clearProgramCaches, execProgram, execProgramBulk, prepareProgram } from './program-calls.ts';

function fieldInput(f: InputField) {
  switch (f.type) {
    case 'number':
      return <InputNumber style={{ width: '100%' }} />;
    case 'boolean':
      return <Switch />;
    case 'date':
      return <DatePicker style={{ width: '100%' }} />;
    case 'select':
      return <Select options={(f.options ?? []).map((o) => ({ value: o, label: o }))} />;
    default:
      return <Input />;
  }
}

/** The input form in a modal; answers the values, or null when the user cancels. */
function askInput(p: PreparedProgram): Promise<Record<string, unknown> | null> {
  return new Promise((resolve) => {
    let values: Record<string, unknown> = {};
    const fields = p.input;
    const missing = () =>
      fields.find((f) => f.required && (values[f.key] === undefined || values[f.key] === ''));
    Modal.confirm({
      title: p._name,
      icon: null,
      okText: i18next.t('program.run'),
      cancelText: i18next.t('program.cancel'),
      content: (
        <Form
          layout="vertical"
          data-testid="program-input"
          onValuesChange={(_, all) => {
            values = all as Record<string, unknown>;
          }}
        >
          {fields.map((f) => (
            <Form.Item
              key={f.key}
              name={f.key}
              label={f.name}
              required={f.required}
              valuePropName={f.type === 'boolean' ? 'checked' : 'value'}
            >
              {fieldInput(f)}
            </Form.Item>
          ))}
        </Form>
      ),
      onOk: () => {
        const m = missing();
        if (m) {
          notify('error', i18next.t('program.required', { name: m.name }));
          return Promise.reject(new Error('missing'));
        }
        const out: Record<string, unknown> = {};
        for (const f of fields) {
          const v = values[f.key];
          // Dates leave as epoch ms (dayjs values from the picker).
          out[f.key] =
            f.type === 'date' && v && typeof (v as { valueOf(): number }).valueOf === 'function'
              ? (v as { valueOf(): number }).valueOf()
              : (v ?? null);
        }
        resolve(out);
        return undefined;
      },
      onCancel: () => resolve(null),
    });
  });
}

function showDisplay(name: string, answer: { display: DisplayItem[] }): void {
  // A run that reached a display step said what it had to say, even nothing (a program run quietly
  // on page load, e.g. the shop's "my profile"): the generic "done" notice is for runs without one.
  let shown = answer.display.length > 0;
  for (const d of answer.display) {
    if (d.message) {
      notify('success', d.message);
      shown = true;
    }
    if (d.rows?.length) {
      const keys = [...new Set(d.rows.flatMap((r) => Object.keys(r)))].filter(
        (k) => !k.startsWith('_') && k !== 'createdAt' && k !== 'updatedAt',
      );
      Modal.info({
        title: i18next.t('program.resultTitle', { name }),
        width: 720,
        content: (
          <Table
            size="small"
            rowKey={(r) => String(r._id ?? JSON.stringify(r))}
            dataSource={d.rows}
            pagination={false}
            columns={keys.map((k) => ({
              title: k,
              dataIndex: k,
              key: k,
              render: (v: unknown) => (typeof v === 'object' ? JSON.stringify(v) : String(v ?? '')),
            }))}
          />
        ),
      });
      shown = true;
    }
  }
  if (!shown) notify('success', i18next.t('program.done', { name }));
}

/**
 * Runs a released program; answers its output, or undefined when the user cancelled the input form.
 * A coded error rejects (the caller shows it).
 */
export async function runProgramFlow(
  project: string,
  flow: string,
  key: string,
  opts: {
    params?: Record<string, unknown>;
    record?: string | undefined;
    /** Selected rows: one run per record (a single one runs as `record`). */
    records?: string[] | undefined;
  } = {},
): Promise<unknown> {
  const k = (key || 'page').slice(0, 64);
  const p = await prepareProgram(project, flow, k);
  const records = opts.records ?? [];
  const record = records.length === 1 ? records[0] : opts.record;
  let data: Record<string, unknown> = { ...(opts.params ?? {}) };
  const asked = p.input.filter((f) => data[f.key] === undefined);
  if (asked.length) {
    const v = await askInput({ ...p, input: asked });
    if (v === null) return undefined;
    data = { ...data, ...v };
  }
  if (records.length > 1) {
    const bulk = await execProgramBulk(project, flow, k, { data, records });
    for (const e of bulk.entities) entityChanged(project, e);
    if (bulk.display.length) showDisplay(p._name, bulk);
    if (bulk.failed) {
      const first = bulk.runs.find((r) => r.error);
      notify(
        'warning',
        i18next.t('program.bulkFailed', { ok: bulk.ok, failed: bulk.failed, msg: first?.error?.msg ?? '' }),
      );
    } else notify('success', i18next.t('program.bulkDone', { name: p._name, count: bulk.ok }));
    return bulk.runs.map((r) => r.output);
  }
  const answer = await execProgram(project, flow, k, record ? { data, record } : { data });
  for (const e of answer.entities) entityChanged(project, e);
  showDisplay(p._name, answer);
  return answer.output;
}

/** A program's coded refusal or failure as a notice (what list and table buttons show). */
export function programFailed(err: unknown): void {
  if (err instanceof ApiError && err.silent) return;
  const msg = err instanceof Error ? err.message : String(err);
  notify('error', err instanceof ApiError ? `${msg} (${err.code})` : msg);
}

/** Forget what programs ask (after a release seen by the user, on project switch). */
export function clearPreparedPrograms(): void {
  clearProgramCaches();
}
