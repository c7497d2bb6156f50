/**
 * Project export and import (`exportProject`, `importProject`, `importReplaceProject`).
 *
 * A package is one JSON document holding a project's definition — modules, tables and fields, pages
 * (draft and published document), menus, roles with their grants, programs and datasets (draft and
 * released), the project-wide shared config — and, when asked for, the tables' records.
 * Members, sessions, invitations, run logs and private/public shared items stay behind.
 *
 * Import gives every id of the package a fresh id and rewrites every mention of it (documents, grants,
 * menu values, relation values) through one map, so a package can be imported into the project it came
 * from, into another project, or twice, without two things sharing an id. Everything happens in one
 * transaction: a package that fails a check anywhere changes nothing.
 * - `importProject` adds the package's contents beside what the project has.
 * - `importReplaceProject` first removes the project's definition and records; roles are matched by
 *   name so members keep theirs, roles the package lacks are removed (their members become plain
 *   members, as removing a role does).
 */
import { type Kysely, type Selectable, sql, type Transaction } from 'kysely';
import { FIELD_TYPES } from '../../shared/api/fields.ts';
import type { ImportSummary, ProjectUsage } from '../../shared/api/project-transfer.ts';
import { newId } from '../../shared/id.ts';
import {
  addFieldStorage,
  createEntityTable,
  dropEntityTable,
  entityTable,
  fieldColumn,
  linkTable,
} from '../data/ddl.ts';
import { schemaChanged } from '../data/write-clock.ts';
import { checkImportedDataset as checkDatasetDocument, EMPTY_DATASET } from '../dataset/service.ts';
import type { Dialect } from '../db/index.ts';
import type { DB } from '../db/schema.ts';
import { E, fail } from '../errors.ts';
import { checkDocument } from '../page/document.ts';
import { parseFlowDocument } from '../program/validate.ts';

export const PACKAGE_FORMAT = 1;
/** Records per table put in a package (a package is a definition first, not a backup). */
export const PACKAGE_MAX_ROWS = 10_000;

const ID = /^[0-9a-f]{24}$/;
const CODE = /^[A-Za-z][A-Za-z0-9_]{0,31}$/;

type Row = Record<string, unknown>;

export interface ProjectPackage {
  format: number;
  app: 'lowcode-builder';
  exportedAt: number;
  name: string;
  home: string;
  custom: unknown;
  modules: { id: string; name: string; sort: number }[];
  entities: { id: string; module_id: string | null; name: string; code: string; sort: number }[];
  fields: {
    id: string;
    entity_id: string;
    name: string;
    code: string;
    type: string;
    relate_id: string | null;
    options: unknown;
    hide: number;
    sort: number;
    status: string;
  }[];
  pages: { id: string; name: string; draft: unknown; published: unknown; display: number }[];
  routes: {
    id: string;
    parent_id: string | null;
    sort: number;
    type: string;
    name: string;
    value: string | null;
    programs: string[];
  }[];
  roles: { id: string; name: string; type: string; options: unknown; home: unknown; grants: unknown }[];
  flows: {
    id: string;
    module_id: string | null;
    type: string;
    name: string;
    sort: number;
    draft: unknown;
    released: unknown;
  }[];
  share: { model: string; key: string; value: unknown }[];
  /**
   * The builders' indexes (/system/data/{entity}: made there or pinned), by table id and field
   * codes in index order; rebuilt on import. The server's own unpinned indexes stay behind.
   */
  indexes?: PackageIndex[];
  /** By table id: its rows (`_id` and field ids as keys) and, per collection field id, its links. */
  records?: Record<string, { rows: Row[]; links: Record<string, [string, string, number][]> }>;
}

export interface PackageIndex {
  entity_id: string;
  fields: { field: string; order?: 'asc' | 'desc' }[];
}

const json = (text: string | null): unknown => {
  if (text === null || text === '') return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
};

