/**
 * Events → actions: per event an ordered list of actions (add, remove, reorder), each action's fields
 * generated from its branch of events.schema.json (action-fields.ts), with an optional `when`
 * condition. The whole map is
 * checked with ajv (the registry's events validator); errors show beside the action; only a map that
 * passes goes out through onChange.
 */
import {
  ArrowDownOutlined,
  ArrowUpOutlined,
  CodeOutlined,
  DeleteOutlined,
  PlusOutlined,
} from '@ant-design/icons';
import { AutoComplete, Button, Card, Dropdown, Empty, Input, Select, Space } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { pageValidator, WIDGETS } from '../../../../widgets/index.ts';
import { isBinding } from '../../../shared/expr/index.ts';
import { CodeEditorModal } from '../code/index.tsx';
import {
  ACTION_TYPES,
  type ActionEditor,
  type ActionType,
  actionFields,
  actionTitle,
  newAction,
} from './action-fields.ts';
import { FxToggle } from './BindableField.tsx';
import { usePanel } from './context.ts';
import { ExprInput } from './ExprInput.tsx';
import { FieldEditor } from './FieldEditor.tsx';
import { localizeErrors } from './messages.ts';
import { WidgetPicker } from './pickers.tsx';
import { pointerToPath } from './resolver.ts';
import { type EditorKind, type Json, labelOf } from './schema-fields.ts';

type Action = Record<string, unknown>;

/** Kinds a field marked `x-widget-role: form` may pick (submitForm's target): those declaring a form behaviour. */
const FORM_KINDS = WIDGETS.filter((w) => w.form).map((w) => w.kind);
export type EventMap = Record<string, Action[]>;

/** Checks an events map; errors keyed `onClick.0` (the action) or `onClick.0.page` (a field). */
export function validateEventMap(events: EventMap): Record<string, string> {
  const r = pageValidator().validateEvents(events);
  if (r.ok) return {};
  const out: Record<string, string> = {};
  for (const e of r.errors) {
    const path = pointerToPath(e.path);
    if (out[path]) continue;
    const missing = /must have required property '(.+)'/.exec(e.message);
    if (missing && e.keyword === 'required') out[`${path}.${missing[1]}`] ??= e.message;
    else out[path] = e.message;
  }
  return out;
}

/** Empty lists and empty optional fields are left out, so the stored map stays small. */
export function compactEvents(events: EventMap): EventMap {
  const out: EventMap = {};
  for (const [k, list] of Object.entries(events)) if (list.length) out[k] = list;
  return out;
}

/** A value that is either a literal text or a binding. */
function TextOrExpr(props: {
  value: unknown;
  onChange: (v: unknown) => void;
  testId?: string;
  status?: 'error';
}) {
  const bound = isBinding(props.value);
  return (
    <Space.Compact style={{ width: '100%' }}>
      {bound ? (
        <div style={{ flex: 1 }}>
          <ExprInput
            value={(props.value as { $expr: string }).$expr}
            onChange={(src) => props.onChange({ $expr: src })}
            testId={props.testId ? `${props.testId}-expr` : undefined}
          />
        </div>
      ) : (
        <Input
          value={
            typeof props.value === 'string'
              ? props.value
              : props.value === undefined
                ? ''
                : JSON.stringify(props.value)
          }
          onChange={(e) => props.onChange(e.target.value)}
          status={props.status}
          data-testid={props.testId}
        />
      )}
      <FxToggle
        on={bound}
        onToggle={() =>
          props.onChange(
            bound
              ? ''
              : { $expr: typeof props.value === 'string' && props.value ? JSON.stringify(props.value) : '' },
          )
        }
      />
    </Space.Compact>
  );
}

function ParamsEditor(props: { value: unknown; onChange: (v: Record<string, unknown> | undefined) => void }) {
  const { t } = useTranslation();
  const obj = (props.value && typeof props.value === 'object' ? props.value : {}) as Record<string, unknown>;
  const rows = Object.entries(obj);
  const set = (next: [string, unknown][]) =>
    props.onChange(next.length ? Object.fromEntries(next) : undefined);
  return (
    <div className="panel-params">
      {rows.map(([k, v], i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: keys are edited in place
        <Space.Compact key={i} style={{ width: '100%', marginBottom: 4 }}>
          <Input
            value={k}
            placeholder={t('panel.paramName')}
            style={{ width: '35%' }}
            onChange={(e) => set(rows.map((r, j) => (j === i ? [e.target.value, r[1]] : r)))}
          />
          <div style={{ flex: 1 }}>
            <TextOrExpr value={v} onChange={(nv) => set(rows.map((r, j) => (j === i ? [r[0], nv] : r)))} />
          </div>
          <Button
            icon={<DeleteOutlined />}
            onClick={() => set(rows.filter((_, j) => j !== i))}
            aria-label={t('panel.removeRow')}
          />
        </Space.Compact>
      ))}
      <Button
        size="small"
        icon={<PlusOutlined />}
        onClick={() => set([...rows, [`p${rows.length + 1}`, '']])}
      >
        {t('panel.addParam')}
      </Button>
    </div>
  );
}

