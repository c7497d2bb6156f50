/**
 * Starts a page's JSON fetch from the route loader, in parallel with the sign-in check and the lazy
 * screen chunks, instead of after them (cold loads paint the first widget sooner). Tiny on purpose:
 * the router imports it, so it must not pull the renderer into the entry bundle.
 */
import { get } from '../api/request.ts';
import { WB_KEYS } from '../stores/workbench.ts';

export interface AppPageAnswer {
  _id: string;
  name: string;
  version: number | null;
  preview: boolean;
  document: import('../../../widgets/restore.ts').PageDocument;
}

const PREFETCH_TTL_MS = 10_000;
const started = new Map<string, { at: number; promise: Promise<AppPageAnswer> }>();

/** The page call; displays (the /display/{id} screen) come from the displays call. */
export function pageUrl(project: string, id: string, preview: boolean, display = false): string {
  const q = preview ? '?preview=1' : '';
  const base = display && !preview ? '/api/app/dp' : '/api/app/page';
  return `${base}/${encodeURIComponent(project)}/${encodeURIComponent(id)}${q}`;
}

/** Fetches a page, reusing a fetch the route loader started in the last few seconds. */
export function fetchPage(
  project: string,
  id: string,
  preview: boolean,
  display = false,
): Promise<AppPageAnswer> {
  const key = pageUrl(project, id, preview, display);
  const hit = started.get(key);
  started.delete(key);
  if (hit && Date.now() - hit.at < PREFETCH_TTL_MS) return hit.promise;
  return arrived(get<AppPageAnswer>(key, { quiet: true }));
}

/** Marks when a page's JSON arrived (bench:runtime measures the render from there). */
function arrived(p: Promise<AppPageAnswer>): Promise<AppPageAnswer> {
  return p.then((page) => {
    if (typeof performance !== 'undefined') performance.mark('lc:page-json');
    return page;
  });
}

/** Route loader helper: begins the fetch and returns at once. */
export function prefetchPage(project: string | null, id: string | undefined, display = false): null {
  if (!project || !id || !/^[0-9a-f]{24}$/.test(id) || !/^[0-9a-f]{24}$/.test(project)) return null;
  const key = pageUrl(project, id, false, display);
  const promise = arrived(get<AppPageAnswer>(key, { quiet: true }));
  started.set(key, { at: Date.now(), promise });
  // Also start loading the renderer and the page's widget kinds (lazy chunks, not in the entry).
  promise.then((p) => import('./PageRenderer.tsx').then((m) => m.preloadKinds(p.document))).catch(() => {});
  return null;
}

/** The current project as the workbench store keeps it (read without the store, for loaders). */
export function storedProject(): string | null {
  try {
    return globalThis.localStorage?.getItem(WB_KEYS.project) ?? null;
  } catch {
    return null;
  }
}
