/**
 * The administration area's side menu (builder spec §2: route paths, "Admin menu visibility"): the
 * /system screens in groups, each entry with what it needs to show. Pure: the shell renders it.
 */
import { type AdminContext, type EntryNeeds, entryVisible } from '../../shared/admin/features.ts';

export interface AdminEntry extends EntryNeeds {
  /** The path under /system. */
  path: string;
  /** i18n key of the label. */
  label: string;
  children?: AdminEntry[];
}

export interface AdminGroup {
  key: string;
  label: string;
  entries: AdminEntry[];
}

export const ADMIN_MENU: AdminGroup[] = [
  {
    key: 'people',
    label: 'adm3.group.people',
    entries: [
      { path: 'user', label: 'adm3.item.user', feature: 'user' },
      { path: 'auth', label: 'adm3.item.auth', feature: 'auth' },
    ],
  },
  {
    key: 'build',
    label: 'adm3.group.build',
    entries: [
      { path: 'menu', label: 'adm3.item.menu', feature: 'menu' },
      { path: 'data-advanced', label: 'adm3.item.dataAdvanced', feature: 'data', debug: true },
      // The spec's simple entry: early access only, no feature of its own.
      { path: 'simple', label: 'adm4.item.simple', early: true },
    ],
  },
  {
    key: 'run',
    label: 'adm3.group.run',
    entries: [{ path: 'schedule', label: 'adm3.item.schedule', feature: 'schedule' }],
  },
  {
    key: 'system',
    label: 'adm3.group.system',
    entries: [
      { path: 'project', label: 'adm3.item.project', feature: 'system', debug: true },
      { path: 'i18n', label: 'adm3.item.i18n', feature: 'i18n' },
      {
        path: 'share',
        label: 'adm3.item.share',
        feature: 'share',
        children: [
          { path: 'share/selection', label: 'adm3.item.selection', feature: 'selection' },
          { path: 'share/increment', label: 'adm3.item.increment', early: true },
          { path: 'share/config', label: 'adm3.item.config' },
        ],
      },
      { path: 'deploy', label: 'adm3.item.deploy', feature: 'deploy', early: true, vendor: true },
      { path: 'features', label: 'adm3.item.features' },
    ],
  },
];

/** The menu as this user sees it: hidden entries dropped, then empty groups. */
export function visibleAdminMenu(ctx: AdminContext, menu: AdminGroup[] = ADMIN_MENU): AdminGroup[] {
  const keep = (e: AdminEntry): AdminEntry | null => {
    if (!entryVisible(e, ctx)) return null;
    if (!e.children) return e;
    const children = e.children.map(keep).filter((c): c is AdminEntry => c !== null);
    return { ...e, children };
  };
  return menu
    .map((g) => ({ ...g, entries: g.entries.map(keep).filter((e): e is AdminEntry => e !== null) }))
    .filter((g) => g.entries.length > 0);
}

/** Paths that are another entry's screens: `/system/data` and one table's `/system/data/{entity}` belong to data-advanced. */
function menuPath(rest: string): string {
  return rest === 'data' || rest.startsWith('data/') ? 'data-advanced' : rest;
}

/** The entry a path under /system belongs to (the longest match), for highlighting. */
export function currentAdminEntry(path: string, menu: AdminGroup[] = ADMIN_MENU): AdminEntry | null {
  const rest = menuPath(path);
  let best: AdminEntry | null = null;
  const visit = (e: AdminEntry) => {
    if ((rest === e.path || rest.startsWith(`${e.path}/`)) && (!best || e.path.length > best.path.length))
      best = e;
    e.children?.forEach(visit);
  };
  for (const g of menu) g.entries.forEach(visit);
  return best;
}

/** The entry whose screen `rest` opens, searched in the whole menu (to tell a turned-off screen). */
export function entryNeedsOf(path: string): AdminEntry | null {
  const rest = menuPath(path);
  // The route's screen is the top entry's; a child only narrows (share/increment is share's screen).
  let found: AdminEntry | null = null;
  for (const g of ADMIN_MENU)
    for (const e of g.entries) if (rest === e.path || rest.startsWith(`${e.path}/`)) found = e;
  return found;
}

// In navigation.ts, so the signed-in frame asks it without loading the menu's entries.
export { adminBase } from './navigation.ts';
