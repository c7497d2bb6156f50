/** Workbench state kept between visits: the mode (dev or app) and the current project. */
import { create } from 'zustand';

export type Mode = 'dev' | 'app';
export const WB_KEYS = { mode: 'lc_mode', project: 'lc_project' } as const;

function read(key: string): string | null {
  try {
    return globalThis.localStorage?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

function write(key: string, value: string | null): void {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch {
    // Storage may be unavailable (private mode): the choice then lasts for this visit only.
  }
}

/** The stored mode; app unless dev was chosen. */
export function storedMode(): Mode {
  return read(WB_KEYS.mode) === 'dev' ? 'dev' : 'app';
}

interface WorkbenchState {
  mode: Mode;
  projectId: string | null;
  setMode(mode: Mode): void;
  setProject(id: string | null): void;
}

export const useWorkbench = create<WorkbenchState>()((set) => ({
  mode: storedMode(),
  projectId: read(WB_KEYS.project),
  setMode: (mode) => {
    write(WB_KEYS.mode, mode);
    set({ mode });
  },
  setProject: (projectId) => {
    write(WB_KEYS.project, projectId);
    set({ projectId });
  },
}));
