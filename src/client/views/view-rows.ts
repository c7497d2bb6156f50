/**
 * How a data view lays out a page of rows: grouped under one or two fields (group header rows whose
 * counts and sums come from the server's statistics over the whole filtered set), or as a tree when
 * the table relates to itself. Pure functions over the page; the server already sorted it.
 */
import type { Field } from '../../shared/api/fields.ts';
import type { SummaryAnswer } from '../api/views.ts';

export type Row = Record<string, unknown> & { _id: string };

/** A group header row: the field, its value, and the server's figures for that group. */
export interface GroupInfo {
  field: string;
  value: unknown;
  depth: number;
  count: number | null;
  values: Record<string, number | null>;
}

export type ViewRow = Row & { __group?: GroupInfo; children?: ViewRow[] };

const keyText = (v: unknown) => (v === null || v === undefined || v === '' ? '' : String(v));

/** The value a row is grouped by: relations by their id, empty values together. */
export function groupValue(row: Row, field: string): string {
  return keyText(row[field]);
}

/**
 * The page's rows under group header rows, in the order they came (grouped rows come sorted by the
 * group fields). `stats` (the grouped summary) gives each header its whole-set count and values.
 */
export function groupRows(
  rows: readonly Row[],
  group: readonly string[],
  stats: SummaryAnswer | null,
): ViewRow[] {
  if (group.length === 0) return [...rows];
  const figures = new Map<string, Record<string, number | null>>();
  for (const g of stats?.groups ?? []) figures.set(JSON.stringify(g.key.map(keyText)), g.values);
  const build = (list: readonly Row[], depth: number, prefix: string[]): ViewRow[] => {
    const field = group[depth];
    if (field === undefined) return [...list];
    const out: ViewRow[] = [];
    const index = new Map<string, ViewRow>();
    for (const r of list) {
      const v = groupValue(r, field);
      let head = index.get(v);
      if (!head) {
        const path = [...prefix, v];
        head = {
          _id: `__group:${JSON.stringify(path)}`,
          __group: { field, value: v, depth, count: null, values: {} },
          children: [],
        };
        index.set(v, head);
        out.push(head);
      }
      (head.children as Row[]).push(r);
    }
    for (const head of out) {
      const g = head.__group!;
      const path = [...prefix, String(g.value)];
      // A second-level header's figures are those of its full key; the first level adds them up.
      const fig = depth === group.length - 1 ? figures.get(JSON.stringify(path)) : sumOf(figures, path);
      if (fig) {
        g.values = fig;
        g.count = fig.m0 ?? null;
      }
      head.children = build(head.children as Row[], depth + 1, path);
    }
    return out;
  };
  return build(rows, 0, []);
}

/**
 * Whether a grouped view may draw the rows it holds: they came sorted for this grouping (`rowsSort`,
 * the order they were asked in, against the order it needs) and its summary call (the group counts
 * and sums) came back for it, answered or failed. Until then the view keeps what it shows, so a new
 * grouping is drawn once, with its figures, not once for the rows and again as the sums come.
 */
export function groupingReady(
  group: readonly string[],
  sortList: readonly unknown[],
  rowsSort: string | null,
  statsGroup: string | null,
): boolean {
  return rowsSort === JSON.stringify(sortList) && statsGroup === JSON.stringify(group);
}

/**
 * The index column's numbers of grouped rows: each innermost group counts its rows from 1 (a row's
 * number says where it sits in its group, as the group's count says how many it holds). A group that
 * began on an earlier page counts on from there: `offset` is the rows before this page and `stats`
 * the grouped summary (each group's whole-set count, in the rows' order).
 */
export function groupIndexes(
  rows: readonly ViewRow[],
  offset = 0,
  stats: SummaryAnswer | null = null,
): Map<string, number> {
  const out = new Map<string, number>();
  // The innermost groups in order (ungrouped rows are one), each with its key path.
  const leaves: { head: ViewRow | null; path: string[]; rows: ViewRow[] }[] = [];
  const walk = (list: readonly ViewRow[], head: ViewRow | null, path: string[]) => {
    const own: ViewRow[] = [];
    for (const r of list) {
      if (r.__group) walk(r.children ?? [], r, [...path, String(r.__group.value)]);
      else own.push(r);
    }
    if (own.length) leaves.push({ head, path, rows: own });
  };
  walk(rows, null, []);
  leaves.forEach((leaf, i) => {
    let n = i === 0 && leaf.head ? earlierRows(leaf, leaves.length > 1, offset, stats) : 0;
    for (const r of leaf.rows) out.set(r._id, ++n);
  });
  return out;
}

/**
 * How many rows of the page's first group sit on earlier pages. When another group follows on this
 * page the first one ends here, so it is its count less the rows shown; when it fills the page, the
 * rows before it are the page's offset less the counts of the groups before it.
 */
function earlierRows(
  leaf: { head: ViewRow | null; path: string[]; rows: ViewRow[] },
  endsHere: boolean,
  offset: number,
  stats: SummaryAnswer | null,
): number {
  const count = leaf.head?.__group?.count;
  if (offset <= 0 || count === null || count === undefined) return 0;
  const most = Math.max(0, count - leaf.rows.length);
  if (endsHere) return most;
  const key = JSON.stringify(leaf.path);
  let before = 0;
  for (const g of stats?.groups ?? []) {
    if (JSON.stringify(g.key.map(keyText)) === key) return Math.min(most, Math.max(0, offset - before));
    before += g.values.m0 ?? 0;
  }
  return 0;
}

/** The figures of the groups whose key starts with `prefix`, added up (counts and sums add). */
function sumOf(figures: Map<string, Record<string, number | null>>, prefix: string[]) {
  let out: Record<string, number | null> | undefined;
  for (const [k, v] of figures) {
    const key = JSON.parse(k) as string[];
    if (prefix.some((p, i) => key[i] !== p)) continue;
    out ??= {};
    for (const [m, n] of Object.entries(v)) out[m] = (out[m] ?? 0) + (n ?? 0);
  }
  return out;
}

/** The field that makes a table a tree: a relation to the table itself. */
export function treeField(fields: readonly Field[], entityId: string): Field | undefined {
  return fields.find((f) => f._type === 'relate' && f._relate[0] === entityId);
}

/** Rows of the page as a tree by their parent field; rows whose parent is not on the page are roots. */
export function treeRows(rows: readonly Row[], parentField: string): ViewRow[] {
  const byId = new Map<string, ViewRow>(rows.map((r) => [r._id, { ...r }]));
  const roots: ViewRow[] = [];
  for (const r of byId.values()) {
    const p = r[parentField];
    const parent = typeof p === 'string' && p !== r._id ? byId.get(p) : undefined;
    if (parent) {
      parent.children ??= [];
      parent.children.push(r);
    } else roots.push(r);
  }
  // Rows in a loop of parents (a → b → a) reach no root: they are shown as roots, once.
  const seen = new Set<string>();
  const walk = (list: readonly ViewRow[]) => {
    for (const r of list) {
      seen.add(r._id);
      if (r.children) walk(r.children);
    }
  };
  walk(roots);
  for (const r of byId.values()) {
    if (seen.has(r._id)) continue;
    for (const other of byId.values())
      if (other.children) other.children = other.children.filter((c) => c._id !== r._id);
    roots.push(r);
    walk([r]);
  }
  return roots;
}
