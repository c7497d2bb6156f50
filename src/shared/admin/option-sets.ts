/**
 * Option sets (builder spec "option sets (selection: value lists)"): named value lists kept in the
 * shared store (model `selection`, type `project`, key = the set's key). An option field may name a
 * set (`_option.info.selection`) instead of keeping its own list; its values are then checked
 * against the set as it is at the time of the write.
 */
import type { FieldOption } from '../api/fields.ts';

export const SELECTION_MODEL = 'selection';
export const OPTION_SET_KEY = /^[A-Za-z][A-Za-z0-9_-]{0,39}$/;
export const OPTION_SET_MAX = 200;
export const OPTION_ITEM_MAX = 200;

export interface OptionSet {
  name: string;
  list: string[];
}

/** A stored set read defensively: non-text and empty items dropped, duplicates once. */
export function readOptionSet(v: unknown): OptionSet | null {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return null;
  const o = v as Record<string, unknown>;
  const list = Array.isArray(o.list) ? o.list : [];
  return {
    name: typeof o.name === 'string' ? o.name.slice(0, 60) : '',
    list: [
      ...new Set(
        list.filter(
          (x): x is string => typeof x === 'string' && x.trim() !== '' && x.length <= OPTION_ITEM_MAX,
        ),
      ),
    ].slice(0, OPTION_SET_MAX),
  };
}

/** Why a set as typed in a form is not acceptable, or null. */
export function optionSetProblem(v: unknown): string | null {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return 'expected an object';
  const o = v as Record<string, unknown>;
  if (typeof o.name !== 'string' || o.name.trim() === '' || o.name.length > 60)
    return 'name: 1 to 60 characters';
  if (!Array.isArray(o.list) || o.list.length === 0) return 'list: at least one option';
  if (o.list.length > OPTION_SET_MAX) return `list: at most ${OPTION_SET_MAX} options`;
  for (const x of o.list)
    if (typeof x !== 'string' || x.trim() === '' || x.length > OPTION_ITEM_MAX)
      return `list: each option is text of 1 to ${OPTION_ITEM_MAX} characters`;
  if (new Set(o.list).size !== o.list.length) return 'list: options must differ';
  return null;
}

/** The set a field names, if any. */
export function optionSetOf(option: FieldOption | undefined | null): string | undefined {
  const s = option?.info?.selection;
  return typeof s === 'string' && OPTION_SET_KEY.test(s) ? s : undefined;
}

/** The field's option with its list replaced by the set's (what checks and pickers use). */
export function withSetList(option: FieldOption, set: OptionSet | null): FieldOption {
  return { ...option, info: { ...option.info, list: set?.list ?? [] } };
}
