/**
 * What a widget's render may use from the page runtime: data rows, form values, the action
 * dispatcher, saving and notices. The page renderer (and the designer canvas) provide it; renders
 * never fetch by themselves and never import the runtime.
 */
import { createContext, createElement, type ReactNode, useContext, useEffect, useRef, useState } from 'react';
import type { ExprScope } from '../../src/shared/expr/index.ts';
import type { Condition, Match } from '../../src/shared/query/conditions.ts';
import type { ViewOptions } from '../../src/shared/view-features.ts';

export interface FieldMeta {
  key: string;
  name: string;
  type?: string;
  hide?: boolean;
  /** An option field's list (`option`, `options`): what a filter offers to pick from. */
  list?: readonly string[];
}

export interface RecordWrite {
  id: string;
  values: Record<string, unknown>;
}

export interface WidgetData {
  rows: Record<string, unknown>[];
  /** `exact: false`: `total` is a lower bound ("at least n") until the count arrives. */
  meta: { fields?: FieldMeta[]; total?: number; exact?: boolean };
  loading: boolean;
  error?: string;
}

/**
 * How a user narrows a data widget's rows: a column sort, a search box, filter conditions. The
 * runtime turns it into the widget's query (server-side) and starts again from the first page.
 */
export interface WidgetView {
  sort?: { field: string; order: 'asc' | 'desc' };
  search?: string;
  filter?: { conditions: Condition[]; match: Match };
}

/** A column a table kind declares (the advanced table's `columns`): which field, and how it shows. */
export interface ViewColumn {
  field: string;
  title?: string;
  width?: number;
  fixed?: 'left' | 'right';
  sortable?: boolean;
}

/** What the end user does in a data view that a table kind turns into its declared events. */
export type DataViewEvent =
  | { type: 'rowClick'; row: Record<string, unknown> }
  | { type: 'search'; text: string }
  | { type: 'refresh' }
  | { type: 'export' }
  | { type: 'page'; index: number; size: number }
  | { type: 'sort'; field: string | null; order: 'asc' | 'desc' | null };

/**
 * A table kind asks the runtime for the end user's data view (the one list menu entries open): the
 * view loads, filters, groups and saves through the end-user data calls itself.
 */
export interface DataViewRequest {
  widget: string;
  /** The table's code or `_id`. */
  entity: string;
  /** A released dataset's id: its rows instead of the table's (read-only). */
  dataset?: string;
  options: ViewOptions;
  /** Programs bound to the table (ids): the ones the user is granted show as toolbar buttons. */
  programs?: string[];
  /** Declared columns (in order); absent, every field the user may see. */
  columns?: ViewColumn[];
  bordered?: boolean;
  onEvent?: (event: DataViewEvent) => void;
}

export type NoticeLevel = 'success' | 'error' | 'info' | 'warning';

/** An event fired by a widget; the runtime looks up the widget's event → actions list and runs it. */
export interface WidgetEvent {
  widget: string;
  event: string;
  payload?: unknown;
  /** The row of the list copy the widget sits in (set by the runtime): its actions see it as `record`. */
  record?: Record<string, unknown>;
}

