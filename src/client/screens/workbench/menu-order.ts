/** The menu tree of the menus area: entries in display order with depth, and moves among siblings. */
export interface MenuLike {
  _id: string;
  _type: string;
  _parent: string | null;
  _sort: number;
}

export interface MenuRow<M extends MenuLike> {
  menu: M;
  depth: number;
  /** False for the first of its siblings (not movable up). */
  canUp: boolean;
  /** False for the last of its siblings (not movable down). */
  canDown: boolean;
}

/** Children lists keyed by parent id ('' for the top); an entry whose parent is gone sits at the top. */
function childrenOf<M extends MenuLike>(list: readonly M[]): Map<string, M[]> {
  const ids = new Set(list.map((m) => m._id));
  const sorted = [...list].sort((a, b) => a._sort - b._sort || (a._id < b._id ? -1 : a._id > b._id ? 1 : 0));
  const kids = new Map<string, M[]>();
  for (const m of sorted) {
    const key = m._parent && ids.has(m._parent) && m._parent !== m._id ? m._parent : '';
    const at = kids.get(key) ?? [];
    at.push(m);
    kids.set(key, at);
  }
  return kids;
}

/** Depth-first rows: each directory followed by its entries. */
export function menuRows<M extends MenuLike>(list: readonly M[]): MenuRow<M>[] {
  const kids = childrenOf(list);
  const out: MenuRow<M>[] = [];
  const seen = new Set<string>();
  const walk = (key: string, depth: number) => {
    const at = kids.get(key) ?? [];
    at.forEach((menu, i) => {
      if (seen.has(menu._id)) return;
      seen.add(menu._id);
      out.push({ menu, depth, canUp: i > 0, canDown: i < at.length - 1 });
      walk(menu._id, depth + 1);
    });
  };
  walk('', 0);
  return out;
}

/**
 * The order of every entry after moving `id` one place up (-1) or down (+1) among its siblings, for
 * the sort call; null when it cannot move (first or last of its siblings, or unknown).
 */
export function moveMenu<M extends MenuLike>(list: readonly M[], id: string, by: -1 | 1): string[] | null {
  const kids = childrenOf(list);
  for (const at of kids.values()) {
    const i = at.findIndex((m) => m._id === id);
    if (i < 0) continue;
    const j = i + by;
    if (j < 0 || j >= at.length) return null;
    [at[i], at[j]] = [at[j]!, at[i]!];
    const order: string[] = [];
    const walk = (key: string) => {
      for (const m of kids.get(key) ?? []) {
        if (order.includes(m._id)) continue;
        order.push(m._id);
        walk(m._id);
      }
    };
    walk('');
    return order;
  }
  return null;
}

/** Directories an entry may move into: not itself nor one of its own entries. */
export function parentChoices<M extends MenuLike>(list: readonly M[], selfId: string | null): M[] {
  const kids = childrenOf(list);
  const banned = new Set<string>();
  const ban = (id: string) => {
    banned.add(id);
    for (const k of kids.get(id) ?? []) if (!banned.has(k._id)) ban(k._id);
  };
  if (selfId) ban(selfId);
  return menuRows(list)
    .map((r) => r.menu)
    .filter((m) => m._type === 'dir' && !banned.has(m._id));
}
