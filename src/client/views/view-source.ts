/**
 * Where a data view's rows come from: a table (the end-user data calls, with writes, statistics and
 * saved filters) or a released dataset (the show call: paging, sort, filter and search over its
 * output columns, read-only). Both answer a page of rows with `_id`s and, when asked, the count.
 */
import type { Field, FieldType } from '../../shared/api/fields.ts';
import type { ViewOptions } from '../../shared/view-features.ts';
import { post } from '../api/request.ts';
import type { Metric, SummaryAnswer, ViewRows } from '../api/views.ts';
import { viewsApi } from '../api/views.ts';
import { type DatasetColumn, type DatasetTable, showDataset } from '../runtime/dataset-client.ts';

export type ViewSource =
  | { kind: 'table'; entity: string }
  | { kind: 'dataset'; flow: string; params: Record<string, unknown> };

export interface SourceBody {
  query?: unknown;
  page?: { index: number; size: number };
  sort?: { field: string; order: 'asc' | 'desc' }[];
  count?: boolean;
}

/** A page of rows; a dataset also says its columns (its fields) and the tables it reads. */
export type SourceRows = ViewRows & { columns?: DatasetColumn[]; tables?: DatasetTable[] };

export function sourceRows(project: string, source: ViewSource, body: SourceBody): Promise<SourceRows> {
  if (source.kind === 'table') return viewsApi.rows(project, source.entity, body);
  const index = body.page?.index ?? 1;
  return showDataset(project, source.flow, body, source.params).then((a) => ({
    // Dataset rows have no record id: their place on the page names them.
    data: a.rows.map((r, i) => ({ ...r, _id: `${index}-${i}` })),
    ...(a.count === undefined ? {} : { count: a.count }),
    columns: a.columns,
    ...(a.tables ? { tables: a.tables } : {}),
  }));
}

/**
 * The statistics of the whole filtered set (never the page): a table's summary call, or a dataset's
 * (`/api/app/ds/{p}/{flow}/summary`, its parameters and the same filter as its rows; no groups).
 */
export function sourceSummary(
  project: string,
  source: ViewSource,
  query: unknown,
  summary: { group?: string[]; metrics: Metric[] },
): Promise<SummaryAnswer> {
  if (source.kind === 'table') return viewsApi.summary(project, source.entity, query, summary);
  return post<SummaryAnswer>(
    `/api/app/ds/${encodeURIComponent(project)}/${encodeURIComponent(source.flow)}/summary`,
    { params: source.params, ...(query === undefined ? {} : { query }), summary },
    { quiet: true, share: false },
  );
}

/** A dataset's output columns as the fields a data view draws, sorts and filters by. */
export function datasetFields(columns: readonly DatasetColumn[]): Field[] {
  return columns.map((c, i) => ({
    _id: c.key,
    _entity: '',
    _name: c.title || c.key,
    _field: c.key,
    _key: c.key,
    _code: c.key,
    _type: c.type as FieldType,
    _relate: [],
    _option: {},
    _hide: false,
    _sort: i,
    _status: 'normal',
  }));
}

/**
 * What a dataset leaves of a view's options: no writes, no selection or programs, and none of the
 * features built on a table's own calls (export and import, chart, grouping over the server's
 * summary, saved filters and their links). Its statistics row has its own call (sourceSummary).
 */
export function datasetOptions(options: ViewOptions): ViewOptions {
  return {
    ...options,
    features: {
      ...options.features,
      option: false,
      export: false,
      chart: false,
      group: false,
      share: false,
    },
    select: false,
    multiple: false,
    remove: false,
    tree: false,
    savedFilters: false,
  };
}
