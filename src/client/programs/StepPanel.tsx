/**
 * One step's settings, generated from its type's JSON schema (src/shared/program/steps.ts) with the
 * designer's generated-form pieces: FieldEditor picks the control of a plain value from the schema
 * (editorOf), labels come from `title`/`x-zh`, pickers list the project's tables and fields, errors are
 * the schema's (localized) beside each field. Annotated values get their own editors: `x-expr` an
 * expression input completing the variables in scope, `x-template` text with `{{ }}` parts, `x-mapping`
 * field → expression rows (the step's table's fields), `x-filter` filter rows, `x-code` Monaco,
 * `x-program` a program picker. Nested steps (`x-steps`) are edited in the tree, not here.
 */
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Input, Segmented, Select, Space, Typography } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { type FlowStep, stepType } from '../../shared/program/index.ts';
import { operatorsOfType } from '../../shared/query/conditions.ts';
import { CodeEditor } from '../designer/code/index.tsx';
import { useFields } from '../designer/panel/data.ts';
import { ExprInput } from '../designer/panel/ExprInput.tsx';
import { FieldEditor, subErrors } from '../designer/panel/FieldEditor.tsx';
import { localizeErrors } from '../designer/panel/messages.ts';
import { EntityPicker, FieldPicker } from '../designer/panel/pickers.tsx';
import { editorOf, type Json, type Lang, labelOf } from '../designer/panel/schema-fields.ts';
import type { ScopeVar } from './tree.ts';
import { stepErrors } from './validate.ts';

export interface StepPanelProps {
  step: FlowStep;
  project: string;
  lang: Lang;
  /** What expressions of this step can read. */
  scope: ScopeVar[];
  /** The other programs of the project (call steps). */
  programs: { _id: string; _name: string }[];
  /** A change; `key` names the field, so typing in it makes one undo step. */
  onChange: (step: FlowStep, key?: string) => void;
}

/** Rows have no identity of their own: keyed by position (and count, so a removal redraws them). */
const rowKey = (i: number, n: number) => `row-${i}-${n}`;

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

