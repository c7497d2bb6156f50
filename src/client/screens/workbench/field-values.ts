/** How the grid shows and reads each field type's values. */

import { TIME_ZONE } from '../../../shared/constants.ts';
import { dayOf, startOfDay } from '../../../shared/query/tz.ts';
import type { DataRecord, Field } from '../../api/workbench.ts';
import type { Choice } from './RelatePicker.tsx';

/** The option list of a text or number field, when enabled. */
export function optionList(f: Field): string[] | null {
  return f._option.info?.enable && f._option.info.list?.length ? f._option.info.list : null;
}

/** Labels of the records a relate or collection value points at. */
export function relatedChoices(f: Field, r: DataRecord): Choice[] {
  if (f._type === 'relate') {
    const id = r[f._field];
    return typeof id === 'string' && id ? [{ value: id, label: String(r[`_${f._field}`] || id) }] : [];
  }
  const list = r[`___${f._field}`];
  if (!Array.isArray(list)) return [];
  return list
    .filter((x): x is DataRecord => Boolean(x) && typeof x === 'object')
    .map((x) => ({ value: x._id, label: String(x.__name || x._id) }));
}

/** Image values: one home with the image field's input and cell. */
export { imageUrls } from '../../fields/image.tsx';

/** Text of a number with the field's decimals. */
export function formatNumber(f: Field, v: unknown): string {
  if (typeof v !== 'number') return '';
  const d = f._option.decimals;
  return typeof d === 'number' ? v.toFixed(d) : String(v);
}

/**
 * Date fields hold the instant of a day's start in the project's zone (Asia/Shanghai). The grid and
 * the picker work in the browser's zone, so a stored day is shown as the same calendar day there
 * (never a day off in a browser west of Beijing), and a picked day is stored as that day's start
 * in the project's zone.
 */
export function storedDayToLocal(ms: number, timeZone = TIME_ZONE): Date {
  const { y, m, d } = dayOf(ms, timeZone);
  return new Date(y, m - 1, d);
}

export function localDayToStored(local: Date, timeZone = TIME_ZONE): number {
  return startOfDay({ y: local.getFullYear(), m: local.getMonth() + 1, d: local.getDate() }, timeZone);
}
