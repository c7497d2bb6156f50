/**
 * Data for data-bound widgets and page data sources. Every read goes through the end-user data API
 * (`/api/app/simple/{project}/{entity}/…`), which applies the signed-in user's grants on the server:
 * the runtime never sees rows or fields the user may not read.
 */

import type { DataRole } from '../../../widgets/define.ts';
import type { FieldMeta, WidgetData, WidgetView } from '../../../widgets/kit/widget-context.ts';
import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from '../../shared/constants.ts';
import { num, obj, str } from '../../shared/props.ts';
import { allOf, conditionsQuery, searchQuery } from '../../shared/query/conditions.ts';
import { countBody, type KnownCount, totalAfterPage } from '../../shared/query/page-total.ts';
import { post } from '../api/request.ts';

export interface QueryBody {
  query?: unknown;
  page?: { index: number; size: number };
  sort?: { field: string; order: 'asc' | 'desc' }[];
  count?: boolean;
}

interface QueryAnswer {
  data: Record<string, unknown>[];
  count?: number;
}

interface MetaAnswer {
  entity: { _id: string; _name: string; _code: string };
  field: { _key: string; _name: string; _type: string; _hide: boolean; _option?: Record<string, unknown> }[];
}

export interface EntityMeta {
  /** The table's `_id` and code: widgets may name a table by either. */
  id: string;
  code: string;
  name: string;
  fields: (FieldMeta & { option?: Record<string, unknown> })[];
}

const base = (project: string, entity: string) =>
  `/api/app/simple/${encodeURIComponent(project)}/${encodeURIComponent(entity)}`;

const metaCache = new Map<string, Promise<EntityMeta>>();
/** The metas that have arrived, for synchronous look-ups (which names mean the same table). */
const metaKnown = new Map<string, EntityMeta>();

/** The fields of a table the user may see (hidden fields are already left out for non-managers). */
export function entityMeta(project: string, entity: string): Promise<EntityMeta> {
  const key = `${project}/${entity}`;
  let hit = metaCache.get(key);
  if (!hit) {
    hit = post<MetaAnswer>(`${base(project, entity)}/meta`, {}, { quiet: true }).then((m) => ({
      id: m.entity._id,
      code: m.entity._code,
      name: m.entity._name,
      fields: m.field.map((f) => ({
        key: f._key,
        name: f._name,
        type: f._type,
        hide: f._hide,
        ...(f._option ? { option: f._option } : {}),
      })),
    }));
    hit.then(
      (m) => metaKnown.set(key, m),
      () => metaCache.delete(key),
    );
    metaCache.set(key, hit);
  }
  return hit;
}

export function queryEntity(project: string, entity: string, body: QueryBody): Promise<QueryAnswer> {
  return post<QueryAnswer>(`${base(project, entity)}/query`, body, { quiet: true });
}

/** Saves a new record, or updates record `id`; pages showing the table then reload it. */
export async function saveRecord(
  project: string,
  entity: string,
  values: Record<string, unknown>,
  id?: string,
): Promise<Record<string, unknown>> {
  const url = id
    ? `${base(project, entity)}/${encodeURIComponent(id)}/update`
    : `${base(project, entity)}/save`;
  const saved = await post<Record<string, unknown>>(url, values, { quiet: true });
  entityChanged(project, entity);
  return saved;
}

/** Removes a record; pages showing the table then reload it. */
export async function removeRecord(project: string, entity: string, id: string): Promise<unknown> {
  const answer = await post(`${base(project, entity)}/${encodeURIComponent(id)}/remove`, {}, { quiet: true });
  entityChanged(project, entity);
  return answer;
}

// ---- Changes: a save anywhere (a form in a modal, a script) reloads the data widgets and data
// sources bound to the same table on every open page, the page beneath the modal included.

type ChangeListener = (project: string, entity: string) => void;
const changeListeners = new Set<ChangeListener>();

/** Listens for saved, updated or removed records; returns the cleanup. */
export function onEntityChanged(listener: ChangeListener): () => void {
  changeListeners.add(listener);
  return () => changeListeners.delete(listener);
}

/** Tells every open page that records of this table changed. */
export function entityChanged(project: string, entity: string): void {
  for (const l of [...changeListeners]) l(project, entity);
}

/** True when two names (code or `_id`) mean the same table of the project, as far as is known. */
export function sameEntity(project: string, a: string, b: string): boolean {
  if (!a || !b) return false;
  if (a === b) return true;
  const ma = metaKnown.get(`${project}/${a}`);
  const mb = metaKnown.get(`${project}/${b}`);
  const names = (m: EntityMeta | undefined, n: string) => (m ? [m.id, m.code] : [n]);
  const left = names(ma, a);
  return names(mb, b).some((n) => n && left.includes(n));
}

/**
 * What a widget's props say about its data, by its kind's data role: the bound entity and the query.
 * A `record` kind (a form) shows the record named by the page parameter `id` (e.g. a detail modal
 * opened with `{ id: record._id }`), else it starts empty and only loads the field meta (body null);
 * an `aggregate` kind (a chart) reads a large page to aggregate; a `rows` kind its page of rows, in
 * the order the user's `view` asks (a clicked column header) or else the props' `sortBy`.
 * No body asks for a count: the page paints first, the count follows when the page cannot tell it.
 */
