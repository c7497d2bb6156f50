/**
 * The administration area's switches as this browser sees them (shared/admin/features.ts): the
 * project's flags in effect (from the server), debug mode (kept locally per project, switched on
 * only after the server agrees) and early-access mode (the i18n module's local flag).
 */
import { useEffect, useSyncExternalStore } from 'react';
import { create } from 'zustand';
import {
  type AdminContext,
  effectiveFeatures,
  FEATURES_KEY,
  FEATURES_MODEL,
  type FeatureFlags,
} from '../../shared/admin/features.ts';
import { get, post } from '../api/request.ts';
import { setShare } from '../api/share.ts';
import { earlyAccess, onEarlyAccess } from '../i18n/index.ts';

export interface FeaturesInfo {
  flags: FeatureFlags;
  stored: FeatureFlags;
  installed: string[];
  debugOpen: boolean;
  debugSecret: boolean;
  vendor: boolean;
}

export const featuresApi = {
  get: (p: string) => get<FeaturesInfo>(`/api/admin/project/${p}/features`, { share: false }),
  /** Answers when debug mode may be on here (ADMIN_DEBUG, or the right secret); 2101 otherwise. */
  debug: (p: string, secret?: string) =>
    post<{ debug: boolean }>(`/api/admin/project/${p}/debug`, secret ? { secret } : {}, { quiet: true }),
  save: (p: string, stored: FeatureFlags) =>
    setShare(p, { model: FEATURES_MODEL, type: 'project', key: FEATURES_KEY }, stored),
};

interface State {
  project: string | null;
  info: FeaturesInfo | null;
  load(p: string, force?: boolean): Promise<void>;
  save(p: string, stored: FeatureFlags): Promise<void>;
}

export const useAdminFeatures = create<State>((set, getState) => ({
  project: null,
  info: null,
  async load(p, force) {
    if (!force && getState().project === p && getState().info) return;
    if (getState().project !== p) set({ project: p, info: null });
    const info = await featuresApi.get(p);
    if (getState().project === p) set({ info });
  },
  async save(p, stored) {
    await featuresApi.save(p, stored);
    const info = getState().info;
    // The answer of the next read is the truth; meanwhile the switch shows at once.
    if (info && getState().project === p)
      set({ info: { ...info, stored, flags: effectiveFeatures(info.installed, stored) } });
    await getState().load(p, true);
  },
}));

const DEBUG_KEY = (p: string) => `lc.debug.${p}`;
const debugListeners = new Set<() => void>();

/** Whether debug mode is on for the project in this browser. */
export function debugMode(p: string | null): boolean {
  if (!p) return false;
  try {
    return localStorage.getItem(DEBUG_KEY(p)) === '1';
  } catch {
    return false;
  }
}

/** Switch debug mode (the caller has asked the server first when switching on). */
export function setDebugMode(p: string, on: boolean): void {
  try {
    if (on) localStorage.setItem(DEBUG_KEY(p), '1');
    else localStorage.removeItem(DEBUG_KEY(p));
  } catch {
    /* private mode: the switch lasts for this page */
  }
  for (const l of debugListeners) l();
}

function onDebugMode(listener: () => void): () => void {
  debugListeners.add(listener);
  return () => debugListeners.delete(listener);
}

/** Everything the admin menu and screens decide on; null until the project's flags are read. */
export function useAdminContext(p: string | null): AdminContext | null {
  const info = useAdminFeatures((s) => (s.project === p ? s.info : null));
  const load = useAdminFeatures((s) => s.load);
  const debug = useSyncExternalStore(onDebugMode, () => debugMode(p));
  const early = useSyncExternalStore(onEarlyAccess, earlyAccess);
  useEffect(() => {
    if (p) load(p).catch(() => undefined);
  }, [p, load]);
  if (!info) return null;
  return { flags: info.flags, debug, early, vendor: info.vendor };
}
