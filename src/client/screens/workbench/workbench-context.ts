/** What the workbench screens share: the current project and the user's projects. */
import { createContext, useContext } from 'react';
import type { Project } from '../../api/account.ts';

export interface WorkbenchValue {
  project: Project;
  projects: Project[];
}

export const WorkbenchContext = createContext<WorkbenchValue | null>(null);

/** The current project; only inside the workbench layout once a project is chosen. */
export function useProject(): Project {
  const v = useContext(WorkbenchContext);
  if (!v) throw new Error('useProject outside the workbench');
  return v.project;
}
