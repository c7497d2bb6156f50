/** The shell's current app project, its menu, and the phone-width flag. */
import { useEffect, useState } from 'react';
import type { Project } from '../api/account.ts';
import { api } from '../api/account.ts';
import { shellApi } from '../api/shell.ts';
import { canBuild, selectProject } from '../screens/workbench/project-select.ts';
import { useSession } from '../stores/session.ts';
import { useShell } from '../stores/shell.ts';
import { useWorkbench } from '../stores/workbench.ts';
import { buildMenuTree } from './menu.ts';

/** Below this width the menu is a drawer and the toolbar folds into "More". */
export const PHONE_WIDTH = 768;

export function useNarrow(): boolean {
  const [narrow, setNarrow] = useState(() => window.innerWidth < PHONE_WIDTH);
  useEffect(() => {
    const onResize = () => setNarrow(window.innerWidth < PHONE_WIDTH);
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);
  return narrow;
}

/**
 * Pick the project (custom prefix, else the stored one, else one the user owns, admin, first —
 * spec §4 "Project selection"), load the user's menu for it, and answer the list and the choice.
 */
export function useAppProject(): { projects: Project[]; current: Project | null; builder: boolean } {
  const user = useSession((s) => s.user);
  const stored = useWorkbench((s) => s.projectId);
  const custom = useShell((s) => s.custom);
  const projectId = useShell((s) => s.projectId);
  const [projects, setProjects] = useState<Project[]>([]);

  useEffect(() => {
    if (!user) return;
    api.projects().then(setProjects, () => setProjects([]));
  }, [user]);

  const current = custom
    ? (projects.find((p) => p._id === custom) ?? null)
    : selectProject(projects, stored, user?._id ?? null);

  useEffect(() => {
    const id = custom ?? current?._id ?? null;
    if (
      id !== useShell.getState().projectId ||
      (current && current._name !== useShell.getState().projectName)
    ) {
      useShell.getState().setProject(id, current?._name ?? '');
    }
  }, [custom, current]);

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

  return { projects, current, builder: canBuild(current) };
}
