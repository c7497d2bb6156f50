/**
 * Form drafts (spec: at most 10 stored, a draft over 102,400 characters is not saved; default display
 * 1, debug shows 8). Unsent form input is kept in localStorage per page + form and offered back when
 * the form opens again; saving the form clears it.
 */
import { DRAFT_MAX_CHARS, DRAFTS_MAX } from '../../shared/constants.ts';

export const DRAFTS_KEY = 'lc_drafts';
export const DRAFTS_SHOWN = 1;
export const DRAFTS_SHOWN_DEBUG = 8;

export interface Draft {
  page: string;
  form: string;
  values: Record<string, unknown>;
  savedAt: number;
}

function storage(): Storage | undefined {
  try {
    return globalThis.localStorage;
  } catch {
    return undefined;
  }
}

export function listDrafts(): Draft[] {
  const raw = storage()?.getItem(DRAFTS_KEY);
  if (!raw) return [];
  try {
    const v = JSON.parse(raw) as unknown;
    return Array.isArray(v)
      ? v.filter(
          (d): d is Draft =>
            typeof d === 'object' && d !== null && typeof d.page === 'string' && typeof d.form === 'string',
        )
      : [];
  } catch {
    return [];
  }
}

function write(drafts: Draft[]): void {
  try {
    storage()?.setItem(DRAFTS_KEY, JSON.stringify(drafts));
  } catch {
    // Quota reached: drafts are a convenience, the form itself still works.
  }
}

/**
 * Stores a form's unsent input as its draft (newest first, at most DRAFTS_MAX). Answers false when
 * the draft is too large (over DRAFT_MAX_CHARS) and was not saved.
 */
export function saveDraft(
  page: string,
  form: string,
  values: Record<string, unknown>,
  now = Date.now(),
): boolean {
  const size = JSON.stringify(values).length;
  if (size > DRAFT_MAX_CHARS) return false;
  const rest = listDrafts().filter((d) => !(d.page === page && d.form === form));
  write([{ page, form, values, savedAt: now }, ...rest].slice(0, DRAFTS_MAX));
  return true;
}

export function findDraft(page: string, form: string): Draft | undefined {
  return listDrafts().find((d) => d.page === page && d.form === form);
}

export function clearDraft(page: string, form: string): void {
  const all = listDrafts();
  const rest = all.filter((d) => !(d.page === page && d.form === form));
  if (rest.length !== all.length) write(rest);
}

/** How many drafts the drafts list shows. */
export function draftsShown(debug: boolean): number {
  return debug ? DRAFTS_SHOWN_DEBUG : DRAFTS_SHOWN;
}