/** The project's package; with `records`, up to PACKAGE_MAX_ROWS rows of each table. */
export async function exportProject(
  db: Kysely<DB>,
  projectId: string,
  options: { records?: boolean } = {},
): Promise<ProjectPackage> {
  const project = await db
    .selectFrom('projects')
    .selectAll()
    .where('id', '=', projectId)
    .executeTakeFirstOrThrow();
  const by = <T extends keyof DB>(table: T) =>
    db
      .selectFrom(table as 'pages')
      .selectAll()
      .where('project_id', '=', projectId)
      .execute() as unknown as Promise<Selectable<DB[T]>[]>;
  const [modules, entities, fields, pages, routes, roles, flows, share, indexes] = await Promise.all([
    by('data_modules'),
    by('data_entities'),
    by('data_fields'),
    by('pages'),
    by('routes'),
    by('roles'),
    by('flows'),
    db
      .selectFrom('share_items')
      .selectAll()
      .where('project_id', '=', projectId)
      .where('type', '=', 'project')
      .execute(),
    db
      .selectFrom('data_indexes')
      .select(['entity_id', 'columns'])
      .where('project_id', '=', projectId)
      .where('pinned', '=', 1)
      .orderBy('entity_id')
      .orderBy('name')
      .execute(),
  ]);
  const pkg: ProjectPackage = {
    format: PACKAGE_FORMAT,
    app: 'lowcode-builder',
    exportedAt: Date.now(),
    name: project.name,
    home: project.home,
    custom: json(project.custom),
    modules: modules.map((m) => ({ id: m.id, name: m.name, sort: m.sort })),
    entities: entities.map((e) => ({
      id: e.id,
      module_id: e.module_id,
      name: e.name,
      code: e.code,
      sort: e.sort,
    })),
    fields: fields.map((f) => ({
      id: f.id,
      entity_id: f.entity_id,
      name: f.name,
      code: f.code,
      type: f.type,
      relate_id: f.relate_id,
      options: json(f.options) ?? {},
      hide: f.hide,
      sort: f.sort,
      status: f.status,
    })),
    pages: pages.map((p) => ({
      id: p.id,
      name: p.name,
      draft: json(p.draft),
      published: json(p.published),
      display: p.display,
    })),
    routes: routes.map((r) => ({
      id: r.id,
      parent_id: r.parent_id,
      sort: r.sort,
      type: r.type,
      name: r.name,
      value: r.value,
      programs: (json(r.programs) as string[] | null) ?? [],
    })),
    roles: roles.map((r) => ({
      id: r.id,
      name: r.name,
      type: r.type,
      options: json(r.options) ?? {},
      home: json(r.home),
      grants: json(r.grants) ?? {},
    })),
    flows: flows.map((f) => ({
      id: f.id,
      module_id: f.module_id,
      type: f.type,
      name: f.name,
      sort: f.sort,
      draft: json(f.draft),
      released: json(f.released),
    })),
    share: share.map((s) => ({ model: s.model, key: s.key, value: json(s.value) })),
    indexes: indexes.flatMap((x): PackageIndex[] => {
      const cols = json(x.columns);
      if (!Array.isArray(cols)) return [];
      // `_id` closes an index as its tie-break; the rebuild adds it again.
      const fields = (cols as { field?: unknown; order?: unknown }[])
        .filter((c) => typeof c.field === 'string' && c.field !== '_id')
        .slice(0, 3)
        .map((c): PackageIndex['fields'][number] =>
          c.order === 'asc' || c.order === 'desc'
            ? { field: c.field as string, order: c.order }
            : { field: c.field as string },
        );
      return fields.length ? [{ entity_id: x.entity_id, fields }] : [];
    }),
  };
  if (options.records) {
    pkg.records = {};
    for (const e of entities) {
      const own = fields.filter((f) => f.entity_id === e.id);
      const rows = (
        await sql<Row>`select * from ${sql.table(entityTable(e.id))} order by _created_at limit ${PACKAGE_MAX_ROWS}`.execute(
          db,
        )
      ).rows;
      const ids = new Set(rows.map((r) => String(r._id)));
      const out: Row[] = rows.map((r) => {
        const row: Row = {
          _id: r._id,
          _created_at: Number(r._created_at),
          _updated_at: Number(r._updated_at),
        };
        for (const f of own) {
          if (f.type === 'collection') continue;
          const v = r[fieldColumn(f.id)];
          if (v !== undefined && v !== null) row[f.id] = typeof v === 'bigint' ? Number(v) : v;
        }
        return row;
      });
      const links: Record<string, [string, string, number][]> = {};
      for (const f of own.filter((x) => x.type === 'collection')) {
        const l = (
          await sql<{
            owner_id: string;
            target_id: string;
            sort: number;
          }>`select owner_id, target_id, sort from ${sql.table(linkTable(f.id))}`.execute(db)
        ).rows;
        links[f.id] = l
          .filter((x) => ids.has(x.owner_id))
          .map((x) => [x.owner_id, x.target_id, Number(x.sort)]);
      }
      pkg.records[e.id] = { rows: out, links };
    }
  }
  return pkg;
}

