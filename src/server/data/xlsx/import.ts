import { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { type Kysely, sql } from 'kysely';
import type { ImportResult, RowError } from '../../../shared/api/xlsx.ts';
import { newId } from '../../../shared/id.ts';
import type { Database } from '../../db/index.ts';
import type { DB } from '../../db/schema.ts';
import { AppError, E, fail } from '../../errors.ts';
import { fieldColumn } from '../ddl.ts';
import { ImportNumbering, optionLabels, projectTranslations, withOptionSets } from '../field-extras.ts';
import { type EntityMeta, metaOf } from '../meta.ts';
import { prepare } from '../records.ts';
import type { FieldRow } from '../schema-service.ts';
import { CellError, cellToInput, formatDate, headerNames, plainCell, ZONE_OFFSET_MS } from './cells.ts';
import { type StagedRow, StagedWriter, WORKER_MIN_ROWS } from './import-writer.ts';
import { checkZip, DEFAULT_ZIP_LIMITS, type ZipLimits } from './zip-guard.ts';

export interface ImportOptions {
  /** Insert the valid rows even when others fail (otherwise nothing is written). */
  keepGood: boolean;
  /** Most data rows one file may hold. */
  maxRows?: number;
  zip?: ZipLimits;
  /** The caller already ran `checkZip` on the file. */
  checked?: boolean;
  /**
   * Of the rows written, the ids the caller may not keep (outside their role's default filter of
   * the table): refused as row errors, so nothing is kept (or, with `keepGood`, only those go).
   */
  outside?: ((ids: string[]) => Promise<Set<string>>) | undefined;
  /**
   * Told the tables written once each chunk is committed: the app's write clock (the plugin passes
   * the one loaded with the app, since this module loads lazily). Default: this module's import of it.
   */
  wrote?: (tables: string[]) => void;
}

export const IMPORT_MAX_ROWS = 200_000;
/** Row errors listed in an answer (ImportResult.errors). */
const MAX_LISTED = 100;
const ID = /^[0-9a-f]{24}$/;

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

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
      const entity = await this.db
        .selectFrom('data_entities')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirst();
      this.targets.set(id, entity ? await metaOf(this.db, entity) : null);
    }
    return this.targets.get(id) ?? null;
  }

  /** Answers already looked up, per field: token → ids (empty: no record). */
  private readonly cache = new Map<string, Map<string, string[]>>();

  /** token → ids for every token (ids and names) of one field in the batch; each token asked once. */
  async lookup(field: FieldRow, tokens: Set<string>): Promise<Map<string, string[]>> {
    let known = this.cache.get(field.id);
    if (!known) {
      known = new Map();
      this.cache.set(field.id, known);
    }
    const target = field.relate_id ? await this.target(field.relate_id) : null;
    if (!target) return known;
    const fresh = [...tokens].filter((t) => !known.has(t));
    for (const t of fresh) known.set(t, []);
    const add = (k: string, id: string) => {
      const list = known.get(k);
      if (list && !list.includes(id)) list.push(id);
    };
    const name = target.nameField ? fieldColumn(target.nameField.id) : null;
    for (let i = 0; i < fresh.length; i += 400) {
      const part = fresh.slice(i, i + 400);
      const partIds = part.filter((t) => ID.test(t));
      const conds = [];
      if (partIds.length) conds.push(sql`t._id IN (${sql.join(partIds)})`);
      if (name) conds.push(sql`${sql.ref(`t.${name}`)} IN (${sql.join(part)})`);
      if (!conds.length) continue;
      const rows = await sql<{
        _id: string;
        n: unknown;
      }>`SELECT t._id AS _id, ${name ? sql.ref(`t.${name}`) : sql`NULL`} AS n FROM ${sql.table(
        target.table,
      )} t WHERE ${sql.join(conds, sql` OR `)}`.execute(this.db);
      const asked = new Set(part);
      for (const r of rows.rows) {
        if (asked.has(r._id)) add(r._id, r._id);
        if (r.n !== null && r.n !== undefined && asked.has(String(r.n))) add(String(r.n), r._id);
      }
    }
    return known;
  }
}