export function widgetQuery(
  role: DataRole,
  props: Record<string, unknown>,
  params: Record<string, unknown> = {},
  page?: { index: number; size: number },
  view?: WidgetView,
): { entity: string; body: QueryBody | null; counts: boolean } | null {
  const entity = str(props.entity).trim();
  if (!entity || role === 'none') return null;
  const body: QueryBody = {};
  if (role === 'record') {
    const recordId = str(params.id);
    if (!recordId) return { entity, body: null, counts: false };
    body.query = { field: '_id', type: '_id', opt: 'eq', value: recordId };
    body.page = { index: 1, size: 1 };
    return { entity, body, counts: false };
  }
  if (role === 'aggregate') {
    body.page = { index: 1, size: 1000 };
  } else {
    body.page = {
      index: 1,
      size: Math.max(1, Math.min(PAGE_SIZE_MAX, Math.trunc(num(props.pageSize, PAGE_SIZE_DEFAULT)))),
    };
  }
  if (page && role === 'rows') {
    const index = Math.max(1, Math.trunc(num(page.index, 1)));
    const size = Math.max(1, Math.min(PAGE_SIZE_MAX, Math.trunc(num(page.size, body.page.size))));
    body.page = { index, size };
  }
  const sort = obj(props.sortBy);
  const sortField = str(sort.field) || str(props.sortField);
  const order = (sort.field ? sort.order : props.sortOrder) === 'desc' ? 'desc' : 'asc';
  if (role === 'rows' && view?.sort?.field) body.sort = [{ field: view.sort.field, order: view.sort.order }];
  else if (sortField) body.sort = [{ field: sortField, order }];
  const where = propsFilter(props);
  if (where) body.query = where;
  return { entity, body, counts: true };
}

/**
 * The one clause a kind's `filterField` / `filterType` / `filterValue` props ask for (e.g. a card
 * list of the orders whose status is the tab chosen); none when the value is empty: all rows.
 */
export function propsFilter(props: Record<string, unknown>): unknown {
  const field = str(props.filterField).trim();
  const raw = props.filterValue;
  if (!field || raw === undefined || raw === null || raw === '') return undefined;
  const type = ['number', 'relate', '_id'].includes(str(props.filterType)) ? str(props.filterType) : 'text';
  const value = typeof raw === 'object' ? '' : String(raw);
  if (!value) return undefined;
  return {
    field,
    type,
    opt: type === 'relate' ? 'set' : 'eq',
    value: type === 'number' ? Number(value) : value,
  };
}

/** The query of a search and filter over a table's fields; undefined when the view narrows nothing. */
export function viewQuery(view: WidgetView | undefined, fields: readonly FieldMeta[]): unknown {
  if (!view) return undefined;
  const shown = fields.filter((f) => !f.hide);
  return allOf(
    searchQuery(view.search ?? '', shown),
    view.filter ? conditionsQuery(view.filter.conditions, view.filter.match, fields) : undefined,
  );
}

/** Whether a view needs the table's fields to become a query (a search or filter conditions). */
const narrows = (view: WidgetView | undefined) =>
  Boolean(view?.search?.trim() || view?.filter?.conditions.length);

export interface LoadedData {
  data: WidgetData;
  /** The count of this filter when the page told it (a short page), else the one already known. */
  known: KnownCount | null;
  /** Set when the page gives only a lower bound: asks the server for the count, off the first paint. */
  count?: () => Promise<KnownCount>;
}

/**
 * Loads a widget's page of rows and field meta as WidgetData (errors become a message, never a
 * throw). The page is asked without its count; `key` names the filter (with anything that changes
 * its count, e.g. a reload after a save) so `known` carries a count across pages and sorts.
 */
export async function loadWidgetData(
  project: string,
  entity: string,
  body: QueryBody | null,
  opts: { view?: WidgetView; counts?: boolean; key?: string; known?: KnownCount | null } = {},
): Promise<LoadedData> {
  try {
    let meta: EntityMeta;
    let query = body?.query;
    let answer: QueryAnswer;
    if (body && narrows(opts.view)) {
      // A search or filter needs the field types first (the meta is cached after the first paint).
      meta = await entityMeta(project, entity);
      query = allOf(body.query, viewQuery(opts.view, meta.fields));
      answer = await queryEntity(project, entity, { ...body, ...(query === undefined ? {} : { query }) });
    } else {
      [meta, answer] = await Promise.all([
        entityMeta(project, entity),
        body ? queryEntity(project, entity, body) : Promise.resolve<QueryAnswer>({ data: [] }),
      ]);
    }
    if (!body?.page || opts.counts === false) {
      const data = {
        rows: answer.data,
        meta: { fields: meta.fields, total: answer.data.length },
        loading: false,
      };
      return { data, known: null };
    }
    const key = `${opts.key ?? ''}|${JSON.stringify(query ?? null)}`;
    const after = totalAfterPage(body.page, answer.data.length, key, opts.known ?? null);
    const data: WidgetData = {
      rows: answer.data,
      meta: { fields: meta.fields, total: after.total.n, ...(after.total.exact ? {} : { exact: false }) },
      loading: false,
    };
    const counted = after.ask
      ? async () => ({
          key,
          n: (await queryEntity(project, entity, countBody(query))).count ?? after.total.n,
        })
      : undefined;
    return { data, known: after.known, ...(counted ? { count: counted } : {}) };
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e);
    return { data: { rows: [], meta: {}, loading: false, error: msg }, known: null };
  }
}
