/**
 * Datasets (flows of `_type: dataset`): the document saved, released and restored like programs,
 * checked against the project's tables, and shown with one SQL statement.
 */
import { createHash } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import { cleanNumber } from '../../shared/dataset/evaluate.ts';
import {
  type Catalog,
  type CatalogEntity,
  type DatasetDocument,
  type DatasetPlan,
  type Expr,
  fieldQueryType,
  parseDatasetDocument,
  planDataset,
  planShow,
  type ShowAnswer,
  type ShowRequest,
} from '../../shared/dataset/index.ts';
import { newId } from '../../shared/id.ts';
import { roundHalfAway } from '../../shared/query/round.ts';
import { metricName, type SummaryAnswer } from '../../shared/query/summary.ts';
import { normalizeSummaryOrThrow } from '../../shared/query/summary-spec.ts';
import type { UserLike } from '../../shared/query/types.ts';
import { entityTable, fieldColumn } from '../data/ddl.ts';
import { metaOf } from '../data/meta.ts';
import { assertModule } from '../data/schema-service.ts';
import type { Dialect } from '../db/index.ts';
import type { DB, FlowsTable } from '../db/schema.ts';
import { E, fail } from '../errors.ts';
import {
  listFlowVersions,
  releaseDocument,
  restoreDraft,
  versionDocument,
} from '../program/flow-versions.ts';
import { compileCount, compileShow, compileSummary } from './compile.ts';

export type DatasetRow = FlowsTable;
const ID = /^[0-9a-f]{24}$/;

export const EMPTY_DATASET: DatasetDocument = {
  _dataset: { base: '', joins: [], columns: [] },
  _release: { _display: { _entity: [] } },
};

function readDoc(text: string | null): DatasetDocument {
  if (!text) return structuredClone(EMPTY_DATASET);
  try {
    return parseDatasetDocument(JSON.parse(text));
  } catch {
    return structuredClone(EMPTY_DATASET);
  }
}

export const draftOf = (row: DatasetRow) => readDoc(row.draft);
export const releasedOf = (row: DatasetRow) => (row.released === null ? null : readDoc(row.released));

export function apiDataset(row: DatasetRow) {
  return {
    _id: row.id,
    _type: row.type,
    _name: row.name,
    _sort: row.sort,
    _module: row.module_id,
    _version: row.released_version,
    _lastVersion: Number(row.last_version),
    _updatedAt: Number(row.updated_at),
    ...draftOf(row),
  };
}

/** A dataset of this project (another project's id, or a program, is not found). */
export async function findDataset(db: Kysely<DB>, projectId: string, id: string): Promise<DatasetRow> {
  if (!ID.test(id)) fail(E.DATASET_NOT_FOUND);
  const row = await db
    .selectFrom('flows')
    .selectAll()
    .where('id', '=', id)
    .where('project_id', '=', projectId)
    .where('type', '=', 'dataset')
    .executeTakeFirst();
  if (!row) fail(E.DATASET_NOT_FOUND);
  return row;
}

export async function listDatasets(db: Kysely<DB>, projectId: string): Promise<DatasetRow[]> {
  return db
    .selectFrom('flows')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('type', '=', 'dataset')
    .orderBy('sort')
    .orderBy('id')
    .execute();
}

/** The project's tables as a dataset sees them (metas come from the per-entity cache). */
export async function catalogOf(db: Kysely<DB>, projectId: string): Promise<Catalog> {
  const entities = await db
    .selectFrom('data_entities')
    .selectAll()
    .where('project_id', '=', projectId)
    .execute();
  const byRef = new Map<string, CatalogEntity>();
  for (const e of entities) {
    const meta = await metaOf(db, e);
    const ce: CatalogEntity = {
      id: e.id,
      code: e.code,
      fields: meta.fields.map((f) => ({
        code: f.code,
        type: fieldQueryType(f.type),
        relate: f.relate_id,
        hide: f.hide === 1,
        id: f.id,
      })),
    };
    byRef.set(e.id, ce);
    if (e.code) byRef.set(e.code, ce);
  }
  return (ref) => byRef.get(ref);
}