export function StepPanel(props: StepPanelProps) {
  const { t } = useTranslation();
  const { step, lang } = props;
  const def = stepType(step._type);
  const errors = useMemo(() => localizeErrors(stepErrors(step), lang), [step, lang]);
  if (!def) return <Typography.Text type="danger">{step._type}</Typography.Text>;
  const props_ = (def.schema.properties ?? {}) as Record<string, Json>;
  const required = (def.schema.required ?? []) as string[];
  const proc = step._procedure;
  const setProc = (key: string, v: unknown) => {
    const next = { ...proc };
    if (v === undefined) delete next[key];
    else next[key] = v;
    props.onChange({ ...step, _procedure: next }, `${step._handle}.${key}`);
  };
  const vars = props.scope;
  const entity = step._entity || undefined;

  const control = (key: string, s: Json) => {
    const v = proc[key];
    const own = subErrors(errors, key);
    const testId = `step-prop-${key}`;
    const label = labelOf(s, key, lang);
    if (s['x-code'])
      return (
        <div data-testid={testId}>
          <CodeEditor
            key={step._handle}
            value={typeof v === 'string' ? v : ''}
            onChange={(code) => setProc(key, code)}
            height={280}
            path={`file:///program-${step._handle}.js`}
          />
        </div>
      );
    if (s['x-expr'])
      return (
        <ExprInput
          value={typeof v === 'string' ? v : ''}
          onChange={(src) => setProc(key, src)}
          vars={vars}
          testId={testId}
          ariaLabel={label}
        />
      );
    if (s['x-template'])
      return (
        <TemplateInput
          value={typeof v === 'string' ? v : ''}
          onChange={(text) => setProc(key, text)}
          vars={vars}
          testId={testId}
          label={label}
        />
      );
    if (s['x-mapping'])
      return (
        <MappingEditor
          value={isObj(v) ? (v as Record<string, string>) : {}}
          onChange={(m) => setProc(key, m)}
          vars={vars}
          project={props.project}
          entity={def.entity ? entity : undefined}
          testId={testId}
        />
      );
    if (s['x-filter'])
      return (
        <FilterEditor
          value={v}
          onChange={(w) => setProc(key, w)}
          vars={vars}
          project={props.project}
          entity={entity}
          testId={testId}
        />
      );
    if (s['x-program'])
      return (
        <Select
          showSearch={{ optionFilterProp: 'label' }}
          value={typeof v === 'string' && v ? v : undefined}
          onChange={(id: string) => setProc(key, id)}
          options={props.programs.map((f) => ({ value: f._id, label: f._name }))}
          placeholder={t('progEditor.pickProgram')}
          data-testid={testId}
          style={{ width: '100%' }}
        />
      );
    return (
      <FieldEditor
        schema={s}
        editor={editorOf(s)}
        value={v}
        errors={own}
        testId={testId}
        onChange={(x) => setProc(key, x === '' && !required.includes(key) ? undefined : x)}
      />
    );
  };

  return (
    <div className="panel-form prog-step-panel" data-testid="step-panel">
      <div className="panel-field">
        <div className="panel-label">
          <span>{t('progEditor.handle')}</span>
        </div>
        <Input
          value={step._handle}
          aria-label={t('progEditor.handle')}
          status={errors._handle ? 'error' : undefined}
          onChange={(e) => props.onChange({ ...step, _handle: e.target.value }, `${step._handle}._handle`)}
          data-testid="step-handle"
        />
        <Typography.Text type="secondary" className="prog-hint">
          {t('progEditor.handleHint', { handle: step._handle })}
        </Typography.Text>
      </div>
      <div className="panel-field">
        <div className="panel-label">
          <span>{t('progEditor.label')}</span>
        </div>
        <Input
          value={step._name ?? ''}
          maxLength={128}
          aria-label={t('progEditor.label')}
          onChange={(e) => {
            const next = { ...step };
            if (e.target.value) next._name = e.target.value;
            else delete next._name;
            props.onChange(next, `${step._handle}._name`);
          }}
        />
      </div>
      {def.entity && (
        <div className="panel-field">
          <div className="panel-label">
            <span>{t('progEditor.table')}</span>
          </div>
          <EntityPicker
            value={step._entity}
            onChange={(id) => props.onChange({ ...step, _entity: id })}
            status={step._entity ? undefined : 'error'}
            testId="step-entity"
          />
        </div>
      )}
      {Object.entries(props_)
        .filter(([, s]) => !s['x-steps'])
        .map(([key, s]) => (
          <div className="panel-field" key={key} data-prop={`step-prop-${key}`}>
            <div className="panel-label">
              <span>
                {labelOf(s, key, lang)}
                {required.includes(key) ? <span className="panel-req">*</span> : null}
              </span>
            </div>
            {control(key, s)}
            {s['x-expr'] || s['x-template'] || s['x-mapping'] || s['x-filter'] ? (
              errors[key] ? (
                <div className="panel-error" role="alert">
                  {errors[key]}
                </div>
              ) : null
            ) : null}
          </div>
        ))}
    </div>
  );
}

/** Text with `{{ expr }}` parts; a picker inserts a variable at the end. */
function TemplateInput(props: {
  value: string;
  onChange: (v: string) => void;
  vars: ScopeVar[];
  testId: string;
  label: string;
}) {
  const { t } = useTranslation();
  return (
    <Space direction="vertical" style={{ width: '100%' }} size={4}>
      <Input.TextArea
        value={props.value}
        autoSize={{ minRows: 2, maxRows: 8 }}
        onChange={(e) => props.onChange(e.target.value)}
        data-testid={props.testId}
        aria-label={props.label}
      />
      <Select
        size="small"
        value={null}
        placeholder={t('progEditor.insertVariable')}
        showSearch={{ optionFilterProp: 'label' }}
        options={props.vars.map((v) => ({ value: v.path, label: v.path }))}
        onChange={(path: string) => props.onChange(`${props.value}{{ ${path} }}`)}
        style={{ width: '100%' }}
        data-testid={`${props.testId}-insert`}
      />
    </Space>
  );
}

