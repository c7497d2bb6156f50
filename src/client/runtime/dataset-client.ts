/**
 * Dataset shows (spec: `POST /api/app/ds/{project}/{flow}/show`). Shows asked within one window are
 * sent as one call with flow `__` and a map key → { flow, params, dataset }; the answer comes back
 * keyed by key. The mapping of a dataset (its columns and version) is cached 300 s and replaced only
 * when an answer's version is newer (dev mode) or differs (forced, the default for end users).
 */
import type { FieldMeta, WidgetData } from '../../../widgets/kit/widget-context.ts';
import { ApiError } from '../api/api-error.ts';
import { post } from '../api/request.ts';

/** Pending shows are combined for this long (spec: combined data queries, 100 ms). */
export const DATASET_BATCH_MS = 100;
/** The dataset mapping is kept this long (spec: dataset mapping 300 s). */
export const DATASET_MAPPING_MS = 300_000;

export interface DatasetColumn {
  key: string;
  title: string;
  type: string;
}

export interface DatasetMapping {
  flow: string;
  version: number;
  columns: DatasetColumn[];
  at: number;
}

export interface DatasetQuery {
  query?: unknown;
  sort?: { field: string; order: 'asc' | 'desc' }[];
  page?: { index: number; size: number };
  count?: boolean;
}

/** A table a dataset reads, as records-change notices name it. */
export interface DatasetTable {
  entity: string;
  code: string;
}

export interface DatasetAnswer {
  rows: Record<string, unknown>[];
  count?: number;
  columns: DatasetColumn[];
  version: number;
  /** The tables it reads (base and joins): a view reloads when their records change. */
  tables?: DatasetTable[];
}

interface Wire {
  rows: Record<string, unknown>[];
  count?: number;
  columns?: DatasetColumn[];
  version: number;
  tables?: DatasetTable[];
}

type Mode = 'dev' | 'forced';

/** Whether a cached mapping gives way to an answer's: newer (dev) or any other version (forced). */
export function replacesMapping(
  cached: DatasetMapping | undefined,
  version: number,
  mode: Mode,
  now: number,
): boolean {
  if (!cached || now - cached.at > DATASET_MAPPING_MS) return true;
  return mode === 'dev' ? version > cached.version : version !== cached.version;
}

const mappings = new Map<string, DatasetMapping>();
let mode: Mode = 'forced';

/** Dev mode (the workbench) replaces a mapping only with a newer version. */
export function setDatasetMode(m: Mode): void {
  mode = m;
}

export function cachedMapping(project: string, flow: string, now = Date.now()): DatasetMapping | undefined {
  const m = mappings.get(`${project}/${flow}`);
  return m && now - m.at <= DATASET_MAPPING_MS ? m : undefined;
}

interface Pending {
  key: string;
  flow: string;
  params: Record<string, unknown>;
  dataset: DatasetQuery;
  version?: number;
  resolve: (a: Wire) => void;
  reject: (e: unknown) => void;
}

const queues = new Map<string, { items: Pending[]; timer: ReturnType<typeof setTimeout> }>();
let seq = 0;

async function flush(project: string): Promise<void> {
  const q = queues.get(project);
  queues.delete(project);
  if (!q) return;
  const items = q.items;
  const url = (flow: string) => `/api/app/ds/${encodeURIComponent(project)}/${flow}/show`;
  try {
    if (items.length === 1) {
      const it = items[0]!;
      const body = {
        ...it.dataset,
        params: it.params,
        ...(it.version === undefined ? {} : { version: it.version }),
      };
      it.resolve(await post<Wire>(url(encodeURIComponent(it.flow)), body, { quiet: true, share: false }));
      return;
    }
    const map = Object.fromEntries(
      items.map((it) => [
        it.key,
        {
          flow: it.flow,
          params: it.params,
          dataset: it.dataset,
          ...(it.version === undefined ? {} : { version: it.version }),
        },
      ]),
    );
    const answer = await post<Record<string, { error: number; msg?: string; data?: Wire }>>(
      url('__'),
      { map },
      { quiet: true, share: false },
    );
    for (const it of items) {
      const a = answer[it.key];
      if (a && a.error === 0 && a.data) it.resolve(a.data);
      else it.reject(new ApiError(a?.error ?? 1, a?.msg ?? 'no answer', true));
    }
  } catch (e) {
    for (const it of items) it.reject(e);
  }
}

/** Show a released dataset: rows of the page, the count when asked, and its (cached) columns. */
export function showDataset(
  project: string,
  flow: string,
  dataset: DatasetQuery = {},
  params: Record<string, unknown> = {},
): Promise<DatasetAnswer> {
  const cacheKey = `${project}/${flow}`;
  const cached = cachedMapping(project, flow);
  const wire = new Promise<Wire>((resolve, reject) => {
    let q = queues.get(project);
    if (!q) {
      q = { items: [], timer: setTimeout(() => void flush(project), DATASET_BATCH_MS) };
      queues.set(project, q);
    }
    q.items.push({
      key: `k${++seq}`,
      flow,
      params,
      dataset,
      ...(cached ? { version: cached.version } : {}),
      resolve,
      reject,
    });
  });
  return wire.then((w) => {
    const now = Date.now();
    let m = mappings.get(cacheKey);
    if (w.columns && replacesMapping(m, w.version, mode, now)) {
      m = { flow, version: w.version, columns: w.columns, at: now };
      mappings.set(cacheKey, m);
    }
    const columns = w.columns ?? m?.columns ?? [];
    return {
      rows: w.rows,
      ...(w.count === undefined ? {} : { count: w.count }),
      columns,
      version: w.version,
      ...(w.tables ? { tables: w.tables } : {}),
    };
  });
}

/**
 * A data widget whose source is a dataset (its `dataset` prop): the page of rows (a chart reads a
 * large one), the user's column sort, and the columns as field meta. Errors become a message.
 */
export async function loadDatasetWidget(
  project: string,
  flow: string,
  role: 'rows' | 'aggregate' | 'record' | 'none',
  opts: {
    pageSize: number;
    page?: { index: number; size: number };
    sort?: { field: string; order: 'asc' | 'desc' };
    /** The dataset's parameters (its `$param` values). */
    params?: Record<string, unknown>;
  },
): Promise<WidgetData> {
  try {
    const page =
      role === 'aggregate'
        ? { index: 1, size: 1000 }
        : (opts.page ?? { index: 1, size: Math.max(1, opts.pageSize) });
    const a = await showDataset(
      project,
      flow,
      {
        page,
        count: role === 'rows',
        ...(opts.sort ? { sort: [opts.sort] } : {}),
      },
      opts.params ?? {},
    );
    const fields: FieldMeta[] = a.columns.map((c) => ({ key: c.key, name: c.title, type: c.type }));
    // Dataset rows have no record id: their position names them (tables key rows by `_id`).
    const rows = a.rows.map((r, i) => ({ _id: `${page.index}-${i}`, ...r }));
    return { rows, meta: { fields, total: a.count ?? rows.length }, loading: false };
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e);
    return { rows: [], meta: {}, loading: false, error: msg };
  }
}
