/**
 * Starts a page's JSON fetch from the route loader, in parallel with the sign-in check and the lazy
 * screen chunks, instead of after them (cold loads paint the first widget sooner). Tiny on purpose:
 * the router imports it, so it must not pull the renderer into the entry bundle.
 */
import { COMMON_KINDS } from '../../../widgets/common-kinds.ts';
import { get } from '../api/request.ts';
import { WB_KEYS } from '../stores/workbench.ts';

export interface AppPageAnswer {
  _id: string;
  name: string;
  version: number | null;
  preview: boolean;
  document: import('../../shared/page-document.ts').PageDocument;
}

const PREFETCH_TTL_MS = 10_000;
const started = new Map<string, { at: number; promise: Promise<AppPageAnswer>; value?: AppPageAnswer }>();

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

/**
 * The page the route loader fetched, when it has already arrived and `usable` accepts it (e.g. its
 * kinds' views are loaded): the screen then draws it in its first render. Taken once.
 */
export function takeArrived(
  project: string,
  id: string,
  preview: boolean,
  display: boolean,
  usable: (page: AppPageAnswer) => boolean,
): AppPageAnswer | null {
  const key = pageUrl(project, id, preview, display);
  const hit = started.get(key);
  if (!hit?.value || Date.now() - hit.at >= PREFETCH_TTL_MS || !usable(hit.value)) return null;
  started.delete(key);
  return hit.value;
}

/** Route loader helper: begins the fetch and returns at once. */
export function prefetchPage(project: string | null, id: string | undefined, display = false): null {
  if (!project || !id || !/^[0-9a-f]{24}$/.test(id) || !/^[0-9a-f]{24}$/.test(project)) return null;
  const key = pageUrl(project, id, false, display);
  const promise = arrived(get<AppPageAnswer>(key, { quiet: true }));
  const entry: { at: number; promise: Promise<AppPageAnswer>; value?: AppPageAnswer } = {
    at: Date.now(),
    promise,
  };
  promise.then((p) => (entry.value = p)).catch(() => undefined);
  started.set(key, entry);
  // As soon as the JSON is here, every kind it uses (nested ones too) starts loading in one go.
  promise.then((p) => loadRenders(kindsOf(p.document))).catch(() => {});
  return null;
}

/**
 * Kind → its render chunk, straight from the file layout (`widgets/<kind>/render.tsx`, the folder
 * name is the kind). Lazy: only the import functions are in the entry. The registry's own loaders
 * import the same modules, so what is fetched here is what they get, at once.
 */
const RENDERS = import.meta.glob('../../../widgets/*/render.tsx');

/** True when the kind's render chunk is in the manifest (every registered kind must be). */
export function hasRenderChunk(kind: string): boolean {
  return `../../../widgets/${kind}/render.tsx` in RENDERS;
}

/** Starts loading the render chunks of these kinds (unknown kinds are skipped). */
export function loadRenders(kinds: Iterable<string>): Promise<unknown> {
  const out: Promise<unknown>[] = [];
  for (const k of kinds) {
    const load = RENDERS[`../../../widgets/${k}/render.tsx`];
    if (load) out.push(load().catch(() => undefined));
  }
  return Promise.all(out);
}

/** Every kind a page document uses, nested containers' children included (one walk, no waterfall). */
export function kindsOf(doc: { widgets?: readonly unknown[] }): Set<string> {
  const kinds = new Set<string>();
  const walk = (ws: readonly unknown[] | undefined) => {
    for (const w of ws ?? []) {
      const kind = (w as { kind?: unknown }).kind;
      if (typeof kind === 'string') kinds.add(kind);
      walk((w as { children?: unknown[] }).children);
    }
  };
  walk(doc.widgets);
  return kinds;
}

export { COMMON_KINDS };

let warmed = false;

/**
 * Starts loading the renderer and the render chunks of the kinds most pages use, before the page
 * JSON has arrived (a route loader calls it on match). Once per window; lazy chunks, not the entry.
 */
export function warmRuntime(): void {
  if (warmed) return;
  warmed = true;
  void loadRenders(COMMON_KINDS);
  import('./PageRenderer.tsx').catch(() => {});
}

/** The current project as the workbench store keeps it (read without the store, for loaders). */
export function storedProject(): string | null {
  try {
    return globalThis.localStorage?.getItem(WB_KEYS.project) ?? null;
  } catch {
    return null;
  }
}
