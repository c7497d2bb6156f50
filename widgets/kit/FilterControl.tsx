/**
 * The end user's filter of a data widget: rows of field → operator (by the field's type) → value,
 * matching all or any of them. What it applies becomes query clauses on the server
 * (src/shared/query/conditions.ts), like the builder's rows grid filter.
 */
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, DatePicker, Input, InputNumber, Segmented, Select, Space, TimePicker } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import {
  type Condition,
  DATE_PRESETS,
  type Match,
  NO_VALUE,
  operatorsOfType,
  queryTypeOfType,
} from '../../src/shared/query/conditions.ts';
import { OPERATOR_LABELS, PRESET_LABELS, PRESET_OPERATOR } from '../../src/shared/query/operator-labels.ts';
import type { FieldMeta } from './widget-context.ts';

export const FILTER_TEXT = {
  zh: {
    filter: '筛选',
    filterCount: (n: number) => `筛选（${n}）`,
    match: '满足',
    all: '全部条件',
    any: '任一条件',
    add: '添加条件',
    apply: '应用',
    clear: '清除',
    field: '字段',
    operator: '运算符',
    value: '值',
    from: '从',
    to: '到',
    remove: '删除',
    yes: '是',
    no: '否',
  },
  en: {
    filter: 'Filter',
    filterCount: (n: number) => `Filter (${n})`,
    match: 'Match',
    all: 'all conditions',
    any: 'any condition',
    add: 'Add condition',
    apply: 'Apply',
    clear: 'Clear',
    field: 'Field',
    operator: 'Operator',
    value: 'Value',
    from: 'From',
    to: 'To',
    remove: 'Remove',
    yes: 'Yes',
    no: 'No',
  },
};

type Lang = 'zh' | 'en';

/**
 * Operators an end user picks from: those of the field's query type, dates with their relative
 * periods ('preset'). Relations and collections hold ids an end user never sees, so they offer only
 * empty / not empty.
 */
export function filterOperators(type: string | undefined): string[] {
  const qt = queryTypeOfType(type ?? 'string');
  const ops = operatorsOfType(type ?? 'string');
  return qt === 'relate' || qt === 'collection' ? ops.filter((o) => NO_VALUE.has(o)) : ops;
}

let nextId = 1;

export interface FilterValue {
  conditions: Condition[];
  match: Match;
}

export function FilterControl(props: {
  fields: FieldMeta[];
  value: FilterValue;
  lang: Lang;
  onApply: (v: FilterValue) => void;
}) {
  const t = FILTER_TEXT[props.lang] ?? FILTER_TEXT.en;
  const ops = OPERATOR_LABELS[props.lang] ?? OPERATOR_LABELS.en;
  const usable = props.fields.filter((f) => !f.hide && filterOperators(f.type).length > 0);
  const [draft, setDraft] = useState<Condition[]>(props.value.conditions);
  const [how, setHow] = useState<Match>(props.value.match);
  const patch = (id: number, p: Partial<Condition>) =>
    setDraft((d) => d.map((c) => (c.id === id ? { ...c, ...p } : c)));
  const add = () => {
    const f = usable[0];
    if (f) setDraft((d) => [...d, { id: nextId++, field: f.key, opt: filterOperators(f.type)[0] ?? 'eq' }]);
  };
  return (
    <div className="lc-filter" data-testid="table-filter" style={{ minWidth: 360 }}>
      <Space style={{ marginBottom: 8 }}>
        {t.match}
        <Segmented<Match>
          size="small"
          value={how}
          onChange={setHow}
          options={[
            { value: 'and', label: t.all },
            { value: 'or', label: t.any },
          ]}
        />
      </Space>
      {draft.map((c) => {
        const f = usable.find((x) => x.key === c.field);
        return (
          <Space.Compact key={c.id} block style={{ marginBottom: 8 }} data-testid="table-filter-row">
            <Select
              aria-label={t.field}
              style={{ minWidth: 120 }}
              value={c.field}
              data-testid="table-filter-field"
              options={usable.map((x) => ({ value: x.key, label: x.name }))}
              onChange={(key) => {
                const nf = usable.find((x) => x.key === key);
                patch(c.id, { field: key, opt: filterOperators(nf?.type)[0] ?? 'eq', value: undefined });
              }}
            />
            <Select
              aria-label={t.operator}
              style={{ minWidth: 120 }}
              value={c.opt}
              data-testid="table-filter-op"
              options={filterOperators(f?.type).map((o) => ({
                value: o,
                label:
                  o === 'preset'
                    ? (PRESET_OPERATOR[props.lang] ?? PRESET_OPERATOR.en)
                    : ((ops as Record<string, string>)[o] ?? o),
              }))}
              onChange={(opt) =>
                patch(c.id, { opt, value: opt === 'between' || opt === 'notbetween' ? [] : undefined })
              }
            />
            {f ? (
              <ValueInput
                key={`${c.field}:${c.opt}`}
                type={queryTypeOfType(f.type ?? 'string')}
                list={f.list ?? []}
                cond={c}
                lang={props.lang}
                onChange={(value) => patch(c.id, { value })}
              />
            ) : null}
            <Button
              icon={<DeleteOutlined />}
              aria-label={t.remove}
              onClick={() => setDraft((d) => d.filter((x) => x.id !== c.id))}
            />
          </Space.Compact>
        );
      })}
      <Space>
        <Button
          icon={<PlusOutlined />}
          onClick={add}
          disabled={!usable.length}
          data-testid="table-filter-add"
        >
          {t.add}
        </Button>
        <Button
          onClick={() => {
            setDraft([]);
            props.onApply({ conditions: [], match: how });
          }}
          data-testid="table-filter-clear"
        >
          {t.clear}
        </Button>
        <Button
          type="primary"
          onClick={() => props.onApply({ conditions: draft, match: how })}
          data-testid="table-filter-apply"
        >
          {t.apply}
        </Button>
      </Space>
    </div>
  );
}

