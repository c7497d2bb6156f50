/** Menus (routes) of a project: every lookup is scoped to the project. */
import type { Kysely } from 'kysely';
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
    if (!entity) fail(E.ENTITY_NOT_FOUND, 'value: not a data table of this project');
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
