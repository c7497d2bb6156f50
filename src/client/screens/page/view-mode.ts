/** The page mode (pc / mobile): `?mode=` wins, else the stored choice, else pc. */
import type { PageMode } from '../../runtime/PageRenderer.tsx';

export const VIEW_MODE_KEY = 'lc_view_mode';

export function viewMode(search: URLSearchParams): PageMode {
  const q = search.get('mode');
  if (q === 'mobile' || q === 'pc') return q;
  try {
    return globalThis.localStorage?.getItem(VIEW_MODE_KEY) === 'mobile' ? 'mobile' : 'pc';
  } catch {
    return 'pc';
  }
}

/** Route query parameters as page `params` (the reserved `mode`, `page` and `project` left out). */
export function pageParams(search: URLSearchParams): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of search) if (k !== 'mode' && k !== 'page' && k !== 'project') out[k] = v;
  return out;
}
