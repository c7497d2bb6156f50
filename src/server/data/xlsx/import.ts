import { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { type Kysely, sql } from 'kysely';
import { newId } from '../../../shared/id.ts';
import type { DB } from '../../db/schema.ts';
import { AppError, E, fail } from '../../errors.ts';
import { entityTable, fieldColumn, linkTable } from '../ddl.ts';
import { type EntityMeta, metaOf } from '../meta.ts';
import { prepare } from '../records.ts';
import type { FieldRow } from '../schema-service.ts';
import { CellError, cellToInput, formatDate, headerNames, plainCell, ZONE_OFFSET_MS } from './cells.ts';
import { checkZip, DEFAULT_ZIP_LIMITS, type ZipLimits } from './zip-guard.ts';

type AnyDb = Kysely<Record<string, Record<string, unknown>>>;

export interface ImportOptions {
  /** Insert the valid rows even when others fail (otherwise nothing is written). */
  keepGood: boolean;
  /** Most data rows one file may hold. */
  maxRows?: number;
  zip?: ZipLimits;
}

/** One refused row: its sheet row number, the offending value, and why. `text` is "row {index}-{value}". */
export interface RowError {
  row: number;
  field: string;
  value: string;
  reason: string;
  text: string;
}

export interface ImportResult {
  inserted: number;
  failed: number;
  /** The first MAX_LISTED row errors. */
  errors: RowError[];
  /** Header cells that name no field (their columns are skipped). */
  ignored: string[];
}

export const IMPORT_MAX_ROWS = 200_000;
const MAX_LISTED = 100;
const ID = /^[0-9a-f]{24}$/;

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Rows per multi-row INSERT: stay far below SQLite's 32,766 and PostgreSQL's 65,535 parameters. */
function chunkSize(meta: EntityMeta) {
  const cols = 4 + meta.fields.filter((f) => f.type !== 'collection').length;
  return Math.max(1, Math.min(500, Math.floor(30_000 / cols)));
}

interface Column {
  index: number;
  field: FieldRow;
}

/** Map header cells to fields by name, alias or key; hidden fields a role cannot write are refused. */
function mapHeader(meta: EntityMeta, all: FieldRow[], cells: unknown[]) {
  const columns: Column[] = [];
  const ignored: string[] = [];
  const used = new Set<string>();
  cells.forEach((cell, index) => {
    const v = plainCell(cell as ExcelJS.CellValue);
    if (v === null || v === undefined || String(v).trim() === '') return;
    const name = String(v).trim();
    const field = meta.fields.find((f) => headerNames(f).includes(name));
    if (!field) {
      if (all.some((f) => headerNames(f).includes(name))) fail(E.IMPORT_HEADER, `${name}: not allowed`);
      ignored.push(name);
      return;
    }
    if (used.has(field.id)) fail(E.IMPORT_HEADER, `${name}: the field appears twice`);
    used.add(field.id);
    columns.push({ index, field });
  });
  if (columns.length === 0) fail(E.IMPORT_HEADER, 'no column names a field of this table');
  return { columns, ignored };
}

interface PendingRow {
  row: number;
  cells: unknown[];
}

function display(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (v instanceof Date) return formatDate(v.getTime() - ZONE_OFFSET_MS);
  const s = typeof v === 'object' ? JSON.stringify(v) : String(v);
  return s.length > 100 ? `${s.slice(0, 100)}…` : s;
}

/** Resolve relate/collection cells (ids or display names) of a chunk against the target tables. */
class Resolver {
  private readonly targets = new Map<string, EntityMeta | null>();
  constructor(private readonly db: Kysely<DB>) {}

  private async target(id: string): Promise<EntityMeta | null> {
    if (!this.targets.has(id)) {
      const entity = await this.db.selectFrom('data_entities').selectAll().where('id', '=', id).executeTakeFirst();
      this.targets.set(id, entity ? await metaOf(this.db, entity) : null);
    }
    return this.targets.get(id) ?? null;
  }

  /** token → ids for every token (ids and names) of one field in the chunk. */
  async lookup(field: FieldRow, tokens: Set<string>): Promise<Map<string, string[]>> {
    const out = new Map<string, string[]>();
    const target = field.relate_id ? await this.target(field.relate_id) : null;
    if (!target || tokens.size === 0) return out;
    const add = (k: string, id: string) => {
      const list = out.get(k) ?? [];
      if (!list.includes(id)) list.push(id);
      out.set(k, list);
    };
    const all = [...tokens];
    const ids = all.filter((t) => ID.test(t));
    const name = target.nameField ? fieldColumn(target.nameField.id) : null;
    for (let i = 0; i < all.length; i += 400) {
      const part = all.slice(i, i + 400);
      const partIds = ids.filter((x) => part.includes(x));
      const conds = [];
      if (partIds.length) conds.push(sql`t._id IN (${sql.join(partIds)})`);
      if (name) conds.push(sql`${sql.ref(`t.${name}`)} IN (${sql.join(part)})`);
      if (!conds.length) continue;
      const rows = await sql<{ _id: string; n: unknown }>`SELECT t._id AS _id, ${name ? sql.ref(`t.${name}`) : sql`NULL`} AS n FROM ${sql.table(
        target.table,
      )} t WHERE ${sql.join(conds, sql` OR `)}`.execute(this.db);
      for (const r of rows.rows) {
        if (partIds.includes(r._id)) add(r._id, r._id);
        if (r.n !== null && r.n !== undefined && tokens.has(String(r.n))) add(String(r.n), r._id);
      }
    }
    return out;
  }
}

/**
 * Import the first sheet of an xlsx into a table: a header row naming fields, then one record per
 * row, converted per field type and checked by the same rules as the save call. Everything happens
 * in one transaction: with row errors nothing is written unless `keepGood` is set. Rows go in as
 * multi-row INSERTs, yielding to the event loop between chunks.
 */
export async function importXlsx(
  db: Kysely<DB>,
  meta: EntityMeta,
  allFields: FieldRow[],
  file: Buffer,
  userId: string | null,
  opts: ImportOptions,
): Promise<ImportResult> {
  await checkZip(file, opts.zip ?? DEFAULT_ZIP_LIMITS);
  const maxRows = opts.maxRows ?? IMPORT_MAX_ROWS;
  const source = Readable.from([file]);
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(source, {
    entries: 'emit',
    sharedStrings: 'cache',
    hyperlinks: 'ignore',
    styles: 'cache',
    worksheets: 'emit',
  });
  const errors: RowError[] = [];
  let failed = 0;
  let inserted = 0;
  let total = 0;
  let ignored: string[] = [];
  const size = chunkSize(meta);

  const fail1 = (row: number, field: string, value: unknown, reason: string) => {
    failed++;
    if (errors.length < MAX_LISTED) {
      const v = display(value);
      errors.push({ row, field, value: v, reason, text: `row ${row}-${v}` });
    }
  };

  await db.transaction().execute(async (trx) => {
    const resolver = new Resolver(trx);
    let columns: Column[] | null = null;
    let pending: PendingRow[] = [];

    const flush = async () => {
      if (!columns || pending.length === 0) return;
      const rows = pending;
      pending = [];
      const cols = columns;
      // Relations: every token of the chunk per field, looked up in one query per field.
      const tokens = new Map<FieldRow, Set<string>>();
      const converted = rows.map((r) => {
        const input: Record<string, unknown> = {};
        let err: { field: string; value: unknown; reason: string } | null = null;
        for (const c of cols) {
          const raw = plainCell(r.cells[c.index] as ExcelJS.CellValue);
          try {
            const v = cellToInput(c.field, raw);
            input[c.field.code] = v;
            if (v !== null && (c.field.type === 'relate' || c.field.type === 'collection')) {
              const set = tokens.get(c.field) ?? new Set<string>();
              for (const t of Array.isArray(v) ? v : [v]) set.add(String(t));
              tokens.set(c.field, set);
            }
          } catch (e) {
            if (!(e instanceof CellError)) throw e;
            err ??= { field: c.field.code, value: raw, reason: e.message };
          }
        }
        return { row: r.row, input, err, cells: r.cells };
      });
      const found = new Map<FieldRow, Map<string, string[]>>();
      for (const [f, set] of tokens) found.set(f, await resolver.lookup(f, set));
      const good: { id: string; columns: Record<string, unknown>; links: Map<FieldRow, string[]> }[] = [];
      const now = Date.now();
      for (const c of converted) {
        if (c.err) {
          fail1(c.row, c.err.field, c.err.value, c.err.reason);
          continue;
        }
        let err: { field: string; value: unknown; reason: string } | null = null;
        for (const col of cols) {
          const f = col.field;
          const v = c.input[f.code];
          if (v === null || (f.type !== 'relate' && f.type !== 'collection')) continue;
          const map = found.get(f) ?? new Map<string, string[]>();
          const ids: string[] = [];
          for (const t of Array.isArray(v) ? (v as string[]) : [String(v)]) {
            const hit = map.get(t);
            if (!hit) err ??= { field: f.code, value: t, reason: 'no such record' };
            else if (hit.length > 1) err ??= { field: f.code, value: t, reason: 'names several records' };
            else ids.push(hit[0]!);
          }
          c.input[f.code] = f.type === 'relate' ? (ids[0] ?? null) : ids;
        }
        if (!err) {
          try {
            const p = prepare(meta, c.input, false);
            good.push({ id: newId(now), columns: p.columns, links: p.links });
          } catch (e) {
            if (!(e instanceof AppError)) throw e;
            const field = (e.detail ?? '').split(':')[0] ?? '';
            const col = cols.find((x) => x.field.code === field);
            err = { field, value: col ? plainCell(c.cells[col.index] as ExcelJS.CellValue) : '', reason: e.detail ?? e.message };
          }
        }
        if (err) fail1(c.row, err.field, err.value, err.reason);
      }
      // Without keepGood the first failure dooms the transaction: keep checking, stop writing.
      if (good.length && (opts.keepGood || failed === 0)) {
        const values = good.map((g) => ({ _id: g.id, _created_at: now, _updated_at: now, _creator: userId, ...g.columns }));
        await (trx as unknown as AnyDb).insertInto(entityTable(meta.entity.id)).values(values).execute();
        for (const f of meta.fields) {
          if (f.type !== 'collection') continue;
          const links = good.flatMap((g) => (g.links.get(f) ?? []).map((target_id, sort) => ({ owner_id: g.id, target_id, sort })));
          for (let i = 0; i < links.length; i += 5000) {
            await (trx as unknown as AnyDb)
              .insertInto(linkTable(f.id))
              .values(links.slice(i, i + 5000))
              .execute();
          }
        }
        inserted += good.length;
      }
      await tick();
    };

    // Errors of the reader mean a broken workbook; errors while writing are ours and pass through.
    let writing = false;
    let sawSheet = false;
    try {
      for await (const sheet of reader) {
        sawSheet = true;
        for await (const row of sheet) {
          const cells = (row.values as unknown[]).slice(1);
          if (!columns) {
            if (cells.every((c) => plainCell(c as ExcelJS.CellValue) === null)) continue;
            ({ columns, ignored } = mapHeader(meta, allFields, cells));
            continue;
          }
          if (cells.every((c) => { const v = plainCell(c as ExcelJS.CellValue); return v === null || String(v).trim() === ''; })) continue;
          if (++total > maxRows) fail(E.IMPORT_TOO_MANY_ROWS, `at most ${maxRows} rows`);
          pending.push({ row: row.number, cells });
          // The reader never waits on I/O for an in-memory file: give the event loop a turn often.
          if (total % 100 === 0) await tick();
          if (pending.length >= size) {
            writing = true;
            await flush();
            writing = false;
          }
        }
        break; // the first sheet only
      }
    } catch (e) {
      if (e instanceof AppError || writing) throw e;
      throw new AppError(E.IMPORT_NOT_XLSX, 'the workbook cannot be read');
    } finally {
      source.destroy();
    }
    if (!sawSheet) fail(E.IMPORT_NOT_XLSX, 'the workbook has no sheet');
    await flush();
    if (!columns || total === 0) fail(E.IMPORT_EMPTY);
    if (failed > 0 && !opts.keepGood) {
      throw new AppError(E.IMPORT_ROWS, errors.slice(0, 10).map((x) => x.text).join('; '), { inserted: 0, failed, errors, ignored });
    }
  });
  return { inserted, failed, errors, ignored };
}