const DAY = 'YYYY-MM-DD';
const CLOCK = 'HH:mm:ss';
/** A condition's day or clock text as the picker's value (null when empty or not in that format). */
const dayOf = (v: unknown, format: string): Dayjs | null => {
  if (typeof v !== 'string' || !v) return null;
  const d = dayjs(v, format);
  return d.isValid() ? d : null;
};

/** The value box of a condition, by the field's query type (dates as YYYY-MM-DD, project time zone). */
function ValueInput(props: {
  type: string | undefined;
  /** The field's option list (option types). */
  list: readonly string[];
  cond: Condition;
  lang: Lang;
  onChange(v: unknown): void;
}) {
  const t = FILTER_TEXT[props.lang] ?? FILTER_TEXT.en;
  const { cond: c, onChange } = props;
  if (NO_VALUE.has(c.opt)) return null;
  if (c.opt === 'preset') {
    const names = PRESET_LABELS[props.lang] ?? PRESET_LABELS.en;
    return (
      <Select
        aria-label={t.value}
        style={{ minWidth: 140 }}
        data-testid="table-filter-value"
        value={typeof c.value === 'string' ? c.value : undefined}
        onChange={onChange}
        options={DATE_PRESETS.map((p) => ({ value: p, label: names[p] }))}
      />
    );
  }
  const between = c.opt === 'between' || c.opt === 'notbetween';
  const pair = Array.isArray(c.value) ? (c.value as unknown[]) : [];
  switch (props.type) {
    case 'number':
      if (between)
        return (
          <>
            <InputNumber
              aria-label={t.from}
              placeholder={t.from}
              value={pair[0] as number | undefined}
              onChange={(v) => onChange([v, pair[1]])}
            />
            <InputNumber
              aria-label={t.to}
              placeholder={t.to}
              value={pair[1] as number | undefined}
              onChange={(v) => onChange([pair[0], v])}
            />
          </>
        );
      return (
        <InputNumber
          aria-label={t.value}
          value={c.value as number | undefined}
          onChange={onChange}
          data-testid="table-filter-value"
        />
      );
    case 'date':
      // The text of the picked day: the server reads it as that day in the project's time zone.
      // Shown from the condition's own text, so a saved filter applied (or the filter reopened) shows
      // its days instead of empty boxes.
      if (between)
        return (
          <DatePicker.RangePicker
            format={DAY}
            value={[dayOf(pair[0], DAY), dayOf(pair[1], DAY)]}
            onChange={(_d, text) => onChange(text[0] && text[1] ? [text[0], text[1]] : [])}
          />
        );
      return (
        <DatePicker
          aria-label={t.value}
          format={DAY}
          value={dayOf(c.value, DAY)}
          data-testid="table-filter-value"
          onChange={(_d, text) => onChange(typeof text === 'string' && text ? text : undefined)}
        />
      );
    case 'time':
      return (
        <TimePicker
          aria-label={t.value}
          format={CLOCK}
          value={dayOf(c.value, CLOCK)}
          data-testid="table-filter-value"
          onChange={(_d, text) => onChange(typeof text === 'string' && text ? text : undefined)}
        />
      );
    // A yes/no field is compared with true or false (typed text such as "yes" is refused by the query).
    case 'boolean':
      return (
        <Select
          aria-label={t.value}
          style={{ minWidth: 100 }}
          data-testid="table-filter-value"
          value={c.value === true ? 'yes' : c.value === false ? 'no' : undefined}
          onChange={(v) => onChange(v === 'yes')}
          options={[
            { value: 'yes', label: t.yes },
            { value: 'no', label: t.no },
          ]}
        />
      );
    // Options are picked from the field's list, several at once (is any of, has all of…).
    case 'option':
    case 'options':
      return (
        <Select
          aria-label={t.value}
          mode="multiple"
          style={{ minWidth: 160 }}
          data-testid="table-filter-value"
          value={
            Array.isArray(c.value) ? (c.value as string[]) : typeof c.value === 'string' ? [c.value] : []
          }
          onChange={(v: string[]) => onChange(v)}
          options={props.list.map((o) => ({ value: o, label: o }))}
        />
      );
    default:
      return (
        <Input
          aria-label={t.value}
          value={typeof c.value === 'string' ? c.value : ''}
          onChange={(e) => onChange(e.target.value)}
          data-testid="table-filter-value"
        />
      );
  }
}
