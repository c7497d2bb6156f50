/** Menus (routes) of a project: every lookup is scoped to the project. */
import type { Kysely } from 'kysely';
import { newId } from '../../shared/id.ts';
import type { DB, RoutesTable } from '../db/schema.ts';
import { E, fail } from '../errors.ts';

export type RouteRow = RoutesTable;
export const ROUTE_TYPES = ['dir', 'table', 'page', 'display'] as const;
/** Directories and custom pages cannot bind functions (spec §5). */
export const NO_PROGRAMS: readonly RouteRow['type'][] = ['dir', 'page'];

export function parsePrograms(text: string): string[] {
  try {
    const v = JSON.parse(text) as unknown;
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

/** The menu entry as the API shows it. */
export function publicRoute(r: RouteRow) {
  return {
    _id: r.id,
    _type: r.type,
    _name: r.name,
    name: r.name,
    _parent: r.parent_id,
    _value: r.value,
    _sort: r.sort,
    _program: parsePrograms(r.programs),
  };
}

export async function listRoutes(db: Kysely<DB>, projectId: string): Promise<RouteRow[]> {
  return db
    .selectFrom('routes')
    .selectAll()
    .where('project_id', '=', projectId)
    .orderBy('sort')
    .orderBy('id')
    .execute();
}

export async function findRoute(db: Kysely<DB>, projectId: string, routeId: string): Promise<RouteRow> {
  const row = await db
    .selectFrom('routes')
    .selectAll()
    .where('id', '=', routeId)
    .where('project_id', '=', projectId)
    .executeTakeFirst();
  if (!row) fail(E.ROUTE_NOT_FOUND);
  return row;
}

/**
 * A parent must be a directory of the same project and, for an existing entry, not the entry itself
 * or one of its descendants.
 */
export async function checkParent(
  db: Kysely<DB>,
  projectId: string,
  parentId: string,
  selfId: string | null,
): Promise<void> {
  const all = await listRoutes(db, projectId);
  const byId = new Map(all.map((r) => [r.id, r]));
  const parent = byId.get(parentId);
  if (!parent) fail(E.ROUTE_PARENT, 'parent is not a menu of this project');
  if (parent.type !== 'dir') fail(E.ROUTE_PARENT, 'parent must be a directory');
  for (let at: RouteRow | undefined = parent, hops = 0; at && hops <= all.length; hops++) {
    if (at.id === selfId) fail(E.ROUTE_PARENT, 'a menu cannot sit inside itself');
    at = at.parent_id ? byId.get(at.parent_id) : undefined;
  }
}

/**
 * A table-type entry's value is a data table of this project (its id or its code, as the data calls
 * accept either), a page-type or display-type entry's a page of this project.
 */
export async function checkValue(
  db: Kysely<DB>,
  projectId: string,
  type: RouteRow['type'],
  value: string | null,
): Promise<void> {
  if (!value) return;
  if (type === 'table') {
    const entity = await db
      .selectFrom('data_entities')
      .select('id')
      .where((eb) => eb.or([eb('id', '=', value), eb('code', '=', value)]))
      .where('project_id', '=', projectId)
      .executeTakeFirst();
    if (entity) return;
    // A list entry may show a dataset of this project instead of a table.
    const dataset = await db
      .selectFrom('flows')
      .select('id')
      .where('id', '=', value)
      .where('project_id', '=', projectId)
      .where('type', '=', 'dataset')
      .executeTakeFirst();
    if (!dataset) fail(E.ENTITY_NOT_FOUND, 'value: not a data table or dataset of this project');
    return;
  }
  // A display entry opens a page too (one offered as a display): both must be this project's.
  if (type !== 'page' && type !== 'display') return;
  const page = await db
    .selectFrom('pages')
    .select('id')
    .where('id', '=', value)
    .where('project_id', '=', projectId)
    .executeTakeFirst();
  if (!page) fail(E.PAGE_NOT_FOUND, 'value: not a page of this project');
}

type Node = ReturnType<typeof publicRoute> & { _children: Node[] };

/**
 * The visible entries nested by `_parent` and sorted by `_sort`. An entry whose directory is not
 * visible hangs from its nearest visible ancestor (or the top), so hidden names never show.
 */
export function nest(all: RouteRow[], visible: (r: RouteRow) => boolean): Node[] {
  const byId = new Map(all.map((r) => [r.id, r]));
  const shown = new Map<string, Node>();
  for (const r of all) if (visible(r)) shown.set(r.id, { ...publicRoute(r), _children: [] });
  const top: Node[] = [];
  for (const r of all) {
    const node = shown.get(r.id);
    if (!node) continue;
    let parent = r.parent_id ? byId.get(r.parent_id) : undefined;
    for (let hops = 0; parent && !shown.has(parent.id) && hops < all.length; hops++) {
      parent = parent.parent_id ? byId.get(parent.parent_id) : undefined;
    }
    const host = parent ? shown.get(parent.id) : undefined;
    if (host && host !== node) host._children.push(node);
    else top.push(node);
  }
  return top;
}

/** What a builder sends to create or change a menu entry. */
export interface RouteInput {
  type?: RouteRow['type'];
  name?: string;
  parent?: string | null;
  value?: string | null;
}

function cleanName(name: string): string {
  const n = name.trim();
  if (!n) fail(E.INVALID_FIELD, 'name: cannot be empty');
  return n;
}

/** A new entry at the end of the menu, its parent and target checked to be the project's. */
export async function createRoute(
  db: Kysely<DB>,
  projectId: string,
  input: RouteInput & { type: RouteRow['type']; name: string },
): Promise<RouteRow> {
  const name = cleanName(input.name);
  const parent = input.parent || null;
  if (parent) await checkParent(db, projectId, parent, null);
  await checkValue(db, projectId, input.type, input.value ?? null);
  const last = await db
    .selectFrom('routes')
    .select((eb) => eb.fn.max('sort').as('m'))
    .where('project_id', '=', projectId)
    .executeTakeFirst();
  const now = Date.now();
  const row: RouteRow = {
    id: newId(now),
    project_id: projectId,
    parent_id: parent,
    sort: Number(last?.m ?? -1) + 1,
    type: input.type,
    name,
    value: input.value ?? null,
    programs: '[]',
    created_at: now,
    updated_at: now,
  };
  await db.insertInto('routes').values(row).execute();
  return row;
}

/** Change an entry; everything is checked before anything is written. */
export async function updateRoute(db: Kysely<DB>, route: RouteRow, input: RouteInput): Promise<RouteRow> {
  const projectId = route.project_id;
  const next: RouteRow = { ...route, updated_at: Date.now() };
  if (input.name !== undefined) next.name = cleanName(input.name);
  if (input.type !== undefined) next.type = input.type;
  if (input.value !== undefined) next.value = input.value;
  if (input.parent !== undefined) next.parent_id = input.parent || null;
  if (next.parent_id && input.parent !== undefined)
    await checkParent(db, projectId, next.parent_id, route.id);
  if (NO_PROGRAMS.includes(next.type) && parsePrograms(next.programs).length > 0) fail(E.ROUTE_NO_PROGRAMS);
  if (route.type === 'dir' && next.type !== 'dir') {
    const child = await db
      .selectFrom('routes')
      .select('id')
      .where('project_id', '=', projectId)
      .where('parent_id', '=', route.id)
      .executeTakeFirst();
    if (child) fail(E.ROUTE_PARENT, 'a directory with entries must stay a directory');
  }
  // A target removed since is not checked again on a rename; a changed type or value is.
  if (input.type !== undefined || input.value !== undefined)
    await checkValue(db, projectId, next.type, next.value);
  await db
    .updateTable('routes')
    .set({
      name: next.name,
      type: next.type,
      value: next.value,
      parent_id: next.parent_id,
      updated_at: next.updated_at,
    })
    .where('id', '=', route.id)
    .where('project_id', '=', projectId)
    .execute();
  return next;
}

/** Put the project's entries in this order (every id must be one of its entries). */
export async function sortRoutes(
  db: Kysely<DB>,
  projectId: string,
  routes: readonly string[],
): Promise<void> {
  const own = new Set((await listRoutes(db, projectId)).map((r) => r.id));
  const missing = routes.find((r) => !own.has(r));
  if (missing) fail(E.ROUTE_NOT_FOUND, missing);
  await db.transaction().execute(async (trx) => {
    for (const [i, rid] of routes.entries()) {
      await trx
        .updateTable('routes')
        .set({ sort: i, updated_at: Date.now() })
        .where('id', '=', rid)
        .where('project_id', '=', projectId)
        .execute();
    }
  });
}

/** Bind programs to an entry (not to directories and pages). */
export async function bindPrograms(
  db: Kysely<DB>,
  route: RouteRow,
  programs: readonly string[],
): Promise<RouteRow> {
  if (NO_PROGRAMS.includes(route.type) && programs.length > 0) fail(E.ROUTE_NO_PROGRAMS);
  const next = { ...route, programs: JSON.stringify([...new Set(programs)]), updated_at: Date.now() };
  await db
    .updateTable('routes')
    .set({ programs: next.programs, updated_at: next.updated_at })
    .where('id', '=', route.id)
    .where('project_id', '=', route.project_id)
    .execute();
  return next;
}

/** Only the menu entry goes: its tables, datasets and functions stay; its entries move up. */
export async function removeRoute(db: Kysely<DB>, route: RouteRow): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('routes')
      .set({ parent_id: route.parent_id })
      .where('project_id', '=', route.project_id)
      .where('parent_id', '=', route.id)
      .execute();
    await trx
      .deleteFrom('routes')
      .where('id', '=', route.id)
      .where('project_id', '=', route.project_id)
      .execute();
  });
}
