/**
 * Drafts as the toolbar lists them (runtime spec §3 "Draft: flow, time, save flag", §9: at most 10
 * kept, default display 1, debug shows 8). Form drafts are written by the page runtime
 * (`runtime/drafts.ts`, one list in local storage); this module only shapes them for the list.
 */
import { type Draft, draftsShown, listDrafts as storedDrafts } from '../runtime/drafts.ts';

export interface DraftInfo {
  /** `<page>/<form>`. */
  id: string;
  /** The page the draft belongs to (opened from the list). */
  page: string;
  flow: string;
  time: number;
  save: boolean;
  name: string;
}

/** The stored drafts, newest first, as many as the mode shows (1, or 8 in debug). */
export function listDrafts(debug: boolean, drafts: readonly Draft[] = storedDrafts()): DraftInfo[] {
  return [...drafts]
    .sort((a, b) => b.savedAt - a.savedAt)
    .slice(0, draftsShown(debug))
    .map((d) => ({
      id: `${d.page}/${d.form}`,
      page: d.page,
      flow: d.form,
      time: d.savedAt,
      save: false,
      name: d.form,
    }));
}
