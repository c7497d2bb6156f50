/**
 * Auto-numbering rules (builder spec "advanced config: auto-numbering"; share increment): a text
 * field that names a rule gets `prefix + date part + counter` on every new record, the counter taken
 * in the record's own transaction. Shared by the server (which numbers) and /system/share (preview).
 */

/** Where rules live in the shared store: model `config`, type `project`, key `increment.{key}`. */
export const NUMBERING_MODEL = 'config';
export const NUMBERING_PREFIX = 'increment.';
export const NUMBERING_KEY = /^[A-Za-z][A-Za-z0-9_-]{0,39}$/;
export const NUMBERING_DATES = ['', 'yyyy', 'yyyyMM', 'yyyyMMdd'] as const;
export const NUMBERING_RESETS = ['never', 'year', 'month', 'day'] as const;
export const NUMBERING_PREFIX_MAX = 20;
export const NUMBERING_DIGITS_MAX = 12;

export type NumberingDate = (typeof NUMBERING_DATES)[number];
export type NumberingReset = (typeof NUMBERING_RESETS)[number];

export interface NumberingRule {
  name: string;
  prefix: string;
  date: NumberingDate;
  /** The counter is padded with zeros to this many digits (1 = no padding). */
  digits: number;
  reset: NumberingReset;
}

/** A rule read defensively (bad parts fall back to defaults); null when it is not an object. */
export function readRule(v: unknown): NumberingRule | null {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return null;
  const o = v as Record<string, unknown>;
  const text = (x: unknown, max: number) => (typeof x === 'string' ? x.slice(0, max) : '');
  const date = NUMBERING_DATES.includes(o.date as NumberingDate) ? (o.date as NumberingDate) : '';
  const reset = NUMBERING_RESETS.includes(o.reset as NumberingReset) ? (o.reset as NumberingReset) : 'never';
  const d = Number(o.digits);
  return {
    name: text(o.name, 60),
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are dropped.
    prefix: text(o.prefix, NUMBERING_PREFIX_MAX).replace(/[\u0000-\u001f\u007f]/g, ''),
    date,
    digits: Number.isInteger(d) && d >= 1 && d <= NUMBERING_DIGITS_MAX ? d : 1,
    reset,
  };
}

/** Why a rule as typed in a form is not acceptable, or null. */
export function ruleProblem(v: unknown): string | null {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return 'expected an object';
  const o = v as Record<string, unknown>;
  if (typeof o.name !== 'string' || o.name.trim() === '' || o.name.length > 60)
    return 'name: 1 to 60 characters';
  if (typeof o.prefix !== 'string' || o.prefix.length > NUMBERING_PREFIX_MAX)
    return `prefix: at most ${NUMBERING_PREFIX_MAX} characters`;
  if (!NUMBERING_DATES.includes(o.date as NumberingDate)) return 'date: unknown date part';
  if (!NUMBERING_RESETS.includes(o.reset as NumberingReset)) return 'reset: unknown period';
  if (!Number.isInteger(o.digits) || (o.digits as number) < 1 || (o.digits as number) > NUMBERING_DIGITS_MAX)
    return `digits: 1 to ${NUMBERING_DIGITS_MAX}`;
  return null;
}

/** Year, month and day of an instant in Beijing time (the spec's time zone for dates). */
function beijing(now: number): { y: string; m: string; d: string } {
  const t = new Date(now + 8 * 3600_000);
  return {
    y: String(t.getUTCFullYear()),
    m: String(t.getUTCMonth() + 1).padStart(2, '0'),
    d: String(t.getUTCDate()).padStart(2, '0'),
  };
}

function stamp(kind: 'year' | 'month' | 'day', now: number): string {
  const { y, m, d } = beijing(now);
  return kind === 'year' ? y : kind === 'month' ? `${y}${m}` : `${y}${m}${d}`;
}

/** The counter key a rule draws from at `now`: one counter per reset period. */
export function counterKey(ruleKey: string, rule: NumberingRule, now: number): string {
  return rule.reset === 'never'
    ? `${NUMBERING_PREFIX}${ruleKey}`
    : `${NUMBERING_PREFIX}${ruleKey}@${stamp(rule.reset, now)}`;
}

/** The text a rule makes of counter value `n` at `now`. */
export function formatNumber(rule: NumberingRule, n: number, now: number): string {
  const date =
    rule.date === 'yyyy'
      ? stamp('year', now)
      : rule.date === 'yyyyMM'
        ? stamp('month', now)
        : rule.date === 'yyyyMMdd'
          ? stamp('day', now)
          : '';
  return `${rule.prefix}${date}${String(n).padStart(rule.digits, '0')}`;
}
