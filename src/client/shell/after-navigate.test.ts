import { describe, expect, it } from 'vitest';
import { installAfterNavigate, type NavigationSource, onModalReset } from './after-navigate.ts';

function fakeRouter(path: string) {
  let listener: ((s: NavigationSource['state']) => void) | null = null;
  const router: NavigationSource = {
    state: { location: { pathname: path, search: '' }, navigation: { state: 'idle' } },
    subscribe(fn) {
      listener = fn;
      return () => {
        listener = null;
      };
    },
  };
  const go = (pathname: string, nav = 'idle', search = '') =>
    listener?.({ location: { pathname, search }, navigation: { state: nav } });
  return { router, go };
}

describe('rule 8: after each navigation', () => {
  it('tracks the jump, scrolls to top and resets modals, once per finished navigation', () => {
    const { router, go } = fakeRouter('/');
    const log: string[] = [];
    const stop = installAfterNavigate(router, {
      track: (from, to) => log.push(`track ${from}→${to}`),
      scrollTop: () => log.push('scroll'),
      closeModals: () => log.push('modals'),
    });
    const off = onModalReset(() => log.push('stack'));
    go('/user', 'loading');
    expect(log).toEqual([]);
    go('/user');
    expect(log).toEqual(['track /→/user', 'scroll', 'modals', 'stack']);
    go('/user');
    expect(log).toHaveLength(4);
    go('/user', 'idle', '?tab=2');
    expect(log[4]).toBe('track /user→/user?tab=2');
    off();
    stop();
    go('/x');
    expect(log).toHaveLength(8);
  });
});