// ---- checks --------------------------------------------------------------------------------------

function bad(detail: string): never {
  fail(E.PACKAGE_INVALID, detail);
}
const isObj = (v: unknown): v is Row => typeof v === 'object' && v !== null && !Array.isArray(v);
function list(pkg: Row, key: string, max: number): Row[] {
  const v = pkg[key];
  if (v === undefined) return [];
  if (!Array.isArray(v) || v.length > max) bad(`${key}: a list of at most ${max}`);
  for (const [i, x] of v.entries()) if (!isObj(x)) bad(`${key}[${i}]: an object`);
  return v as Row[];
}
function text(row: Row, key: string, where: string, max = 255): string {
  const v = row[key];
  if (typeof v !== 'string' || v.length > max || v.includes('\u0000'))
    bad(`${where}.${key}: text of at most ${max}`);
  return v;
}
function anId(row: Row, key: string, where: string, nullable = false): string | null {
  const v = row[key];
  if (nullable && (v === null || v === undefined || v === '')) return null;
  if (typeof v !== 'string' || !ID.test(v)) bad(`${where}.${key}: an id`);
  return v;
}
const num = (row: Row, key: string): number =>
  typeof row[key] === 'number' && Number.isFinite(row[key]) ? (row[key] as number) : 0;

/** Whether a stored value fits a field type's column (what the records calls would have stored). */
function fitsType(type: string, value: unknown): boolean {
  if (value === null) return true;
  switch (type) {
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'date':
      return Number.isSafeInteger(value);
    case 'time':
      return typeof value === 'string' && value.length <= 8;
    case 'relate':
      return typeof value === 'string' && ID.test(value);
    default:
      return (
        (typeof value === 'string' && value.length <= 1_000_000) ||
        typeof value === 'boolean' ||
        typeof value === 'number'
      );
  }
}

