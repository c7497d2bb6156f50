/**
 * Where a data view's rows come from: a table (the end-user data calls, with writes, statistics and
 * saved filters) or a released dataset (the show call: paging, sort, filter and search over its
 * output columns, read-only). Both answer a page of rows with `_id`s and, when asked, the count.
 */
import type { Field, FieldType } from '../../shared/api/fields.ts';
import type { ViewOptions } from '../../shared/view-features.ts';
import type { ViewRows } from '../api/views.ts';
import { viewsApi } from '../api/views.ts';
import { type DatasetColumn, showDataset } from '../runtime/dataset-client.ts';

export type ViewSource =
  | { kind: 'table'; entity: string }
  | { kind: 'dataset'; flow: string; params: Record<string, unknown> };

export interface SourceBody {
  query?: unknown;
  page?: { index: number; size: number };
  sort?: { field: string; order: 'asc' | 'desc' }[];
  count?: boolean;
}

/** A page of rows; a dataset also says its columns (its fields). */
export type SourceRows = ViewRows & { columns?: DatasetColumn[] };

export function sourceRows(project: string, source: ViewSource, body: SourceBody): Promise<SourceRows> {
  if (source.kind === 'table') return viewsApi.rows(project, source.entity, body);
  const index = body.page?.index ?? 1;
  return showDataset(project, source.flow, body, source.params).then((a) => ({
    // Dataset rows have no record id: their place on the page names them.
    data: a.rows.map((r, i) => ({ ...r, _id: `${index}-${i}` })),
    ...(a.count === undefined ? {} : { count: a.count }),
    columns: a.columns,
  }));
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
 * features built on a table's own calls (export and import, chart, grouping and statistics over
 * the server's summary, saved filters and their links).
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
      summary: false,
      share: false,
    },
    select: false,
    multiple: false,
    remove: false,
    tree: false,
    savedFilters: false,
  };
}
