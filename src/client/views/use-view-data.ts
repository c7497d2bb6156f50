/**
 * The rows of a data view as the user narrows them: search, filter, sort, grouping and page all go
 * to the server (rows are never sorted or filtered in the browser). A page is fetched without its
 * count and painted; the count follows in a separate call (src/shared/query/page-total.ts).
 * Statistics come from the summary call over the whole filtered set, never the page.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { FilterValue } from '../../../widgets/kit/FilterControl.tsx';
import type { Field } from '../../shared/api/fields.ts';
import { TABLE_REFRESH_MS } from '../../shared/constants.ts';
import { allOf, conditionsQuery, searchQuery } from '../../shared/query/conditions.ts';
import { countBody, type KnownCount, type Total, totalAfterPage } from '../../shared/query/page-total.ts';
import type { Metric, SummaryAnswer, ViewRows } from '../api/views.ts';
import type { DatasetColumn, DatasetTable } from '../runtime/dataset-client.ts';
import { createReloadGate } from './reload-gate.ts';
import { settledPage, takePage } from './view-prefetch.ts';
import { type SourceRows, sourceRows, sourceSummary, type ViewSource } from './view-source.ts';

/** A first page its route already asked for (view-prefetch.ts), when this is that call. */
const takeFirst = (project: string, from: ViewSource, body: unknown): Promise<SourceRows> | undefined =>
  from.kind === 'table' ? takePage(project, from.entity, body) : undefined;

/** The rows' query: the search box and the filter over the fields (undefined: every row). */
function viewQuery(fields: readonly Field[] | null, search: string, filter: FilterValue): unknown {
  if (!fields) return undefined;
  const cf = fields.map(asCondField);
  return allOf(searchQuery(search, cf), conditionsQuery(filter.conditions, filter.match, cf));
}

const NO_FILTER: FilterValue = { conditions: [], match: 'and' };

export type Sort = { field: string; order: 'asc' | 'desc' } | undefined;

/** At most this many metrics go in one summary call (the query language's limit). */
const METRICS_MAX = 20;
export const STAT_FNS = ['sum', 'avg', 'min', 'max'] as const;

/** A field as the filter and search see it. */
const asCondField = (f: Field) => ({ key: f._field, type: f._type });

/**
 * The metrics of a summary: the row count, then `fns` (sum/avg/min/max) of each number field while
 * they fit. Groups without the statistics row show only counts and sums, so they ask only for those.
 */
export function summaryMetrics(
  fields: readonly Field[],
  fns: readonly (typeof STAT_FNS)[number][] = STAT_FNS,
): Metric[] {
  const out: Metric[] = [{ fn: 'count', as: 'm0' }];
  for (const f of fields) {
    if (f._type !== 'number') continue;
    for (const fn of fns) {
      if (out.length >= METRICS_MAX) return out;
      out.push({ fn, field: f._field, as: `m${out.length}` });
    }
  }
  return out;
}

/** A summary answer's values by field and function (`count` for the row count). */
export function readStats(metrics: readonly Metric[], values: Record<string, number | null>) {
  const out: Record<string, Partial<Record<Metric['fn'], number | null>>> = { '': {} };
  for (const m of metrics) {
    const k = m.field ?? '';
    out[k] ??= {};
    out[k]![m.fn] = values[m.as ?? ''] ?? null;
  }
  return out;
}

/** A call started ahead (`askGroup`) with this key, once. */
function takeAsked<T>(asked: Map<string, Promise<unknown>>, key: string): Promise<T> | undefined {
  const hit = asked.get(key) as Promise<T> | undefined;
  asked.delete(key);
  return hit;
}

/** The order of a grouped page: by its groups (a group's rows sit together), then the user's sort. */
function groupSort(group: readonly string[], sort: Sort): { field: string; order: 'asc' | 'desc' }[] {
  const list: { field: string; order: 'asc' | 'desc' }[] = group.map((g) => ({ field: g, order: 'asc' }));
  if (sort && !group.includes(sort.field)) list.push(sort);
  return list;
}

/** A page call's body, in one shape wherever it is made (calls are matched by it). */
function pageBody(query: unknown, page: { index: number; size: number }, sort: ReturnType<typeof groupSort>) {
  return {
    ...(query === undefined ? {} : { query }),
    page,
    ...(sort.length ? { sort } : {}),
  };
}