/** Rows checked together: their relation tokens are looked up in one query per field. */
const CHECK_BATCH = 250;

/**
 * Import the first sheet of an xlsx into a table: a header row naming fields, then one record per
 * row, converted per field type and checked by the same rules as the save call.
 *
 * All-or-nothing without one long transaction (on SQLite one transaction holds the process's only
 * connection: every other request would wait for the whole import). The workbook is streamed, rows
 * are converted and checked in batches (relations resolved per batch, one query per field, tokens
 * cached), and the good rows written while reading goes on: multi-row INSERTs of up to 500 rows,
 * each chunk its own short transaction (on SQLite, from 1,000 rows on, on a worker thread's own
 * connection). Whatever ends the import early — a row error without `keepGood`, a broken file, a
 * database error — deletes the rows already written before the call answers, so a failed import
 * leaves nothing. Other requests run between chunks; readers may see a running import's rows before
 * it answers (and a process killed mid-import can leave them).
 */
export async function importXlsx(
  database: Pick<Database, 'db' | 'dialect' | 'sqlite'>,
  meta: EntityMeta,
  allFields: FieldRow[],
  file: Buffer,
  userId: string | null,
  opts: ImportOptions,
): Promise<ImportResult> {
  if (!opts.checked) await checkZip(file, opts.zip ?? DEFAULT_ZIP_LIMITS);
  for (let attempt = 1; ; attempt++) {
    const writer = new StagedWriter(database, meta, opts.wrote);
    // Auto-numbered fields get their numbers as rows are written; a failed import gives them back.
    const numbering = await ImportNumbering.of(database.db, meta);
    try {
      const rowOf = new Map<string, number>();
      const { failed, errors, ignored } = await readAndCheck(
        database.db,
        meta,
        allFields,
        file,
        userId,
        opts,
        writer,
        numbering,
        opts.outside ? rowOf : null,
      );
      if (failed > 0 && !opts.keepGood) {
        await writer.abort();
        await numbering?.giveBack();
        throw new AppError(
          E.IMPORT_ROWS,
          errors
            .slice(0, 10)
            .map((x) => x.text)
            .join('; '),
          { inserted: 0, failed, errors, ignored },
        );
      }
      await writer.finish();
      const refused = await refuseOutside(writer, opts, rowOf);
      if (refused.length) {
        const all = [...errors, ...refused].sort((a, b) => a.row - b.row).slice(0, MAX_LISTED);
        const n = failed + refused.length;
        if (!opts.keepGood)
          // The catch below removes every row written and gives the numbers back.
          throw new AppError(
            E.IMPORT_ROWS,
            all
              .slice(0, 10)
              .map((x) => x.text)
              .join('; '),
            { inserted: 0, failed: n, errors: all, ignored },
          );
        return { inserted: writer.count, failed: n, errors: all, ignored };
      }
      return { inserted: writer.count, failed, errors, ignored };
    } catch (err) {
      await writer.abort();
      await numbering?.giveBack();
      // exceljs's streaming reader now and then misses the sheet of a valid file (a race in its zip
      // entry iteration, seen under load): one more read before calling the file unreadable.
      if (attempt === 1 && !writer.used && err instanceof AppError && err.def === E.IMPORT_NOT_XLSX) continue;
      throw err;
    }
  }
}

/**
 * The written rows that fall outside the caller's bounds, as row errors; with `keepGood` they are
 * deleted at once (the others stay), else the caller's failure path removes every row.
 */
