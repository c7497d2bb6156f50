import { Modal } from 'antd';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { setApiEffects } from './api/effects.ts';
import { i18nReady, initI18n } from './i18n/index.ts';
import { createAppRouter } from './router.tsx';
import { installAfterNavigate, PAGE_JUMP_EVENT } from './shell/after-navigate.ts';
import { Providers } from './shell/Providers.tsx';
import { applyStartOptions } from './shell/session.ts';
import { useSession } from './stores/session.ts';
import { useShell } from './stores/shell.ts';
import './styles.css';

initI18n();
// URL query options (mode, tokens, bm_*, babel, o_w_full, console) are read once, before routing.
// The app starts after them: a messaging-app sign-in code (?wx_token=) must become a session before
// the route guard runs; meanwhile an early-access language's strings load (zh and en are in the entry).
// A promise, not a top-level await: with one in the entry the bundler reaches every lazily loaded
// module of the page path's chunk through a re-export file of its own (the screens, the renderer,
// each kind's render), 15 more requests queued ahead of the page JSON on a cold load.
void Promise.all([applyStartOptions(), i18nReady()]).then(start);

function start() {
  const router = createAppRouter();
  // Navigation rule 8: track the jump, scroll to top, reset modals.
  installAfterNavigate(router, {
    track: (from, to) => window.dispatchEvent(new CustomEvent(PAGE_JUMP_EVENT, { detail: { from, to } })),
    scrollTop: () => window.scrollTo(0, 0),
    closeModals: () => Modal.destroyAll(),
  });
  // Going home replaces the current history entry (spec navigation rule 10).
  const goHome = () => void router.navigate('/', { replace: true });
  setApiEffects({
    navigate: (to, replace) => void router.navigate(to, { replace: replace === true }),
    setLimited: (limited) => useSession.getState().setLimited(limited),
  });

  // Inside WeChat or WeCom: the JS-SDK, and WeCom's entry context (loaded only there).
  if (/micromessenger|wxwork/i.test(navigator.userAgent))
    void import('./third/jssdk.ts').then((m) => m.startMessagingApp(() => useShell.getState().screenMode));

  createRoot(document.getElementById('root')!).render(
    <Providers goHome={goHome}>
      <RouterProvider router={router} />
    </Providers>,
  );
}
