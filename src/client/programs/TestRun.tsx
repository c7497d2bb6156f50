/**
 * The test run: the record the program runs on (picked by searching its table), the input (a form
 * generated from the input steps' fields), and the answer of a run that is rolled back: the rows that
 * would change (field by field) and the per-step trace with each step's data.
 */
import {
  Alert,
  Button,
  Collapse,
  DatePicker,
  Form,
  Input,
  InputNumber,
  Select,
  Switch,
  Table,
  Tag,
  Typography,
} from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Flow, type InputField, type RecordChange, triggerOps } from '../../shared/program/index.ts';
import { ApiError } from '../api/api-error.ts';
import { programsApi, type TestAnswer } from '../api/programs.ts';
import { diff, RecordPicker } from './RecordPicker.tsx';
import { type TriggerDraft, TriggerTestForm, TriggerWrite, triggerBody } from './TriggerTest.tsx';

/** The fields of the top-level input steps. */
export function inputFieldsOf(flow: Pick<Flow, '_process'>): InputField[] {
  return flow._process
    .filter((s) => s._type === 'input')
    .flatMap((s) => (s._procedure.fields ?? []) as InputField[])
    .filter((f) => f.key);
}

/** The input form of a program, generated from its input fields. */
export function InputForm(props: {
  fields: InputField[];
  values: Record<string, unknown>;
  onChange: (v: Record<string, unknown>) => void;
}) {
  const set = (k: string, v: unknown) => props.onChange({ ...props.values, [k]: v });
  return (
    <Form layout="vertical" data-testid="test-input" component="div">
      {props.fields.map((f) => {
        const v = props.values[f.key];
        let control: React.ReactNode;
        switch (f.type) {
          case 'number':
            control = (
              <InputNumber
                value={typeof v === 'number' ? v : null}
                onChange={(x) => set(f.key, x ?? undefined)}
                style={{ width: '100%' }}
                aria-label={f.name || f.key}
              />
            );
            break;
          case 'boolean':
            control = (
              <Switch checked={v === true} onChange={(x) => set(f.key, x)} aria-label={f.name || f.key} />
            );
            break;
          case 'date':
            control = (
              <DatePicker
                onChange={(d) => set(f.key, d ? d.format('YYYY-MM-DD') : undefined)}
                style={{ width: '100%' }}
                aria-label={f.name || f.key}
              />
            );
            break;
          case 'select':
            control = (
              <Select
                value={typeof v === 'string' ? v : undefined}
                options={(f.options ?? []).map((o) => ({ value: o, label: o }))}
                onChange={(x: string) => set(f.key, x)}
                allowClear
                aria-label={f.name || f.key}
              />
            );
            break;
          default:
            control = (
              <Input
                value={typeof v === 'string' ? v : ''}
                onChange={(e) => set(f.key, e.target.value)}
                aria-label={f.name || f.key}
              />
            );
        }
        return (
          <Form.Item key={f.key} label={f.name || f.key} required={f.required}>
            {control}
          </Form.Item>
        );
      })}
    </Form>
  );
}

/** Displays come in run order and have no identity of their own. */
const displayKey = (i: number) => `display-${i}`;

