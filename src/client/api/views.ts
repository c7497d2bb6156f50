/**
 * Calls of the end user's data view: a table's fields, rows, statistics, record writes, and saved
 * filters (`/api/app/simple/…`, `/api/app/view/…`). The server applies the user's grants and the
 * role's default filter to every read.
 */
import type { TableConfig } from '../../shared/admin/table-config.ts';
import type { Field } from '../../shared/api/fields.ts';
import type { Condition, Match } from '../../shared/query/conditions.ts';
import type { StaleCondition } from '../../shared/view-filters.ts';
import { withSetLists } from './field-sets.ts';
import { post } from './request.ts';

export type ShareType = 'private' | 'public' | 'project';

export interface FilterSpec {
  conditions: Omit<Condition, 'id'>[];
  match: Match;
}

export interface SavedFilter {
  id: string;
  name: string;
  type: ShareType;
  filter: FilterSpec;
  createdBy: string | null;
  /** Conditions the server left out: the fields they name changed since the filter was saved. */
  stale?: StaleCondition[];
}

export interface ViewMeta {
  entity: { _id: string; _name: string; _code: string };
  field: Field[];
  /** The table's settings (/system/data/{entity}) as this user may see them. */
  config?: TableConfig;
  /** The role's default filter of the table (applied by the server; shown, not removable). */
  role?: FilterSpec | null;
}

export interface ViewRows {
  data: Array<Record<string, unknown> & { _id: string }>;
  count?: number;
}

export interface SummaryAnswer {
  total: Record<string, number | null>;
  groups: { key: (string | number | null)[]; values: Record<string, number | null> }[];
}

export interface Metric {
  fn: 'count' | 'sum' | 'avg' | 'min' | 'max';
  field?: string;
  as?: string;
}

const quiet = { quiet: true, share: false } as const;
const simple = (project: string, entity: string) =>
  `/api/app/simple/${encodeURIComponent(project)}/${encodeURIComponent(entity)}`;
const view = (project: string, entity: string) =>
  `/api/app/view/${encodeURIComponent(project)}/${encodeURIComponent(entity)}`;

/** Meta calls on their way, by table: views of one table opened together share one call. */
const metaInFlight = new Map<string, Promise<ViewMeta>>();

export const viewsApi = {
  /**
   * A table's field meta. A view asking while the same call is still on its way shares its answer
   * (a page with four tables of customers asks once); once answered, the next asks afresh.
   */
  meta: (project: string, entity: string): Promise<ViewMeta> => {
    const key = `${project}\n${entity}`;
    let call = metaInFlight.get(key);
    if (!call) {
      const made = post<ViewMeta>(`${simple(project, entity)}/meta`, {}, quiet).then(async (m) => ({
        ...m,
        field: await withSetLists(project, m.field),
      }));
      const done = () => {
        if (metaInFlight.get(key) === made) metaInFlight.delete(key);
      };
      made.then(done, done);
      metaInFlight.set(key, made);
      call = made;
    }
    return call;
  },
  rows: (project: string, entity: string, body: unknown) =>
    post<ViewRows>(`${simple(project, entity)}/query`, body, quiet),
  summary: (
    project: string,
    entity: string,
    query: unknown,
    summary: { group?: string[]; metrics: Metric[] },
  ) =>
    post<SummaryAnswer>(
      `${simple(project, entity)}/summary`,
      { ...(query === undefined ? {} : { query }), summary },
      quiet,
    ),
  filters: (project: string, entity: string) =>
    post<{ filters: SavedFilter[]; role: FilterSpec | null }>(`${view(project, entity)}/filters`, {}, quiet),
  saveFilter: (
    project: string,
    entity: string,
    body: { id?: string; name: string; type: ShareType; filter: FilterSpec; from?: ShareType },
  ) => post<SavedFilter>(`${view(project, entity)}/filters/save`, body),
  removeFilter: (project: string, entity: string, id: string, type: ShareType) =>
    post(`${view(project, entity)}/filters/remove`, { id, type }),
};
