/**
 * /dev/programs: the project's programs; a program's steps (add, reorder, remove; each step's type,
 * handle, table and settings), save, test run (the trace and the rows that would change, nothing
 * changed), and release.
 */
import { Alert, App, Button, Card, Empty, Input, List, Select, Space, Table, Tag, Typography } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Flow, type FlowStep, STEP_TYPES, stepType } from '../../../shared/program/index.ts';
import { ApiError } from '../../api/api-error.ts';
import { programsApi, type TestAnswer } from '../../api/programs.ts';
import { type Entity, wb } from '../../api/workbench.ts';
import { useProject } from './workbench-context.ts';

interface Draft {
  /** A key for React that stays with the step when steps move. */
  uid: number;
  step: FlowStep;
  /** The settings as the builder types them (JSON). */
  text: string;
}

let nextUid = 0;
const toDraft = (s: FlowStep): Draft => ({
  uid: ++nextUid,
  step: s,
  text: JSON.stringify(s._procedure, null, 2),
});

export default function ProgramsScreen() {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const p = useProject()._id;
  const zh = i18n.language === 'zh';
  const [flows, setFlows] = useState<Flow[]>([]);
  const [tables, setTables] = useState<Entity[]>([]);
  const [current, setCurrent] = useState<Flow | null>(null);
  const [steps, setSteps] = useState<Draft[]>([]);
  const [newName, setNewName] = useState('');
  const [testInput, setTestInput] = useState('{}');
  const [testRecord, setTestRecord] = useState('');
  const [result, setResult] = useState<TestAnswer | null>(null);
  const [busy, setBusy] = useState(false);

  const fail = useCallback(
    (err: unknown) => {
      void message.error(err instanceof ApiError ? `${err.code}: ${err.message}` : String(err));
    },
    [message],
  );
  const reload = useCallback(async () => {
    const [f, e] = await Promise.all([programsApi.list(p), wb.entities(p)]);
    setFlows(f.filter((x) => x._type === 'program'));
    setTables(e);
  }, [p]);
  useEffect(() => {
    void reload().catch(fail);
  }, [reload, fail]);

  const open = (f: Flow) => {
    setCurrent(f);
    setSteps(f._process.map(toDraft));
    setResult(null);
  };
  const create = async () => {
    if (!newName.trim()) return;
    try {
      const f = await programsApi.create(p, newName.trim());
      setNewName('');
      await reload();
      open(f);
    } catch (err) {
      fail(err);
    }
  };
  const patchStep = (i: number, next: Partial<Draft>) =>
    setSteps((list) => list.map((d, j) => (j === i ? { ...d, ...next } : d)));
  const addStep = (type: string) => {
    const def = stepType(type)!;
    const used = new Set(steps.map((d) => d.step._handle));
    let n = 1;
    while (used.has(`${type}${n}`)) n++;
    const proc: Record<string, unknown> = {};
    for (const k of (def.schema.required as string[] | undefined) ?? [])
      proc[k] = k === 'values' ? {} : k === 'fields' ? [] : '';
    const step: FlowStep = { _type: type, _handle: `${type}${n}`, _procedure: proc };
    if (def.entity) step._entity = tables[0]?._id ?? '';
    setSteps((list) => [...list, toDraft(step)]);
  };
  const move = (i: number, by: number) =>
    setSteps((list) => {
      const j = i + by;
      if (j < 0 || j >= list.length) return list;
      const next = [...list];
      [next[i], next[j]] = [next[j]!, next[i]!];
      return next;
    });

  /** The steps with their typed settings; null (and a message) when some settings are not JSON. */
  const collect = (): FlowStep[] | null => {
    const out: FlowStep[] = [];
    for (const d of steps) {
      try {
        out.push({ ...d.step, _procedure: JSON.parse(d.text) as Record<string, unknown> });
      } catch {
        void message.error(`${d.step._handle}: ${t('program.invalidJson')}`);
        return null;
      }
    }
    return out;
  };
  const save = async (): Promise<boolean> => {
    if (!current) return false;
    const process = collect();
    if (!process) return false;
    try {
      const f = await programsApi.save(p, current._id, { _process: process });
      setCurrent(f);
      void message.success(t('program.saved'));
      return true;
    } catch (err) {
      fail(err);
      return false;
    }
  };
  const testRun = async () => {
    if (!current) return;
    let data: Record<string, unknown>;
    try {
      data = JSON.parse(testInput || '{}') as Record<string, unknown>;
    } catch {
      void message.error(t('program.invalidJson'));
      return;
    }
    setBusy(true);
    try {
      if (await save())
        setResult(await programsApi.test(p, current._id, data, testRecord.trim() || undefined));
    } catch (err) {
      fail(err);
    } finally {
      setBusy(false);
    }
  };
  const release = async () => {
    if (!current || !(await save())) return;
    try {
      const f = await programsApi.release(p, current._id);
      setCurrent(f);
      void message.success(t('program.released', { version: f._version }));
      await reload();
    } catch (err) {
      fail(err);
    }
  };
  const remove = async () => {
    if (!current) return;
    try {
      await programsApi.remove(p, current._id);
      setCurrent(null);
      await reload();
    } catch (err) {
      fail(err);
    }
  };
  const tableName = (id: string) => tables.find((x) => x._id === id || x._code === id)?._name ?? id;

  return (
    <div
      style={{ display: 'flex', gap: 16, padding: 16, alignItems: 'flex-start' }}
      data-testid="programs-screen"
    >
      <Card title={t('program.programs')} style={{ width: 280, flex: 'none' }}>
        <Space.Compact style={{ width: '100%', marginBottom: 12 }}>
          <Input
            placeholder={t('program.name')}
            value={newName}
            onChange={(e) => setNewName(e.target.value)}
            onPressEnter={() => void create()}
          />
          <Button type="primary" onClick={() => void create()}>
            {t('program.newProgram')}
          </Button>
        </Space.Compact>
        {flows.length === 0 ? (
          <Empty description={t('program.empty')} />
        ) : (
          <List
            dataSource={flows}
            renderItem={(f) => (
              <List.Item
                onClick={() => open(f)}
                style={{ cursor: 'pointer', fontWeight: current?._id === f._id ? 600 : 400 }}
              >
                <span>{f._name}</span>
                {f._version ? <Tag color="green">v{f._version}</Tag> : <Tag>{t('program.notReleased')}</Tag>}
              </List.Item>
            )}
          />
        )}
      </Card>
      {current && (
        <div style={{ flex: 1, minWidth: 0 }}>
          <Card
            title={
              <Space>
                <span>{current._name}</span>
                {current._version ? (
                  <Tag color="green">{t('program.version', { version: current._version })}</Tag>
                ) : (
                  <Tag>{t('program.notReleased')}</Tag>
                )}
              </Space>
            }
            extra={
              <Space>
                <Button onClick={() => void save()}>{t('program.save')}</Button>
                <Button type="primary" onClick={() => void release()}>
                  {t('program.release')}
                </Button>
                <Button danger onClick={() => void remove()}>
                  {t('program.remove')}
                </Button>
              </Space>
            }
          >
            <Typography.Title level={5}>{t('program.steps')}</Typography.Title>
            {steps.map((d, i) => {
              const def = stepType(d.step._type);
              return (
                <Card
                  key={d.uid}
                  size="small"
                  style={{ marginBottom: 8 }}
                  data-testid={`step-${i}`}
                  title={
                    <Space wrap>
                      <Tag color="blue">{def ? (zh ? def.title.zh : def.title.en) : d.step._type}</Tag>
                      <Input
                        aria-label={t('program.handle')}
                        value={d.step._handle}
                        style={{ width: 140 }}
                        onChange={(e) => patchStep(i, { step: { ...d.step, _handle: e.target.value } })}
                      />
                      {def?.entity && (
                        <Select
                          aria-label={t('program.table')}
                          style={{ width: 180 }}
                          value={d.step._entity}
                          options={tables.map((x) => ({ value: x._id, label: x._name }))}
                          onChange={(v: string) => patchStep(i, { step: { ...d.step, _entity: v } })}
                        />
                      )}
                    </Space>
                  }
                  extra={
                    <Space>
                      <Button size="small" onClick={() => move(i, -1)} aria-label={t('program.moveUp')}>
                        ↑
                      </Button>
                      <Button size="small" onClick={() => move(i, 1)} aria-label={t('program.moveDown')}>
                        ↓
                      </Button>
                      <Button
                        size="small"
                        danger
                        onClick={() => setSteps((list) => list.filter((_, j) => j !== i))}
                        aria-label={t('program.remove')}
                      >
                        ×
                      </Button>
                    </Space>
                  }
                >
                  <Input.TextArea
                    aria-label={`${t('program.settings')} ${d.step._handle}`}
                    autoSize={{ minRows: 2, maxRows: 12 }}
                    style={{ fontFamily: 'monospace' }}
                    value={d.text}
                    onChange={(e) => patchStep(i, { text: e.target.value })}
                  />
                </Card>
              );
            })}
            <Select
              aria-label={t('program.addStep')}
              placeholder={t('program.addStep')}
              style={{ width: 220 }}
              value={null}
              options={STEP_TYPES.map((s) => ({ value: s.type, label: zh ? s.title.zh : s.title.en }))}
              onChange={(v: string) => addStep(v)}
            />
          </Card>
          <Card title={t('program.testRun')} style={{ marginTop: 16 }}>
            <Space direction="vertical" style={{ width: '100%' }}>
              <Input.TextArea
                aria-label={t('program.testInput')}
                placeholder={t('program.testInput')}
                autoSize={{ minRows: 1, maxRows: 6 }}
                value={testInput}
                onChange={(e) => setTestInput(e.target.value)}
              />
              <Input
                aria-label={t('program.testRecord')}
                placeholder={t('program.testRecord')}
                value={testRecord}
                onChange={(e) => setTestRecord(e.target.value)}
              />
              <Button type="primary" loading={busy} onClick={() => void testRun()}>
                {t('program.testRun')}
              </Button>
              {result && (
                <div data-testid="test-result">
                  {result.error ? (
                    <Alert
                      type="error"
                      message={t('program.failedAt', { step: result.error.step ?? '' })}
                      description={`${result.error.code}: ${result.error.msg}`}
                    />
                  ) : (
                    <Alert type="success" message={t('program.rolledBack')} />
                  )}
                  <Typography.Title level={5} style={{ marginTop: 12 }}>
                    {t('program.changes')}
                  </Typography.Title>
                  {result.changes.length === 0 ? (
                    <Typography.Text type="secondary">{t('program.noChanges')}</Typography.Text>
                  ) : (
                    <Table
                      size="small"
                      rowKey={(r) => `${r.step}-${r.id}-${r.op}`}
                      pagination={false}
                      dataSource={result.changes}
                      columns={[
                        { title: t('program.handle'), dataIndex: 'step' },
                        {
                          title: t('program.table'),
                          dataIndex: 'entity',
                          render: (v: string) => tableName(v),
                        },
                        { title: 'op', dataIndex: 'op' },
                        { title: 'id', dataIndex: 'id' },
                        {
                          title: 'before → after',
                          render: (_: unknown, r) => diff(r.before, r.after),
                        },
                      ]}
                    />
                  )}
                  <Typography.Title level={5} style={{ marginTop: 12 }}>
                    {t('program.trace')}
                  </Typography.Title>
                  <Table
                    size="small"
                    rowKey={(_, i) => String(i)}
                    pagination={false}
                    dataSource={result.trace}
                    columns={[
                      { title: t('program.handle'), dataIndex: 'step' },
                      { title: t('program.stepType'), dataIndex: 'type' },
                      { title: 'ms', dataIndex: 'ms' },
                      {
                        title: t('program.output'),
                        render: (_: unknown, r) => (
                          <code style={{ wordBreak: 'break-all' }}>{r.error ?? r.data ?? ''}</code>
                        ),
                      },
                    ]}
                  />
                </div>
              )}
            </Space>
          </Card>
        </div>
      )}
    </div>
  );
}

/** The fields a change touches, as `field: old → new`. */
function diff(before: Record<string, unknown> | null, after: Record<string, unknown> | null): string {
  const keys = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  const parts: string[] = [];
  for (const k of keys) {
    if (k.startsWith('_') || k === 'createdAt' || k === 'updatedAt') continue;
    const a = JSON.stringify(before?.[k] ?? null);
    const b = JSON.stringify(after?.[k] ?? null);
    if (a !== b) parts.push(`${k}: ${a} → ${b}`);
  }
  return parts.join('; ');
}
