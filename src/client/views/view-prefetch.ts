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
  /** The answer once it came (a failure is never kept here: the view takes the promise). */
  value?: T;
}

const metas = new Map<string, Pending<ViewMeta>>();
const pages = new Map<string, Pending<ViewRows>>();

const tableKey = (project: string, entity: string) => JSON.stringify([project, entity]);

function keep<T>(
  into: Map<string, Pending<T>>,
  table: string,
  key: string,
  answer: Promise<T>,
): Promise<unknown> {
  const entry: Pending<T> = { key, at: Date.now(), answer };
  into.set(table, entry);
  // Taken or not, a failure is the view's to show (when it takes it), never an unhandled rejection.
  return answer.then(
    (v) => {
      entry.value = v;
    },
    () => undefined,
  );
}

function fresh<T>(hit: Pending<T> | undefined, key: string): hit is Pending<T> {
  return hit !== undefined && hit.key === key && Date.now() - hit.at <= KEEP_MS;
}

function take<T>(from: Map<string, Pending<T>>, table: string, key: string): Promise<T> | undefined {
  const hit = from.get(table);
  if (!hit) return undefined;
  from.delete(table);
  return fresh(hit, key) ? hit.answer : undefined;
}

/** The answer already in for this call, without taking it (a view drawn with it takes it after). */
function peek<T>(from: Map<string, Pending<T>>, table: string, key: string): T | undefined {
  const hit = from.get(table);
  return fresh(hit, key) ? hit.value : undefined;
}

/**
 * Starts a table view's meta call and, when given, its first page (`body` exactly as the view will
 * send it: a view that would ask otherwise simply does not take it). Answers a promise settled when
 * both are in (answered or failed), or after `waitMs`, whichever comes first: a route that waits for
 * it draws the view once, with its fields and rows, instead of empty, then with its fields, then
 * with its rows (three renders and three layouts of the table where one does).
 */
export function prefetchView(project: string, entity: string, body?: unknown, waitMs = 0): Promise<void> {
  const table = tableKey(project, entity);
  const both = [keep(metas, table, '', viewsApi.meta(project, entity))];
  if (body !== undefined)
    both.push(keep(pages, table, JSON.stringify(body), viewsApi.rows(project, entity, body)));
  if (waitMs <= 0) return Promise.resolve();
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([
    Promise.all(both).then(() => undefined),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, waitMs);
    }),
  ]).finally(() => clearTimeout(timer));
}

/** The meta call started for this table, once. */
export function takeMeta(project: string, entity: string): Promise<ViewMeta> | undefined {
  return take(metas, tableKey(project, entity), '');
}

/** The first page started for this table with this body, once. */
export function takePage(project: string, entity: string, body: unknown): Promise<ViewRows> | undefined {
  return take(pages, tableKey(project, entity), JSON.stringify(body));
}

/** The meta started for this table when it is already in (not taken: `takeMeta` still hands it over). */
export function settledMeta(project: string, entity: string): ViewMeta | undefined {
  return peek(metas, tableKey(project, entity), '');
}

/** The first page started for this table with this body when it is already in (not taken). */
export function settledPage(project: string, entity: string, body: unknown): ViewRows | undefined {
  return peek(pages, tableKey(project, entity), JSON.stringify(body));
}
