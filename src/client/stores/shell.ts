/**
 * The end-user shell's state: screen mode, menu collapse, debug, full-screen (o_w_full), the current
 * app project and custom prefix, the menu, recent tags and the recently used list. What the spec says
 * is kept between visits is stored locally.
 */
import { create } from 'zustand';
import { RECENT_TAGS_LIMIT } from '../../shared/constants.ts';
import type { Project } from '../api/account.ts';
import { closeTag, type MenuNode, pushTag, type RecentTag, type RecentUse, useItem } from '../shell/menu.ts';
import { NAV_KEYS, type ScreenMode, screenMode } from '../shell/navigation.ts';

export const SHELL_KEYS = {
  collapsed: 'lc_menu_collapsed',
  debug: 'lc_debug',
  tags: 'lc_recent_tags',
  recent: 'lc_recent_use',
} as const;

const memory = new Map<string, string>();
const fallback = {
  getItem: (k: string) => memory.get(k) ?? null,
  setItem: (k: string, v: string) => void memory.set(k, v),
  removeItem: (k: string) => void memory.delete(k),
};

function storage(kind: 'local' | 'session') {
  try {
    const s = kind === 'local' ? globalThis.localStorage : globalThis.sessionStorage;
    return s ?? fallback;
  } catch {
    return fallback;
  }
}

function readJson<T>(key: string, dflt: T): T {
  try {
    const text = storage('local').getItem(key);
    return text ? (JSON.parse(text) as T) : dflt;
  } catch {
    return dflt;
  }
}

function writeJson(key: string, value: unknown): void {
  try {
    storage('local').setItem(key, JSON.stringify(value));
  } catch {
    // Full or unavailable storage: the value lasts for this visit.
  }
}

interface ShellState {
  screenMode: ScreenMode;
  collapsed: boolean;
  debug: boolean;
  fullScreen: boolean;
  /** The app project the shell shows (menus, lists). */
  projectId: string | null;
  projectName: string;
  /** The custom project prefix in use (rule 2). */
  custom: string | null;
  /** The systems the signed-in user belongs to; null until the list has arrived. */
  projects: Project[] | null;
  menu: MenuNode[];
  menuLoading: boolean;
  /** The project whose menu `menu` is (null until one loaded). */
  menuFor: string | null;
  tags: RecentTag[];
  recent: RecentUse[];
  lastUsed: string | null;
  setScreenMode(mode: ScreenMode): void;
  setCollapsed(collapsed: boolean): void;
  setDebug(debug: boolean): void;
  setProject(id: string | null, name?: string): void;
  setCustom(custom: string | null): void;
  setProjects(projects: Project[] | null): void;
  setMenu(menu: MenuNode[], loading?: boolean, forProject?: string | null): void;
  pushTag(tag: RecentTag): void;
  closeTag(path: string): void;
  use(item: Omit<RecentUse, 'value'>): void;
  /** Forget per-user state (logout). */
  reset(): void;
}

function initialMode(): ScreenMode {
  return screenMode(storage('local'), storage('session'), globalThis.innerWidth ?? 1280);
}

export const useShell = create<ShellState>()((set, get) => ({
  screenMode: initialMode(),
  collapsed: storage('local').getItem(SHELL_KEYS.collapsed) === 'true',
  debug: storage('local').getItem(SHELL_KEYS.debug) === 'true',
  fullScreen: storage('session').getItem(NAV_KEYS.fullScreen) === '1',
  projectId: null,
  projectName: '',
  custom: storage('session').getItem(NAV_KEYS.custom),
  projects: null,
  menu: [],
  menuLoading: false,
  menuFor: null,
  tags: readJson<RecentTag[]>(SHELL_KEYS.tags, []).slice(-RECENT_TAGS_LIMIT),
  recent: readJson<RecentUse[]>(SHELL_KEYS.recent, []),
  lastUsed: null,
  setScreenMode: (mode) => {
    storage('local').setItem(NAV_KEYS.screenMode, mode);
    storage('session').removeItem(NAV_KEYS.sessionScreenMode);
    set({ screenMode: mode });
  },
  setCollapsed: (collapsed) => {
    storage('local').setItem(SHELL_KEYS.collapsed, String(collapsed));
    set({ collapsed });
  },
  setDebug: (debug) => {
    storage('local').setItem(SHELL_KEYS.debug, String(debug));
    set({ debug });
  },
  setProject: (projectId, projectName = '') => set({ projectId, projectName }),
  setCustom: (custom) => {
    if (custom) storage('session').setItem(NAV_KEYS.custom, custom);
    else storage('session').removeItem(NAV_KEYS.custom);
    set({ custom });
  },
  // An answer equal to the list held (home asks again on each visit) changes nothing: the shell
  // and every screen reading the list would otherwise draw again for the same systems.
  setProjects: (projects) =>
    set((s) => (JSON.stringify(s.projects) === JSON.stringify(projects) ? s : { projects })),
  setMenu: (menu, menuLoading = false, forProject) =>
    set(forProject === undefined ? { menu, menuLoading } : { menu, menuLoading, menuFor: forProject }),
  pushTag: (tag) => {
    const tags = pushTag(get().tags, tag);
    writeJson(SHELL_KEYS.tags, tags);
    set({ tags });
  },
  closeTag: (path) => {
    const tags = closeTag(get().tags, path);
    writeJson(SHELL_KEYS.tags, tags);
    set({ tags });
  },
  use: (item) => {
    const recent = useItem(get().recent, item, get().lastUsed);
    writeJson(SHELL_KEYS.recent, recent);
    set({ recent, lastUsed: item.id });
  },
  reset: () => {
    for (const k of [SHELL_KEYS.debug, SHELL_KEYS.tags, SHELL_KEYS.recent]) storage('local').removeItem(k);
    set({
      debug: false,
      tags: [],
      recent: [],
      lastUsed: null,
      menu: [],
      menuFor: null,
      projectId: null,
      projectName: '',
      projects: null,
    });
  },
}));