/** Editors only action fields have; every other field is edited by the property panel's FieldEditor. */
const OWN_EDITORS: ReadonlySet<ActionEditor> = new Set([
  'widget',
  'params',
  'state-or-widget',
  'code',
  'textOrExpr',
]);

function ActionField(props: {
  schema: Json;
  editor: ActionEditor;
  value: unknown;
  onChange: (v: unknown) => void;
  testId: string;
  error?: string;
  onEditCode: () => void;
}) {
  const { t } = useTranslation();
  const { widgets } = usePanel();
  const status = props.error ? ('error' as const) : undefined;
  const s = typeof props.value === 'string' ? props.value : '';
  switch (props.editor) {
    case 'widget': {
      return (
        <WidgetPicker
          value={s}
          kinds={props.schema['x-widget-role'] === 'form' ? FORM_KINDS : undefined}
          onChange={props.onChange}
          status={status}
          testId={props.testId}
        />
      );
    }
    case 'params':
      return <ParamsEditor value={props.value} onChange={props.onChange} />;
    case 'state-or-widget':
      return (
        <AutoComplete
          value={s}
          onChange={(v: string) => props.onChange(v)}
          options={[
            { value: 'state.' },
            ...widgets.map((w) => ({ value: w.id, label: w.name ? `${w.id} (${w.name})` : w.id })),
          ]}
          style={{ width: '100%' }}
        >
          <Input status={status} placeholder={t('panel.setTargetHint')} data-testid={props.testId} />
        </AutoComplete>
      );
    case 'textOrExpr':
      return (
        <TextOrExpr value={props.value} onChange={props.onChange} testId={props.testId} status={status} />
      );
    case 'code':
      return (
        <div className="panel-code">
          <pre className="panel-code-preview">{s.split('\n').slice(0, 4).join('\n') || '—'}</pre>
          <Button
            size="small"
            icon={<CodeOutlined />}
            onClick={props.onEditCode}
            data-testid={`${props.testId}-edit`}
          >
            {t('panel.editCode')}
          </Button>
        </div>
      );
    default:
      // An absent field means its schema default, so the control shows that.
      return (
        <FieldEditor
          schema={props.schema}
          editor={props.editor as EditorKind}
          value={props.value ?? props.schema.default}
          onChange={props.onChange}
          errors={props.error ? { '': props.error } : undefined}
          testId={props.testId}
        />
      );
  }
}

function ActionCard(props: {
  action: Action;
  path: string;
  index: number;
  count: number;
  errors: Record<string, string>;
  onChange: (a: Action) => void;
  onMove: (d: number) => void;
  onRemove: () => void;
}) {
  const { t } = useTranslation();
  const { lang } = usePanel();
  const [coding, setCoding] = useState(false);
  const type = props.action.type as ActionType;
  const fields = actionFields(type);
  const codeKey = fields.find((f) => f.editor === 'code')?.key;
  const set = (key: string, v: unknown) => {
    const next = { ...props.action };
    if (v === undefined || (v === '' && !fields.find((f) => f.key === key)?.required)) delete next[key];
    else next[key] = v;
    props.onChange(next);
  };
  const own = props.errors[props.path];
  const when = props.action.when as { $expr: string } | undefined;
  return (
    <Card
      size="small"
      className="panel-action"
      data-testid={`action-${props.path}`}
      title={
        <Select
          size="small"
          value={type}
          variant="borderless"
          popupMatchSelectWidth={false}
          options={ACTION_TYPES.map((a) => ({ value: a, label: actionTitle(a, lang) }))}
          onChange={(nt: ActionType) => props.onChange({ ...newAction(nt), ...(when ? { when } : {}) })}
        />
      }
      extra={
        <Space.Compact size="small">
          <Button
            icon={<ArrowUpOutlined />}
            disabled={props.index === 0}
            onClick={() => props.onMove(-1)}
            aria-label={t('panel.moveUp')}
          />
          <Button
            icon={<ArrowDownOutlined />}
            disabled={props.index === props.count - 1}
            onClick={() => props.onMove(1)}
            aria-label={t('panel.moveDown')}
          />
          <Button
            danger
            icon={<DeleteOutlined />}
            onClick={props.onRemove}
            aria-label={t('panel.removeAction')}
          />
        </Space.Compact>
      }
    >
      {fields.map((f) => {
        const err = props.errors[`${props.path}.${f.key}`];
        return (
          <div className="panel-row-field" key={f.key}>
            <span className="panel-row-label">
              {labelOf(f.schema, f.key, lang)}
              {f.required ? <span className="panel-req">*</span> : null}
            </span>
            <ActionField
              schema={f.schema}
              editor={f.editor}
              value={props.action[f.key]}
              onChange={(v) => set(f.key, v)}
              testId={`action-${props.path}-${f.key}`}
              error={err}
              onEditCode={() => setCoding(true)}
            />
            {err && OWN_EDITORS.has(f.editor) ? (
              <div className="panel-error" role="alert">
                {err}
              </div>
            ) : null}
          </div>
        );
      })}
      <div className="panel-row-field">
        <span className="panel-row-label">{t('panel.when')}</span>
        <ExprInput
          value={when?.$expr ?? ''}
          placeholder={t('panel.whenHint')}
          onChange={(src) => set('when', src ? { $expr: src } : undefined)}
          testId={`action-${props.path}-when`}
        />
      </div>
      {own ? (
        <div className="panel-error" role="alert">
          {own}
        </div>
      ) : null}
      {codeKey ? (
        <CodeEditorModal
          open={coding}
          code={typeof props.action[codeKey] === 'string' ? (props.action[codeKey] as string) : ''}
          onOk={(code) => {
            set(codeKey, code);
            setCoding(false);
          }}
          onCancel={() => setCoding(false)}
        />
      ) : null}
    </Card>
  );
}

