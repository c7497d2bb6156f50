import { Select, Tag } from 'antd';
import { optionTextId } from '../../shared/admin/i18n.ts';
import { optionSetOf } from '../../shared/admin/option-sets.ts';
import type { Field } from '../../shared/api/fields.ts';
import { optionListOf } from '../../shared/fields/values.ts';
import { useProjectTexts } from '../runtime/project-texts.ts';
import { useShell } from '../stores/shell.ts';
import { type CellProps, type EditorProps, type FieldKind, testId } from './types.ts';

/** A stable colour per option, by its place in the list. */
const COLORS = [
  'blue',
  'green',
  'orange',
  'purple',
  'cyan',
  'magenta',
  'gold',
  'geekblue',
  'lime',
  'volcano',
];
const colorOf = (list: string[], v: string) => {
  const i = list.indexOf(v);
  return i < 0 ? 'default' : COLORS[i % COLORS.length];
};

/**
 * An option's label in the user's language (/system/i18n: the field's own list, or its option set's);
 * the stored option itself where there is no translation.
 */
function useOptionLabel(field: Field): (option: string) => string {
  const texts = useProjectTexts(useShell((s) => s.projectId));
  const set = optionSetOf(field._option);
  return (o) => texts[optionTextId(field._id, o, set)] || o;
}

function OptionInput({ field, value, onChange, onCommit, onCancel, autoFocus, id }: EditorProps) {
  const multiple = field._type === 'options';
  const list = optionListOf(field._option);
  const label = useOptionLabel(field);
  const current = multiple
    ? Array.isArray(value)
      ? value
      : []
    : typeof value === 'string' && value
      ? value
      : undefined;
  return (
    <Select
      id={id}
      autoFocus={autoFocus}
      allowClear
      showSearch
      className="wb-input"
      data-testid={testId(field)}
      mode={multiple ? 'multiple' : undefined}
      value={current}
      options={list.map((o) => ({ value: o, label: label(o) }))}
      optionFilterProp="label"
      onChange={(v) => onChange?.(v === undefined ? null : v)}
      onBlur={multiple ? onCommit : undefined}
      onKeyDown={(e) => e.key === 'Escape' && onCancel?.()}
    />
  );
}

function OptionCell({ field, value }: CellProps) {
  const list = optionListOf(field._option);
  const label = useOptionLabel(field);
  const values = Array.isArray(value) ? value.map(String) : typeof value === 'string' && value ? [value] : [];
  if (values.length === 0) return <span className="wb-empty" />;
  return (
    <span>
      {values.map((v) => (
        <Tag key={v} color={colorOf(list, v)}>
          {label(v)}
        </Tag>
      ))}
    </span>
  );
}

export const optionKind: FieldKind = { Input: OptionInput, Cell: OptionCell, edit: 'change' };
export const optionsKind: FieldKind = { Input: OptionInput, Cell: OptionCell, edit: 'commit' };
