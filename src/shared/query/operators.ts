/** The closed vocabulary of the query language (spec "Validation rules"): types, operators, presets. */

export const FIELD_TYPES = [
  'text',
  'number',
  'date',
  'time',
  'relate',
  'collection',
  'boolean',
  'option',
  'options',
  '_id',
] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

export const OPERATORS = {
  text: ['contain', 'notcontain', 'eq', 'ne', 'start', 'end', 'isnull', 'notnull'],
  number: ['eq', 'ne', 'gt', 'lt', 'gte', 'lte', 'between', 'notbetween', 'isnull', 'notnull'],
  date: ['eq', 'ne', 'lt', 'gt', 'between', 'isnull', 'notnull'],
  time: ['eq'],
  relate: ['set', 'isnull', 'notnull'],
  collection: ['set', 'isnull', 'notnull'],
  /** A yes/no column: `eq` with true or false; empty is neither. */
  boolean: ['eq', 'isnull', 'notnull'],
  /** One value of an option list: is any of / is none of the given values. */
  option: ['in', 'notin', 'isnull', 'notnull'],
  /** Several values of an option list: holds any / all / none of the given values. */
  options: ['hasany', 'hasall', 'hasnone', 'isnull', 'notnull'],
  _id: ['eq', 'ne', 'set'],
} as const satisfies Record<FieldType, readonly string[]>;

export type Operator<T extends FieldType> = (typeof OPERATORS)[T][number];

/** Relative date presets; each names a whole-day range [start, end) around `ctx.now`. */
export const DATE_PRESETS = [
  'today',
  'yesterday',
  'tomorrow',
  'thisWeek',
  'lastWeek',
  'nextWeek',
  'thisMonth',
  'lastMonth',
  'nextMonth',
  'thisQuarter',
  'lastQuarter',
  'nextQuarter',
  'thisYear',
  'lastYear',
  'nextYear',
  'past7',
  'past14',
  'past30',
  'future7',
  'future14',
  'future30',
] as const;
export type DatePreset = (typeof DATE_PRESETS)[number];

export function isFieldType(v: unknown): v is FieldType {
  return typeof v === 'string' && (FIELD_TYPES as readonly string[]).includes(v);
}

export function isOperatorOf(type: FieldType, opt: unknown): boolean {
  return typeof opt === 'string' && (OPERATORS[type] as readonly string[]).includes(opt);
}

export function isDatePreset(v: unknown): v is DatePreset {
  return typeof v === 'string' && (DATE_PRESETS as readonly string[]).includes(v);
}
