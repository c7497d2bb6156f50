/**
 * Running a program from a page, a menu or a script: prepare (what it asks) → the input form in a
 * modal when it has one → exec → its display (messages as notices, rows in a modal) → the tables it
 * changed reload wherever they are shown (the record-change bus). What a program asks is cached per
 * program and released version.
 */
import { DatePicker, Form, Input, InputNumber, Modal, Select, Switch, Table } from 'antd';
import i18next from 'i18next';
import type { InputField, PreparedProgram } from '../../shared/program/index.ts';
import { post } from '../api/request.ts';
import { entityChanged } from './data-source.ts';
import { notify } from './notices.ts';

interface ExecAnswer {
  run: string;
  status: string;
  output: unknown;
  display: { step: string; message?: string; rows?: Record<string, unknown>[] }[];
  entities: string[];
  changed: number;
}

const prepared = new Map<string, Promise<PreparedProgram>>();
const base = (project: string) => `/api/common/program/${encodeURIComponent(project)}`;

function prepare(project: string, flow: string, key: string): Promise<PreparedProgram> {
  const k = `${project}/${flow}`;
  let hit = prepared.get(k);
  if (!hit) {
    hit = post<PreparedProgram>(
      `${base(project)}/prepare/${encodeURIComponent(flow)}/${encodeURIComponent(key)}`,
      {},
      { quiet: true },
    );
    prepared.set(k, hit);
    hit.catch(() => prepared.delete(k));
  }
  return hit;
}

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

function showDisplay(name: string, answer: ExecAnswer): void {
  let shown = false;
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
  opts: { params?: Record<string, unknown>; record?: string | undefined } = {},
): Promise<unknown> {
  const p = await prepare(project, flow, key || 'page');
  let data: Record<string, unknown> = { ...(opts.params ?? {}) };
  const asked = p.input.filter((f) => data[f.key] === undefined);
  if (asked.length) {
    const v = await askInput({ ...p, input: asked });
    if (v === null) return undefined;
    data = { ...data, ...v };
  }
  const answer = await post<ExecAnswer>(
    `${base(project)}/exec/${encodeURIComponent(flow)}/${encodeURIComponent(key || 'page')}`,
    opts.record ? { data, record: opts.record } : { data },
    { quiet: true },
  );
  for (const e of answer.entities) entityChanged(project, e);
  showDisplay(p._name, answer);
  return answer.output;
}

/** Forget what programs ask (after a release seen by the user, on project switch). */
export function clearPreparedPrograms(): void {
  prepared.clear();
}
