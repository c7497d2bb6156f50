/**
 * One program open in the editor: its step tree and the selected step's generated panel, undo/redo
 * (buttons and Ctrl/⌘+Z, Ctrl/⌘+Shift+Z, Ctrl+Y), autosave (debounced; the indicator says saving /
 * saved / the server's refusal, which names the step at fault), the table the program runs on and the
 * writes to it that run it as a record trigger, the test run, versions (release, restore) and the run log.
 */
import {
  CheckCircleOutlined,
  LoadingOutlined,
  RedoOutlined,
  ThunderboltOutlined,
  UndoOutlined,
  WarningOutlined,
} from '@ant-design/icons';
import { App, Button, Checkbox, Empty, Select, Space, Tabs, Tag, Tooltip, Typography } from 'antd';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  type Flow,
  type FlowDocument,
  type FlowStep,
  stepType,
  TRIGGER_OPS,
  triggerOps,
} from '../../shared/program/index.ts';
import { ApiError } from '../api/api-error.ts';
import { programsApi } from '../api/programs.ts';
import type { Entity } from '../api/workbench.ts';
import { useFields } from '../designer/panel/data.ts';
import type { Lang } from '../designer/panel/schema-fields.ts';
import { editorApi } from './api.ts';
import { useHistory } from './history.ts';
import { StepPanel } from './StepPanel.tsx';
import { StepTree } from './StepTree.tsx';
import { TestRun } from './TestRun.tsx';
import {
  allHandles,
  duplicateStep,
  insertStep,
  type ListPath,
  listAt,
  newStep,
  parseKey,
  pathKey,
  removeStep,
  replaceStep,
  type StepPath,
  scopeAt,
  stepAt,
} from './tree.ts';
import { RunLog, VersionsPanel } from './VersionsPanel.tsx';
import { stepErrors } from './validate.ts';
import '../designer/panel/panel.css';
import './programs.css';

const AUTOSAVE_MS = 800;

type SaveState =
  | { kind: 'saved' }
  | { kind: 'dirty' }
  | { kind: 'saving' }
  | { kind: 'error'; message: string };

/** Mapping rows whose field is not picked yet (`__new…`) stay in the editor but are not saved. */
export function cleanProcess(list: FlowStep[]): FlowStep[] {
  return list.map((s) => {
    const def = stepType(s._type);
    const props = (def?.schema.properties ?? {}) as Record<string, Record<string, unknown>>;
    const proc = { ...s._procedure };
    for (const [k, sch] of Object.entries(props)) {
      const v = proc[k];
      if (sch['x-mapping'] && v && typeof v === 'object')
        proc[k] = Object.fromEntries(Object.entries(v).filter(([key]) => !key.startsWith('__new')));
      if (sch['x-steps'] && Array.isArray(v)) proc[k] = cleanProcess(v as FlowStep[]);
    }
    return { ...s, _procedure: proc };
  });
}

const docOf = (f: Flow): FlowDocument => ({ _process: f._process, _option: f._option ?? {} });

/** Path keys of steps whose settings fail their schema (nested included). */
function faultsOf(list: FlowStep[], at: ListPath = [], out = new Set<string>()): Set<string> {
  list.forEach((s, i) => {
    const p = [...at, i];
    if (Object.keys(stepErrors(s)).length || (stepType(s._type)?.entity && !s._entity)) out.add(pathKey(p));
    for (const slot of stepType(s._type)?.slots ?? [])
      faultsOf((s._procedure[slot] ?? []) as FlowStep[], [...p, slot], out);
  });
  return out;
}

