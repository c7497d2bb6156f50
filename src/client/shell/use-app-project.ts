/** The shell's current app project, its menu, and the phone-width flag. */
import { useEffect } from 'react';
import type { Project } from '../api/account.ts';
import { api } from '../api/account.ts';
import { clearRequestCache } from '../api/request.ts';
import { shellApi } from '../api/shell.ts';
import { canBuild } from '../screens/workbench/project-select.ts';
import { useSession } from '../stores/session.ts';
import { useShell } from '../stores/shell.ts';
import { useWorkbench } from '../stores/workbench.ts';
import { choiceToStore, type ShellProjectInput, shellProjectId } from './current-project.ts';
import { buildMenuTree } from './menu.ts';

export { PHONE_WIDTH, useNarrow } from './use-narrow.ts';

function useProjectInput(route: string | null): ShellProjectInput {
  const userId = useSession((s) => s.user?._id ?? null);
  const stored = useWorkbench((s) => s.projectId);
  const custom = useShell((s) => s.custom);
  const projects = useShell((s) => s.projects);
  return { route, custom, stored, projects, userId };
}

/**
 * The project the shell shows, computed in render (no effect in between): `ready` is false while
 * the user's systems are still loading and no project is known yet, so a screen waits instead of
 * saying "choose a system".
 */
export function useShellProject(route: string | null = null): { id: string | null; ready: boolean } {
  const input = useProjectInput(route);
  const id = shellProjectId(input);
  return { id, ready: id !== null || input.projects !== null };
}

/** Asks for the user's systems again (the home screen does on each visit: a new invitation shows). */
export function refreshProjects(): Promise<void> {
  return api.projects().then(
    (list) => useShell.getState().setProjects(list),
    () => {
      if (useShell.getState().projects === null) useShell.getState().setProjects([]);
    },
  );
}

/**
 * Called once, by the signed-in frame: loads the user's systems, picks the shown one (the path's
 * `/app/{project}`, the custom prefix, the stored choice, one the user owns, administers, or the
 * first — spec §4 "Project selection"), remembers it as the current system, and loads its menu.
 */
export function useShellProjectSync(route: string | null): void {
  const userId = useSession((s) => s.user?._id ?? null);
  const input = useProjectInput(route);
  const id = shellProjectId(input);
  const projects = useShell((s) => s.projects);
  const name = projects?.find((p) => p._id === id)?._name ?? '';
  const toStore = choiceToStore(input, id);
  const projectId = useShell((s) => s.projectId);

  useEffect(() => {
    if (!userId) return;
    let live = true;
    api.projects().then(
      (list) => live && useShell.getState().setProjects(list),
      () => live && useShell.getState().setProjects([]),
    );
    return () => {
      live = false;
    };
  }, [userId]);

  useEffect(() => {
    const s = useShell.getState();
    if (id !== s.projectId || name !== s.projectName) s.setProject(id, name);
  }, [id, name]);

  useEffect(() => {
    if (toStore) useWorkbench.getState().setProject(toStore);
  }, [toStore]);

  useEffect(() => {
    if (!projectId) {
      useShell.getState().setMenu([], false, null);
      return;
    }
    let live = true;
    useShell.getState().setMenu(useShell.getState().menu, true);
    shellApi.routes(projectId).then(
      (list) => live && useShell.getState().setMenu(buildMenuTree(list), false, projectId),
      () => live && useShell.getState().setMenu([], false, projectId),
    );
    return () => {
      live = false;
    };
  }, [projectId]);
}

/**
 * Read the shown system's menu again (after an import replaced or added menu entries, #22): the
 * side menu otherwise keeps the entries it read when the system was opened.
 */
export async function reloadShellMenu(projectId: string): Promise<void> {
  // The route list is cached for ROUTE_CACHE_TTL_MS: drop the cache so the new entries are read.
  clearRequestCache();
  const list = await shellApi.routes(projectId);
  if (useShell.getState().projectId === projectId)
    useShell.getState().setMenu(buildMenuTree(list), false, projectId);
}

/** The user's systems (empty while loading), the one the shell shows, and whether the user builds it. */
export function useAppProject(): { projects: Project[]; current: Project | null; builder: boolean } {
  const projects = useShell((s) => s.projects);
  const projectId = useShell((s) => s.projectId);
  const current = projects?.find((p) => p._id === projectId) ?? null;
  return { projects: projects ?? EMPTY, current, builder: canBuild(current) };
}

const EMPTY: Project[] = [];
