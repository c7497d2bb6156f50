/**
 * Lazily loaded screens, one record per import function: `load()` starts (or joins) the chunk load
 * and `loaded` is set once it is in, so a screen already loaded draws without suspending (see
 * ScreenView in router.tsx). The page-drawing screens' import functions live here, shared by the
 * route table and by the signed-in frame, which warms the ones its menu opens.
 */
import { type ComponentType, lazy } from 'react';

export type ScreenModule = { default: ComponentType };

export interface LazyScreen {
  /** Keys the view: routes' screens share a tree position, so React would reuse one for another. */
  id: number;
  load: () => Promise<ScreenModule>;
  Lazy: ComponentType;
  readonly loaded: ComponentType | undefined;
}

const lazyScreens = new WeakMap<() => Promise<ScreenModule>, LazyScreen>();
let screenSeq = 0;

/** One lazy screen per import function; `loaded` is set once its chunk is in. */
export function lazyScreen(importer: () => Promise<ScreenModule>): LazyScreen {
  let hit = lazyScreens.get(importer);
  if (!hit) {
    const state: { loaded?: ComponentType } = {};
    const load = () =>
      importer().then((m) => {
        state.loaded = m.default;
        return m;
      });
    hit = {
      id: ++screenSeq,
      load,
      Lazy: lazy(load),
      get loaded() {
        return state.loaded;
      },
    };
    lazyScreens.set(importer, hit);
  }
  return hit;
}

// Screens a page route needs, started by its loader (in parallel with the page JSON and the
// sign-in check) instead of one after the other as each lazy layout renders its outlet.
export const rootLayout = () => import('./screens/home/RootLayout.tsx');
export const pageScreen = () => import('./screens/page/PageScreen.tsx');
export const displayScreen = () => import('./screens/page/DisplayScreen.tsx');
export const appPageScreen = () => import('./screens/page/AppPageScreen.tsx');
export const appPrintScreen = () => import('./screens/page/AppPrintScreen.tsx');
export const listScreen = () => import('./screens/home/ListScreen.tsx');

/**
 * Starts loading the screens the menu opens (page entries open /app/{project}/{page}, table entries
 * the list screen, displays their screen), so the first click draws without a chunk wait and
 * without a loading fallback — React holds a boundary's content back for up to 300 ms after its
 * fallback showed. Called by the signed-in frame once the browser is idle.
 */
export function warmMenuScreens(): void {
  for (const importer of [appPageScreen, pageScreen, listScreen, displayScreen])
    void lazyScreen(importer)
      .load()
      .catch(() => undefined);
}