/** field → expression rows; for a table step the field is picked from the table. */
function MappingEditor(props: {
  value: Record<string, string>;
  onChange: (v: Record<string, string>) => void;
  vars: ScopeVar[];
  project: string;
  entity: string | undefined;
  testId: string;
}) {
  const { t } = useTranslation();
  const rows = Object.entries(props.value);
  const set = (next: [string, string][]) => props.onChange(Object.fromEntries(next));
  return (
    <div className="panel-list" data-testid={props.testId}>
      {rows.map(([k, expr], i) => (
        <div className="prog-map-row" key={rowKey(i, rows.length)} data-testid={`${props.testId}-row-${i}`}>
          <div className="prog-map-key">
            {props.entity !== undefined ? (
              <FieldPicker
                entity={props.entity}
                value={k.startsWith('__new') ? '' : k}
                onChange={(f) => set(rows.map((r, j) => (j === i ? [f || `__new${i}`, r[1]] : r)))}
                testId={`${props.testId}-${i}-field`}
              />
            ) : (
              <Input
                value={k.startsWith('__new') ? '' : k}
                placeholder={t('progEditor.key')}
                onChange={(e) =>
                  set(rows.map((r, j) => (j === i ? [e.target.value || `__new${i}`, r[1]] : r)))
                }
                data-testid={`${props.testId}-${i}-key`}
              />
            )}
          </div>
          <div className="prog-map-value">
            <ExprInput
              value={expr}
              onChange={(src) => set(rows.map((r, j) => (j === i ? [r[0], src] : r)))}
              vars={props.vars}
              testId={`${props.testId}-${i}-expr`}
            />
          </div>
          <Button
            size="small"
            danger
            icon={<DeleteOutlined />}
            aria-label={t('panel.removeRow')}
            onClick={() => set(rows.filter((_, j) => j !== i))}
          />
        </div>
      ))}
      <Button
        size="small"
        icon={<PlusOutlined />}
        onClick={() => set([...rows, [`__new${rows.length}`, '']])}
        data-testid={`${props.testId}-add`}
      >
        {t('panel.addRow')}
      </Button>
    </div>
  );
}

interface Clause {
  field: string;
  opt: string;
  value?: unknown;
}

/** The query step's filter: all/any of field · operator · expression rows (`{ $and: [...] }`). */
function FilterEditor(props: {
  value: unknown;
  onChange: (v: unknown) => void;
  vars: ScopeVar[];
  project: string;
  entity: string | undefined;
  testId: string;
}) {
  const { t } = useTranslation();
  const { data: fields } = useFields(props.project, props.entity);
  const v = isObj(props.value) ? props.value : {};
  const any = Array.isArray(v.$or);
  const clauses = ((any ? v.$or : v.$and) ?? []) as Clause[];
  const set = (list: Clause[], or = any) =>
    props.onChange(list.length === 0 ? undefined : or ? { $or: list } : { $and: list });
  const typeOf = (f: string) => fields?.find((x) => x._field === f)?._type ?? 'string';
  const exprOf = (c: Clause) =>
    isObj(c.value) && typeof c.value.$expr === 'string' ? (c.value.$expr as string) : '';
  return (
    <div className="panel-list" data-testid={props.testId}>
      {clauses.length > 1 && (
        <Segmented
          size="small"
          value={any ? 'any' : 'all'}
          options={[
            { value: 'all', label: t('progEditor.matchAll') },
            { value: 'any', label: t('progEditor.matchAny') },
          ]}
          onChange={(m) => set(clauses, m === 'any')}
        />
      )}
      {clauses.map((c, i) => (
        <div className="prog-map-row" key={rowKey(i, clauses.length)}>
          <div className="prog-map-key">
            <FieldPicker
              entity={props.entity}
              value={c.field}
              onChange={(f) => set(clauses.map((x, j) => (j === i ? { ...x, field: f } : x)))}
              testId={`${props.testId}-${i}-field`}
            />
          </div>
          <Select
            value={c.opt}
            style={{ minWidth: 90 }}
            options={operatorsOfType(typeOf(c.field)).map((o) => ({ value: o, label: o }))}
            onChange={(opt: string) => set(clauses.map((x, j) => (j === i ? { ...x, opt } : x)))}
            data-testid={`${props.testId}-${i}-opt`}
          />
          <div className="prog-map-value">
            <ExprInput
              value={exprOf(c)}
              onChange={(src) => set(clauses.map((x, j) => (j === i ? { ...x, value: { $expr: src } } : x)))}
              vars={props.vars}
              testId={`${props.testId}-${i}-expr`}
            />
          </div>
          <Button
            size="small"
            danger
            icon={<DeleteOutlined />}
            aria-label={t('panel.removeRow')}
            onClick={() => set(clauses.filter((_, j) => j !== i))}
          />
        </div>
      ))}
      <Button
        size="small"
        icon={<PlusOutlined />}
        disabled={!props.entity}
        onClick={() =>
          set([...clauses, { field: fields?.[0]?._field ?? '_id', opt: 'eq', value: { $expr: '' } }])
        }
        data-testid={`${props.testId}-add`}
      >
        {t('progEditor.addCondition')}
      </Button>
    </div>
  );
}
