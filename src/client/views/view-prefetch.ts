/**
 * A list menu entry's first calls, started by its route as the navigation begins: the table's
 * field meta and its first page go out while the screen renders, instead of after it committed.
 * The data view takes each answer once (the same call, the same body); one nobody takes in a few
 * seconds is dropped, so a later view asks again.
 */
import { type ViewMeta, type ViewRows, viewsApi } from '../api/views.ts';

/** An answer older than this is not taken (the view asks for its own). */
const KEEP_MS = 5000;

interface Pending<T> {
  key: string;
  at: number;
  answer: Promise<T>;
}

const metas = new Map<string, Pending<ViewMeta>>();
const pages = new Map<string, Pending<ViewRows>>();

const tableKey = (project: string, entity: string) => JSON.stringify([project, entity]);

function keep<T>(into: Map<string, Pending<T>>, table: string, key: string, answer: Promise<T>): void {
  // Taken or not, a failure is the view's to show (when it takes it), never an unhandled rejection.
  answer.catch(() => undefined);
  into.set(table, { key, at: Date.now(), answer });
}

function take<T>(from: Map<string, Pending<T>>, table: string, key: string): Promise<T> | undefined {
  const hit = from.get(table);
  if (!hit) return undefined;
  from.delete(table);
  return hit.key === key && Date.now() - hit.at <= KEEP_MS ? hit.answer : undefined;
}

/**
 * Starts a table view's meta call and, when given, its first page (`body` exactly as the view will
 * send it: a view that would ask otherwise simply does not take it).
 */
export function prefetchView(project: string, entity: string, body?: unknown): void {
  const table = tableKey(project, entity);
  keep(metas, table, '', viewsApi.meta(project, entity));
  if (body !== undefined) keep(pages, table, JSON.stringify(body), viewsApi.rows(project, entity, body));
}

/** The meta call started for this table, once. */
export function takeMeta(project: string, entity: string): Promise<ViewMeta> | undefined {
  return take(metas, tableKey(project, entity), '');
}

/** The first page started for this table with this body, once. */
export function takePage(project: string, entity: string, body: unknown): Promise<ViewRows> | undefined {
  return take(pages, tableKey(project, entity), JSON.stringify(body));
}
