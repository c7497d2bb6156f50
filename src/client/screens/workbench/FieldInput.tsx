import { DatePicker, Input, InputNumber, Select, TimePicker } from 'antd';
import dayjs from 'dayjs';
import type { Field } from '../../api/workbench.ts';
import { fieldKind } from '../../fields/registry.ts';
import { localDayToStored, optionList, storedDayToLocal } from './field-values.ts';
import { type Choice, RelatePicker } from './RelatePicker.tsx';

export const DATE_FORMAT = 'YYYY-MM-DD';
export const TIME_FORMAT = 'HH:mm:ss';

interface Props {
  field: Field;
  value?: unknown;
  onChange?(value: unknown, choices?: Choice[]): void;
  /** Text-like inputs: Enter or leaving the input. */
  onCommit?(): void;
  onCancel?(): void;
  known?: Choice[];
  autoFocus?: boolean;
  /** Set by Form.Item so its label points at the control. */
  id?: string;
}

/** The input for one value of a field, by its type (form items and inline cells). */
export function FieldInput({ field: f, value, onChange, onCommit, onCancel, known, autoFocus, id }: Props) {
  const set = (v: unknown, choices?: Choice[]) => onChange?.(v, choices);
  const keys = (e: React.KeyboardEvent) => {
    if (e.key === 'Escape') onCancel?.();
  };
  const list = optionList(f);
  const common = {
    id,
    autoFocus,
    onKeyDown: keys,
    className: 'wb-input',
    'data-testid': `input-${f._field}`,
  };

  const kind = fieldKind(f._type);
  if (kind) {
    return (
      <kind.Input
        field={f}
        value={value}
        onChange={(v) => set(v)}
        onCommit={onCommit}
        onCancel={onCancel}
        autoFocus={autoFocus}
        id={id}
      />
    );
  }
  if (list && (f._type === 'string' || f._type === 'number')) {
    return (
      <Select
        {...common}
        allowClear
        value={value ?? undefined}
        options={list.map((o) => ({ value: f._type === 'number' ? Number(o) : o, label: o }))}
        onChange={(v) => set(v ?? null)}
      />
    );
  }
  switch (f._type) {
    case 'number':
      return (
        <InputNumber
          {...common}
          value={typeof value === 'number' ? value : null}
          precision={f._option.decimals}
          onChange={(v) => set(v ?? null)}
          onPressEnter={onCommit}
          onBlur={onCommit}
        />
      );
    case 'date':
      return (
        <DatePicker
          {...common}
          format={DATE_FORMAT}
          value={typeof value === 'number' ? dayjs(storedDayToLocal(value)) : null}
          onChange={(d) => set(d ? localDayToStored(d.toDate()) : null)}
        />
      );
    case 'time':
      return (
        <TimePicker
          {...common}
          format={TIME_FORMAT}
          value={typeof value === 'string' && value ? dayjs(value, TIME_FORMAT) : null}
          onChange={(d) => set(d ? d.format(TIME_FORMAT) : null)}
        />
      );
    case 'relate':
    case 'collection':
      return (
        <RelatePicker
          target={f._relate[0] ?? ''}
          multiple={f._type === 'collection'}
          value={value as string | string[] | null}
          known={known}
          id={id}
          autoFocus={autoFocus}
          className="wb-input"
          onChange={set}
        />
      );
    default:
      return (
        <Input
          {...common}
          value={typeof value === 'string' ? value : ''}
          onChange={(e) => set(e.target.value)}
          onPressEnter={onCommit}
          onBlur={onCommit}
        />
      );
  }
}
