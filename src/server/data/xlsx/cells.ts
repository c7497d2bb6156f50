import type { CellValue } from 'exceljs';
import { readBoolean } from '../../../shared/fields/values.ts';
import { parseJson } from '../../project/service.ts';
import { parseDate } from '../records.ts';
import type { FieldRow } from '../schema-service.ts';

/** Beijing time, the zone dates are read and shown in (spec: Asia/Shanghai, no daylight saving). */
export const ZONE_OFFSET_MS = 8 * 3600_000;
/** Excel day 0 (1899-12-30) in Unix days. */
const EXCEL_EPOCH_DAYS = 25569;

/** The plain value of a cell: text of rich text and hyperlinks, the cached result of formulas. */
export function plainCell(v: CellValue | undefined): unknown {
  if (v === null || v === undefined) return null;
  if (typeof v !== 'object' || v instanceof Date) return v;
  if ('richText' in v) return v.richText.map((r) => r.text).join('');
  if ('formula' in v || 'sharedFormula' in v) return plainCell((v as { result?: CellValue }).result ?? null);
  if ('hyperlink' in v) return plainCell((v as { text?: CellValue }).text ?? null);
  if ('error' in v) return null;
  return null;
}

function pad(n: number, w = 2) {
  return String(n).padStart(w, '0');
}

/** A stored date (epoch ms) as Beijing wall-clock text. */
export function formatDate(ms: number): string {
  const d = new Date(ms + ZONE_OFFSET_MS);
  const day = `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
  const h = d.getUTCHours();
  const m = d.getUTCMinutes();
  const s = d.getUTCSeconds();
  return h || m || s ? `${day} ${pad(h)}:${pad(m)}:${pad(s)}` : day;
}

const optionLists = new WeakMap<FieldRow, Set<string> | null>();

/** The option list of a text or number field, when enabled (parsed once per field row). */
export function optionList(f: FieldRow): Set<string> | null {
  let hit = optionLists.get(f);
  if (hit === undefined) {
    const o = parseJson<{ info?: { enable?: unknown; list?: unknown } }>(f.options, {});
    const list = o.info?.enable === true && Array.isArray(o.info.list) ? o.info.list.map(String) : [];
    hit = list.length ? new Set(list) : null;
    optionLists.set(f, hit);
  }
  return hit;
}

/** Names a header cell may use for a field: its name, its alias, its key. */
export function headerNames(f: FieldRow): string[] {
  const alias = parseJson<{ alias?: unknown }>(f.options, {}).alias;
  return [f.name, typeof alias === 'string' ? alias : '', f.code].map((s) => s.trim()).filter(Boolean);
}

/** Thrown by `cellToInput` with the reason a cell cannot be read. */
export class CellError extends Error {}

function textOf(v: unknown): string {
  if (v instanceof Date) return formatDate(v.getTime() - ZONE_OFFSET_MS);
  return String(v).trim();
}

/**
 * A cell as the save call's input for the field (relate and collection values stay names or ids
 * until resolved by the caller). `null` means empty.
 */
export function cellToInput(f: FieldRow, raw: unknown): unknown {
  if (raw === null || raw === undefined || (typeof raw === 'string' && raw.trim() === '')) return null;
  switch (f.type) {
    case 'number': {
      const n =
        typeof raw === 'number'
          ? raw
          : typeof raw === 'string'
            ? Number(raw.trim().replace(/,/g, ''))
            : Number.NaN;
      if (!Number.isFinite(n)) throw new CellError('expected a number');
      const list = optionList(f);
      if (list && !list.has(String(n))) throw new CellError('not in the option list');
      return n;
    }
    case 'date': {
      // Spreadsheet dates carry no zone: their wall-clock reading is Beijing time.
      if (raw instanceof Date) return raw.getTime() - ZONE_OFFSET_MS;
      if (typeof raw === 'number') {
        if (Math.abs(raw) > 1e11) return Math.trunc(raw);
        return Math.round((raw - EXCEL_EPOCH_DAYS) * 86_400_000) - ZONE_OFFSET_MS;
      }
      const t = parseDate(String(raw).trim().replace(/\//g, '-'));
      if (t === null) throw new CellError('expected a date');
      return t;
    }
    case 'time': {
      if (raw instanceof Date)
        return `${pad(raw.getUTCHours())}:${pad(raw.getUTCMinutes())}:${pad(raw.getUTCSeconds())}`;
      if (typeof raw === 'number' && raw >= 0 && raw < 1) {
        const s = Math.round(raw * 86_400);
        return `${pad(Math.floor(s / 3600) % 24)}:${pad(Math.floor(s / 60) % 60)}:${pad(s % 60)}`;
      }
      return textOf(raw);
    }
    case 'collection':
      return textOf(raw)
        .split(/[,,、;;\n]/)
        .map((s) => s.trim())
        .filter(Boolean);
    case 'image': {
      const list = textOf(raw)
        .split(/[\s,]+/)
        .filter(Boolean);
      return list.length === 1 ? list[0] : list;
    }
    case 'relate':
      return textOf(raw);
    case 'boolean': {
      const b = readBoolean(typeof raw === 'string' ? raw.trim() : raw);
      if (b === null) throw new CellError('expected yes or no (true or false)');
      return b;
    }
    case 'options':
      return textOf(raw)
        .split(/[,,、;;\n]/)
        .map((s) => s.trim())
        .filter(Boolean);
    case 'attachment':
      // Exported as one link per line; a re-import keeps the links, named after their last part.
      return textOf(raw)
        .split(/\s+/)
        .filter(Boolean)
        .map((url) => ({ url, name: decodeName(url), size: 0 }));
    case 'longtext':
      return typeof raw === 'string' ? raw : textOf(raw);
    case 'option':
    case 'email':
    case 'phone':
    case 'url':
      return textOf(raw);
    default: {
      const s = typeof raw === 'string' ? raw : textOf(raw);
      const list = optionList(f);
      if (list && !list.has(s.trim())) throw new CellError('not in the option list');
      return s;
    }
  }
}

function decodeName(url: string): string {
  const last = url.split(/[?#]/)[0]!.split('/').pop() || 'file';
  let name = last;
  try {
    name = decodeURIComponent(last);
  } catch {
    /* keep it as written */
  }
  // Stored names carry `{time}_{random}_` in front (upload-store.ts).
  return name.replace(/^\d+_[0-9a-f]{32}_/, '').slice(0, 200) || 'file';
}

/** Cells starting like a formula (or with a tab/CR that some tools strip first). */
export const FORMULA_LIKE = /^[=+\-@\t\r]/;
