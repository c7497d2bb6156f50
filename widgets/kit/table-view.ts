/**
 * A data table's sort, search, filter and page as the user sets them, handed to the runtime
 * (`setView`), which queries the server with them: rows are never sorted or searched in the browser.
 * The search is sent once typing pauses, and every change starts again from the first page.
 */
import { useEffect, useRef, useState } from 'react';
import { pagerTotal, type Total } from '../../src/shared/query/page-total.ts';
import type { FilterValue } from './FilterControl.tsx';
import { useRuntime, type WidgetData, type WidgetView } from './widget-context.ts';

/** How long typing must pause before the search goes to the server. */
export const SEARCH_DEBOUNCE_MS = 300;

type Sort = WidgetView['sort'];

/** antd's sorter argument (one column or several) as the view's sort; undefined when sorting is off. */
export function sortOf(sorter: unknown): Sort {
  const s = (Array.isArray(sorter) ? sorter[0] : sorter) as
    | { order?: unknown; columnKey?: unknown }
    | undefined;
  if (!s?.columnKey || (s.order !== 'ascend' && s.order !== 'descend')) return undefined;
  return { field: String(s.columnKey), order: s.order === 'ascend' ? 'asc' : 'desc' };
}

/** The total a widget's data tells: exact, or a lower bound while the count is on its way. */
export function totalOf(data: WidgetData): Total {
  return { n: data.meta.total ?? data.rows.length, exact: data.meta.exact !== false };
}

const TOTAL_TEXT = {
  zh: { exact: (n: number) => `共 ${n} 条`, atLeast: (n: number) => `至少 ${n} 条` },
  en: { exact: (n: number) => `${n} rows`, atLeast: (n: number) => `at least ${n} rows` },
};

/** "n rows", or "at least n rows" until the count is known. */
export function totalText(data: WidgetData, lang: 'zh' | 'en'): string {
  const t = TOTAL_TEXT[lang] ?? TOTAL_TEXT.en;
  const total = totalOf(data);
  return total.exact ? t.exact(total.n) : t.atLeast(total.n);
}

export function useTableView(id: string, pageSize: number) {
  const rt = useRuntime();
  const [page, setPageState] = useState(1);
  const [sort, setSortState] = useState<Sort>(undefined);
  const [search, setSearchText] = useState('');
  const [filter, setFilterState] = useState<FilterValue>({ conditions: [], match: 'and' });
  // What was last sent, so a timer or a handler always builds on the latest choices.
  const sent = useRef<WidgetView>({});
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const send = (patch: WidgetView) => {
    const next = { ...sent.current, ...patch };
    if (JSON.stringify(next) === JSON.stringify(sent.current)) return;
    sent.current = next;
    setPageState(1);
    rt.setView?.(id, next);
  };

  return {
    page,
    sort,
    search,
    filter,
    /** A page picked in the pager; false when it is the page already shown. */
    setPage(index: number): boolean {
      if (index === page) return false;
      setPageState(index);
      rt.setPage?.(id, { index, size: pageSize });
      return true;
    },
    setSortFrom(sorter: unknown) {
      const s = sortOf(sorter);
      setSortState(s);
      send({ sort: s });
    },
    /** Typed text goes to the server once typing pauses; `now` (Enter, the search button) at once. */
    setSearch(text: string, now = false) {
      setSearchText(text);
      clearTimeout(timer.current);
      if (now) send({ search: text.trim() });
      else timer.current = setTimeout(() => send({ search: text.trim() }), SEARCH_DEBOUNCE_MS);
    },
    setFilter(v: FilterValue) {
      setFilterState(v);
      send({ filter: v });
    },
    /** The pager's total: a lower bound keeps the next page reachable until the count arrives. */
    pagerTotal: (data: WidgetData) => pagerTotal(totalOf(data), pageSize),
  };
}
