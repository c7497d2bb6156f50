/**
 * The side menu's tree (spec §2 "Menu content"): app routes sorted by `_sort` and nested by
 * `_parent`. The server answers a nested list already; the client rebuilds it from whatever shape it
 * gets (flat or nested), so an entry whose parent is missing hangs at the top, and a parent cycle is
 * cut instead of looping.
 */
import { RECENT_TAGS_LIMIT } from '../../shared/constants.ts';

export interface MenuEntry {
  _id: string;
  _type: string;
  name: string;
  _parent: string | null;
  _value: string | null;
  _sort: number;
  _children?: MenuEntry[];
}

export interface MenuNode extends MenuEntry {
  _children: MenuNode[];
}

/** Every entry of a flat or nested list, once each (first occurrence wins). */
export function flatten(list: readonly MenuEntry[]): MenuEntry[] {
  const out: MenuEntry[] = [];
  const seen = new Set<string>();
  const walk = (items: readonly MenuEntry[], parent: string | null) => {
    for (const item of items) {
      if (!item || typeof item._id !== 'string' || seen.has(item._id)) continue;
      seen.add(item._id);
      // A nested child belongs to the list it sits in, whatever its own `_parent` says.
      out.push({ ...item, _parent: parent ?? item._parent ?? null, _children: undefined });
      if (Array.isArray(item._children)) walk(item._children, item._id);
    }
  };
  walk(list, null);
  return out;
}

function bySort(a: MenuEntry, b: MenuEntry): number {
  const d = (Number(a._sort) || 0) - (Number(b._sort) || 0);
  return d !== 0 ? d : a._id < b._id ? -1 : a._id > b._id ? 1 : 0;
}

/** Build the tree: sorted by `_sort` (then id), nested by `_parent`; orphans and cycles go to the top. */
export function buildMenuTree(list: readonly MenuEntry[]): MenuNode[] {
  const flat = flatten(list);
  const nodes = new Map<string, MenuNode>();
  for (const e of flat) nodes.set(e._id, { ...e, _children: [] });
  // An entry whose chain of parents comes back to itself is in a cycle: it goes to the top.
  const inCycle = (id: string): boolean => {
    const seen = new Set<string>([id]);
    for (let at = nodes.get(id)?._parent; at; at = nodes.get(at)?._parent ?? null) {
      if (at === id) return true;
      if (seen.has(at)) return false;
      seen.add(at);
    }
    return false;
  };
  const top: MenuNode[] = [];
  for (const node of nodes.values()) {
    const parent = node._parent ? nodes.get(node._parent) : undefined;
    if (parent && parent !== node && !inCycle(node._id)) parent._children.push(node);
    else top.push({ ...node, _parent: null, _children: node._children });
  }
  const sort = (items: MenuNode[]): MenuNode[] => {
    items.sort(bySort);
    for (const n of items) sort(n._children);
    return items;
  };
  // Cycle members moved to the top are copies: re-link their children from the map.
  for (const t of top) t._children = nodes.get(t._id)!._children;
  return sort(top);
}

/** Find an entry anywhere in the tree. */
export function findEntry(tree: readonly MenuNode[], pred: (n: MenuNode) => boolean): MenuNode | null {
  for (const n of tree) {
    if (pred(n)) return n;
    const inner = findEntry(n._children, pred);
    if (inner) return inner;
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// Recent tags (spec §4): pushing an existing one moves it to the end; oldest dropped above 10.

export interface RecentTag {
  path: string;
  name: string;
}

export function pushTag(tags: readonly RecentTag[], tag: RecentTag, limit = RECENT_TAGS_LIMIT): RecentTag[] {
  const rest = tags.filter((t) => t.path !== tag.path);
  rest.push(tag);
  return rest.length > limit ? rest.slice(rest.length - limit) : rest;
}

export function closeTag(tags: readonly RecentTag[], path: string): RecentTag[] {
  return tags.filter((t) => t.path !== path);
}

// ---------------------------------------------------------------------------------------------
// Recently used (spec §4): a repeat of the same last item is ignored, otherwise its count grows;
// sorted by count descending; only items still existing are kept; the top 4 are shown.

export interface RecentUse {
  id: string;
  type: string;
  name: string;
  /** Use count. */
  value: number;
}

export function useItem(
  list: readonly RecentUse[],
  item: Omit<RecentUse, 'value'>,
  lastId: string | null,
): RecentUse[] {
  if (lastId === item.id && list.some((x) => x.id === item.id)) return [...list];
  const found = list.find((x) => x.id === item.id);
  const next = found
    ? list.map((x) => (x.id === item.id ? { ...x, name: item.name, value: x.value + 1 } : x))
    : [...list, { ...item, value: 1 }];
  return next.sort((a, b) => b.value - a.value);
}

export function topUsed(
  list: readonly RecentUse[],
  exists: (id: string) => boolean,
  top: number,
): RecentUse[] {
  return list
    .filter((x) => exists(x.id))
    .sort((a, b) => b.value - a.value)
    .slice(0, top);
}