/** Check a package's shape and its internal references; answers it typed (ids not yet mapped). */
export function checkPackage(input: unknown): ProjectPackage {
  if (!isObj(input)) bad('not a project package');
  if (input.app !== 'lowcode-builder' || input.format !== PACKAGE_FORMAT)
    fail(
      E.PACKAGE_FORMAT,
      `app ${String(input.app)}, format ${String(input.format)}; this server reads format ${PACKAGE_FORMAT}`,
    );
  const seen = new Set<string>();
  const unique = (id: string | null, where: string) => {
    if (id === null) return;
    if (seen.has(id)) bad(`${where}: id ${id} used twice`);
    seen.add(id);
  };
  const modules = list(input, 'modules', 500);
  modules.forEach((m, i) => {
    unique(anId(m, 'id', `modules[${i}]`), `modules[${i}]`);
    text(m, 'name', `modules[${i}]`);
  });
  const moduleIds = new Set(modules.map((m) => m.id as string));
  const entities = list(input, 'entities', 1000);
  const codes = new Set<string>();
  entities.forEach((e, i) => {
    const w = `entities[${i}]`;
    unique(anId(e, 'id', w), w);
    text(e, 'name', w);
    const code = text(e, 'code', w, 32);
    if (!CODE.test(code)) bad(`${w}.code: must start with a letter; letters, digits, _`);
    if (codes.has(code)) bad(`${w}.code: ${code} used twice`);
    codes.add(code);
    const mod = anId(e, 'module_id', w, true);
    if (mod && !moduleIds.has(mod)) bad(`${w}.module_id: no such module in the package`);
  });
  const entityIds = new Set(entities.map((e) => e.id as string));
  const fields = list(input, 'fields', 20_000);
  const fieldCodes = new Set<string>();
  fields.forEach((f, i) => {
    const w = `fields[${i}]`;
    unique(anId(f, 'id', w), w);
    text(f, 'name', w);
    const entity = anId(f, 'entity_id', w)!;
    if (!entityIds.has(entity)) bad(`${w}.entity_id: no such table in the package`);
    const code = text(f, 'code', w, 32);
    if (!CODE.test(code) || code.startsWith('_'))
      bad(`${w}.code: must start with a letter; letters, digits, _`);
    if (fieldCodes.has(`${entity}.${code}`)) bad(`${w}.code: ${code} used twice in its table`);
    fieldCodes.add(`${entity}.${code}`);
    const type = text(f, 'type', w, 32);
    if (!(FIELD_TYPES as readonly string[]).includes(type)) bad(`${w}.type: unknown field type ${type}`);
    const rel = anId(f, 'relate_id', w, true);
    if ((type === 'relate' || type === 'collection') && (!rel || !entityIds.has(rel)))
      bad(`${w}.relate_id: a relation must name a table of the package`);
    if (f.options !== undefined && !isObj(f.options)) bad(`${w}.options: an object`);
  });
  list(input, 'pages', 2000).forEach((p, i) => {
    const w = `pages[${i}]`;
    unique(anId(p, 'id', w), w);
    text(p, 'name', w);
    for (const k of ['draft', 'published'])
      if (p[k] !== null && p[k] !== undefined && !isObj(p[k])) bad(`${w}.${k}: a page document or null`);
  });
  const routes = list(input, 'routes', 5000);
  const routeIds = new Set(routes.map((r) => r.id as string));
  routes.forEach((r, i) => {
    const w = `routes[${i}]`;
    unique(anId(r, 'id', w), w);
    text(r, 'name', w);
    if (!['dir', 'table', 'page', 'display'].includes(r.type as string))
      bad(`${w}.type: dir, table, page or display`);
    const parent = anId(r, 'parent_id', w, true);
    if (parent && !routeIds.has(parent)) bad(`${w}.parent_id: no such menu entry in the package`);
    if (r.value !== null && r.value !== undefined) text(r, 'value', w, 1024);
    if (
      r.programs !== undefined &&
      (!Array.isArray(r.programs) || r.programs.some((x) => typeof x !== 'string' || !ID.test(x)))
    )
      bad(`${w}.programs: a list of ids`);
  });
  const roleNames = new Set<string>();
  list(input, 'roles', 500).forEach((r, i) => {
    const w = `roles[${i}]`;
    unique(anId(r, 'id', w), w);
    const name = text(r, 'name', w, 64);
    if (roleNames.has(name)) bad(`${w}.name: ${name} used twice`);
    roleNames.add(name);
    if (!['admin', 'common', 'public'].includes(r.type as string)) bad(`${w}.type: admin, common or public`);
    if (r.grants !== undefined && !isObj(r.grants)) bad(`${w}.grants: an object`);
    if (r.options !== undefined && !isObj(r.options)) bad(`${w}.options: an object`);
  });
  list(input, 'flows', 5000).forEach((f, i) => {
    const w = `flows[${i}]`;
    unique(anId(f, 'id', w), w);
    text(f, 'name', w, 128);
    if (f.type !== 'program' && f.type !== 'dataset') bad(`${w}.type: program or dataset`);
    const mod = anId(f, 'module_id', w, true);
    if (mod && !moduleIds.has(mod)) bad(`${w}.module_id: no such module in the package`);
    for (const k of ['draft', 'released'])
      if (f[k] !== null && f[k] !== undefined && !isObj(f[k])) bad(`${w}.${k}: a flow document or null`);
  });
  list(input, 'share', 10_000).forEach((s, i) => {
    text(s, 'model', `share[${i}]`, 64);
    text(s, 'key', `share[${i}]`, 255);
  });
  list(input, 'indexes', 1000).forEach((x, i) => {
    const w = `indexes[${i}]`;
    const table = anId(x, 'entity_id', w);
    if (!table || !entityIds.has(table)) bad(`${w}.entity_id: no such table in the package`);
    if (!Array.isArray(x.fields) || x.fields.length < 1 || x.fields.length > 3)
      bad(`${w}.fields: one to three fields`);
    for (const [k, f] of (x.fields as unknown[]).entries()) {
      if (!isObj(f) || typeof f.field !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]{0,63}$/.test(f.field))
        bad(`${w}.fields[${k}].field: a field code`);
      if (f.order !== undefined && f.order !== 'asc' && f.order !== 'desc')
        bad(`${w}.fields[${k}].order: asc or desc`);
      for (const key of Object.keys(f))
        if (key !== 'field' && key !== 'order') bad(`${w}.fields[${k}].${key.slice(0, 40)}: unknown key`);
    }
  });
  if (input.records !== undefined) {
    if (!isObj(input.records)) bad('records: an object by table id');
    for (const [table, rec] of Object.entries(input.records)) {
      if (!entityIds.has(table)) bad(`records.${table}: no such table in the package`);
      if (!isObj(rec) || !Array.isArray(rec.rows) || rec.rows.length > PACKAGE_MAX_ROWS)
        bad(`records.${table}.rows: a list of at most ${PACKAGE_MAX_ROWS}`);
      const types = new Map(
        fields.filter((f) => f.entity_id === table).map((f) => [f.id as string, f.type as string]),
      );
      for (const [i, row] of (rec.rows as unknown[]).entries()) {
        const w = `records.${table}.rows[${i}]`;
        if (!isObj(row) || typeof row._id !== 'string' || !ID.test(row._id)) bad(`${w}._id: an id`);
        unique(row._id, w);
        for (const [key, value] of Object.entries(row)) {
          if (key.startsWith('_')) continue;
          const type = types.get(key);
          if (!type) bad(`${w}.${key}: no such field in its table`);
          if (!fitsType(type, value)) bad(`${w}.${key}: not a ${type} value`);
        }
      }
      if (rec.links !== undefined && !isObj(rec.links)) bad(`records.${table}.links: an object`);
    }
  }
  return input as unknown as ProjectPackage;
}