/** Structure, then tables and fields: the coded error of the first fault. */
export async function checkDocument(db: Kysely<DB>, projectId: string, input: unknown) {
  const doc = parseDatasetDocument(input);
  const plan = planDataset(doc, await catalogOf(db, projectId));
  // Stored by table id, so renaming a table's code does not break the dataset.
  doc._dataset.base = plan.base.id;
  return { doc, plan };
}

/**
 * A dataset document coming in with a project package: an empty draft (no table chosen) is parsed
 * only, anything else is checked against the project's tables as a save is (the stored form).
 */
export async function checkImportedDataset(db: Kysely<DB>, projectId: string, input: unknown) {
  const doc = parseDatasetDocument(input);
  if (!doc._dataset.base && doc._dataset.columns.length === 0) return doc;
  return (await checkDocument(db, projectId, doc)).doc;
}

function checkName(name: string): string {
  const n = name.trim();
  if (!n) fail(E.BAD_REQUEST, 'name must not be empty');
  return n;
}

export interface DatasetPatch {
  name?: string;
  sort?: number;
  module?: string | null;
  _dataset?: unknown;
  _release?: unknown;
}

async function patchedDoc(db: Kysely<DB>, projectId: string, patch: DatasetPatch, base: DatasetDocument) {
  const input = { _dataset: patch._dataset ?? base._dataset, _release: patch._release ?? base._release };
  // An empty draft (no table chosen yet) is kept as it is; anything else is checked in full.
  const d = input._dataset as { base?: unknown; columns?: unknown[] };
  if (!d?.base && (!Array.isArray(d?.columns) || d.columns.length === 0)) return parseDatasetDocument(input);
  return (await checkDocument(db, projectId, input)).doc;
}

export async function createDataset(
  db: Kysely<DB>,
  projectId: string,
  input: DatasetPatch & { name: string },
): Promise<DatasetRow> {
  await assertModule(db, projectId, input.module);
  const doc = await patchedDoc(db, projectId, input, structuredClone(EMPTY_DATASET));
  const now = Date.now();
  const row: DatasetRow = {
    id: newId(now),
    project_id: projectId,
    module_id: input.module || null,
    type: 'dataset',
    name: checkName(input.name),
    sort: input.sort ?? 0,
    draft: JSON.stringify(doc),
    released: null,
    released_version: null,
    last_version: 0,
    created_at: now,
    updated_at: now,
  };
  await db.insertInto('flows').values(row).execute();
  return row;
}

export async function updateDataset(
  db: Kysely<DB>,
  row: DatasetRow,
  patch: DatasetPatch,
): Promise<DatasetRow> {
  const set: Partial<DatasetRow> = { updated_at: Date.now() };
  if (patch.name !== undefined) set.name = checkName(patch.name);
  if (patch.sort !== undefined) set.sort = patch.sort;
  if (patch.module !== undefined) {
    await assertModule(db, row.project_id, patch.module);
    set.module_id = patch.module || null;
  }
  if (patch._dataset !== undefined || patch._release !== undefined)
    set.draft = JSON.stringify(await patchedDoc(db, row.project_id, patch, draftOf(row)));
  await db.updateTable('flows').set(set).where('id', '=', row.id).execute();
  return { ...row, ...set };
}

export async function removeDataset(db: Kysely<DB>, row: DatasetRow): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('flow_versions').where('flow_id', '=', row.id).execute();
    await trx.deleteFrom('flows').where('id', '=', row.id).execute();
  });
}

/**
 * Indexes a dataset needs: the join keys and the stored columns its filter names. Builder tables
 * index most field types when the field is made; this adds what is missing (e.g. image fields).
 */
