/** Pure helpers of the grants editor: the menu tree and what granting a menu entry brings along. */
import type { MenuEntry } from '../../api/pages.ts';
import type { Grants } from '../../api/system.ts';

export interface TreeNode {
  key: string;
  title: string;
  children: TreeNode[];
}

/** Menu entries nested by parent (an entry whose parent is missing sits at the top), by sort. */
export function menuTree(menus: MenuEntry[]): TreeNode[] {
  const ids = new Set(menus.map((m) => m._id));
  const sorted = [...menus].sort((a, b) => a._sort - b._sort || a._id.localeCompare(b._id));
  const build = (parent: string | null, seen: Set<string>): TreeNode[] =>
    sorted
      .filter((m) => (parent === null ? !m._parent || !ids.has(m._parent) : m._parent === parent))
      .filter((m) => !seen.has(m._id))
      .map((m) => {
        const next = new Set(seen).add(m._id);
        return { key: m._id, title: m._name, children: build(m._id, next) };
      });
  return build(null, new Set());
}

/**
 * Granting menu entries also grants what they open (a list's table, a page entry's page), so the
 * member who sees the entry can open it. Answers the grants with those added.
 */
export function withTargets(grants: Grants, added: string[], menus: MenuEntry[]): Grants {
  const next = { ...grants, page: [...grants.page], entity: [...grants.entity] };
  for (const id of added) {
    const m = menus.find((x) => x._id === id);
    if (!m?._value) continue;
    if (m._type === 'table' && !next.entity.includes(m._value)) next.entity.push(m._value);
    if ((m._type === 'page' || m._type === 'display') && !next.page.includes(m._value))
      next.page.push(m._value);
  }
  return next;
}