function pretty(text: string | undefined): string {
  if (!text) return '';
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

export function TestRun(props: {
  project: string;
  flow: Flow;
  /** Saves pending edits first; false when the draft does not save. */
  flush: () => Promise<boolean>;
  tableName: (id: string) => string;
}) {
  const { t } = useTranslation();
  const fields = useMemo(() => inputFieldsOf(props.flow), [props.flow]);
  const entity = props.flow._option._entity;
  // A record trigger is tested after a write to its table, as it runs (params.op, old, new).
  const ops = entity ? triggerOps(props.flow._option.trigger) : [];
  const [trigger, setTrigger] = useState<TriggerDraft | null>(null);
  const draft = ops.length
    ? trigger && ops.includes(trigger.op)
      ? trigger
      : { op: ops[0]!, values: {} }
    : null;
  const [record, setRecord] = useState<string | undefined>();
  const [input, setInput] = useState<Record<string, unknown>>({});
  const [result, setResult] = useState<TestAnswer | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    setError(null);
    try {
      if (!(await props.flush())) return;
      setResult(
        draft
          ? await programsApi.test(props.project, props.flow._id, {}, undefined, triggerBody(draft))
          : await programsApi.test(props.project, props.flow._id, input, record),
      );
    } catch (err) {
      setResult(null);
      setError(err instanceof ApiError ? `${err.code}: ${err.message}` : String(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="prog-test" data-testid="test-run">
      {entity && draft ? (
        <TriggerTestForm
          project={props.project}
          entity={entity}
          ops={ops}
          value={draft}
          onChange={setTrigger}
        />
      ) : entity ? (
        <Form layout="vertical" component="div">
          <Form.Item label={t('progEditor.testRecord', { table: props.tableName(entity) })}>
            <RecordPicker
              project={props.project}
              entity={entity}
              value={record}
              onChange={(id) => setRecord(id)}
            />
          </Form.Item>
        </Form>
      ) : (
        <Typography.Paragraph type="secondary">{t('progEditor.noRecordTable')}</Typography.Paragraph>
      )}
      {draft ? null : fields.length > 0 ? (
        <InputForm fields={fields} values={input} onChange={setInput} />
      ) : (
        <Typography.Paragraph type="secondary">{t('progEditor.noInput')}</Typography.Paragraph>
      )}
      <Button type="primary" loading={busy} onClick={() => void run()} data-testid="test-run-go">
        {t('progEditor.runTest')}
      </Button>
      {error && <Alert type="error" showIcon style={{ marginTop: 12 }} message={error} />}
      {result && (
        <div data-testid="test-result" style={{ marginTop: 12 }}>
          {result.error ? (
            <Alert
              type="error"
              showIcon
              message={t('program.failedAt', { step: result.error.step ?? '' })}
              description={`${result.error.code}: ${result.error.msg}`}
            />
          ) : (
            <Alert type="success" showIcon message={t('program.rolledBack')} />
          )}
          {result.trigger && <TriggerWrite write={result.trigger} tableName={props.tableName} />}
          {result.display.length > 0 && (
            <div className="prog-display">
              {result.display.map((d, i) => (
                <Alert
                  key={displayKey(i)}
                  type="info"
                  message={`${d.step}: ${d.message ?? ''}`}
                  data-testid="test-display"
                />
              ))}
            </div>
          )}
          <Typography.Title level={5} style={{ marginTop: 12 }}>
            {t('program.changes')}
          </Typography.Title>
          {result.changes.length === 0 ? (
            <Typography.Text type="secondary">{t('program.noChanges')}</Typography.Text>
          ) : (
            <Table<RecordChange>
              size="small"
              rowKey={(r) => `${r.step}-${r.id}-${r.op}`}
              pagination={false}
              dataSource={result.changes}
              scroll={{ x: true }}
              data-testid="test-changes"
              columns={[
                { title: t('progEditor.handle'), dataIndex: 'step' },
                {
                  title: t('progEditor.table'),
                  dataIndex: 'entity',
                  render: (v: string) => props.tableName(v),
                },
                {
                  title: t('progEditor.op'),
                  dataIndex: 'op',
                  render: (v: string) => <Tag>{t(`progEditor.ops.${v}`)}</Tag>,
                },
                { title: 'id', dataIndex: 'id', render: (v: string) => v.slice(-6) },
                { title: t('progEditor.change'), render: (_: unknown, r) => diff(r.before, r.after) },
              ]}
            />
          )}
          <Typography.Title level={5} style={{ marginTop: 12 }}>
            {t('program.trace')}
          </Typography.Title>
          <TraceView trace={result.trace} />
        </div>
      )}
    </div>
  );
}

/** The steps a run went through, each opening to its data. */
export function TraceView(props: { trace: TestAnswer['trace'] }) {
  return (
    <Collapse
      size="small"
      data-testid="trace"
      items={props.trace.map((e, i) => ({
        key: String(i),
        label: (
          <span style={{ paddingLeft: (e.depth ?? 0) * 16 }} data-trace-step={e.step}>
            <Tag color={e.error ? 'red' : 'green'}>{e.type}</Tag>
            <b>{e.step}</b> <Typography.Text type="secondary">{e.ms} ms</Typography.Text>
          </span>
        ),
        children: <pre className="prog-trace-data">{e.error ?? pretty(e.data)}</pre>,
      }))}
    />
  );
}