async function ensureIndexes(db: Kysely<DB>, plan: DatasetPlan): Promise<void> {
  const wanted = new Map<string, { table: string; column: string }>();
  const aliasEntity = new Map<string, string>([['t', plan.base.id]]);
  for (const j of plan.joins) aliasEntity.set(j.alias, j.entity.id);
  for (const j of plan.joins) {
    if (j.field.type !== 'relate') continue;
    const table = entityTable(aliasEntity.get(j.from)!);
    wanted.set(`${table}.${j.field.id}`, { table, column: fieldColumn(j.field.id) });
  }
  const filtered = new Set<string>();
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) {
      for (const x of v) walk(x);
    } else if (v && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      if (typeof o.field === 'string') filtered.add(o.field);
      for (const x of Object.values(o)) if (x && typeof x === 'object') walk(x);
    }
  };
  walk(plan.where);
  for (const c of plan.columns) {
    if (!filtered.has(c.key) || c.expr.kind !== 'ref' || typeof c.expr.field === 'string') continue;
    const table = entityTable(aliasEntity.get(c.expr.alias)!);
    wanted.set(`${table}.${c.expr.field.id}`, { table, column: fieldColumn(c.expr.field.id) });
  }
  // A covering index per relate join: the join key, then the columns the dataset reads from the
  // joining table, so a grouped show reads the index alone instead of one table row per match.
  for (const j of plan.joins) {
    if (j.field.type !== 'relate') continue;
    const used: string[] = [];
    const walkExpr = (e: Expr) => {
      if (e.kind === 'ref' && e.alias === j.from && typeof e.field !== 'string') {
        const c = fieldColumn(e.field.id);
        if (!used.includes(c)) used.push(c);
      } else if (e.kind === 'fn') e.args.forEach(walkExpr);
    };
    for (const c of plan.columns) walkExpr(c.expr);
    const fk = fieldColumn(j.field.id);
    const cols = [fk, ...used.filter((c) => c !== fk)].slice(0, 6);
    if (cols.length < 2) continue;
    const table = entityTable(aliasEntity.get(j.from)!);
    const name = `${table}_ds_${createHash('sha1').update(cols.join(',')).digest('hex').slice(0, 12)}`;
    await sql`CREATE INDEX IF NOT EXISTS ${sql.ref(name)} ON ${sql.table(table)} (${sql.join(cols.map((c) => sql.ref(c)))})`.execute(
      db,
    );
  }
  for (const { table, column } of wanted.values())
    await sql`CREATE INDEX IF NOT EXISTS ${sql.ref(`${table}_${column}`)} ON ${sql.table(table)} (${sql.ref(column)})`.execute(
      db,
    );
}

/** Release the draft as the next numbered version (checked again against today's tables). */
export async function releaseDataset(
  db: Kysely<DB>,
  row: DatasetRow,
  userId: string | null,
): Promise<DatasetRow> {
  const { doc, plan } = await checkDocument(db, row.project_id, draftOf(row));
  await ensureIndexes(db, plan);
  return { ...row, ...(await releaseDocument(db, row.id, JSON.stringify(doc), userId)) };
}

export function listDatasetVersions(db: Kysely<DB>, row: DatasetRow) {
  return listFlowVersions(db, row.id);
}

export async function restoreDataset(db: Kysely<DB>, row: DatasetRow, version: number): Promise<DatasetRow> {
  const document = await versionDocument(db, row.id, version);
  if (document === undefined) fail(E.DATASET_VERSION_NOT_FOUND);
  return { ...row, ...(await restoreDraft(db, row.id, JSON.stringify(readDoc(document)))) };
}

export interface ShowOptions {
  user: UserLike | null;
  /** Builders see hidden columns too. */
  showHidden: boolean;
  now?: number;
}

export interface ShowResult extends ShowAnswer {
  columns: { key: string; title: string; type: string }[];
}