export function useViewData(opts: {
  project: string;
  source: ViewSource;
  /** A dataset's columns, as its pages bring them (its fields), and the tables it reads. */
  onColumns?: (columns: DatasetColumn[], tables?: DatasetTable[]) => void;
  fields: Field[] | null;
  pageSize: number;
  /** The role's default filter is applied by the server; nothing here can lift it. */
  group: string[];
  wantStats: boolean;
  /**
   * The first page may be asked before the fields are known (nothing narrows or sorts it yet): the
   * rows and the field meta travel at once instead of one after the other. False when a stored
   * grouping will sort the rows once the fields are known.
   */
  early?: boolean;
}) {
  const { project, source, fields, pageSize, group } = opts;
  const onColumns = useRef(opts.onColumns);
  onColumns.current = opts.onColumns;
  // The source by value: a new object each render must not load again.
  const sourceKey = JSON.stringify(source);
  const entity = source.kind === 'table' ? source.entity : '';
  const overDataset = source.kind === 'dataset';
  // Statistics come from the summary call of the table or the dataset (a dataset has no groups).
  const wantStats = opts.wantStats;
  const early = opts.early ?? false;
  // The first page its route already has (view-prefetch.ts), when it is the call this view makes
  // first: the view draws with its rows from the start, and its first load only asks the count.
  const [seed] = useState(() => {
    if (source.kind !== 'table' || (!fields && !early)) return null;
    const pageReq = { index: 1, size: pageSize };
    const body = pageBody(viewQuery(fields, '', NO_FILTER), pageReq, groupSort(group, undefined));
    const answer = settledPage(project, source.entity, body);
    if (!answer) return null;
    const after = totalAfterPage(pageReq, answer.data.length, JSON.stringify(body.query ?? null), null);
    return {
      key: JSON.stringify([project, sourceKey, body, 0]),
      answer,
      sortKey: JSON.stringify(groupSort(group, undefined)),
      after,
    };
  });
  const [page, setPage] = useState(1);
  const [sort, setSort] = useState<Sort>(undefined);
  const [search, setSearch] = useState('');
  const [filter, setFilter] = useState<FilterValue>(NO_FILTER);
  const [rows, setRows] = useState<ViewRows['data']>(() => seed?.answer.data ?? []);
  // The order the rows on screen were asked in (JSON of the sort list): a grouping's rows must be
  // sorted by it, so until they are, the view keeps what it shows.
  const [rowsSort, setRowsSort] = useState<string | null>(() => seed?.sortKey ?? null);
  const [total, setTotal] = useState<Total>(() => seed?.after.total ?? { n: 0, exact: false });
  // Loading until the first rows arrive: a view that has not asked yet (its fields are on the way)
  // is not a settled empty view (the print screen waits on this).
  const [loading, setLoading] = useState(() => seed === null);
  const [error, setError] = useState<unknown>(null);
  const [stats, setStats] = useState<{ metrics: Metric[]; answer: SummaryAnswer } | null>(null);
  // The grouping (JSON of the group list) whose summary call last came back, answered or failed: a
  // view drawing a new grouping waits for its counts and sums as well as its rows, and draws once.
  const [statsGroup, setStatsGroup] = useState<string | null>(null);
  const [tick, setTick] = useState(0);
  const known = useRef<KnownCount | null>(null);
  const quietNext = useRef(false);
  // The request last sent: the same one again (the fields arriving after an early first page) is not
  // sent, and the one in flight is kept; a different one makes the older answer stale.
  const current = useRef<{ key: string; live: boolean } | null>(null);
  const gate = useMemo(
    () =>
      createReloadGate(TABLE_REFRESH_MS, (quiet) => {
        quietNext.current = quiet;
        // Rows may have come or gone: the count is asked again.
        known.current = null;
        setTick((n) => n + 1);
      }),
    [],
  );
  useEffect(
    () => () => {
      gate.cancel();
      if (current.current) current.current.live = false;
    },
    [gate],
  );

  const query = useMemo(() => viewQuery(fields, search, filter), [fields, search, filter]);

  const sortList = useMemo(() => groupSort(group, sort), [group, sort]);

  // Calls a new grouping will make, started by the pick itself (`askGroup`) before the view redraws;
  // the effects below take them when their call is the same one, else make their own.
  const asked = useRef(new Map<string, Promise<unknown>>());
  const latest = useRef({ query, page, pageSize, sort, fields, wantStats, tick });
  latest.current = { query, page, pageSize, sort, fields, wantStats, tick };

  useEffect(() => {
    if (!fields && !early) return;
    const pageReq = { index: page, size: pageSize };
    const body = pageBody(query, pageReq, sortList);
    const key = JSON.stringify([project, sourceKey, body, tick]);
    const sortKey = JSON.stringify(sortList);
    if (current.current?.key === key) return;
    const from = JSON.parse(sourceKey) as ViewSource;
    const queryKey = JSON.stringify(query ?? null);
    // The count of a page that did not say it (asked after the page, never before it).
    const askCount = (req: { live: boolean }) =>
      sourceRows(project, from, countBody(query)).then(
        (c) => {
          if (!req.live || c.count === undefined) return;
          known.current = { key: queryKey, n: c.count };
          setTotal({ n: c.count, exact: true });
        },
        () => undefined,
      );
    if (current.current === null && seed?.key === key) {
      // Drawn with the route's first page already: it is taken (so no later view is handed it) and
      // only its count is asked.
      current.current = { key, live: true };
      void takeFirst(project, from, body);
      known.current = seed.after.known;
      if (seed.after.ask) askCount(current.current);
      return;
    }
    if (current.current) current.current.live = false;
    const req = { key, live: true };
    current.current = req;
    const quiet = quietNext.current;
    quietNext.current = false;
    // A live reload keeps what is on screen until the new rows arrive (no spinner, no jump).
    if (!quiet) setLoading(true);
    (
      takeAsked<SourceRows>(asked.current, key) ??
      takeFirst(project, from, body) ??
      sourceRows(project, from, body)
    )
      .then(
        (answer) => {
          if (!req.live) return;
          if (answer.columns) onColumns.current?.(answer.columns, answer.tables);
          setRows(answer.data);
          setRowsSort(sortKey);
          setError(null);
          const after = totalAfterPage(pageReq, answer.data.length, queryKey, quiet ? null : known.current);
          known.current = after.known;
          setTotal(after.total);
          if (after.ask) askCount(req);
        },
        (err: unknown) => req.live && setError(err),
      )
      .finally(() => req.live && setLoading(false));
  }, [project, sourceKey, fields, early, query, sortList, page, pageSize, tick, seed]);

  useEffect(() => {
    if (!fields || (!entity && !overDataset) || (!wantStats && group.length === 0)) {
      setStats(null);
      return;
    }
    let live = true;
    const metrics = summaryMetrics(fields, wantStats ? STAT_FNS : ['sum']);
    const from = JSON.parse(sourceKey) as ViewSource;
    const spec = { ...(group.length ? { group } : {}), metrics };
    const key = JSON.stringify([project, sourceKey, query ?? null, spec, tick]);
    const settled = (answer: SummaryAnswer | null) => {
      if (!live) return;
      setStats(answer && { metrics, answer });
      setStatsGroup(JSON.stringify(group));
    };
    (takeAsked<SummaryAnswer>(asked.current, key) ?? sourceSummary(project, from, query, spec)).then(
      settled,
      () => settled(null),
    );
    return () => {
      live = false;
    };
  }, [project, entity, overDataset, sourceKey, fields, query, group, wantStats, tick]);

  return {
    page,
    sort,
    search,
    filter,
    rows,
    rowsSort,
    total,
    loading,
    error,
    stats,
    statsGroup,
    query,
    sortList,
    setPage,
    setSort(s: Sort) {
      setSort(s);
      setPage(1);
    },
    setSearch(text: string) {
      setSearch(text);
      setPage(1);
    },
    setFilter(v: FilterValue) {
      setFilter(v);
      setPage(1);
    },
    /**
     * A new grouping was picked: its page and its grouped summary go out now, not after the redraw
     * the pick causes (the effects take them). Call with the group list the view will be given.
     */
    askGroup: useCallback(
      (next: string[]) => {
        const { query: q, page: index, pageSize: size, sort: s, fields: fs, tick: n } = latest.current;
        if (!fs || next.length === 0) return;
        const from = JSON.parse(sourceKey) as ViewSource;
        asked.current.clear();
        const body = pageBody(q, { index, size }, groupSort(next, s));
        const rows = sourceRows(project, from, body);
        const rowsKey = JSON.stringify([project, sourceKey, body, n]);
        asked.current.set(rowsKey, rows);
        if (!entity && !overDataset) return;
        const metrics = summaryMetrics(fs, latest.current.wantStats ? STAT_FNS : ['sum']);
        const spec = { group: next, metrics };
        const summary = sourceSummary(project, from, q, spec);
        asked.current.set(JSON.stringify([project, sourceKey, q ?? null, spec, n]), summary);
        // The grouping is drawn once both are in (groupingReady): the rows are handed over when the
        // summary has settled too, in the same turn as its figures, so the view renders once for
        // both instead of once more for rows it may not draw yet.
        const joined = summary.then(
          () => rows,
          () => rows,
        );
        asked.current.set(rowsKey, joined);
        // Not taken (the view asked otherwise), a failure is nobody's to show.
        rows.catch(() => undefined);
        joined.catch(() => undefined);
        summary.catch(() => undefined);
      },
      [project, sourceKey, entity, overDataset],
    ),
    /**
     * Load again; `quiet` keeps the rows on screen (a live change), counting again either way. Quiet
     * reloads told of at once (one save heard by several listeners) are one load.
     */
    reload: useCallback((quiet = false) => gate.request(quiet), [gate]),
  };
}