export interface WidgetRuntime {
  mode: 'design' | 'runtime' | 'preview';
  lang: 'zh' | 'en';
  /** Rows and meta of the data source bound to a widget. */
  data: (widgetId: string) => WidgetData;
  values: Record<string, unknown>;
  setValue: (widgetId: string, value: unknown) => void;
  /** Be told when a widget's value changes from outside it (a setValue action, a script). */
  subscribeValue?: (widgetId: string, listener: (value: unknown) => void) => () => void;
  dispatch: (event: WidgetEvent) => void;
  scope: ExprScope;
  /**
   * Saves changes to records of a table through the user's grants, then reloads the widgets showing
   * that table (and tells others on a live page). Absent where nothing may be saved (the designer).
   */
  saveRecords?: (entity: string, writes: readonly RecordWrite[]) => Promise<void>;
  /** Shows a notice to the user (e.g. a save that failed); absent, the render shows nothing. */
  notify?: (level: NoticeLevel, message: string, title?: string) => void;
  /** Sets how a data widget's rows are sorted, searched and filtered; absent where nothing loads. */
  setView?: (widgetId: string, view: WidgetView) => void;
  /** Loads a data widget's rows again (its refresh button), counting them again. */
  reload?: (widgetId: string) => void;
  /** Shows another page of a data widget's rows (loaded from the server). */
  setPage?: (widgetId: string, page: { index: number; size: number }) => void;
  /**
   * Stores a file the user picked (an avatar, a photo) with the project's uploads and answers its URL;
   * absent where nothing may be uploaded (the designer). Rejects with the coded error.
   */
  upload?: (file: File, type: 'image' | 'file', entity?: string) => Promise<{ url: string }>;
  /** Renders another page inside this one (page and simple-page kinds). */
  renderPage?: (pageId: string) => ReactNode;
  /**
   * The ids of the programs the user may run here (released, granted; the server refuses the others
   * whatever is shown). Absent (the designer canvas), every program button shows.
   */
  grantedPrograms?: () => Promise<ReadonlySet<string>>;
  /**
   * Renders the end user's data view for a table kind (runtime and preview); absent on the designer
   * canvas and in tests, where the kind draws its picture from `data` instead.
   */
  dataView?: (request: DataViewRequest) => ReactNode;
}

const EMPTY: WidgetData = { rows: [], meta: {}, loading: false };

/** A runtime with no data and local-only values: used by the designer canvas, tests and SSR. */
export function staticRuntime(over: Partial<WidgetRuntime> = {}): WidgetRuntime {
  const values: Record<string, unknown> = {};
  return {
    mode: 'design',
    lang: 'zh',
    data: () => EMPTY,
    values,
    setValue: (id, v) => {
      values[id] = v;
    },
    dispatch: () => {},
    scope: {},
    ...over,
  };
}

export const WidgetContext = createContext<WidgetRuntime>(staticRuntime());

export function WidgetRuntimeProvider(props: { runtime: WidgetRuntime; children?: ReactNode }) {
  return createElement(WidgetContext.Provider, { value: props.runtime }, props.children);
}

export function useRuntime(): WidgetRuntime {
  return useContext(WidgetContext);
}

export function useWidgetData(widgetId: string): WidgetData {
  return useContext(WidgetContext).data(widgetId);
}

/** A widget's value: held by the runtime (so expressions and forms see it), mirrored locally to re-render. */
export function useWidgetValue<T>(widgetId: string, initial: T): [T, (v: T) => void] {
  const rt = useContext(WidgetContext);
  const stored = rt.values[widgetId];
  const [value, setLocal] = useState<T>(stored === undefined ? initial : (stored as T));
  // A value set from outside (an action, a script) shows too; cleared, it falls back to the default.
  const fallback = useRef(initial);
  useEffect(
    () => rt.subscribeValue?.(widgetId, (v) => setLocal((v === undefined ? fallback.current : v) as T)),
    [rt, widgetId],
  );
  const set = (v: T) => {
    setLocal(v);
    rt.setValue(widgetId, v);
    rt.dispatch({ widget: widgetId, event: 'onChange', payload: v });
  };
  return [value, set];
}

/**
 * Which programs the user may run: `'all'` where nothing is checked (the designer), `null` while the
 * answer is on its way (show none yet), else the granted ids. A failed answer grants nothing.
 */
export function useGrantedPrograms(): ReadonlySet<string> | 'all' | null {
  const rt = useContext(WidgetContext);
  const [granted, setGranted] = useState<ReadonlySet<string> | null>(null);
  useEffect(() => {
    if (!rt.grantedPrograms) return;
    let live = true;
    rt.grantedPrograms().then(
      (ids) => live && setGranted(ids),
      () => live && setGranted(new Set()),
    );
    return () => {
      live = false;
    };
  }, [rt]);
  return rt.grantedPrograms ? granted : 'all';
}

/** Fires a widget event (onClick, onChange, ...) to the runtime's action runner. */
export function useDispatch(widgetId: string): (event: string, payload?: unknown) => void {
  const rt = useContext(WidgetContext);
  return (event, payload) => rt.dispatch({ widget: widgetId, event, payload });
}