// ---- import --------------------------------------------------------------------------------------

/** Every package id → a fresh one; `map(x)` rewrites ids inside any JSON value. */
function idMapper(pkg: ProjectPackage, keep: Map<string, string>) {
  const map = new Map<string, string>(keep);
  const add = (id: string | null | undefined) => {
    if (id && !map.has(id)) map.set(id, newId());
  };
  for (const list of [pkg.modules, pkg.entities, pkg.fields, pkg.pages, pkg.routes, pkg.roles, pkg.flows])
    for (const x of list ?? []) add(x.id);
  for (const rec of Object.values(pkg.records ?? {})) for (const r of rec.rows) add(r._id as string);
  const swap = (s: string) => s.replace(/[0-9a-f]{24}/g, (m) => map.get(m) ?? m);
  const deep = <T>(v: T): T =>
    v === null || v === undefined ? v : (JSON.parse(swap(JSON.stringify(v))) as T);
  return {
    id: (x: string) => map.get(x) ?? x,
    known: (x: string) => map.has(x),
    maybe: (x: string | null) => (x ? (map.get(x) ?? x) : null),
    deep,
    swap,
  };
}

/** Remove a project's definition and records (the replace half of importReplaceProject). */
async function clearProject(trx: Transaction<DB>, projectId: string): Promise<void> {
  const entities = await trx
    .selectFrom('data_entities')
    .select('id')
    .where('project_id', '=', projectId)
    .execute();
  const links = await trx
    .selectFrom('data_fields')
    .select('id')
    .where('project_id', '=', projectId)
    .where('type', '=', 'collection')
    .execute();
  for (const l of links) await trx.schema.dropTable(linkTable(l.id)).ifExists().execute();
  for (const e of entities) await dropEntityTable(trx as unknown as Kysely<unknown>, e.id);
  await trx.deleteFrom('data_fields').where('project_id', '=', projectId).execute();
  await trx.deleteFrom('data_entities').where('project_id', '=', projectId).execute();
  const pageIds = (
    await trx.selectFrom('pages').select('id').where('project_id', '=', projectId).execute()
  ).map((p) => p.id);
  if (pageIds.length) await trx.deleteFrom('page_versions').where('page_id', 'in', pageIds).execute();
  await trx.deleteFrom('pages').where('project_id', '=', projectId).execute();
  await trx.deleteFrom('routes').where('project_id', '=', projectId).execute();
  const flowIds = (
    await trx.selectFrom('flows').select('id').where('project_id', '=', projectId).execute()
  ).map((f) => f.id);
  if (flowIds.length) await trx.deleteFrom('flow_versions').where('flow_id', 'in', flowIds).execute();
  await trx.deleteFrom('flows').where('project_id', '=', projectId).execute();
  await trx.deleteFrom('data_modules').where('project_id', '=', projectId).execute();
  await trx
    .deleteFrom('share_items')
    .where('project_id', '=', projectId)
    .where('type', '=', 'project')
    .execute();
}

