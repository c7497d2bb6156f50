/**
 * The page's own settings: title, per-mode layout, state variables, data sources, page events, setup
 * references and the project's setup script. Each part is checked with the page schema (ajv) before it
 * goes out; errors show beside the part.
 */
import { CodeOutlined, DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Collapse, Drawer, Input, InputNumber, Select, Space, Switch } from 'antd';
import { useDeferredValue, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { pageValidator } from '../../../../widgets/index.ts';
import type { PageDocument } from '../../../shared/page-document.ts';
import { currentLang } from '../../i18n/index.ts';
import { SetupScriptEditor } from '../code/index.tsx';
import { PanelContext } from './context.ts';
import { localizeErrors } from './messages.ts';
import './panel.css';
import { EventsEditor } from './EventsEditor.tsx';
import { PAGE_EVENTS } from './events.ts';
import { PanelTabs } from './PanelTabs.tsx';
import { EntityPicker } from './pickers.tsx';
import { pointerToPath, usePanelChecksDue } from './resolver.ts';

type Json = Record<string, unknown>;
type Part = 'title' | 'layout' | 'state' | 'dataSources' | 'events' | 'setup';
export type PagePatch = Partial<Pick<PageDocument, Part>>;

/** Errors of one part of the page (dotted paths below it), checked against the page schema. */
export function validatePagePart(
  page: Omit<PageDocument, 'widgets'>,
  part: Part,
  value: unknown,
): Record<string, string> {
  const doc = {
    id: page.id,
    title: page.title,
    version: page.version,
    layout: page.layout,
    widgets: [],
    [part]: value,
  };
  const r = pageValidator().validatePageSettings(doc);
  if (r.ok) return {};
  const out: Record<string, string> = {};
  for (const e of r.errors) {
    const path = pointerToPath(e.path);
    if (path !== part && !path.startsWith(`${part}.`)) continue;
    out[path] ??= e.message;
  }
  return out;
}

function Err(props: { errors: Record<string, string>; prefix: string }) {
  const list = Object.entries(props.errors).filter(
    ([k]) => k === props.prefix || k.startsWith(`${props.prefix}.`),
  );
  return (
    <>
      {list.map(([k, m]) => (
        <div className="panel-error" role="alert" key={k}>
          {k.split('.').slice(1).join('.') || ''} {m}
        </div>
      ))}
    </>
  );
}

/** Not checked yet: what the errors shown are computed from on the panel's first render. */
const UNCHECKED = Symbol('unchecked');

/**
 * The errors shown beside a part, checked one render behind the draft: the first check compiles the
 * registry's validator (every kind's schema), which must not hold up opening the designer. What was
 * loaded is checked once the canvas is filled in (usePanelChecksDue), an edit at once; either way in
 * a deferred render (typing never waits on a check).
 */
function useShownErrors<T>(page: Omit<PageDocument, 'widgets'>, part: Part, draft: T, edited: boolean) {
  const due = usePanelChecksDue() || edited;
  const checked = useDeferredValue<T | typeof UNCHECKED>(due ? draft : UNCHECKED, UNCHECKED);
  return useMemo(
    () => (checked === UNCHECKED ? {} : localizeErrors(validatePagePart(page, part, checked), currentLang())),
    [page, part, checked],
  );
}

/** A part edited as a draft: goes out only when the page schema accepts it. */
function usePart<T>(page: Omit<PageDocument, 'widgets'>, part: Part, initial: T, emit: (v: T) => void) {
  const [draft, setDraft] = useState<T>(initial);
  const [edited, setEdited] = useState(false);
  const incoming = JSON.stringify(initial ?? null);
  useEffect(() => setDraft(JSON.parse(incoming) as T), [incoming]);
  const errors = useShownErrors(page, part, draft, edited);
  const set = (v: T) => {
    setDraft(v);
    setEdited(true);
    if (Object.keys(validatePagePart(page, part, v)).length === 0) emit(v);
  };
  return { draft, set, errors };
}

const STATE_TYPES = ['string', 'number', 'boolean', 'object', 'array'] as const;

function DefaultValue(props: { type: string; value: unknown; onChange: (v: unknown) => void }) {
  const { t } = useTranslation();
  const [text, setText] = useState(() => JSON.stringify(props.value ?? (props.type === 'array' ? [] : {})));
  const [bad, setBad] = useState(false);
  if (props.type === 'number')
    return (
      <InputNumber
        value={typeof props.value === 'number' ? props.value : null}
        onChange={(v) => props.onChange(v ?? 0)}
      />
    );
  if (props.type === 'boolean')
    return <Switch size="small" checked={props.value === true} onChange={props.onChange} />;
  if (props.type === 'string')
    return (
      <Input
        value={typeof props.value === 'string' ? props.value : ''}
        onChange={(e) => props.onChange(e.target.value)}
      />
    );
  return (
    <>
      <Input
        value={text}
        status={bad ? 'error' : undefined}
        style={{ fontFamily: 'monospace' }}
        onChange={(e) => {
          setText(e.target.value);
          try {
            const v = JSON.parse(e.target.value) as unknown;
            const ok =
              props.type === 'array' ? Array.isArray(v) : !!v && typeof v === 'object' && !Array.isArray(v);
            setBad(!ok);
            if (ok) props.onChange(v);
          } catch {
            setBad(true);
          }
        }}
      />
      {bad ? <div className="panel-error">{t('panel.badJson')}</div> : null}
    </>
  );
}

const toState = (list: Json[]) =>
  Object.fromEntries(list.map(({ name, ...rest }) => [String(name), rest])) as Record<string, Json>;

function StateEditor(props: {
  page: Omit<PageDocument, 'widgets'>;
  onChange: (s: PageDocument['state']) => void;
}) {
  const { t } = useTranslation();
  const rows0 = Object.entries(props.page.state ?? {}).map(([name, v]) => ({ name, ...(v as Json) }));
  const [rows, setRows] = useState<Json[]>(rows0);
  const [edited, setEdited] = useState(false);
  const names = rows.map((r) => String(r.name));
  const dup = names.find((n, i) => names.indexOf(n) !== i);
  const state = useMemo(() => toState(rows), [rows]);
  const errors = useShownErrors(props.page, 'state', state, edited);
  const set = (list: Json[]) => {
    setRows(list);
    setEdited(true);
    const ns = list.map((r) => String(r.name));
    const st = toState(list);
    if (
      ns.every((n, i) => ns.indexOf(n) === i) &&
      Object.keys(validatePagePart(props.page, 'state', st)).length === 0
    )
      props.onChange(list.length ? st : undefined);
  };
  const patch = (i: number, p: Json) => set(rows.map((r, j) => (j === i ? { ...r, ...p } : r)));
  return (
    <div data-testid="page-state">
      {rows.map((r, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows are edited in place
        <div className="panel-list-row" key={i}>
          <Space.Compact style={{ width: '100%' }}>
            <Input
              value={String(r.name)}
              placeholder={t('panel.stateName')}
              onChange={(e) => patch(i, { name: e.target.value })}
            />
            <Select
              value={String(r.type)}
              options={STATE_TYPES.map((x) => ({ value: x, label: x }))}
              onChange={(type) => patch(i, { type, default: undefined })}
              style={{ width: 110 }}
            />
            <Select
              value={String(r.persist ?? 'none')}
              options={(['none', 'session', 'local'] as const).map((x) => ({
                value: x,
                label: t(`panel.persist.${x}`),
              }))}
              onChange={(persist) => patch(i, { persist })}
              style={{ width: 110 }}
            />
            <Button
              icon={<DeleteOutlined />}
              onClick={() => set(rows.filter((_, j) => j !== i))}
              aria-label={t('panel.removeRow')}
            />
          </Space.Compact>
          <div className="panel-row-field">
            <span className="panel-row-label">{t('panel.stateDefault')}</span>
            <DefaultValue
              key={String(r.type)}
              type={String(r.type)}
              value={r.default}
              onChange={(v) => patch(i, { default: v })}
            />
          </div>
          <Err errors={errors} prefix={`state.${String(r.name)}`} />
        </div>
      ))}
      {dup ? <div className="panel-error">{t('panel.dupName', { name: dup })}</div> : null}
      <Err errors={errors} prefix="state" />
      <Button
        size="small"
        icon={<PlusOutlined />}
        onClick={() =>
          set([...rows, { name: `var${rows.length + 1}`, type: 'string', default: '', persist: 'none' }])
        }
        data-testid="add-state"
      >
        {t('panel.addState')}
      </Button>
    </div>
  );
}

export function PagePanel(props: {
  page: Omit<PageDocument, 'widgets'> & { widgets?: PageDocument['widgets'] };
  project: string;
  onChange(patch: PagePatch): void;
}) {
  const { t } = useTranslation();
  const lang = currentLang();
  const [setupOpen, setSetupOpen] = useState(false);
  const page = props.page;
  const widgets = useMemo(
    () => (page.widgets ?? []).map((w) => ({ id: w.id, name: w.name, kind: w.kind })),
    [page.widgets],
  );
  const ctx = useMemo(() => ({ project: props.project, widgets, lang }), [props.project, widgets, lang]);
  const title = usePart(page, 'title', page.title, (v) => props.onChange({ title: v }));
  const layout = usePart(page, 'layout', page.layout, (v) => props.onChange({ layout: v }));
  const sources = usePart<Json[]>(page, 'dataSources', page.dataSources ?? [], (v) =>
    props.onChange({ dataSources: v.length ? v : undefined }),
  );
  const setup = usePart<Json[]>(page, 'setup', page.setup ?? [], (v) =>
    props.onChange({ setup: v.length ? v : undefined }),
  );

  const modeLayout = (mode: 'pc' | 'mobile') => {
    const m = (layout.draft[mode] ?? {}) as Json;
    const setM = (p: Json) => {
      const next = { ...m, ...p };
      for (const k of Object.keys(p)) if (p[k] === undefined || p[k] === '') delete next[k];
      layout.set({ ...layout.draft, [mode]: next });
    };
    const num = (k: string) => (
      <div className="panel-row-field" key={k}>
        <span className="panel-row-label">{t(`panel.layout.${k}`)}</span>
        <InputNumber
          value={typeof m[k] === 'number' ? (m[k] as number) : null}
          onChange={(v) => setM({ [k]: v ?? undefined })}
          data-testid={`layout-${mode}-${k}`}
          style={{ width: '100%' }}
        />
      </div>
    );
    return (
      <div>
        {['cols', 'rowHeight', 'width'].map(num)}
        <div className="panel-row-field">
          <span className="panel-row-label">{t('panel.layout.background')}</span>
          <Input
            value={String(m.background ?? '')}
            onChange={(e) => setM({ background: e.target.value })}
            placeholder="#ffffff"
          />
        </div>
        <Err errors={layout.errors} prefix={`layout.${mode}`} />
      </div>
    );
  };

  const sourceRow = (s: Json, i: number) => {
    const patch = (p: Json) => {
      const next = { ...s, ...p };
      for (const k of Object.keys(p)) if (p[k] === undefined) delete next[k];
      sources.set(sources.draft.map((x, j) => (j === i ? next : x)));
    };
    const pageSize = ((s.page as Json | undefined)?.size as number | undefined) ?? null;
    return (
      <div className="panel-list-row" key={i} data-testid={`source-${i}`}>
        <Space.Compact style={{ width: '100%' }}>
          <Input
            value={String(s.id ?? '')}
            placeholder="id"
            onChange={(e) => patch({ id: e.target.value })}
          />
          <Select
            value={String(s.type)}
            style={{ width: 110 }}
            options={(['entity', 'dataset', 'flow', 'static'] as const).map((x) => ({
              value: x,
              label: t(`panel.sourceType.${x}`),
            }))}
            onChange={(type) => patch({ type })}
          />
          <Button
            icon={<DeleteOutlined />}
            onClick={() => sources.set(sources.draft.filter((_, j) => j !== i))}
            aria-label={t('panel.removeRow')}
          />
        </Space.Compact>
        {s.type === 'entity' ? (
          <div className="panel-row-field">
            <span className="panel-row-label">{t('panel.entity')}</span>
            <EntityPicker
              value={String(s.entity ?? '')}
              onChange={(v) => patch({ entity: v || undefined })}
            />
          </div>
        ) : s.type === 'dataset' || s.type === 'flow' ? (
          <div className="panel-row-field">
            <span className="panel-row-label">{t(`panel.sourceType.${String(s.type)}`)}</span>
            <Input
              value={String(s[String(s.type)] ?? '')}
              onChange={(e) => patch({ [String(s.type)]: e.target.value || undefined })}
            />
          </div>
        ) : null}
        <div className="panel-row-field">
          <span className="panel-row-label">{t('panel.pageSize')}</span>
          <InputNumber
            value={pageSize}
            onChange={(v) => patch({ page: v === null ? undefined : { index: 1, size: v } })}
            style={{ width: '100%' }}
          />
        </div>
        <div className="panel-row-field">
          <span className="panel-row-label">{t('panel.autoLoad')}</span>
          <Switch size="small" checked={s.auto !== false} onChange={(on) => patch({ auto: on })} />
        </div>
        <Err errors={sources.errors} prefix={`dataSources.${i}`} />
      </div>
    );
  };

  return (
    <PanelContext.Provider value={ctx}>
      <div className="property-panel" data-testid="page-panel">
        <div className="panel-field">
          <div className="panel-label">
            <span>{t('panel.pageTitle')}</span>
          </div>
          <Input
            value={title.draft}
            onChange={(e) => title.set(e.target.value)}
            status={Object.keys(title.errors).length ? 'error' : undefined}
            data-testid="page-title"
          />
          <Err errors={title.errors} prefix="title" />
        </div>
        <Collapse
          size="small"
          defaultActiveKey={['layout']}
          items={[
            {
              key: 'layout',
              label: t('panel.pageLayout'),
              children: (
                <PanelTabs
                  items={[
                    { key: 'pc', label: t('panel.modePc'), children: modeLayout('pc') },
                    { key: 'mobile', label: t('panel.modeMobile'), children: modeLayout('mobile') },
                  ]}
                />
              ),
            },
            {
              key: 'state',
              label: t('panel.pageState'),
              children: <StateEditor page={page} onChange={(s) => props.onChange({ state: s })} />,
            },
            {
              key: 'sources',
              label: t('panel.dataSources'),
              children: (
                <div>
                  {sources.draft.map(sourceRow)}
                  <Button
                    size="small"
                    icon={<PlusOutlined />}
                    onClick={() =>
                      sources.set([
                        ...sources.draft,
                        { id: `ds${sources.draft.length + 1}`, type: 'entity', auto: true },
                      ])
                    }
                    data-testid="add-source"
                  >
                    {t('panel.addSource')}
                  </Button>
                </div>
              ),
            },
            {
              key: 'events',
              label: t('panel.events'),
              children: (
                <EventsEditor
                  events={page.events as Record<string, Record<string, unknown>[]> | undefined}
                  eventNames={PAGE_EVENTS}
                  onChange={(events) =>
                    props.onChange({ events: Object.keys(events).length ? events : undefined })
                  }
                />
              ),
            },
            {
              key: 'setup',
              label: t('panel.setup'),
              children: (
                <div data-testid="page-setup">
                  {setup.draft.map((s, i) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: rows are edited in place
                    <Space.Compact key={i} style={{ width: '100%', marginBottom: 4 }}>
                      <Input
                        value={String(s.id ?? '')}
                        placeholder="id"
                        onChange={(e) =>
                          setup.set(setup.draft.map((x, j) => (j === i ? { ...x, id: e.target.value } : x)))
                        }
                      />
                      <Input
                        value={String(s.name ?? '')}
                        placeholder={t('panel.name')}
                        onChange={(e) =>
                          setup.set(setup.draft.map((x, j) => (j === i ? { ...x, name: e.target.value } : x)))
                        }
                      />
                      <Button
                        icon={<DeleteOutlined />}
                        onClick={() => setup.set(setup.draft.filter((_, j) => j !== i))}
                        aria-label={t('panel.removeRow')}
                      />
                    </Space.Compact>
                  ))}
                  <Err errors={setup.errors} prefix="setup" />
                  <Space>
                    <Button
                      size="small"
                      icon={<PlusOutlined />}
                      onClick={() => setup.set([...setup.draft, { id: 'setup' }])}
                    >
                      {t('panel.addSetupRef')}
                    </Button>
                    <Button
                      size="small"
                      icon={<CodeOutlined />}
                      onClick={() => setSetupOpen(true)}
                      data-testid="open-setup"
                    >
                      {t('code.setupTitle')}
                    </Button>
                  </Space>
                </div>
              ),
            },
          ]}
        />
        <Drawer
          open={setupOpen}
          onClose={() => setSetupOpen(false)}
          title={t('code.setupTitle')}
          size={760}
          destroyOnHidden
        >
          <SetupScriptEditor project={props.project} height={520} />
        </Drawer>
      </div>
    </PanelContext.Provider>
  );
}
