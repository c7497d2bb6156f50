import type { Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import type { Kysely } from 'kysely';
import { optionTextId } from '../../../shared/admin/i18n.ts';
import { optionSetOf } from '../../../shared/admin/option-sets.ts';
import type { FieldType } from '../../../shared/api/fields.ts';
import { EXPORT_MAX_FIELDS, EXPORT_MAX_ROWS } from '../../../shared/constants.ts';
import { checksOptions } from '../../../shared/fields/values.ts';
import type { NormalizedQuery } from '../../../shared/query/index.ts';
import type { Dialect } from '../../db/index.ts';
import type { DB } from '../../db/schema.ts';
import { E, fail } from '../../errors.ts';
import type { EntityMeta } from '../meta.ts';
import { type ApiRecord, queryIds, recordsByIds } from '../records.ts';
import type { FieldRow } from '../schema-service.ts';
import { FORMULA_LIKE, formatDate, ZONE_OFFSET_MS } from './cells.ts';

// Spec: export takes at most 10,000 rows and 30 fields (src/shared/constants.ts).
export { EXPORT_MAX_FIELDS, EXPORT_MAX_ROWS };

const CHUNK = 200;

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The fields to export: the named ones (each readable by the caller), or the first 30 visible. */
export function exportFields(meta: EntityMeta, codes: unknown): FieldRow[] {
  if (codes === undefined || codes === null) return meta.fields.slice(0, EXPORT_MAX_FIELDS);
  if (!Array.isArray(codes) || codes.length === 0) fail(E.EXPORT_FIELDS, 'fields: a list of field keys');
  if (codes.length > EXPORT_MAX_FIELDS) fail(E.EXPORT_FIELDS, `fields: at most ${EXPORT_MAX_FIELDS}`);
  return [...new Set(codes)].map((c) => {
    const f = typeof c === 'string' ? meta.byCode.get(c) : undefined;
    if (!f) fail(E.EXPORT_FIELDS, `fields: ${String(c).slice(0, 64)}: no such field`);
    return f;
  });
}

/** Spreadsheet sheet names: no []:*?/\ and at most 31 characters. */
export function sheetName(name: string, fallback = 'Sheet1'): string {
  const s = name
    .replace(/[[\]:*?/\\]/g, '')
    .trim()
    .slice(0, 31);
  return s || fallback;
}

/**
 * The words of an export in the reader's language (/system/i18n's map of that language): a field's
 * name heads its column, an option is written as its label. Absent: the builder's own words.
 */
export interface ExportLabels {
  field(f: FieldRow): string;
  /** The label of `value` among the field's options; the value itself when it has none. */
  option(f: FieldRow, value: string): string;
}

const OWN_WORDS: ExportLabels = { field: (f) => f.name, option: (_f, v) => v };

/** An export's words from one language's translation map (ids as /system/i18n keeps them). */
export function exportLabels(meta: EntityMeta, texts: Record<string, string>): ExportLabels {
  return {
    field: (f) => texts[f.id]?.trim() || f.name,
    option(f, v) {
      const option = meta.options.get(f.code);
      if (!checksOptions(f.type as FieldType, option)) return v;
      return texts[optionTextId(f.id, v, optionSetOf(option))]?.trim() || v;
    },
  };
}

/** A record's value of a field as a cell: numbers stay numbers, dates Beijing wall-clock dates. */
export function cellOf(
  f: FieldRow,
  rec: ApiRecord,
  labels: ExportLabels = OWN_WORDS,
): { value: ExcelJS.CellValue; numFmt?: string } {
  const v = rec[f.code];
  switch (f.type) {
    case 'number':
      return { value: typeof v === 'number' ? v : null };
    case 'date': {
      if (typeof v !== 'number') return { value: null };
      const text = formatDate(v);
      return {
        value: new Date(v + ZONE_OFFSET_MS),
        numFmt: text.length > 10 ? 'yyyy-mm-dd hh:mm:ss' : 'yyyy-mm-dd',
      };
    }
    case 'relate':
      return textCell(String(rec[`_${f.code}`] ?? ''));
    case 'collection': {
      const list = rec[`___${f.code}`];
      const names = Array.isArray(list)
        ? list.map((x) => String((x as ApiRecord | undefined)?.__name ?? ''))
        : [];
      return textCell(names.join(', '));
    }
    case 'boolean':
      return { value: typeof v === 'boolean' ? v : null };
    case 'option':
      return textCell(v === null || v === undefined ? '' : labels.option(f, String(v)));
    case 'options':
      return textCell(Array.isArray(v) ? v.map((x) => labels.option(f, String(x))).join(', ') : '');
    case 'attachment':
      return textCell(
        Array.isArray(v) ? v.map((x) => String((x as { url?: unknown }).url ?? '')).join('\n') : '',
      );
    case 'image': {
      if (typeof v !== 'string') return { value: null };
      let urls: string[] = [v];
      if (v.startsWith('[')) {
        try {
          urls = (JSON.parse(v) as unknown[]).map(String);
        } catch {
          urls = [v];
        }
      }
      return textCell(urls.join('\n'));
    }
    default:
      // Text fields with a value list carry option labels too.
      return textCell(v === null || v === undefined ? '' : labels.option(f, String(v)));
  }
}

/**
 * Text that a spreadsheet might read as a formula (= + - @, or a leading tab/CR) is stored as a
 * plain string in a cell formatted as Text ('@'), so no spreadsheet evaluates it, even on edit.
 */
export function textCell(s: string): { value: ExcelJS.CellValue; numFmt?: string } {
  if (s === '') return { value: null };
  return FORMULA_LIKE.test(s) ? { value: s, numFmt: '@' } : { value: s };
}

export interface ExportPlan {
  meta: EntityMeta;
  fields: FieldRow[];
  query: NormalizedQuery;
  labels?: ExportLabels;
}

/**
 * Stream the rows of a query into `out` as an xlsx: the query's ids first (one narrow query), then
 * the rows by id in pages of 200 (relations resolved per page), each row committed to the streaming
 * writer, with a turn of the event loop between pages, so memory stays flat and no page is an OFFSET
 * rescan of the ones before it.
 */
export async function streamExport(
  db: Kysely<DB>,
  dialect: Dialect,
  plan: ExportPlan,
  out: Writable,
): Promise<number> {
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: out,
    useStyles: true,
    useSharedStrings: false,
  });
  const ws = wb.addWorksheet(sheetName(plan.meta.entity.name));
  const labels = plan.labels ?? OWN_WORDS;
  ws.columns = plan.fields.map((f) => ({
    key: f.code,
    width: Math.min(40, Math.max(10, labels.field(f).length * 2 + 2)),
  }));
  // Header cells hold builders' field names: written as Text ('@') like formula-like values, so a
  // name such as `=HYPERLINK(…)` is never evaluated.
  const head = ws.getRow(1);
  plan.fields.forEach((f, k) => {
    const cell = head.getCell(k + 1);
    cell.value = labels.field(f);
    cell.numFmt = '@';
  });
  head.font = { bold: true };
  head.commit();
  const limit = Math.min(plan.query.limit, EXPORT_MAX_ROWS);
  const ids = await queryIds(db, dialect, plan.meta, { ...plan.query, limit, count: false });
  let written = 0;
  for (let i = 0; i < ids.length; i += CHUNK) {
    const data = await recordsByIds(db, plan.meta, ids.slice(i, i + CHUNK));
    for (const rec of data) {
      const row = ws.addRow([]);
      plan.fields.forEach((f, k) => {
        const c = cellOf(f, rec, labels);
        if (c.value === null) return;
        const cell = row.getCell(k + 1);
        cell.value = c.value;
        if (c.numFmt) cell.numFmt = c.numFmt;
      });
      row.commit();
    }
    written += data.length;
    await tick();
  }
  ws.commit();
  await wb.commit();
  return written;
}