async function refuseOutside(
  writer: StagedWriter,
  opts: ImportOptions,
  rowOf: Map<string, number>,
): Promise<RowError[]> {
  if (!opts.outside || writer.count === 0) return [];
  const outside = new Set<string>();
  const ids = [...writer.ids];
  // The query language takes at most 1,000 ids in one set.
  for (let i = 0; i < ids.length; i += 1000)
    for (const id of await opts.outside(ids.slice(i, i + 1000))) outside.add(id);
  if (outside.size === 0) return [];
  if (opts.keepGood) await writer.drop(outside);
  const reason = E.ROLE_RECORD_WOULD_LEAVE.msg;
  return [...outside].map((id) => {
    const row = rowOf.get(id) ?? 0;
    return { row, field: '', value: '', reason, text: `row ${row}-${reason}` };
  });
}

interface Checked {
  failed: number;
  errors: RowError[];
  ignored: string[];
}

/** Stream the first sheet, convert and check every row, and hand the good ones to `writer`. */
async function readAndCheck(
  db: Kysely<DB>,
  meta: EntityMeta,
  allFields: FieldRow[],
  file: Buffer,
  userId: string | null,
  opts: ImportOptions,
  writer: StagedWriter,
  numbering: ImportNumbering | null,
  /** Filled with each written row's sheet row number by its id, when asked for. */
  rowOf: Map<string, number> | null,
): Promise<Checked> {
  // Option fields naming a set take the set's options as they are now; cells may hold an option
  // or its label in any of the project's languages (/system/i18n), stored as the option.
  const checkedMeta = await withOptionSets(db, meta);
  const labels = optionLabels(checkedMeta, await projectTranslations(db, meta.entity.project_id));
  const startedAt = Date.now();
  const write = async (rows: StagedRow[], bulk: boolean) => {
    await numbering?.number(writer.columns, rows, startedAt);
    await writer.push(rows, bulk);
  };
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
  const good: StagedRow[] = [];
  let failed = 0;
  let total = 0;
  let ignored: string[] = [];
  const layout = writer;
  let started = false;
  const collectionIndex = new Map(layout.collections.map((f, i) => [f.id, i]));
  const columnIndex = new Map(layout.columns.map((c, i) => [c, i]));
  const resolver = new Resolver(db);
  let columns: Column[] | null = null;
  let pending: PendingRow[] = [];

  const fail1 = (row: number, field: string, value: unknown, reason: string) => {
    failed++;
    if (errors.length < MAX_LISTED) {
      const v = display(value);
      errors.push({ row, field, value: v, reason, text: `row ${row}-${v}` });
    }
  };

  const check = async () => {
    if (!columns || pending.length === 0) return;
    const rows = pending;
    pending = [];
    const cols = columns;
    // Relations: every token of the batch per field, looked up in one query per field.
    const tokens = new Map<FieldRow, Set<string>>();
    const converted = rows.map((r) => {
      const input: Record<string, unknown> = {};
      let err: { field: string; value: unknown; reason: string } | null = null;
      for (const c of cols) {
        const raw = plainCell(r.cells[c.index] as ExcelJS.CellValue);
        try {
          let v = cellToInput(c.field, raw);
          const known = labels.get(c.field.id);
          if (known && v !== null) {
            const stored = (Array.isArray(v) ? v : [v]).map((x) => {
              const hit = known.get(String(x).trim());
              if (hit === undefined)
                throw new CellError(`'${String(x).slice(0, 40)}' is not an option of ${c.field.name}`);
              return hit;
            });
            v = Array.isArray(v) ? stored : stored[0];
          }
          input[c.field.code] = v;
          if (v !== null && (c.field.type === 'relate' || c.field.type === 'collection')) {
            let set = tokens.get(c.field);
            if (!set) {
              set = new Set<string>();
              tokens.set(c.field, set);
            }
            for (const t of Array.isArray(v) ? v : [v]) set.add(String(t));
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
          if (!hit?.length) err ??= { field: f.code, value: t, reason: 'no such record' };
          else if (hit.length > 1) err ??= { field: f.code, value: t, reason: 'names several records' };
          else ids.push(hit[0]!);
        }
        c.input[f.code] = f.type === 'relate' ? (ids[0] ?? null) : ids;
      }
      if (!err) {
        try {
          const p = prepare(checkedMeta, c.input, false);
          const values: unknown[] = new Array(layout.columns.length).fill(null);
          values[0] = newId(now);
          rowOf?.set(values[0] as string, c.row);
          values[1] = now;
          values[2] = now;
          values[3] = userId;
          for (const [k, v] of Object.entries(p.columns)) values[columnIndex.get(k)!] = v;
          let links: (string[] | undefined)[] | null = null;
          for (const [f, ids] of p.links) {
            links ??= new Array(layout.collections.length);
            links[collectionIndex.get(f.id)!] = ids;
          }
          good.push({ values, links });
        } catch (e) {
          if (!(e instanceof AppError)) throw e;
          const field = (e.detail ?? '').split(':')[0] ?? '';
          const col = cols.find((x) => x.field.code === field);
          // The field is listed beside the reason: the reason is the error's own words.
          const rest = e.detail?.startsWith(`${field}: `) ? e.detail.slice(field.length + 2) : e.detail;
          err = {
            field,
            value: col ? plainCell(c.cells[col.index] as ExcelJS.CellValue) : '',
            reason: !rest ? e.message : e.def === E.INVALID_FIELD ? rest : `${e.def.msg}: ${rest}`,
          };
        }
      }
      if (err) fail1(c.row, err.field, err.value, err.reason);
    }
    if (failed > 0 && !opts.keepGood) {
      // Nothing will be kept: stop holding rows, undo what was written, keep counting errors.
      good.length = 0;
      if (started) await writer.abort();
      started = false;
    } else if (good.length >= (started ? writer.chunk : WORKER_MIN_ROWS)) {
      started = true;
      await write(good.splice(0, good.length - (good.length % writer.chunk)), true);
    }
    await tick();
  };

  const blank = (c: unknown) => {
    const v = plainCell(c as ExcelJS.CellValue);
    return v === null || String(v).trim() === '';
  };

  // Errors of the reader mean a broken workbook; errors while checking are ours and pass through.
  let checking = false;
  let sawSheet = false;
  try {
    for await (const sheet of reader) {
      sawSheet = true;
      // The parser's batches of events: the rows of one batch are taken synchronously, no await per row.
      for await (const events of (sheet as unknown as SheetParser).parse()) {
        for (const ev of events) {
          if (ev.eventType !== 'row') continue;
          const row = ev.value as ExcelJS.Row;
          const cells = (row.values as unknown[]).slice(1);
          if (!columns) {
            if (cells.every((c) => plainCell(c as ExcelJS.CellValue) === null)) continue;
            ({ columns, ignored } = mapHeader(meta, allFields, cells));
            continue;
          }
          if (cells.every(blank)) continue;
          if (++total > maxRows) fail(E.IMPORT_TOO_MANY_ROWS, `at most ${maxRows} rows`);
          pending.push({ row: row.number, cells });
        }
        if (pending.length >= CHECK_BATCH) {
          checking = true;
          await check();
          checking = false;
        } else await tick();
      }
      break; // the first sheet only
    }
  } catch (e) {
    if (e instanceof AppError || checking) throw e;
    throw new AppError(E.IMPORT_NOT_XLSX, 'the workbook cannot be read');
  } finally {
    source.destroy();
  }
  if (!sawSheet) fail(E.IMPORT_NOT_XLSX, 'the workbook has no sheet');
  await check();
  if (!columns || total === 0) fail(E.IMPORT_EMPTY);
  if (good.length && (opts.keepGood || failed === 0)) await write(good.splice(0), started);
  return { failed, errors, ignored };
}

/** exceljs's worksheet reader yields the events of each parsed chunk together. */
interface SheetParser {
  parse(): AsyncIterable<{ eventType: string; value: unknown }[]>;
}
