/**
 * The data view every end user works in: one table of a project with search, filter (and saved
 * filters), sort, grouping with counts, statistics, row labels, row height, fixed and arranged
 * columns, records (add, edit, detail, remove, bulk remove), import / export / print, live reloads
 * and card mode on phones. List menu entries and designer tables both render it; what it shows is
 * switched by `options` (src/shared/view-features.ts). Every read and write goes through the end-user data calls,
 * so the server applies the user's grants and the role's default filter.
 */
import {
  AppstoreOutlined,
  BarChartOutlined,
  BgColorsOutlined,
  ColumnHeightOutlined,
  DeleteOutlined,
  FilterOutlined,
  LinkOutlined,
  LockOutlined,
  PlusOutlined,
  PrinterOutlined,
  ReloadOutlined,
  ThunderboltOutlined,
} from '@ant-design/icons';
import {
  Alert,
  App,
  Button,
  Card,
  Grid,
  Input,
  List,
  Pagination,
  Popover,
  Select,
  Space,
  Switch,
  Table,
  type TableColumnType,
  type TableProps,
  Tag,
  Tooltip,
} from 'antd';
import {
  type HTMLAttributes,
  type Key,
  type ReactNode,
  type Ref,
  type RefObject,
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { useTranslation } from 'react-i18next';
import { FILTER_TEXT, FilterControl } from '../../../widgets/kit/FilterControl.tsx';
import { cellText, dateText, sortable } from '../../../widgets/kit/table-columns.ts';
import { sortOf } from '../../../widgets/kit/table-view.ts';
import type { DataViewEvent, ViewColumn } from '../../../widgets/kit/widget-context.ts';
import { DEFAULT_TABLE_CONFIG, type TableConfig } from '../../shared/admin/table-config.ts';
import type { Field } from '../../shared/api/fields.ts';
import { optionListOf, readBoolean } from '../../shared/fields/values.ts';
import { mergePrintOption, type PrintOption } from '../../shared/print.ts';
import type { GrantedProgram } from '../../shared/program/index.ts';
import { completeConditions } from '../../shared/query/conditions.ts';
import { pagerTotal } from '../../shared/query/page-total.ts';
import { VIEW_FEATURES, type ViewOptions, withinTable } from '../../shared/view-features.ts';
import type { StaleCondition } from '../../shared/view-filters.ts';
import { shortLink } from '../api/short.ts';
import { type FilterSpec, type SavedFilter, type ViewMeta, viewsApi } from '../api/views.ts';
import { attachmentsOf } from '../fields/attachment.tsx';
import { FieldContext } from '../fields/context.ts';
import { imageUrls } from '../fields/image.tsx';
import { fieldKind } from '../fields/registry.ts';
import { PrintModal } from '../print/PrintModal.tsx';
import { lastPrintOption } from '../print/print-settings.ts';
import { removeRecord, saveRecord } from '../runtime/data-source.ts';
import type { DatasetColumn, DatasetTable } from '../runtime/dataset-client.ts';
import { programFailed, runProgramFlow } from '../runtime/program-runner.tsx';
import { errorText } from './error-text.ts';
import { GroupPicker } from './GroupPicker.tsx';
import { type BodyColumn, type BodySelect, LargeBody, SELECT_KEY } from './LargeBody.tsx';
import { fitWidths } from './large-body.ts';
import { ViewProjectContext } from './project-context.ts';
import { RecordForm } from './RecordForm.tsx';
import { ResizableHeaderCell } from './ResizableHeader.tsx';
import { RowActions } from './RowActions.tsx';
import { roleFilterText } from './role-filter-text.ts';
import { SavedFilters } from './SavedFilters.tsx';
import { useLiveTable } from './use-live-table.ts';
import { readStats, STAT_FNS, useViewData } from './use-view-data.ts';
import { ChartModal, ColumnSettings, FieldValue, LabelRules, RecordDetail } from './ViewPanels.tsx';
import { settledMeta, takeMeta } from './view-prefetch.ts';
import { groupIndexes, groupingReady, groupRows, treeField, treeRows, type ViewRow } from './view-rows.ts';
import {
  labelOf,
  loadSettings,
  orderedKeys,
  ROW_HEIGHT_PX,
  ROW_HEIGHTS,
  type RowHeight,
  saveSettings,
  settingsKey,
  type ViewSettings,
} from './view-settings.ts';
import { datasetFields, datasetOptions, type ViewSource } from './view-source.ts';
import { XlsxTools } from './XlsxTools.tsx';

/** Rows beyond this many on a page are drawn virtually (spec: virtual scrolling above 30 rows). */
export const VIRTUAL_FROM = 30;
/** Page sizes from this one on are "large mode": plain cells, always virtual (spec: large at 500). */
export const LARGE_FROM = 500;
const PAGE_SIZES = [20, 50, 100, 500, 1000];

let nextCondId = 1_000_000;

/** A cell's text by the field's type: dates in the project's zone, relations by their name. */
export function fieldText(f: Field, row: Record<string, unknown>): string {
  if (f._type === 'date' || f._type === 'time') return dateText(row[f._field], f._type);
  if (f._type === 'collection') {
    const named = row[`___${f._field}`];
    if (Array.isArray(named)) return cellText(named.map((x) => (x as { __name?: unknown }).__name ?? x));
  }
  return cellText(row[`_${f._field}`] ?? row[f._field]);
}

/** Files as text (prints, labels): their names, not their addresses. */
function fileNames(f: Field, v: unknown): string {
  const names =
    f._type === 'image'
      ? imageUrls(v).map((url) => url.split('/').pop() ?? url)
      : attachmentsOf(v).map((x) => x.name || (x.url.split('/').pop() ?? ''));
  return names.filter(Boolean).join(', ');
}

export interface DataViewProps {
  project: string;
  /** The table's code or `_id` (ignored when `dataset` is given). */
  entity: string;
  /** Rows of a released dataset instead of a table: read-only, paged, sorted and filtered by its columns. */
  dataset?: { flow: string; params?: Record<string, unknown> };
  title?: string;
  options: ViewOptions;
  /** The table cannot be read by this user (the caller decides where to send them). */
  onDenied?(code: number): void;
  onRowClick?(row: Record<string, unknown>): void;
  /**
   * Program buttons (a list menu entry's bound programs the user is granted): a program of this
   * table runs on the selected rows (one run per row), any other runs once.
   */
  programs?: GrantedProgram[];
  /** Where the programs are started from (the menu entry's id): the spec's `key`. */
  programKey?: string;
  /** Keeps this view's local arrangement apart from other views of the table (a page widget's id). */
  settingsId?: string;
  /** Declared columns, in order (a page's advanced table); absent, every field the user may see. */
  columns?: ViewColumn[];
  bordered?: boolean;
  /** What the user does, for a page widget's events (search, refresh, export, page, sort). */
  onEvent?(event: DataViewEvent): void;
  /** The rows on screen and the total, each time they change (a page widget shows them to expressions). */
  onData?(rows: Record<string, unknown>[], total: { n: number; exact: boolean }, loading: boolean): void;
  /** A change loads the rows again (a page's refreshWidget action). */
  reloadSignal?: number;
}

export function DataTableView(props: DataViewProps) {
  const { t, i18n } = useTranslation();
  const { message, modal } = App.useApp();
  const { project, entity } = props;
  const dataset = props.dataset;
  const overDataset = Boolean(dataset);
  // The table's settings (/system/data/{entity}), from the meta call; until they are in, every
  // feature is off, so nothing the table switched off shows for a moment. A dataset is read-only
  // and has none of a table's own calls or settings (view-source.ts).
  // The meta its route already has (view-prefetch.ts): the view draws with it from the start.
  const [seed] = useState(() => (overDataset ? undefined : settledMeta(project, entity)));
  const seededFor = useRef(seed ? JSON.stringify([project, entity]) : null);
  const [tableCfg, setTableCfg] = useState<TableConfig | null>(() => (seed ? tableConfigOf(seed) : null));
  const options = useMemo(
    () =>
      overDataset
        ? datasetOptions(props.options)
        : withinTable(props.options, tableCfg ?? { off: VIEW_FEATURES, pageSize: props.options.pageSize }),
    [overDataset, props.options, tableCfg],
  );
  const on = options.features;
  const source: ViewSource = dataset
    ? { kind: 'dataset', flow: dataset.flow, params: dataset.params ?? {} }
    : { kind: 'table', entity };
  const lang = i18n.language === 'zh' ? 'zh' : 'en';
  const screens = Grid.useBreakpoint();
  // The caller's callback, read at call time (a new function each render must not refetch).
  const denied = useRef(props.onDenied);
  denied.current = props.onDenied;
  const phone = screens.md === false;

  const [fields, setFields] = useState<Field[] | null>(() => (seed ? shownFields(seed) : null));
  const [table, setTable] = useState<{ entity: string; code: string; name: string } | null>(() =>
    seed ? tableOf(seed) : null,
  );
  const key = settingsKey(project, dataset ? `ds:${dataset.flow}` : entity, props.settingsId);
  const emit = useRef(props.onEvent);
  emit.current = props.onEvent;
  const [settings, setSettings] = useState<ViewSettings>(() => loadSettings(key));
  const set = useCallback(
    (patch: Partial<ViewSettings>) =>
      setSettings((s) => {
        const next = { ...s, ...patch };
        saveSettings(key, next);
        return next;
      }),
    [key],
  );
  // A column being resized follows the pointer; its width is kept when the drag ends.
  const [dragging, setDragging] = useState<{ field: string; width: number } | null>(null);
  const settingsRef = useRef(settings);
  settingsRef.current = settings;
  const [pageSize, setPageSize] = useState(options.pageSize);
  // The table's page size replaces the default once its settings are in (the user may still change it).
  useEffect(() => setPageSize(options.pageSize), [options.pageSize]);
  const [saved, setSaved] = useState<SavedFilter[]>([]);
  const [roleFilter, setRoleFilter] = useState<FilterSpec | null>(() => seed?.role ?? null);
  const [activeSaved, setActiveSaved] = useState<string | null>(null);
  const [filterOpen, setFilterOpen] = useState(false);
  const [filterVersion, setFilterVersion] = useState(0);
  const [selected, setSelected] = useState<string[]>([]);
  const [editing, setEditing] = useState<{ record?: Record<string, unknown> } | null>(null);
  const [detail, setDetail] = useState<Record<string, unknown> | null>(null);
  const [printing, setPrinting] = useState<PrintOption | null>(null);
  const [charting, setCharting] = useState(false);
  const [collapsed, setCollapsed] = useState<string[] | null>(null);
  const [stale, setStale] = useState<{ name: string; list: StaleCondition[] } | null>(null);

  // The table's fields (hidden ones are already left out for this user by the server). A dataset's
  // come with its first page (onColumns below).
  useEffect(() => {
    if (overDataset) return;
    const taken = takeMeta(project, entity);
    // Drawn with it already (the route's answer was in): taken, nothing to set.
    if (seededFor.current === JSON.stringify([project, entity])) {
      seededFor.current = null;
      return;
    }
    let live = true;
    (taken ?? viewsApi.meta(project, entity)).then(
      (m) => {
        if (!live) return;
        setFields(shownFields(m));
        setTable(tableOf(m));
        setTableCfg(tableConfigOf(m));
        setRoleFilter(m.role ?? null);
      },
      (err: { code?: number }) => live && denied.current?.(err.code ?? 0),
    );
    return () => {
      live = false;
    };
  }, [project, entity, overDataset]);
  // The tables a dataset reads: a change to the records of any of them reloads it (useLiveTable).
  const [dsTables, setDsTables] = useState<DatasetTable[] | null>(null);
  const onColumns = useCallback((columns: DatasetColumn[], tables?: DatasetTable[]) => {
    setFields((was) => {
      const next = datasetFields(columns);
      // The same columns again (each page brings them): keep the fields, nothing reloads.
      return was && JSON.stringify(was) === JSON.stringify(next) ? was : next;
    });
    if (tables) setDsTables((was) => (JSON.stringify(was) === JSON.stringify(tables) ? was : tables));
  }, []);

  const loadSaved = useCallback(() => {
    viewsApi.filters(project, entity).then(
      (a) => {
        setSaved(a.filters);
        setRoleFilter(a.role);
      },
      () => undefined,
    );
  }, [project, entity]);

  const known = useMemo(() => new Set((fields ?? []).map((f) => f._field)), [fields]);
  const group = useMemo(
    () => (on.group ? settings.group.filter((g) => known.has(g)) : []),
    [on.group, settings.group, known],
  );
  const data = useViewData({
    project,
    source,
    onColumns,
    fields,
    pageSize,
    group,
    wantStats: on.summary && settings.summary,
    // The first page goes out with the field meta unless a kept grouping will sort it (a dataset's
    // first page brings its fields).
    early: Boolean(dataset) || !(props.options.features.group && settings.group.length),
  });
  const { reload } = data;
  // Saved filters are asked once the first page is in: the first page does not wait behind them.
  // Read from the load state as it renders (once in, it stays in): a state of its own, set by an
  // effect, drew the whole view once more right after the first page, before that page painted.
  const firstSeen = useRef(false);
  if (!data.loading) firstSeen.current = true;
  const firstIn = firstSeen.current;
  useEffect(() => {
    if (firstIn && !overDataset && (options.savedFilters || on.filter)) loadSaved();
  }, [firstIn, loadSaved, overDataset, options.savedFilters, on.filter]);
  const onData = useRef(props.onData);
  onData.current = props.onData;
  useEffect(
    () => onData.current?.(data.rows, data.total, data.loading),
    [data.rows, data.total, data.loading],
  );
  const reloadSignal = props.reloadSignal ?? 0;
  useEffect(() => {
    if (reloadSignal) reload();
  }, [reloadSignal, reload]);
  useEffect(() => {
    if (data.error && typeof (data.error as { code?: unknown }).code === 'number')
      denied.current?.((data.error as { code: number }).code);
  }, [data.error]);

  // Others' changes reload quietly: the scroll, the selection and an open form stay as they are.
  const live = useLiveTable({
    project,
    table: table ? { entity: table.entity, code: table.code } : dsTables,
    enabled: true,
    onChange: () => reload(true),
  });

  const declared = useMemo(
    () => (props.columns?.length ? new Map(props.columns.map((c) => [c.field, c])) : null),
    [props.columns],
  );
  const visible = useMemo(() => {
    if (!fields) return [];
    const byKey = new Map(fields.map((f) => [f._field, f]));
    return orderedKeys(
      declared ? [...declared.keys()].filter((k) => byKey.has(k)) : fields.map((f) => f._field),
      settings,
    )
      .filter((k) => !(on.view && settings.hidden.includes(k)))
      .map((k) => byKey.get(k)!)
      .filter(Boolean);
  }, [fields, settings, on.view, declared]);

  const stats = useMemo(
    () => (data.stats ? readStats(data.stats.metrics, data.stats.answer.total) : null),
    [data.stats],
  );
  const large = pageSize >= LARGE_FROM;

  const tree = options.tree && fields && table ? treeField(fields, table.entity) : undefined;
  // Rows not yet sorted for a new grouping, or without its counts and sums, are not regrouped: the
  // view keeps what it shows until both arrive (its calls go out at the pick, before any redraw).
  const rowsFit = groupingReady(group, data.sortList, data.rowsSort, data.statsGroup);
  const shown = useRef<{ rows: ViewRow[]; stats: typeof data.stats }>({ rows: [], stats: null });
  const view = useMemo(() => {
    if (group.length && !rowsFit) return shown.current;
    const stats = data.stats;
    if (group.length) return { rows: groupRows(data.rows, group, stats?.answer ?? null), stats };
    if (tree) return { rows: treeRows(data.rows, tree._field) as ViewRow[], stats };
    return { rows: data.rows as ViewRow[], stats };
  }, [data.rows, group, data.stats, tree, rowsFit]);
  shown.current = view;
  // The statistics the rows on screen were drawn with (their group figures, the columns' sum keys).
  const viewStats = view.stats;
  const viewRows = view.rows;
  const groupKeys = useMemo(() => viewRows.filter((r) => r.__group).map((r) => r._id), [viewRows]);
  // Large mode draws its own body (LargeBody.tsx) unless rows are grouped or a tree (antd's body
  // draws those, with their expanding rows).
  const ownBody = large && groupKeys.length === 0 && !tree;

  // A group begun on an earlier page counts on from there (its count comes with the statistics).
  const groupIndex = useMemo(
    () =>
      on.index && groupKeys.length
        ? groupIndexes(viewRows, (data.page - 1) * pageSize, viewStats?.answer ?? null)
        : null,
    [on.index, groupKeys.length, viewRows, data.page, pageSize, viewStats],
  );

  const canWrite = on.option;
  const removable = options.remove;
  async function save(values: Record<string, unknown>, id?: string) {
    await saveRecord(project, entity, values, id);
    message.success(t('views.saved'));
    live.broadcast();
  }
  function confirmRemove(ids: string[]) {
    modal.confirm({
      title:
        ids.length === 1 ? t('views.removeConfirm') : t('views.bulkRemoveConfirm', { count: ids.length }),
      okButtonProps: { danger: true, 'data-testid': 'remove-ok' } as { danger: boolean },
      onOk: async () => {
        let done = 0;
        let failed: unknown = null;
        for (const id of ids) {
          try {
            await removeRecord(project, entity, id);
            done++;
          } catch (err) {
            failed = err;
            break;
          }
        }
        // A refusal is said with its reason (the call is quiet); what was removed before it is counted.
        if (done) message.success(t('views.removed', { count: done }));
        if (failed) {
          message.error(t('views.removeFailed', { reason: errorText(failed, i18n.language) }));
          // Refused as it stands now (another changed it, it left the role's filter): show it as it is.
          reload(true);
        }
        setSelected((s) => s.filter((x) => !ids.includes(x)));
        setDetail(null);
        live.broadcast();
      },
    });
  }

  const [runningProgram, setRunningProgram] = useState<string | null>(null);
  const onTable = (p: GrantedProgram) =>
    p._entity !== null && table !== null && (p._entity === table.entity || p._entity === table.code);
  async function runProgram(p: GrantedProgram) {
    const rows = onTable(p) ? selected : [];
    if (onTable(p) && rows.length === 0) {
      message.info(t('program.selectRows'));
      return;
    }
    setRunningProgram(p._id);
    try {
      await runProgramFlow(project, p._id, props.programKey ?? 'list', { records: rows });
      reload(true);
      live.broadcast();
    } catch (err) {
      programFailed(err);
    } finally {
      setRunningProgram(null);
    }
  }

  // The user's own row height when they may choose one, else the table's.
  const heightKey: RowHeight =
    (on['row-height'] ? settings.rowHeight : null) ?? tableCfg?.rowHeight ?? 'default';
  const rowHeight = ROW_HEIGHT_PX[heightKey];
  // Row colours: the user's own labels first (when they may set them), then the table's.
  const labelRules = useMemo(
    () => [...(on.label ? settings.labels : []), ...(tableCfg?.labels ?? [])],
    [on.label, settings.labels, tableCfg],
  );
  // A cell as text the way it shows (a day, a relation's name, Yes / No): what label rules match
  // besides the stored value, and what prints.
  const shownText = useMemo(() => {
    const byKey = new Map((fields ?? []).map((f) => [f._field, f]));
    const yes = t('fieldValue.yes');
    const no = t('fieldValue.no');
    return (key: string, row: Record<string, unknown>) => {
      const f = byKey.get(key);
      if (!f) return '';
      if (f._type === 'image' || f._type === 'attachment') return fileNames(f, row[key]);
      if (f._type !== 'boolean') return fieldText(f, row);
      const b = readBoolean(row[key]);
      return b === null ? '' : b ? yes : no;
    };
  }, [fields, t]);
  // What a row's actions call, read when clicked: the columns below need not change with them.
  const rowActs = useRef({ confirmRemove });
  rowActs.current.confirmRemove = confirmRemove;
  const metrics = viewStats?.metrics;
  // Asked for no order (nor grouped), the rows come in the table's default sort: its header says so.
  const sort = data.sort ?? (group.length ? undefined : (tableCfg?.sort ?? undefined));
  const page = data.page;
  // The columns (and their renderers) change only with what they show: a new set re-renders every
  // row on screen, so loading, the count arriving or a selection must not make one.
  const columns = useMemo(() => {
    // One translation for every column's resize label (i18next interpolates each call: ~80 µs a
    // column, four tables of eight columns took 2.5 ms of a page's open), the name put in after.
    const resizeLabel = t('views.resizeColumn', { name: NAME_SLOT });
    const metricOf = (field: string, fn: string) =>
      metrics?.find((m) => m.field === field && m.fn === fn)?.as ?? '';
    const list: TableColumnType<ViewRow>[] = visible.map((f, i) => {
      const order = sort?.field === f._field ? (sort.order === 'asc' ? 'ascend' : 'descend') : null;
      const d = declared?.get(f._field);
      const fixed = (on.pin ? settings.fixed[f._field] : undefined) ?? d?.fixed;
      // Large mode draws plain text (spec: large mode at 500 rows); else a type's own cell when it has one.
      const kind = large ? undefined : fieldKind(f._type);
      const sumKey = f._type === 'number' ? metricOf(f._field, 'sum') : undefined;
      return {
        key: f._field,
        dataIndex: f._field,
        title: d?.title || f._option.alias || f._name,
        width:
          (dragging?.field === f._field ? dragging.width : undefined) ??
          settings.widths[f._field] ??
          d?.width ??
          160,
        ellipsis: true,
        ...(fixed ? { fixed } : {}),
        onHeaderCell: () =>
          ({
            resizeLabel: resizeLabel.replace(NAME_SLOT, () => d?.title || f._option.alias || f._name),
            onResize: (w: number, done: boolean) => {
              if (done) {
                setDragging(null);
                set({ widths: { ...settingsRef.current.widths, [f._field]: w } });
              } else setDragging({ field: f._field, width: w });
            },
          }) as HTMLAttributes<HTMLElement>,
        ...((on.sort || d?.sortable) && sortable(f._type) ? { sorter: true, sortOrder: order } : {}),
        render: (_v: unknown, row: ViewRow): ReactNode => {
          const g = row.__group;
          if (g) {
            if (i !== 0) {
              const sum = sumKey === undefined ? undefined : g.values[sumKey];
              return sum === undefined || sum === null ? null : <span className="dv-group-sum">Σ {sum}</span>;
            }
            const gf = fields?.find((x) => x._field === g.field);
            // The group's value as its rows show it (a relation's name, a day, yes / no), read from
            // its first row: the key itself is the stored value (an id, epoch milliseconds).
            const first = firstRecord(row);
            return (
              <span className="dv-group-head" data-testid="group-head">
                <b>{gf ? gf._option.alias || gf._name : g.field}</b>:{' '}
                {String(g.value) === '' ? (
                  '—'
                ) : gf && first ? (
                  <FieldValue field={gf} row={first} text={fieldText} />
                ) : (
                  String(g.value)
                )}{' '}
                <Tag>{g.count ?? row.children?.length ?? 0}</Tag>
              </span>
            );
          }
          // Types with a cell of their own (images, files, yes/no, options…) draw it, as the rows grid does.
          return kind ? <kind.Cell field={f} value={row[f._field]} /> : fieldText(f, row);
        },
      };
    });
    // Large mode keeps sticky cells off every row: the index and action columns scroll with the
    // rest (a column the user pinned stays pinned). Each sticky cell is a compositor layer of its
    // own, moved on every scroll step: three a row made most of a scroll frame's paint.
    const edge = <T extends 'left' | 'right'>(side: T) => (large ? {} : { fixed: side });
    if (on.index)
      list.unshift({
        key: '__index',
        title: '#',
        width: 56,
        ...edge('left'),
        // Grouped, each group counts its own rows from 1 (on across pages); else the rows count on.
        render: (_v, row, i) =>
          row.__group ? null : groupIndex ? groupIndex.get(row._id) : (page - 1) * pageSize + i + 1,
      });
    const actionLabels = { edit: t('common.edit'), remove: t('views.remove'), more: t('views.more') };
    const moreItems = [
      { key: 'detail', label: t('views.detail') },
      ...(canWrite ? [{ key: 'copy', label: t('views.copy') }] : []),
    ];
    if (canWrite || on.more)
      list.push({
        key: '__actions',
        title: t('views.actions'),
        width: 110,
        ...edge('right'),
        render: (_v, row) =>
          row.__group ? null : (
            <RowActions
              labels={actionLabels}
              onEdit={canWrite ? () => setEditing({ record: row }) : undefined}
              onRemove={canWrite && removable ? () => rowActs.current.confirmRemove([row._id]) : undefined}
              more={
                on.more
                  ? {
                      items: moreItems,
                      onPick: (key) => {
                        if (key === 'detail') setDetail(row);
                        else setEditing({ record: { ...row, _id: undefined } });
                      },
                    }
                  : undefined
              }
            />
          ),
      });
    return list;
  }, [
    visible,
    sort,
    declared,
    on.pin,
    on.sort,
    on.index,
    on.more,
    settings.fixed,
    settings.widths,
    dragging,
    set,
    t,
    fields,
    metrics,
    groupIndex,
    page,
    pageSize,
    canWrite,
    removable,
    large,
  ]);

  // Kept while what it shows is the same (the table is drawn again only when its props change).
  const summaryOn = on.summary && settings.summary;
  // The cells before the fields' own: the selection column's, then the index's.
  const lead = (options.select ? 1 : 0) + (on.index ? 1 : 0);
  const withActions = canWrite || on.more;
  const summaryRow = useMemo(
    () =>
      stats && summaryOn
        ? () => (
            <Table.Summary fixed>
              <Table.Summary.Row className="dv-summary" data-testid="summary-row">
                {options.select ? <Table.Summary.Cell index={0} /> : null}
                {on.index ? <Table.Summary.Cell index={lead - 1} /> : null}
                {visible.map((f, i) => {
                  const s = stats[f._field];
                  return (
                    <Table.Summary.Cell key={f._field} index={i + lead}>
                      {i === 0 ? (
                        <div>
                          {t('views.count')}: <b data-testid="summary-count">{stats['']?.count ?? 0}</b>
                        </div>
                      ) : null}
                      {s
                        ? STAT_FNS.map((fn) =>
                            s[fn] === undefined ? null : (
                              <div key={fn} data-testid={`summary-${fn}-${f._field}`}>
                                {t(`views.${fn}`)}: {s[fn] ?? '—'}
                              </div>
                            ),
                          )
                        : null}
                    </Table.Summary.Cell>
                  );
                })}
                {withActions ? <Table.Summary.Cell index={visible.length + lead} /> : null}
              </Table.Summary.Row>
            </Table.Summary>
          )
        : undefined,
    [stats, summaryOn, lead, options.select, on.index, withActions, visible, t],
  );

  const condFields = useMemo(
    () =>
      (fields ?? []).map((f) => ({
        key: f._field,
        name: f._option.alias || f._name,
        type: f._type,
        ...(f._type === 'option' || f._type === 'options' ? { list: optionListOf(f._option) } : {}),
      })),
    [fields],
  );
  const active = completeConditions(data.filter.conditions, condFields).length;
  const ft = FILTER_TEXT[lang];
  const current: FilterSpec = {
    conditions: completeConditions(data.filter.conditions, condFields).map(({ field, opt, value }) => ({
      field,
      opt,
      ...(value === undefined ? {} : { value }),
    })),
    match: data.filter.match,
  };
  function applySaved(f: SavedFilter) {
    // What the server left out (its field changed) is said once, beside the view; the rest applies.
    setStale(f.stale?.length ? { name: f.name, list: f.stale } : null);
    data.setFilter({
      conditions: f.filter.conditions.map((c) => ({ ...c, id: nextCondId++ })),
      match: f.filter.match,
    });
    setActiveSaved(`${f.type}:${f.id}`);
    setFilterVersion((v) => v + 1);
  }
  // A shared link names a saved filter: apply it once the list is in.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once per list, not per applied filter
  useEffect(() => {
    const wanted = new URLSearchParams(globalThis.location?.search ?? '').get('filter');
    if (!wanted || activeSaved) return;
    const f = saved.find((x) => x.id === wanted);
    if (f) applySaved(f);
  }, [saved]);

  // What prints is what the view shows: its visible columns, as their cells' text.
  const printField = visible.map((f) => ({ key: f._field, title: f._option.alias || f._name }));
  const printRecord = (r: Record<string, unknown>) =>
    Object.fromEntries([['_id', r._id], ...visible.map((f) => [f._field, shownText(f._field, r)])]);
  const openPrint = (data: PrintOption['data'], fieldsShown = printField) =>
    setPrinting(
      mergePrintOption(
        {},
        { title: props.title ?? table?.name ?? entity, field: fieldsShown, ...(data ? { data } : {}) },
        { url: globalThis.location?.pathname ?? '' },
        lastPrintOption(),
      ),
    );
  const total = data.total;
  // A refused load leaves no count to say ("at least 0 rows" under its error would be wrong).
  const totalText = total.exact
    ? t('views.total', { count: total.n })
    : data.error
      ? ''
      : t('views.atLeast', { count: total.n });
  const virtual = data.rows.length > VIRTUAL_FROM || large;
  const asCards = options.cardMode && phone;

  // The table's props keep their identity while what they say is the same: antd redraws every row
  // on screen when one changes.
  const scroll = useMemo(
    () => (virtual ? { x: 'max-content', y: BODY_HEIGHT } : { x: 'max-content' }),
    [virtual],
  );
  const expandable = useMemo(
    () =>
      groupKeys.length || tree
        ? {
            expandedRowKeys: collapsed === null ? groupKeys : groupKeys.filter((k) => !collapsed.includes(k)),
            onExpand: (open: boolean, row: ViewRow) =>
              setCollapsed((c) => {
                const list = c ?? [];
                return open ? list.filter((k) => k !== row._id) : [...list, row._id];
              }),
            ...(tree ? { expandedRowKeys: undefined, defaultExpandAllRows: true } : {}),
          }
        : undefined,
    [tree, collapsed, groupKeys],
  );
  const rowSelection = useMemo(
    () =>
      options.select
        ? {
            type: options.multiple ? ('checkbox' as const) : ('radio' as const),
            selectedRowKeys: selected,
            getCheckboxProps: (r: ViewRow) => ({ disabled: Boolean(r.__group) }),
            onChange: (keys: Key[]) => setSelected(keys.map(String).filter((k) => !k.startsWith('__group:'))),
            // Our own body draws the row check boxes: the column's width must be known to both.
            ...(ownBody ? { columnWidth: SELECT_WIDTH } : {}),
          }
        : undefined,
    [options.select, options.multiple, selected, ownBody],
  );
  const rowClassName = useCallback(
    (row: ViewRow) => {
      // Our own large body asks only for the rows it draws; antd's asks for every row of the page.
      const c = (!large || ownBody) && !row.__group ? labelOf(row, labelRules, shownText) : undefined;
      return [row.__group ? 'dv-group-row' : '', c ? `dv-label-${c}` : ''].join(' ');
    },
    [large, ownBody, labelRules, shownText],
  );
  const rowClick = useRef(props.onRowClick);
  rowClick.current = props.onRowClick;
  const openRow = useCallback((row: ViewRow) => {
    if (row.__group) return;
    if (rowClick.current) rowClick.current(row);
    else if (emit.current) emit.current({ type: 'rowClick', row });
    else setDetail(row);
  }, []);
  const onRow = useCallback(
    (row: ViewRow) => ({
      style: row.__group ? undefined : { height: rowHeight },
      onClick: () => openRow(row),
    }),
    [rowHeight, openRow],
  );

  // Large mode's own body: the columns as antd's header draws them (widened to fill the table when
  // narrower), the selection column first.
  const bordered = props.bordered ?? true;
  const tableBox = useRef<HTMLDivElement>(null);
  const tableWidth = useWidth(tableBox, ownBody);
  const tableColumns = useMemo(() => {
    if (!ownBody) return columns;
    const sel = options.select ? SELECT_WIDTH : 0;
    const widths = columns.map((c) => Number(c.width) || 0);
    // A bordered table's container draws its start border inside the box: the rows get 1px less.
    const fit = fitWidths([sel, ...widths], tableWidth - (bordered ? 1 : 0), [
      false,
      ...columns.map((c) => !String(c.key).startsWith('__')),
    ]).slice(1);
    return columns.map((c, i) => (fit[i] === widths[i] ? c : { ...c, width: fit[i] }));
  }, [ownBody, columns, tableWidth, options.select, bordered]);
  const bodyColumns = useMemo<BodyColumn[]>(() => {
    if (!ownBody) return [];
    const list: BodyColumn[] = tableColumns.map((c) => ({
      key: String(c.key),
      width: Number(c.width) || 0,
      fixed: c.fixed === 'left' || c.fixed === 'right' ? c.fixed : undefined,
      ellipsis: Boolean(c.ellipsis),
      render: c.render ? (row: ViewRow, i: number) => c.render!(undefined, row, i) as ReactNode : undefined,
    }));
    // antd pins the selection column as the column after it is pinned.
    if (options.select) list.unshift({ key: SELECT_KEY, width: SELECT_WIDTH, fixed: list[0]?.fixed });
    return list;
  }, [ownBody, tableColumns, options.select]);
  // The header's table as wide as the body's rows, its columns as wide as they say (fixed layout).
  const bodyWidth = bodyColumns.reduce((a, c) => a + c.width, 0);
  const ownScroll = useMemo(() => ({ x: bodyWidth, y: BODY_HEIGHT }), [bodyWidth]);
  const selectedSet = useMemo(() => new Set(selected), [selected]);
  const multiple = options.multiple;
  const bodySelect = useMemo<BodySelect | undefined>(
    () =>
      options.select
        ? {
            type: multiple ? 'checkbox' : 'radio',
            selected: selectedSet,
            toggle: (ids, on) =>
              setSelected((s) => {
                if (!multiple) return on ? ids.slice(-1) : [];
                const these = new Set(ids);
                const rest = s.filter((k) => !these.has(k));
                return on ? [...rest, ...ids] : rest;
              }),
          }
        : undefined,
    [options.select, multiple, selectedSet],
  );
  const components = useMemo(
    () =>
      ownBody
        ? {
            ...HEADER_COMPONENTS,
            body: (rows: readonly ViewRow[], info: LargeBodyInfo) => (
              <LargeBody
                rows={rows}
                columns={bodyColumns}
                scrollbarSize={info.scrollbarSize}
                rowHeight={rowHeight}
                maxHeight={BODY_HEIGHT}
                select={bodySelect}
                rowClassName={rowClassName}
                onRowClick={openRow}
                empty={t('views.empty')}
                scrollRef={info.ref}
                onScroll={info.onScroll}
              />
            ),
          }
        : HEADER_COMPONENTS,
    [ownBody, bodyColumns, rowHeight, bodySelect, rowClassName, openRow, t],
  );
  const setSort = useRef(data.setSort);
  setSort.current = data.setSort;
  const onTableChange = useCallback<NonNullable<TableProps<ViewRow>['onChange']>>((_p, _f, sorter, extra) => {
    if (extra.action !== 'sort') return;
    const s = sortOf(sorter);
    setSort.current(s);
    emit.current?.({ type: 'sort', field: s?.field ?? null, order: s?.order ?? null });
  }, []);
  const tableLocale = useMemo(() => ({ emptyText: t('views.empty') }), [t]);
  // The spinner shows only for a load that lasts: one shown and taken away within a few frames (a
  // grouping answered from the server's caches and indexes) repainted the whole table twice, dimmed
  // and back, on the way to its rows.
  // The delay is kept here, not by antd's Spin: a table given a new `loading` draws every row again
  // (antd's table redraws its rows on each render of its own), so a load shorter than the delay
  // must not reach it at all.
  const tableLoading = useLasting(data.loading, SPIN_DELAY_MS);
  // The group picker is redrawn only when what it shows changes (GroupPicker.tsx).
  const groupPlaceholder = t('views.groupBy');
  const { askGroup } = data;
  const onGroup = useCallback(
    (g: string[]) => {
      askGroup(g.filter((f) => known.has(f)));
      set({ group: g });
      setCollapsed(null);
    },
    [set, askGroup, known],
  );

  // The table as an element kept while its props are the same: antd's Table counts its own renders
  // and draws every row and cell again on each one, so the view's other changes (the toolbar, the
  // count arriving, a grouping's pick before its rows come) must not render it.
  const tableScroll = ownBody ? ownScroll : scroll;
  const tableView = useMemo(
    () => (
      <Table<ViewRow>
        size="small"
        rowKey="_id"
        bordered={bordered}
        components={components as TableProps<ViewRow>['components']}
        loading={tableLoading}
        columns={tableColumns}
        dataSource={viewRows}
        pagination={false}
        showSorterTooltip={false}
        virtual={virtual && !ownBody}
        scroll={tableScroll}
        summary={summaryRow}
        expandable={expandable}
        rowSelection={rowSelection}
        rowClassName={rowClassName}
        onRow={onRow}
        onChange={onTableChange}
        locale={tableLocale}
      />
    ),
    [
      bordered,
      components,
      tableLoading,
      tableColumns,
      viewRows,
      virtual,
      ownBody,
      tableScroll,
      summaryRow,
      expandable,
      rowSelection,
      rowClassName,
      onRow,
      onTableChange,
      tableLocale,
    ],
  );

  const toolbar = (
    <Space wrap className="dv-toolbar" data-testid="view-toolbar">
      {dataset ? (
        <Tag icon={<LockOutlined />} data-testid="view-readonly">
          {t('views.datasetReadOnly')}
        </Tag>
      ) : null}
      {on.search ? (
        <Input.Search
          allowClear
          placeholder={t('views.search')}
          data-testid="view-search"
          style={{ width: 200 }}
          onSearch={(q) => {
            data.setSearch(q);
            emit.current?.({ type: 'search', text: q });
          }}
        />
      ) : null}
      {on.filter ? (
        <Popover
          trigger="click"
          placement="bottomLeft"
          open={filterOpen}
          onOpenChange={setFilterOpen}
          content={
            <FilterControl
              key={filterVersion}
              fields={condFields}
              value={data.filter}
              lang={lang}
              onApply={(v) => {
                data.setFilter(v);
                setActiveSaved(null);
                setStale(null);
                setFilterOpen(false);
              }}
            />
          }
        >
          <Button icon={<FilterOutlined />} type={active ? 'primary' : 'default'} data-testid="view-filter">
            {active ? ft.filterCount(active) : ft.filter}
          </Button>
        </Popover>
      ) : null}
      {roleFilter ? (
        <Tooltip title={t('views.roleFilterHint')}>
          <Tag icon={<LockOutlined />} color="blue" data-testid="role-filter">
            {t('views.roleFilter')}: {roleFilterText(roleFilter, fields ?? [], lang)}
          </Tag>
        </Tooltip>
      ) : null}
      {options.savedFilters && on.filter ? (
        <SavedFilters
          project={project}
          entity={entity}
          list={saved}
          current={current}
          active={activeSaved}
          onApply={applySaved}
          onChanged={loadSaved}
        />
      ) : null}
      {on.group && fields ? (
        <GroupPicker fields={fields} value={group} placeholder={groupPlaceholder} onChange={onGroup} />
      ) : null}
      {on.summary ? (
        <Space size={4}>
          <Switch
            size="small"
            checked={settings.summary}
            onChange={(summary) => set({ summary })}
            data-testid="view-summary"
          />
          {t('views.summary')}
        </Space>
      ) : null}
      {on['row-height'] ? (
        <Select
          style={{ width: 110 }}
          prefix={<ColumnHeightOutlined />}
          aria-label={t('views.rowHeight')}
          data-testid="view-row-height"
          value={heightKey}
          options={ROW_HEIGHTS.map((h) => ({ value: h, label: t(`views.heights.${h}`) }))}
          onChange={(rowHeight) => set({ rowHeight })}
        />
      ) : null}
      {on.view || on.pin ? (
        <Popover
          trigger="click"
          placement="bottomLeft"
          content={
            fields ? (
              <ColumnSettings fields={fields} settings={settings} pin={on.pin} view={on.view} set={set} />
            ) : null
          }
        >
          <Button icon={<AppstoreOutlined />} data-testid="view-columns">
            {t('views.columns')}
          </Button>
        </Popover>
      ) : null}
      {on.label ? (
        <Popover
          trigger="click"
          content={fields ? <LabelRules fields={fields} rules={settings.labels} set={set} /> : null}
        >
          <Button icon={<BgColorsOutlined />} data-testid="view-labels">
            {t('views.labels')}
          </Button>
        </Popover>
      ) : null}
      {on.refresh ? (
        <Button
          icon={<ReloadOutlined />}
          aria-label={t('views.refresh')}
          data-testid="view-refresh"
          onClick={() => {
            reload();
            emit.current?.({ type: 'refresh' });
          }}
        />
      ) : null}
      {on.chart ? (
        <Button icon={<BarChartOutlined />} onClick={() => setCharting(true)} data-testid="view-chart-open">
          {t('views.chart')}
        </Button>
      ) : null}
      {on.print ? (
        <Button
          icon={<PrinterOutlined />}
          onClick={() => openPrint(data.rows.map(printRecord))}
          data-testid="view-print"
        >
          {t('views.print')}
        </Button>
      ) : null}
      {on.share ? (
        <Button
          icon={<LinkOutlined />}
          aria-label={t('views.share')}
          data-testid="view-share"
          onClick={() => {
            const url = new URL(globalThis.location.href);
            const id = activeSaved?.split(':')[1];
            if (id) url.searchParams.set('filter', id);
            else url.searchParams.delete('filter');
            // A short link (/s/{code}) when the server makes one, else the full address.
            void shortLink(url.toString())
              .catch(() => url.toString())
              .then((link) =>
                (navigator.clipboard?.writeText(link) ?? Promise.reject()).then(
                  () => message.success(`${t('views.shared')}: ${link}`),
                  () => message.info(link),
                ),
              );
          }}
        />
      ) : null}
      {on.export ? (
        <XlsxTools
          onExported={() => emit.current?.({ type: 'export' })}
          project={project}
          entity={entity}
          query={data.query}
          sort={data.sortList}
          page={{ index: data.page, size: pageSize }}
          onImported={() => {
            reload();
            live.broadcast();
          }}
          canImport={canWrite}
        />
      ) : null}
      {canWrite ? (
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({})} data-testid="view-add">
          {t('views.add')}
        </Button>
      ) : null}
      {(props.programs ?? []).map((p) => (
        <Button
          key={p._id}
          icon={<ThunderboltOutlined />}
          loading={runningProgram === p._id}
          disabled={onTable(p) && selected.length === 0}
          data-testid="view-program"
          data-program={p._id}
          onClick={() => void runProgram(p)}
        >
          {onTable(p) && selected.length > 1 ? `${p._name} (${selected.length})` : p._name}
        </Button>
      ))}
      {options.remove && options.select && selected.length ? (
        <Button
          danger
          icon={<DeleteOutlined />}
          onClick={() => confirmRemove(selected)}
          data-testid="bulk-remove"
        >
          {t('views.bulkRemove', { count: selected.length })}
        </Button>
      ) : null}
    </Space>
  );

  const pager = (
    <Pagination
      size="small"
      current={data.page}
      pageSize={pageSize}
      total={pagerTotal(total, pageSize)}
      simple={options.simplePage}
      showQuickJumper={options.pageIndex && !options.simplePage}
      showSizeChanger={!options.simplePage}
      pageSizeOptions={PAGE_SIZES.includes(pageSize) ? PAGE_SIZES : [pageSize, ...PAGE_SIZES]}
      showTotal={() => (
        <span data-testid="view-total">
          {totalText}
          {large ? ` · ${t('views.large')}` : ''}
        </span>
      )}
      onChange={(index, size) => {
        if (size !== pageSize) {
          setPageSize(size);
          data.setPage(1);
        } else data.setPage(index);
        emit.current?.({ type: 'page', index: size !== pageSize ? 1 : index, size });
      }}
    />
  );

  return (
    <ViewProjectContext.Provider value={project}>
      <div className={`dv dv-h-${heightKey}`} data-testid="data-view" data-row-height={heightKey}>
        {toolbar}
        {stale ? (
          <Alert
            type="warning"
            showIcon
            closable={{ onClose: () => setStale(null) }}
            className="dv-stale"
            data-testid="stale-filter"
            title={t('views.staleNotice', {
              name: stale.name,
              count: stale.list.length,
              list: stale.list
                .map((c) => {
                  const f = fields?.find((x) => x._field === c.field);
                  const field = f ? f._option.alias || f._name : c.field;
                  return t(c.reason === 'field' ? 'views.staleField' : 'views.staleType', { field });
                })
                .join(', '),
            })}
          />
        ) : null}
        {data.error ? (
          // A refused query (a filter value of the wrong type, a field gone…): the rows on screen are
          // the last ones loaded, so the reason is said instead of leaving them as if filtered.
          <Alert
            type="error"
            showIcon
            className="dv-error"
            data-testid="view-error"
            title={t('views.loadFailed', { reason: errorText(data.error, i18n.language) })}
          />
        ) : null}
        {asCards ? (
          <List
            className="dv-cards"
            loading={data.loading}
            dataSource={data.rows}
            data-testid="view-cards"
            renderItem={(row) => (
              <Card
                size="small"
                className="dv-card"
                data-testid="view-card"
                style={{
                  marginBottom: 8,
                  borderLeft: cardColor(labelOf(row, labelRules, shownText)),
                }}
                onClick={() => setDetail(row)}
                title={visible[0] ? fieldText(visible[0], row) : row._id}
              >
                {visible.slice(1, 6).map((f) => (
                  <div key={f._field}>
                    <span className="dv-card-label">{f._option.alias || f._name}: </span>
                    <FieldValue field={f} row={row} text={fieldText} />
                  </div>
                ))}
              </Card>
            )}
          />
        ) : (
          // The table fills the width it is given and scrolls sideways inside: its width must not count
          // toward its container's (a flex item grows to its content). Else a table wider than the
          // window widened the whole page past it (the page scrolled sideways, the header stopped
          // short), and in large mode fitting the columns to the box widened the box on each redraw.
          <div ref={tableBox} className="dv-table-box">
            {tableView}
          </div>
        )}
        <div className="dv-pager">{pager}</div>
        {editing && fields ? (
          // Uploads of image and attachment fields go to this project, asking for this table's write grant.
          <FieldContext.Provider value={{ project, ...(table ? { entity: table.entity } : {}) }}>
            <RecordForm
              fields={fields}
              record={editing.record}
              onClose={() => setEditing(null)}
              onSave={(values) =>
                save(values, typeof editing.record?._id === 'string' ? editing.record._id : undefined)
              }
            />
          </FieldContext.Provider>
        ) : null}
        {detail && fields ? (
          <RecordDetail
            fields={fields}
            row={detail}
            text={fieldText}
            onClose={() => setDetail(null)}
            {...(on.print
              ? {
                  onPrint: () => {
                    // A record prints as a form of all its fields (2, 3 or 4 columns).
                    const shown = (fields ?? []).map((f) => ({
                      key: f._field,
                      title: f._option.alias || f._name,
                    }));
                    const row = Object.fromEntries(
                      (fields ?? []).map((f) => [f._field, shownText(f._field, detail)]),
                    );
                    openPrint(row, shown);
                    setDetail(null);
                  },
                }
              : {})}
            {...(canWrite
              ? {
                  onEdit: () => {
                    setEditing({ record: detail });
                    setDetail(null);
                  },
                  ...(options.remove ? { onRemove: () => confirmRemove([String(detail._id)]) } : {}),
                }
              : {})}
          />
        ) : null}
        {printing ? (
          <PrintModal project={project} option={printing} onClose={() => setPrinting(null)} />
        ) : null}
        {charting && fields ? (
          <ChartModal
            project={project}
            entity={entity}
            query={data.query}
            fields={fields}
            onClose={() => setCharting(false)}
          />
        ) : null}
      </div>
    </ViewProjectContext.Provider>
  );
}