/**
 * Bring a checked package into the project in one transaction. `replace` clears the project's
 * definition first and keeps roles with the package's role names (members keep them).
 */
export async function importProject(
  db: Kysely<DB>,
  dialect: Dialect,
  projectId: string,
  userId: string,
  input: unknown,
  options: {
    replace: boolean;
    /** Rebuilds one builder index after the import commits (the DDL runs outside its transaction). */
    buildIndex?: (entityId: string, fields: PackageIndex['fields']) => Promise<unknown>;
  },
): Promise<ImportSummary> {
  const pkg = checkPackage(input);
  let remapEntity: (id: string) => string = (id) => id;
  const summary = await db.transaction().execute(async (trx) => {
    const now = Date.now();
    const keep = new Map<string, string>();
    const existingRoles = await trx
      .selectFrom('roles')
      .selectAll()
      .where('project_id', '=', projectId)
      .execute();
    if (options.replace) {
      await clearProject(trx, projectId);
      const byName = new Map(existingRoles.map((r) => [r.name, r]));
      for (const r of pkg.roles ?? []) {
        const old = byName.get(r.name);
        if (old && old.type === r.type) keep.set(r.id, old.id);
      }
      const kept = new Set(keep.values());
      for (const r of existingRoles) {
        if (kept.has(r.id)) continue;
        await trx
          .updateTable('project_members')
          .set({ role_id: null, role_type: 'common' })
          .where('project_id', '=', projectId)
          .where('role_id', '=', r.id)
          .where('role_type', '!=', 'owner')
          .execute();
        await trx.deleteFrom('roles').where('id', '=', r.id).execute();
      }
    } else {
      // Names stay unique per project: an added role whose name is taken gets a suffix.
      const names = new Set(existingRoles.map((r) => r.name));
      for (const r of pkg.roles ?? []) {
        let name = r.name;
        for (let n = 2; names.has(name); n++) name = `${r.name} (${n})`;
        names.add(name);
        r.name = name;
      }
    }
    const m = idMapper(pkg, keep);
    remapEntity = m.id;
    if (options.replace && typeof pkg.home === 'string')
      await trx
        .updateTable('projects')
        .set({ home: m.swap(pkg.home).slice(0, 1024), updated_at: now })
        .where('id', '=', projectId)
        .execute();

    for (const mod of pkg.modules ?? [])
      await trx
        .insertInto('data_modules')
        .values({
          id: m.id(mod.id),
          project_id: projectId,
          name: mod.name,
          sort: num(mod as Row, 'sort'),
          created_at: now,
        })
        .execute();

    // Table codes are unique per project: in add mode a taken code gets a suffix.
    const takenCodes = new Set(
      (
        await trx.selectFrom('data_entities').select('code').where('project_id', '=', projectId).execute()
      ).map((e) => e.code),
    );
    for (const e of pkg.entities ?? []) {
      let code = e.code;
      for (let n = 2; takenCodes.has(code); n++) code = `${e.code.slice(0, 28)}_${n}`;
      takenCodes.add(code);
      const id = m.id(e.id);
      await trx
        .insertInto('data_entities')
        .values({
          id,
          project_id: projectId,
          module_id: m.maybe(e.module_id),
          name: e.name,
          code,
          sort: num(e as Row, 'sort'),
          created_at: now,
          updated_at: now,
        })
        .execute();
      await createEntityTable(trx as unknown as Kysely<unknown>, id);
    }
    for (const f of pkg.fields ?? []) {
      const id = m.id(f.id);
      const entity = m.id(f.entity_id);
      await trx
        .insertInto('data_fields')
        .values({
          id,
          project_id: projectId,
          entity_id: entity,
          name: f.name,
          code: f.code,
          type: f.type,
          relate_id: m.maybe(f.relate_id),
          options: JSON.stringify(m.deep(f.options ?? {})),
          hide: f.hide ? 1 : 0,
          sort: num(f as Row, 'sort'),
          status: typeof f.status === 'string' ? f.status.slice(0, 32) : 'normal',
          created_at: now,
          updated_at: now,
        })
        .execute();
      await addFieldStorage(trx as unknown as Kysely<unknown>, dialect, entity, id, f.type as never);
    }

    for (const p of pkg.pages ?? []) {
      const id = m.id(p.id);
      const draft = p.draft ? checkDocument(m.deep(p.draft) as Row, id) : '';
      const published = p.published ? checkDocument(m.deep(p.published) as Row, id) : null;
      await trx
        .insertInto('pages')
        .values({
          id,
          project_id: projectId,
          name: p.name,
          created_at: now,
          updated_at: now,
          draft,
          published,
          published_version: published ? 1 : null,
          published_at: published ? now : null,
          last_version: published ? 1 : 0,
          display: p.display ? 1 : 0,
          updated_by: userId,
        })
        .execute();
      if (published)
        await trx
          .insertInto('page_versions')
          .values({
            page_id: id,
            version: 1,
            document: published,
            note: 'imported',
            created_by: userId,
            created_at: now,
          })
          .execute();
    }

    for (const r of pkg.routes ?? [])
      await trx
        .insertInto('routes')
        .values({
          id: m.id(r.id),
          project_id: projectId,
          parent_id: m.maybe(r.parent_id),
          sort: num(r as Row, 'sort'),
          type: r.type as 'dir',
          name: r.name,
          value: r.value ? m.swap(r.value) : null,
          programs: JSON.stringify((r.programs ?? []).map(m.id)),
          created_at: now,
          updated_at: now,
        })
        .execute();

    for (const r of pkg.roles ?? []) {
      const id = m.id(r.id);
      const values = {
        name: r.name,
        type: r.type as 'common',
        options: JSON.stringify(m.deep(r.options ?? {})),
        home: r.home ? JSON.stringify(m.deep(r.home)) : null,
        grants: JSON.stringify(m.deep(r.grants ?? {})),
        updated_at: now,
      };
      if (keep.has(r.id)) await trx.updateTable('roles').set(values).where('id', '=', id).execute();
      else
        await trx
          .insertInto('roles')
          .values({ id, project_id: projectId, created_at: now, ...values })
          .execute();
    }

    for (const f of pkg.flows ?? []) {
      const id = m.id(f.id);
      // Programs are parsed; datasets are checked against the tables just imported, as a save is.
      const check = async (doc: unknown, what: string) => {
        if (!doc) return null;
        const mapped = m.deep(doc);
        try {
          if (f.type === 'program') return JSON.stringify(parseFlowDocument(mapped));
          return JSON.stringify(await checkDatasetDocument(trx, projectId, mapped));
        } catch (err) {
          return bad(`flows ${f.name} ${what}: ${(err as Error).message}`);
        }
      };
      const empty = f.type === 'dataset' ? EMPTY_DATASET : { _process: [], _option: {} };
      const draft = (await check(f.draft, 'draft')) ?? JSON.stringify(empty);
      const released = await check(f.released, 'released');
      await trx
        .insertInto('flows')
        .values({
          id,
          project_id: projectId,
          module_id: m.maybe(f.module_id),
          type: f.type as 'program',
          name: f.name,
          sort: num(f as Row, 'sort'),
          draft,
          released,
          released_version: released ? 1 : null,
          last_version: released ? 1 : 0,
          created_at: now,
          updated_at: now,
        })
        .execute();
      if (released)
        await trx
          .insertInto('flow_versions')
          .values({ flow_id: id, version: 1, document: released, created_by: userId, created_at: now })
          .execute();
    }

    for (const s of pkg.share ?? []) {
      const key = m.swap(s.key);
      await trx
        .deleteFrom('share_items')
        .where('project_id', '=', projectId)
        .where('model', '=', s.model)
        .where('type', '=', 'project')
        .where('key', '=', key)
        .execute();
      await trx
        .insertInto('share_items')
        .values({
          project_id: projectId,
          model: s.model,
          type: 'project',
          owner_id: '',
          key,
          value: JSON.stringify(m.deep(s.value ?? null)),
          created_by: userId,
          updated_at: now,
        })
        .execute();
    }

    let records = 0;
    const fieldsOf = new Map<string, ProjectPackage['fields']>();
    for (const f of pkg.fields ?? []) fieldsOf.set(f.entity_id, [...(fieldsOf.get(f.entity_id) ?? []), f]);
    for (const [table, rec] of Object.entries(pkg.records ?? {})) {
      const own = fieldsOf.get(table) ?? [];
      const t = entityTable(m.id(table));
      for (const row of rec.rows) {
        const values: Row = {
          _id: m.id(row._id as string),
          _created_at: num(row, '_created_at') || now,
          _updated_at: num(row, '_updated_at') || now,
          _creator: userId,
        };
        for (const f of own) {
          if (f.type === 'collection' || !(f.id in row)) continue;
          const v = row[f.id];
          values[fieldColumn(m.id(f.id))] =
            typeof v === 'string'
              ? m.swap(v)
              : typeof v === 'number' || v === null
                ? v
                : JSON.stringify(m.deep(v));
        }
        try {
          await trx
            .insertInto(t as never)
            .values(values as never)
            .execute();
        } catch {
          bad(`records.${table}: row ${String(row._id)} does not fit its table`);
        }
        records++;
      }
      for (const [field, pairs] of Object.entries(rec.links ?? {})) {
        if (!own.some((f) => f.id === field && f.type === 'collection') || !Array.isArray(pairs)) continue;
        for (const pair of pairs) {
          if (!Array.isArray(pair) || typeof pair[0] !== 'string' || typeof pair[1] !== 'string') continue;
          if (!m.known(pair[0]) || !m.known(pair[1])) continue;
          await trx
            .insertInto(linkTable(m.id(field)) as never)
            .values({
              owner_id: m.id(pair[0]),
              target_id: m.id(pair[1]),
              sort: Number(pair[2]) || 0,
            } as never)
            .execute();
        }
      }
    }

    return {
      modules: pkg.modules?.length ?? 0,
      entities: pkg.entities?.length ?? 0,
      fields: pkg.fields?.length ?? 0,
      pages: pkg.pages?.length ?? 0,
      routes: pkg.routes?.length ?? 0,
      roles: pkg.roles?.length ?? 0,
      flows: pkg.flows?.length ?? 0,
      share: pkg.share?.length ?? 0,
      records,
    };
  });
  // Tables, fields and programs changed: runs read them again (program/run-cache.ts).
  schemaChanged(projectId);
  if (options.buildIndex)
    for (const x of pkg.indexes ?? []) await options.buildIndex(remapEntity(x.entity_id), x.fields);
  return summary;
}

