import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, DatePicker, Input, InputNumber, Segmented, Select, Space, TimePicker } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { optionListOf } from '../../../shared/fields/values.ts';
import type { Field } from '../../api/workbench.ts';
import { DATE_FORMAT, TIME_FORMAT } from './FieldInput.tsx';
import {
  type Condition,
  DATE_PRESETS,
  type Match,
  NO_VALUE,
  operatorsOf,
  queryTypeOf,
} from './filter-query.ts';
import { RelatePicker } from './RelatePicker.tsx';

interface Props {
  fields: Field[];
  conditions: Condition[];
  match: Match;
  onApply(conditions: Condition[], match: Match): void;
}

let nextId = 1;

/** field → operator (by its type) → value; all or any of the conditions. */
export function FilterBuilder({ fields, conditions, match, onApply }: Props) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<Condition[]>(conditions);
  const [how, setHow] = useState<Match>(match);
  const usable = fields.filter((f) => queryTypeOf(f));

  const patch = (id: number, p: Partial<Condition>) =>
    setDraft((d) => d.map((c) => (c.id === id ? { ...c, ...p } : c)));
  function add() {
    const f = usable[0];
    if (f) setDraft((d) => [...d, { id: nextId++, field: f._field, opt: operatorsOf(f)[0] ?? 'eq' }]);
  }

  return (
    <div className="wb-filter" data-testid="filter-builder">
      <Space className="wb-filter-match">
        {t('grid.match')}
        <Segmented<Match>
          size="small"
          value={how}
          onChange={setHow}
          options={[
            { value: 'and', label: t('grid.all') },
            { value: 'or', label: t('grid.any') },
          ]}
        />
      </Space>
      {draft.map((c) => {
        const f = usable.find((x) => x._field === c.field);
        return (
          <Space.Compact key={c.id} block className="wb-filter-row" data-testid="filter-row">
            <Select
              aria-label={t('grid.field')}
              className="wb-filter-field"
              value={c.field}
              data-testid="filter-field"
              options={usable.map((x) => ({ value: x._field, label: x._name }))}
              onChange={(code) => {
                const nf = usable.find((x) => x._field === code);
                patch(c.id, { field: code, opt: nf ? (operatorsOf(nf)[0] ?? 'eq') : 'eq', value: undefined });
              }}
            />
            <Select
              aria-label={t('grid.operator')}
              className="wb-filter-op"
              value={c.opt}
              data-testid="filter-op"
              options={(f ? operatorsOf(f) : []).map((o) => ({ value: o, label: t(`grid.ops.${o}`) }))}
              onChange={(opt) =>
                patch(c.id, { opt, value: opt === 'between' || opt === 'notbetween' ? [] : undefined })
              }
            />
            {f ? <ValueInput field={f} cond={c} onChange={(value) => patch(c.id, { value })} /> : null}
            <Button
              icon={<DeleteOutlined />}
              aria-label={t('common.remove')}
              onClick={() => setDraft((d) => d.filter((x) => x.id !== c.id))}
            />
          </Space.Compact>
        );
      })}
      <div className="wb-bar">
        <Button icon={<PlusOutlined />} onClick={add} disabled={usable.length === 0} data-testid="filter-add">
          {t('grid.addCondition')}
        </Button>
        <span className="wb-bar-end" />
        <Button
          onClick={() => {
            setDraft([]);
            onApply([], how);
          }}
        >
          {t('grid.clear')}
        </Button>
        <Button type="primary" onClick={() => onApply(draft, how)} data-testid="filter-apply">
          {t('grid.apply')}
        </Button>
      </div>
    </div>
  );
}

function ValueInput({
  field: f,
  cond: c,
  onChange,
}: {
  field: Field;
  cond: Condition;
  onChange(v: unknown): void;
}) {
  const { t } = useTranslation();
  const type = queryTypeOf(f);
  const label = t('grid.value');
  if (NO_VALUE.has(c.opt)) return null;
  if (c.opt === 'preset') {
    return (
      <Select
        aria-label={label}
        className="wb-filter-value"
        value={c.value as string | undefined}
        onChange={onChange}
        options={DATE_PRESETS.map((p) => ({ value: p, label: t(`grid.presets.${p}`) }))}
      />
    );
  }
  const between = c.opt === 'between' || c.opt === 'notbetween';
  const pair = Array.isArray(c.value) ? (c.value as unknown[]) : [];
  switch (type) {
    case 'number':
      if (between) {
        return (
          <>
            <InputNumber
              aria-label={t('grid.from')}
              placeholder={t('grid.from')}
              value={pair[0] as number | undefined}
              onChange={(v) => onChange([v, pair[1]])}
            />
            <InputNumber
              aria-label={t('grid.to')}
              placeholder={t('grid.to')}
              value={pair[1] as number | undefined}
              onChange={(v) => onChange([pair[0], v])}
            />
          </>
        );
      }
      return (
        <InputNumber
          aria-label={label}
          className="wb-filter-value"
          value={c.value as number | undefined}
          onChange={onChange}
          data-testid="filter-value"
        />
      );
    case 'date':
      if (between) {
        return (
          <DatePicker.RangePicker
            format={DATE_FORMAT}
            value={[pair[0] ? dayjs(pair[0] as number) : null, pair[1] ? dayjs(pair[1] as number) : null]}
            onChange={(r) => onChange(r ? [r[0]?.valueOf(), r[1]?.valueOf()] : [])}
          />
        );
      }
      return (
        <DatePicker
          aria-label={label}
          format={DATE_FORMAT}
          value={typeof c.value === 'number' ? dayjs(c.value) : null}
          onChange={(d) => onChange(d ? d.valueOf() : undefined)}
        />
      );
    case 'time':
      return (
        <TimePicker
          aria-label={label}
          format={TIME_FORMAT}
          value={typeof c.value === 'string' ? dayjs(c.value, TIME_FORMAT) : null}
          onChange={(d) => onChange(d ? d.format(TIME_FORMAT) : undefined)}
        />
      );
    case 'boolean':
      return (
        <Select
          aria-label={label}
          className="wb-filter-value"
          data-testid="filter-value"
          value={c.value === true ? 'yes' : c.value === false ? 'no' : undefined}
          onChange={(v) => onChange(v === 'yes')}
          options={[
            { value: 'yes', label: t('fieldValue.yes') },
            { value: 'no', label: t('fieldValue.no') },
          ]}
        />
      );
    case 'option':
    case 'options':
      return (
        <Select
          aria-label={label}
          className="wb-filter-value"
          data-testid="filter-value"
          mode="multiple"
          value={Array.isArray(c.value) ? (c.value as string[]) : []}
          onChange={(v) => onChange(v)}
          options={optionListOf(f._option).map((o) => ({ value: o, label: o }))}
        />
      );
    case 'relate':
    case 'collection':
      return (
        <RelatePicker
          className="wb-filter-value"
          target={f._relate[0] ?? ''}
          multiple
          value={(c.value as string[] | undefined) ?? []}
          onChange={(v) => onChange(v)}
        />
      );
    default:
      return (
        <Input
          aria-label={label}
          className="wb-filter-value"
          value={typeof c.value === 'string' ? c.value : ''}
          onChange={(e) => onChange(e.target.value)}
          data-testid="filter-value"
        />
      );
  }
}