export function EventsEditor(props: {
  events: EventMap | undefined;
  eventNames: readonly string[];
  /** An event's title and what its payload holds, in the designer's language (the kind declares them). */
  describe?: (event: string) => { title: string; hint?: string } | undefined;
  onChange: (events: EventMap) => void;
}) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<EventMap>(() => props.events ?? {});
  const incoming = JSON.stringify(props.events ?? {});
  // biome-ignore lint/correctness/useExhaustiveDependencies: follows outside changes by content
  useEffect(() => {
    if (
      JSON.stringify(compactEvents(draft)) !== incoming &&
      Object.keys(validateEventMap(draft)).length === 0
    )
      setDraft(JSON.parse(incoming) as EventMap);
  }, [incoming]);
  const { lang } = usePanel();
  const errors = useMemo(() => localizeErrors(validateEventMap(draft), lang), [draft, lang]);

  const update = (next: EventMap) => {
    setDraft(next);
    if (Object.keys(validateEventMap(next)).length === 0) props.onChange(compactEvents(next));
  };
  const setList = (ev: string, list: Action[]) => update({ ...draft, [ev]: list });

  if (!props.eventNames.length)
    return <Empty description={t('panel.noEvents')} image={Empty.PRESENTED_IMAGE_SIMPLE} />;
  return (
    <div className="panel-events" data-testid="events-editor">
      {props.eventNames.map((ev) => {
        const list = draft[ev] ?? [];
        const about = props.describe?.(ev);
        return (
          <div className="panel-event" key={ev} data-testid={`event-${ev}`}>
            <div className="panel-event-head" title={about?.hint}>
              <strong>{about?.title ?? t(`panel.event.${ev}`, { defaultValue: ev })}</strong>{' '}
              <code className="panel-muted">{ev}</code>
              <Dropdown
                trigger={['click']}
                menu={{
                  items: ACTION_TYPES.map((a) => ({ key: a, label: actionTitle(a, lang) })),
                  onClick: ({ key }) => setList(ev, [...list, newAction(key as ActionType)]),
                }}
              >
                <Button size="small" icon={<PlusOutlined />} data-testid={`add-action-${ev}`}>
                  {t('panel.addAction')}
                </Button>
              </Dropdown>
            </div>
            {list.map((a, i) => (
              <ActionCard
                // biome-ignore lint/suspicious/noArrayIndexKey: actions have no identity of their own
                key={i}
                action={a}
                path={`${ev}.${i}`}
                index={i}
                count={list.length}
                errors={errors}
                onChange={(na) =>
                  setList(
                    ev,
                    list.map((x, j) => (j === i ? na : x)),
                  )
                }
                onMove={(d) => {
                  const j = i + d;
                  const next = list.slice();
                  [next[i], next[j]] = [next[j] as Action, next[i] as Action];
                  setList(ev, next);
                }}
                onRemove={() =>
                  setList(
                    ev,
                    list.filter((_, j) => j !== i),
                  )
                }
              />
            ))}
          </div>
        );
      })}
    </div>
  );
}
