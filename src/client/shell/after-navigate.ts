/**
 * Navigation rule 8: after each navigation a page-jump event is tracked, the loading bar finishes,
 * the page scrolls to top and modal state is reset. The tracking event is a `lc:page-jump`
 * CustomEvent on window ({ from, to }) that analytics or the runtime can listen to; modals opened
 * through antd's static API are closed, and `onModalReset` listeners (the runtime's modal stack)
 * are called.
 */
export const PAGE_JUMP_EVENT = 'lc:page-jump';

export interface NavigationSource {
  state: { location: { pathname: string; search: string }; navigation: { state: string } };
  subscribe(fn: (state: NavigationSource['state']) => void): () => void;
}

export interface AfterNavigateEffects {
  scrollTop(): void;
  closeModals(): void;
  track(from: string, to: string): void;
}

const resetters = new Set<() => void>();

/** Called after every navigation, to reset a modal stack kept elsewhere. */
export function onModalReset(fn: () => void): () => void {
  resetters.add(fn);
  return () => resetters.delete(fn);
}

/** Run the effects once per finished navigation to another address. */
export function installAfterNavigate(router: NavigationSource, fx: AfterNavigateEffects): () => void {
  let last = router.state.location.pathname + router.state.location.search;
  return router.subscribe((state) => {
    if (state.navigation.state !== 'idle') return;
    const at = state.location.pathname + state.location.search;
    if (at === last) return;
    const from = last;
    last = at;
    fx.track(from, at);
    fx.scrollTop();
    fx.closeModals();
    for (const r of resetters) r();
  });
}