/** What /system/project shows: how much of each thing the project holds, and its member quota. */
export async function projectUsage(db: Kysely<DB>, projectId: string): Promise<ProjectUsage> {
  const count = async (
    table: 'data_modules' | 'data_entities' | 'data_fields' | 'pages' | 'routes' | 'roles',
  ) =>
    Number(
      (
        await db
          .selectFrom(table as 'pages')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('project_id', '=', projectId)
          .executeTakeFirstOrThrow()
      ).n,
    );
  const flows = await db
    .selectFrom('flows')
    .select(['type', (eb) => eb.fn.countAll<number>().as('n')])
    .where('project_id', '=', projectId)
    .groupBy('type')
    .execute();
  const members = await db
    .selectFrom('project_members')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('project_id', '=', projectId)
    .where('role_type', '!=', 'public')
    .executeTakeFirstOrThrow();
  const entities = await db
    .selectFrom('data_entities')
    .select('id')
    .where('project_id', '=', projectId)
    .execute();
  let records = 0;
  for (const e of entities)
    records += Number(
      (await sql<{ n: number }>`select count(*) as n from ${sql.table(entityTable(e.id))}`.execute(db))
        .rows[0]?.n ?? 0,
    );
  return {
    modules: await count('data_modules'),
    entities: await count('data_entities'),
    fields: await count('data_fields'),
    pages: await count('pages'),
    routes: await count('routes'),
    roles: await count('roles'),
    programs: Number(flows.find((f) => f.type === 'program')?.n ?? 0),
    datasets: Number(flows.find((f) => f.type === 'dataset')?.n ?? 0),
    members: Number(members.n),
    records,
  };
}
