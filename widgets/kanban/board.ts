/**
 * The board logic of the kanban widget, kept pure so it is tested without a browser: which columns a
 * board shows, which cards sit in each (in rank order), and what a move writes.
 *
 * Ranks are numbers in a field of the table. A card dropped between two others takes the midpoint of
 * their ranks, so a move writes one record; only when no number fits between them (equal ranks, or the
 * gap exhausted after many moves into the same spot) is the target column renumbered in steps of
 * RANK_STEP, which writes the cards whose rank changes and no others.
 */

export const RANK_STEP = 1024;
/** The column cards without a known group value fall into. */
export const NO_GROUP = '';

export interface KanbanColumn {
  value: string;
  title: string;
  color?: string;
}

export interface KanbanCard {
  id: string;
  group: string;
  rank: number | null;
  row: Record<string, unknown>;
}

export interface RankWrite {
  id: string;
  values: Record<string, unknown>;
}

const text = (v: unknown): string => (v === null || v === undefined ? '' : String(v));

/** A finite number from a cell, else null (empty, text, NaN). */
export function rankOf(v: unknown): number | null {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : Number.NaN;
  return Number.isFinite(n) ? n : null;
}

/**
 * The board's columns: the ones the builder declared, else the group field's option list, else the
 * values found in the rows (in first-seen order). A column for cards whose value matches none is
 * added at the end when some card needs it, so no card is ever hidden.
 */
export function boardColumns(
  declared: readonly { value?: unknown; title?: unknown; color?: unknown }[],
  options: readonly unknown[],
  rows: readonly Record<string, unknown>[],
  groupField: string,
  otherTitle: string,
): KanbanColumn[] {
  const out: KanbanColumn[] = [];
  const seen = new Set<string>();
  const add = (value: string, title: string, color?: string) => {
    if (seen.has(value)) return;
    seen.add(value);
    out.push(color ? { value, title, color } : { value, title });
  };
  for (const c of declared) {
    const value = text(c.value);
    if (value === '') continue;
    add(value, text(c.title) || value, typeof c.color === 'string' && c.color ? c.color : undefined);
  }
  if (!out.length) for (const o of options) if (text(o) !== '') add(text(o), text(o));
  const fromRows = !out.length;
  let stray = false;
  for (const r of rows) {
    const v = text(r[groupField]);
    if (fromRows && v !== '') add(v, v);
    else if (!seen.has(v)) stray = true;
  }
  if (stray) add(NO_GROUP, otherTitle);
  return out;
}

/** Cards per column value, each column in rank order (cards without a rank last, in row order). */
export function boardCards(
  rows: readonly Record<string, unknown>[],
  columns: readonly KanbanColumn[],
  groupField: string,
  rankField: string,
): Map<string, KanbanCard[]> {
  const known = new Set(columns.map((c) => c.value));
  const by = new Map<string, KanbanCard[]>(columns.map((c) => [c.value, []]));
  rows.forEach((row) => {
    const raw = text(row[groupField]);
    const group = known.has(raw) ? raw : NO_GROUP;
    by.get(group)?.push({ id: text(row._id), group, rank: rankField ? rankOf(row[rankField]) : null, row });
  });
  for (const list of by.values()) {
    const order = new Map(list.map((c, i) => [c, i]));
    list.sort((a, b) => {
      if (a.rank === null || b.rank === null)
        return a.rank === b.rank ? order.get(a)! - order.get(b)! : a.rank === null ? 1 : -1;
      return a.rank - b.rank || order.get(a)! - order.get(b)!;
    });
  }
  return by;
}

/** A number strictly between two ranks (either may be missing), or null when none is representable. */
export function rankBetween(before: number | null, after: number | null): number | null {
  if (before === null && after === null) return RANK_STEP;
  if (before === null) return after! - RANK_STEP;
  if (after === null) return before + RANK_STEP;
  if (!(after > before)) return null;
  const mid = before + (after - before) / 2;
  return mid > before && mid < after ? mid : null;
}

/**
 * What moving `cardId` to position `index` of column `to` writes: the group value (when it changes)
 * and a rank between its new neighbours; or, when none fits, fresh ranks for the target column.
 * Answers [] for a move that changes nothing and for a card that is not on the board.
 */
export function planMove(
  board: ReadonlyMap<string, readonly KanbanCard[]>,
  cardId: string,
  to: string,
  index: number,
  groupField: string,
  rankField: string,
): RankWrite[] {
  let card: KanbanCard | undefined;
  for (const list of board.values()) card ??= list.find((c) => c.id === cardId);
  if (!card || !board.has(to)) return [];
  const target = (board.get(to) ?? []).filter((c) => c.id !== cardId);
  const at = Math.max(0, Math.min(Math.trunc(index), target.length));
  const sameSpot =
    card.group === to && (board.get(to) ?? []).findIndex((c) => c.id === cardId) === at && card.rank !== null;
  if (sameSpot) return [];
  const groupChange: Record<string, unknown> = card.group === to ? {} : { [groupField]: to };
  if (!rankField) return Object.keys(groupChange).length ? [{ id: card.id, values: groupChange }] : [];
  // Cards without a rank sit at the end; dropping before one of them needs real ranks for the column.
  const rank = rankBetween(target[at - 1]?.rank ?? null, at < target.length ? target[at]!.rank : null);
  const neighbourUnranked =
    target[at - 1]?.rank === null || (at < target.length && target[at]!.rank === null);
  if (rank !== null && !neighbourUnranked)
    return [{ id: card.id, values: { ...groupChange, [rankField]: rank } }];
  const next = [...target.slice(0, at), card, ...target.slice(at)];
  const writes: RankWrite[] = [];
  next.forEach((c, i) => {
    const r = (i + 1) * RANK_STEP;
    if (c.id === card.id) writes.push({ id: c.id, values: { ...groupChange, [rankField]: r } });
    else if (c.rank !== r) writes.push({ id: c.id, values: { [rankField]: r } });
  });
  return writes;
}

/** The board after the writes, shown at once while they are saved (optimistic update). */
export function applyWrites(
  rows: readonly Record<string, unknown>[],
  writes: readonly RankWrite[],
): Record<string, unknown>[] {
  if (!writes.length) return rows as Record<string, unknown>[];
  const by = new Map(writes.map((w) => [w.id, w.values]));
  return rows.map((r) => {
    const v = by.get(text(r._id));
    return v ? { ...r, ...v } : r;
  });
}
