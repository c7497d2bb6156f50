/** The page mode (pc / mobile): `?mode=` wins, else the shell's screen mode (toolbar switch, stored). */
import type { PageMode } from '../../../shared/page-document.ts';
import { useShell } from '../../stores/shell.ts';

export function useViewMode(search: URLSearchParams): PageMode {
  const stored = useShell((s) => s.screenMode);
  const q = search.get('mode');
  return q === 'mobile' || q === 'pc' ? q : stored;
}

/** Route query parameters as page `params` (the reserved `mode`, `page` and `project` left out). */
export function pageParams(search: URLSearchParams): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of search) if (k !== 'mode' && k !== 'page' && k !== 'project') out[k] = v;
  return out;
}