/** The first record under a group header (a two-level group's first inner group's first row). */
function firstRecord(row: ViewRow): ViewRow | undefined {
  for (const c of row.children ?? []) {
    if (!c.__group) return c;
    const inner = firstRecord(c);
    if (inner) return inner;
  }
  return undefined;
}

/** The fields a view shows of a table's meta (hidden ones are already left out by the server). */
const shownFields = (m: ViewMeta) => m.field.filter((f) => !f._hide && f._status !== 'disabled');
const tableOf = (m: ViewMeta) => ({ entity: m.entity._id, code: m.entity._code, name: m.entity._name });
const tableConfigOf = (m: ViewMeta): TableConfig => m.config ?? { ...DEFAULT_TABLE_CONFIG };

const HEADER_COMPONENTS = { header: { cell: ResizableHeaderCell } };
/** A table load shorter than this shows no spinner (ms). */
const SPIN_DELAY_MS = 200;
/** The table body's height once its rows overflow it (px). */
const BODY_HEIGHT = 560;
/** The selection column's width when our own large body draws it (px). */
const SELECT_WIDTH = 40;
/** Stands for a column's name in a label translated once for every column. */
const NAME_SLOT = '\u0001';

/** What rc-table hands a body drawn by `components.body`. */
interface LargeBodyInfo {
  scrollbarSize: number;
  ref: Ref<unknown>;
  onScroll(info: { currentTarget: HTMLElement; scrollLeft: number }): void;
}

/** True once `on` has held for `ms` (a short load shows no spinner); false as soon as it ends. */
function useLasting(on: boolean, ms: number): boolean {
  const [lasting, setLasting] = useState(false);
  useEffect(() => {
    if (!on) {
      setLasting(false);
      return;
    }
    const timer = setTimeout(() => setLasting(true), ms);
    return () => clearTimeout(timer);
  }, [on, ms]);
  return on && lasting;
}

/** The element's width while `active` (0 until measured), following its resizes. */
function useWidth(ref: RefObject<HTMLElement | null>, active: boolean): number {
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!active || !el) return;
    setWidth(el.clientWidth);
    const watch = new ResizeObserver(() => setWidth(el.clientWidth));
    watch.observe(el);
    return () => watch.disconnect();
  }, [ref, active]);
  return width;
}

const CARD_COLORS: Record<string, string> = {
  red: '#f5222d',
  orange: '#fa8c16',
  gold: '#faad14',
  green: '#52c41a',
  cyan: '#13c2c2',
  blue: '#1677ff',
  purple: '#722ed1',
};
const cardColor = (c: string | undefined) => (c ? `4px solid ${CARD_COLORS[c]}` : undefined);
