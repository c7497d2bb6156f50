/**
 * How row values are read and ordered; the SQL side must reproduce these exactly.
 * - Empty: null, undefined, '' (text-like), [] (collection, options), and values of the wrong JS type.
 * - Booleans read as 1 (true) and 0 (false), as both databases store them.
 * - Text order is Unicode code point order (= UTF-8 byte order: SQLite BINARY, PostgreSQL
 *   COLLATE "C"), not UTF-16 unit order.
 */
import type { FieldType } from './operators.ts';

export type Row = Record<string, unknown>;

/** The value of `raw` as a `kind` filter sees it; null when empty. */
export function readCell(kind: FieldType, raw: unknown): string | number | string[] | null {
  switch (kind) {
    case 'number':
    case 'date':
      return typeof raw === 'number' && Number.isFinite(raw) ? raw : null;
    case 'boolean':
      // Stored as 1 / 0; the API answers true / false. Both read as 1 / 0 so groups agree with SQL.
      return raw === true || raw === 1 ? 1 : raw === false || raw === 0 ? 0 : null;
    case 'collection':
    case 'options': {
      if (!Array.isArray(raw)) return null;
      const ids = raw.filter((x): x is string => typeof x === 'string' && x !== '');
      return ids.length > 0 ? ids : null;
    }
    default:
      return typeof raw === 'string' && raw !== '' ? raw : null;
  }
}

/** Row value for a field the caller may have left undeclared. */
export function cell(row: Row, field: string): unknown {
  return Object.hasOwn(row, field) ? row[field] : undefined;
}

function unit(u: number): number {
  if (u < 0xd800) return u;
  return u <= 0xdfff ? u + 0x2000 : u - 0x800;
}

/** Code point order of two strings. */
export function compareText(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return unit(x) - unit(y);
  }
  return a.length - b.length;
}

type SortValue = number | string | null;

/**
 * The value a sort key orders by: the stored value as is ('' is a string, not null). With an
 * unknown type the SQLite storage-class order applies: null < numbers < text. Collections and
 * multiple options are not sortable (always null); booleans sort false before true.
 */
export function sortValue(kind: FieldType | undefined, raw: unknown): SortValue {
  if (kind === 'collection' || kind === 'options') return null;
  if (kind === 'boolean') return readCell('boolean', raw) as number | null;
  const num = typeof raw === 'number' && Number.isFinite(raw) ? raw : null;
  if (kind === 'number' || kind === 'date') return num;
  if (typeof raw === 'string') return raw;
  return kind === undefined ? num : null;
}

/** Ascending order with null first; numbers before strings. */
export function compareSortValues(a: SortValue, b: SortValue): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? -1 : 1;
  if (typeof a === 'number' && typeof b === 'number') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'number') return -1;
  if (typeof b === 'number') return 1;
  return compareText(a, b);
}