/** Run a show of a checked plan: one SQL statement (a second only to count past the last page). */
export async function runShow(
  db: Kysely<DB>,
  dialect: Dialect,
  plan: DatasetPlan,
  doc: DatasetDocument,
  request: ShowRequest,
  opts: ShowOptions,
): Promise<ShowResult> {
  const show = planShow(
    plan,
    request,
    { now: opts.now ?? Date.now(), user: opts.user },
    {
      showHidden: opts.showHidden,
    },
  );
  // The display names the columns end users see, in its order; without one every output column.
  const display = doc._release._display._entity;
  const visible = new Set(show.output.map((o) => o.key));
  const chosen = display.length
    ? display.filter((d) => visible.has(d.key))
    : show.output.map((o) => ({ key: o.key, title: o.key }));
  const outType = new Map(show.output.map((o) => [o.key, o.type]));
  const columns = chosen.map((d) => ({ key: d.key, title: d.title || d.key, type: outType.get(d.key)! }));
  const shown = new Set(columns.map((c) => c.key));
  // Filters and sort may use any visible output column; only the displayed ones are sent.
  const wantCount = Boolean(show.extra.count);
  if (show.where.nothing || show.extra.nothing)
    return { rows: [], ...(wantCount ? { count: 0 } : {}), columns };
  const compiled = compileShow(dialect, plan, show, wantCount);
  const result = await compiled.statement.execute(db);
  const raw = result.rows as Record<string, unknown>[];
  const rounded = new Set(plan.aggregates.filter((a) => a.fn === 'sum' || a.fn === 'avg').map((a) => a.key));
  const rows = raw.map((r) => {
    const out: Record<string, unknown> = {};
    for (const n of compiled.names) {
      if (!shown.has(n.key)) continue;
      out[n.key] = decode(r[n.alias], n.type, rounded.has(n.key));
    }
    return out;
  });
  const answer: ShowResult = { rows, columns };
  if (wantCount) {
    if (raw.length) answer.count = Number(raw[0]!.__n);
    else if (show.extra.offset === 0) answer.count = 0;
    else {
      const c = await compileCount(dialect, plan, show).execute(db);
      const first = (c.rows as Record<string, unknown>[])[0];
      answer.count = first ? Number(first.__n) : 0;
    }
  }
  return answer;
}

/**
 * The statistics row of a dataset view: count / sum / avg / min / max of its visible output columns
 * over the WHOLE filtered set (the dataset's own filter and the caller's; never the page), in one
 * statement, rounded as the table summary rounds (`accuracy` digits, counts never). The request is
 * the table summary's `{ metrics, accuracy? }`; datasets have no grouped statistics.
 */
export async function runSummary(
  db: Kysely<DB>,
  dialect: Dialect,
  plan: DatasetPlan,
  request: ShowRequest & { summary?: unknown },
  opts: ShowOptions & { accuracy: number },
): Promise<SummaryAnswer> {
  const { summary, page: _page, sort: _sort, count: _count, all: _all, ...rest } = request;
  void [_page, _sort, _count, _all];
  const show = planShow(
    plan,
    rest,
    { now: opts.now ?? Date.now(), user: opts.user },
    { showHidden: opts.showHidden },
  );
  const raw = summary && typeof summary === 'object' && !Array.isArray(summary) ? summary : {};
  if (Object.hasOwn(raw, 'group') && (raw as { group?: unknown }).group !== undefined) {
    const g = (raw as { group?: unknown }).group;
    if (!Array.isArray(g) || g.length) fail(E.DATASET_SUMMARY_GROUPED);
  }
  const fields = Object.fromEntries(show.output.map((o) => [o.key, o.type]));
  const spec = normalizeSummaryOrThrow({ accuracy: opts.accuracy, ...raw }, fields);
  const accuracy = spec.accuracy ?? 2;
  const parts = spec.metrics.map((m) => ({ fn: m.fn, ...(m.field ? { key: m.field } : {}) }));
  let row: Record<string, unknown> = {};
  if (!show.where.nothing && !show.extra.nothing) {
    const result = await compileSummary(dialect, plan, show, parts).execute(db);
    row = (result.rows as Record<string, unknown>[])[0] ?? {};
  }
  const num = (v: unknown) => (v === null || v === undefined ? null : cleanNumber(Number(v)));
  const total: Record<string, number | null> = {};
  spec.metrics.forEach((m, i) => {
    const at = (x: string) => num(row[`m${i}_${x}`]);
    let v: number | null;
    if (m.fn === 'count' || !m.field) v = at('n') ?? 0;
    else if (m.fn === 'sum') v = roundHalfAway(at('s') ?? 0, accuracy);
    else if (m.fn === 'avg') {
      const c = at('c') ?? 0;
      v = c === 0 ? null : roundHalfAway((at('s') ?? 0) / c, accuracy);
    } else {
      const x = at('v');
      v = x === null ? null : roundHalfAway(x, accuracy);
    }
    total[metricName(m)] = v;
  });
  return { total, groups: [] };
}

function decode(v: unknown, type: string, round: boolean): unknown {
  if (v === null || v === undefined) return null;
  if (type === 'number' || type === 'date') {
    const n = cleanNumber(Number(v));
    return round ? roundHalfAway(n) : n;
  }
  return String(v);
}
