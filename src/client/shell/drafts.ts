/**
 * Drafts as the toolbar lists them (runtime spec §3 "Draft: flow, time, save flag", §9: at most 10
 * kept, default display 1, debug shows 8). Whoever saves form drafts stores each one in local storage
 * under `DRAFT_KEY_PREFIX + id` as JSON `{ flow, time, save, name? }`; this module only reads them.
 */
import { DRAFTS_MAX } from '../../shared/constants.ts';

export const DRAFT_KEY_PREFIX = 'lc_draft:';
export const DRAFTS_SHOWN = 1;
export const DRAFTS_SHOWN_DEBUG = 8;

export interface DraftInfo {
  id: string;
  flow: string;
  time: number;
  save: boolean;
  name: string;
}

interface Listable {
  readonly length: number;
  key(i: number): string | null;
  getItem(key: string): string | null;
}

/** The stored drafts, newest first, the number shown by mode (1, or 8 in debug). */
export function listDrafts(store: Listable, debug: boolean): DraftInfo[] {
  const out: DraftInfo[] = [];
  for (let i = 0; i < store.length; i++) {
    const key = store.key(i);
    if (!key?.startsWith(DRAFT_KEY_PREFIX)) continue;
    try {
      const v = JSON.parse(store.getItem(key) ?? '') as Partial<DraftInfo>;
      if (typeof v?.flow !== 'string' || typeof v.time !== 'number') continue;
      out.push({
        id: key.slice(DRAFT_KEY_PREFIX.length),
        flow: v.flow,
        time: v.time,
        save: v.save === true,
        name: typeof v.name === 'string' && v.name ? v.name : v.flow,
      });
    } catch {
      // Not a draft written in the agreed shape: skip it.
    }
  }
  out.sort((a, b) => b.time - a.time);
  return out.slice(0, Math.min(DRAFTS_MAX, debug ? DRAFTS_SHOWN_DEBUG : DRAFTS_SHOWN));
}
