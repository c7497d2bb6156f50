/**
 * Which system the end-user shell shows (its menu, title, pages and lists), as one pure rule shared
 * by the signed-in frame and the screens that need the project before the frame's effects ran.
 */
import { type Selectable, selectProject } from '../screens/workbench/project-select.ts';

export interface ShellProjectInput {
  /** The project named by the path (`/app/{project}/…`). */
  route: string | null;
  /** The active custom project prefix (navigation rule 2). */
  custom: string | null;
  /** The user's current system as last chosen (local storage). */
  stored: string | null;
  /** The user's systems; null while the list is on its way. */
  projects: readonly Selectable[] | null;
  userId: string | null;
}

/**
 * The path's project, else the custom prefix, else — once the list is in — the stored choice when
 * the user still belongs to it, else one they own, administer, or the first (builder spec §4).
 * While the list is on its way the stored choice stands in, so a returning user's page starts at once.
 */
export function shellProjectId(i: ShellProjectInput): string | null {
  if (i.route) return i.route;
  if (i.custom) return i.custom;
  if (i.projects === null) return i.stored;
  return selectProject(i.projects, i.stored, i.userId)?._id ?? null;
}

/**
 * The choice to remember as the user's current system, or null to leave the stored one: the shown
 * project when the user belongs to it (a custom prefix is pinned for the session, never stored).
 */
export function choiceToStore(i: ShellProjectInput, shown: string | null): string | null {
  if (i.custom || i.projects === null || !shown || shown === i.stored) return null;
  return i.projects.some((p) => p._id === shown) ? shown : null;
}
