/**
 * The role's default filter of a table as the text of the chip a data view shows (the user sees what
 * bounds their rows, by field names and operator words in their language; they cannot remove it).
 */
import type { Field } from '../../shared/api/fields.ts';
import { OPERATOR_LABELS, PRESET_LABELS } from '../../shared/query/operator-labels.ts';
import type { FilterSpec } from '../api/views.ts';

type Lang = keyof typeof OPERATOR_LABELS;

const valueText = (v: unknown): string => {
  if (v === null || v === undefined) return '';
  if (Array.isArray(v)) return v.map(valueText).join(', ');
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
};

/** One condition: "Kind equals odd", "Due This week". */
export function conditionText(c: FilterSpec['conditions'][number], fields: readonly Field[], lang: Lang) {
  const f = fields.find((x) => x._field === c.field);
  const name = f ? f._option.alias || f._name : c.field;
  if (c.opt === 'preset') {
    const presets = PRESET_LABELS[lang] as Record<string, string>;
    return `${name} ${presets[String(c.value)] ?? valueText(c.value)}`;
  }
  const ops = OPERATOR_LABELS[lang] as Record<string, string>;
  const value = valueText(c.value);
  return [name, ops[c.opt] ?? c.opt, value].filter(Boolean).join(' ');
}

/** The whole filter, its conditions joined by "and" / "or" in the user's language. */
export function roleFilterText(spec: FilterSpec, fields: readonly Field[], lang: Lang): string {
  const join = spec.match === 'or' ? (lang === 'zh' ? ' 或 ' : ' or ') : lang === 'zh' ? ' 且 ' : ' and ';
  return spec.conditions.map((c) => conditionText(c, fields, lang)).join(join);
}
