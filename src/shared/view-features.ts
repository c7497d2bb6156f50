/**
 * The spec's 17 table features, each switched on or off per view (spec: "Table features that can
 * each be toggled"), plus what the designer table's own toggles add. A list menu entry has them all
 * on; a designer table turns on what its props say.
 */
import { PAGE_SIZE_DEFAULT } from './constants.ts';

export const VIEW_FEATURES = [
  'export',
  'sort',
  'filter',
  'pin',
  'more',
  'print',
  'index',
  'label',
  'chart',
  'refresh',
  'search',
  'summary',
  'group',
  'option',
  'view',
  'row-height',
  'share',
] as const;
export type ViewFeature = (typeof VIEW_FEATURES)[number];

export interface ViewOptions {
  features: Record<ViewFeature, boolean>;
  /** Programs started from the view run with the user's grants checked (on by default). */
  programAuth: boolean;
  /** Rows can be picked (bulk actions); `multiple`: several at once. */
  select: boolean;
  multiple: boolean;
  /** Rows can be removed (with confirmation). */
  remove: boolean;
  /** A table relating to itself shows as a tree. */
  tree: boolean;
  /** On phones the rows show as cards. */
  cardMode: boolean;
  /** Saved filters (the designer table's content filter). */
  savedFilters: boolean;
  simplePage: boolean;
  pageIndex: boolean;
  pageSize: number;
  /**
   * The page size is the caller's own choice (a page widget set one other than the default): the
   * table's page size from /system/data/{entity} then does not replace it.
   */
  ownPageSize?: boolean;
}

/** Everything on: the end user's list menu entry. */
export function allFeatures(pageSize = 20): ViewOptions {
  return {
    features: Object.fromEntries(VIEW_FEATURES.map((f) => [f, true])) as Record<ViewFeature, boolean>,
    programAuth: true,
    select: true,
    multiple: true,
    remove: true,
    tree: true,
    cardMode: true,
    savedFilters: true,
    simplePage: false,
    pageIndex: true,
    pageSize,
  };
}

/**
 * The prop naming each of the 17 toggles on the table kinds (`table`, `advanced-table`): the feature's
 * own name, except `row-height` (`rowHeight`, a prop name without a dash).
 */
export const FEATURE_PROPS: Record<ViewFeature, string> = Object.fromEntries(
  VIEW_FEATURES.map((f) => [f, f === 'row-height' ? 'rowHeight' : f]),
) as Record<ViewFeature, string>;

/**
 * A table kind's props as view options (every toggle off by default). `aliases` names a prop a kind
 * stored a feature under before the 17 were complete (the table's `stat` is `summary`).
 */
export function widgetViewOptions(
  props: Record<string, unknown>,
  pageSize: number,
  aliases: Partial<Record<ViewFeature, string>> = {},
): ViewOptions {
  const on = (k: string) => props[k] === true;
  const features = Object.fromEntries(
    VIEW_FEATURES.map((f) => [f, on(aliases[f] ?? FEATURE_PROPS[f])]),
  ) as Record<ViewFeature, boolean>;
  return {
    features,
    programAuth: props.programAuth !== false,
    select: on('select') || on('multiple'),
    multiple: on('multiple'),
    remove: on('remove'),
    tree: on('tree'),
    cardMode: on('cardMode'),
    savedFilters: on('contentFilter'),
    simplePage: on('simplePage'),
    pageIndex: on('pageIndex'),
    pageSize,
    ownPageSize: pageSize !== PAGE_SIZE_DEFAULT,
  };
}

/**
 * A view's options within its table's settings (/system/data/{entity}): a feature the table switched
 * off is off whatever the caller asked (a page widget narrows further, never re-enables); the table's
 * page size applies unless the caller chose its own.
 */
export function withinTable(
  o: ViewOptions,
  table: { off: readonly string[]; pageSize: number },
): ViewOptions {
  const off = new Set(table.off);
  const features = Object.fromEntries(VIEW_FEATURES.map((f) => [f, o.features[f] && !off.has(f)])) as Record<
    ViewFeature,
    boolean
  >;
  return { ...o, features, pageSize: o.ownPageSize ? o.pageSize : table.pageSize };
}