export function ProgramEditor(props: {
  project: string;
  flow: Flow;
  tables: Entity[];
  programs: Flow[];
  lang: Lang;
  /** The flow as the server answered a save, release or restore (the list shows versions). */
  onSaved: (f: Flow) => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const { project, flow } = props;
  const history = useHistory<FlowDocument>(docOf(flow));
  const doc = history.value;
  const [selected, setSelected] = useState<string | null>(null);
  const [save, setSave] = useState<SaveState>({ kind: 'saved' });
  const [tab, setTab] = useState('steps');
  const [runs, setRuns] = useState(0);
  const saved = useRef(JSON.stringify(docOf(flow)));
  const latest = useRef(doc);
  latest.current = doc;
  const inFlight = useRef<Promise<boolean> | null>(null);
  // Counts answered saves: the autosave looks again after each (edits or an undo made while a save was
  // on its way may differ from what the server now has, with no further edit to start a save).
  const [savedRev, setSavedRev] = useState(0);

  // Another program opened: start over.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only when the id changes
  useEffect(() => {
    history.reset(docOf(flow));
    saved.current = JSON.stringify(docOf(flow));
    setSelected(null);
    setSave({ kind: 'saved' });
  }, [flow._id]);

  const persist = useCallback(async (): Promise<boolean> => {
    const d = latest.current;
    const body = { _process: cleanProcess(d._process), _option: d._option };
    const text = JSON.stringify(d);
    if (text === saved.current) return true;
    setSave({ kind: 'saving' });
    try {
      const f = await editorApi.update(project, flow._id, body);
      saved.current = text;
      setSave(JSON.stringify(latest.current) === text ? { kind: 'saved' } : { kind: 'dirty' });
      setSavedRev((n) => n + 1);
      props.onSaved(f);
      return true;
    } catch (err) {
      setSave({
        kind: 'error',
        message: err instanceof ApiError ? `${err.code}: ${err.message}` : String(err),
      });
      return false;
    }
  }, [project, flow._id, props.onSaved]);

  const flush = useCallback(async (): Promise<boolean> => {
    if (inFlight.current) await inFlight.current;
    const p = persist();
    inFlight.current = p;
    try {
      return await p;
    } finally {
      inFlight.current = null;
    }
  }, [persist]);

  // Autosave after a pause in editing, and again after a save whose answer left the editor ahead.
  // biome-ignore lint/correctness/useExhaustiveDependencies: savedRev is the trigger
  useEffect(() => {
    if (JSON.stringify(doc) === saved.current) {
      // Undone back to what the server has: nothing to save.
      setSave((s) => (s.kind === 'saving' ? s : { kind: 'saved' }));
      return;
    }
    setSave((s) => (s.kind === 'error' ? s : { kind: 'dirty' }));
    const timer = setTimeout(() => void flush(), AUTOSAVE_MS);
    return () => clearTimeout(timer);
  }, [doc, flush, savedRev]);

  // Leaving with unsaved edits saves them.
  useEffect(() => () => void flush(), [flush]);

  // Undo/redo from the keyboard, outside text fields (they keep their own undo).
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!(e.ctrlKey || e.metaKey)) return;
      const el = e.target as HTMLElement | null;
      if (el?.closest('input, textarea, [contenteditable="true"], .monaco-editor')) return;
      const k = e.key.toLowerCase();
      if (k === 'z' && !e.shiftKey) history.undo();
      else if ((k === 'z' && e.shiftKey) || k === 'y') history.redo();
      else return;
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [history.undo, history.redo]);

  const setProcess = (process: FlowStep[], key?: string) => history.set({ ...doc, _process: process }, key);
  const selPath = selected === null ? null : parseKey(selected);
  const selStep = selPath ? stepAt(doc._process, selPath) : undefined;
  const recordEntity = doc._option._entity;
  const triggerOn = triggerOps(doc._option.trigger);
  const { data: recordFields } = useFields(project, recordEntity || undefined);
  const scope = useMemo(
    () =>
      selPath
        ? scopeAt(
            doc._process,
            selPath,
            (recordFields ?? []).map((f) => f._field),
          )
        : [],
    [doc._process, selPath, recordFields],
  );
  const faults = useMemo(() => faultsOf(doc._process), [doc._process]);

  const add = (at: ListPath, type: string) => {
    const list = listAt(doc._process, at) ?? [];
    const step = newStep(
      type,
      allHandles(doc._process),
      stepType(type)?.entity ? (recordEntity ?? props.tables[0]?._id) : undefined,
    );
    setProcess(insertStep(doc._process, at, list.length, step));
    setSelected(pathKey([...at, list.length]));
  };
  const release = async () => {
    if (!(await flush())) {
      void message.error(t('progEditor.fixFirst'));
      return;
    }
    try {
      const f = await programsApi.release(project, flow._id);
      props.onSaved(f);
      void message.success(t('program.released', { version: f._version }));
    } catch (err) {
      void message.error(err instanceof ApiError ? `${err.code}: ${err.message}` : String(err));
    }
  };
  const tableName = (id: string) => props.tables.find((x) => x._id === id || x._code === id)?._name ?? id;

  const indicator =
    save.kind === 'saving' ? (
      <Tag icon={<LoadingOutlined />} data-testid="save-state">
        {t('progEditor.saving')}
      </Tag>
    ) : save.kind === 'dirty' ? (
      <Tag data-testid="save-state">{t('progEditor.unsaved')}</Tag>
    ) : save.kind === 'error' ? (
      <Tooltip title={save.message}>
        <Tag color="red" icon={<WarningOutlined />} data-testid="save-state">
          {t('progEditor.notSaved')}
        </Tag>
      </Tooltip>
    ) : (
      <Tag color="green" icon={<CheckCircleOutlined />} data-testid="save-state">
        {t('progEditor.saved')}
      </Tag>
    );

  const steps = (
    <div className="prog-editor-body">
      <div className="prog-tree-pane">
        <StepTree
          process={doc._process}
          selected={selected}
          lang={props.lang}
          faults={faults}
          onSelect={(p: StepPath) => setSelected(pathKey(p))}
          onChange={(p) => {
            setProcess(p);
            setSelected(null);
          }}
          onAdd={add}
          onDuplicate={(p) => setProcess(duplicateStep(doc._process, p))}
          onRemove={(p) => {
            setProcess(removeStep(doc._process, p));
            setSelected(null);
          }}
        />
      </div>
      <div className="prog-panel-pane">
        {selStep && selPath ? (
          <StepPanel
            key={selected}
            step={selStep}
            project={project}
            lang={props.lang}
            scope={scope}
            programs={props.programs.filter((f) => f._id !== flow._id)}
            onChange={(s, key) => setProcess(replaceStep(doc._process, selPath, s), key)}
          />
        ) : (
          <Empty description={t('progEditor.pickStep')} />
        )}
      </div>
    </div>
  );

  return (
    <div className="prog-editor" data-testid="program-editor">
      <div className="prog-toolbar">
        <Space wrap>
          <Typography.Title level={5} style={{ margin: 0 }}>
            {flow._name}
          </Typography.Title>
          {flow._version ? (
            <Tag color="green">{t('program.version', { version: flow._version })}</Tag>
          ) : (
            <Tag>{t('program.notReleased')}</Tag>
          )}
          {triggerOn.length ? (
            <Tag icon={<ThunderboltOutlined />} color="purple" data-testid="trigger-tag">
              {t('progEditor.triggerTag', {
                ops: triggerOn.map((o) => t(`progEditor.ops.${o}`)).join(', '),
              })}
            </Tag>
          ) : null}
          {indicator}
        </Space>
        <Space wrap>
          <Select
            allowClear
            style={{ width: 200 }}
            placeholder={t('progEditor.runsOn')}
            aria-label={t('progEditor.runsOn')}
            value={recordEntity || undefined}
            options={props.tables.map((x) => ({
              value: x._id,
              label: `${t('progEditor.runsOnShort')}: ${x._name}`,
            }))}
            onChange={(v?: string) => {
              const option = { ...doc._option };
              if (v) option._entity = v;
              else {
                delete option._entity;
                delete option.trigger;
              }
              history.set({ ...doc, _option: option });
            }}
            data-testid="program-table"
          />
          <Tooltip title={recordEntity ? t('progEditor.triggerHelp') : t('progEditor.triggerNeedsTable')}>
            <Space size={4} data-testid="program-trigger">
              <Typography.Text type="secondary">{t('progEditor.runAfter')}</Typography.Text>
              <Checkbox.Group
                disabled={!recordEntity}
                value={triggerOn}
                options={TRIGGER_OPS.map((o) => ({ value: o, label: t(`progEditor.ops.${o}`) }))}
                onChange={(v) => {
                  const option = { ...doc._option };
                  const on = TRIGGER_OPS.filter((o) => v.includes(o));
                  if (on.length) option.trigger = { on };
                  else delete option.trigger;
                  history.set({ ...doc, _option: option });
                }}
              />
            </Space>
          </Tooltip>
          <Tooltip title={`${t('progEditor.undo')} (Ctrl+Z)`}>
            <Button
              icon={<UndoOutlined />}
              disabled={!history.canUndo}
              onClick={history.undo}
              aria-label={t('progEditor.undo')}
            />
          </Tooltip>
          <Tooltip title={`${t('progEditor.redo')} (Ctrl+Shift+Z)`}>
            <Button
              icon={<RedoOutlined />}
              disabled={!history.canRedo}
              onClick={history.redo}
              aria-label={t('progEditor.redo')}
            />
          </Tooltip>
          <Button type="primary" onClick={() => void release()}>
            {t('program.release')}
          </Button>
        </Space>
      </div>
      {save.kind === 'error' ? (
        <Typography.Paragraph type="danger" className="prog-save-error" data-testid="save-error">
          {save.message}
        </Typography.Paragraph>
      ) : null}
      <Tabs
        activeKey={tab}
        onChange={(k) => {
          setTab(k);
          if (k === 'runs') setRuns((n) => n + 1);
        }}
        items={[
          { key: 'steps', label: t('program.steps'), children: steps },
          {
            key: 'test',
            label: t('program.testRun'),
            children: (
              <TestRun project={project} flow={{ ...flow, ...doc }} flush={flush} tableName={tableName} />
            ),
          },
          {
            key: 'versions',
            label: t('progEditor.versions'),
            children: (
              <VersionsPanel
                project={project}
                flow={flow}
                onRestored={(f) => {
                  saved.current = JSON.stringify(docOf(f));
                  history.set(docOf(f));
                  setSave({ kind: 'saved' });
                  props.onSaved(f);
                }}
              />
            ),
          },
          {
            key: 'runs',
            label: t('program.runs'),
            children: <RunLog project={project} flow={flow} refresh={runs} />,
          },
        ]}
      />
    </div>
  );
}
