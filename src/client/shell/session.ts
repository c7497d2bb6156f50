/** Sign-in state transitions shared by the screens and the route guards (navigation rules 3–7). */
import { redirect } from 'react-router';
import { api } from '../api/account.ts';
import { ApiError } from '../api/api-error.ts';
import { afterEffects, effects, effectsReady } from '../api/effects.ts';
import { clearRequestCache } from '../api/request.ts';
import { appInitOnce, forgetAppInits, shellApi } from '../api/shell.ts';
import { getToken, setToken } from '../api/storage.ts';
import { useSession } from '../stores/session.ts';
import { useShell } from '../stores/shell.ts';
import { applyQueryOptions, decide, parseQueryOptions, stripOptions } from './navigation.ts';

/** Sign in with account/phone and password (or `token` + a token); stores the token and user. */
export async function signIn(user: string, pwd: string): Promise<void> {
  const answer = await api.login(user, pwd);
  setToken(answer.token);
  forgetAppInits();
  useSession.getState().setUser(answer.user);
  useSession.getState().setLanding(true);
}

/** Load the user when signed in; a failure clears the token (spec navigation rule 6). */
export async function ensureUser(): Promise<boolean> {
  if (!getToken()) return false;
  if (useSession.getState().user) return true;
  try {
    useSession.getState().setUser(await api.userInfo());
    return true;
  } catch {
    setToken(null);
    return false;
  }
}

/** End the session here and on the server; platform and debug state are reset (rule 4). */
export async function signOut(): Promise<void> {
  if (getToken()) await api.logout().catch(() => undefined);
  setToken(null);
  clearRequestCache();
  forgetAppInits();
  useSession.setState({ user: null, limited: false });
  useShell.getState().reset();
}

/**
 * Rule 5: init the app of a project once (an init the page's setup loader already has counts: the
 * guard then lets the navigation through without a round trip); a failure clears the token.
 */
async function initApp(project: string): Promise<boolean> {
  try {
    const init = await appInitOnce(project);
    if (init.project._limited) useSession.getState().setLimited(true);
    return true;
  } catch {
    setToken(null);
    useSession.setState({ user: null });
    return false;
  }
}

/** Route guard: rules 2–7 decided by `decide`, carried out here. */
export async function guardLoader({ request }: { request: Request }): Promise<null> {
  const path = new URL(request.url).pathname;
  const shell = useShell.getState();
  const d = decide({
    path,
    token: getToken(),
    custom: shell.custom,
    limited: useSession.getState().limited,
  });
  switch (d.kind) {
    case 'reset':
      resetLoader();
      break;
    case 'logout':
      await signOut();
      throw redirect(d.to);
    case 'redirect':
      throw redirect(d.to);
    case 'allow':
      if (d.custom !== shell.custom) shell.setCustom(d.custom);
      if (d.initApp && !(await initApp(d.initApp))) throw redirect(d.login);
      if (d.loadUser && !(await ensureUser())) throw redirect(d.login);
      break;
  }
  return null;
}

/** /reset: clear local and session storage, then go home (spec navigation rule 3). */
export function resetLoader(): never {
  localStorage.clear();
  sessionStorage.clear();
  forgetAppInits();
  useSession.setState({ user: null, limited: false });
  useShell.getState().reset();
  useShell.getState().setCustom(null);
  throw redirect('/');
}

/**
 * Read the URL query options once at start (spec §2): store them, take a login token, exchange
 * messaging-app tokens, and drop the consumed keys from the address.
 */
export async function applyStartOptions(location: Location = window.location): Promise<void> {
  const opts = parseQueryOptions(location.search, {
    userAgent: navigator.userAgent,
    width: window.innerWidth,
  });
  const applied = applyQueryOptions(opts, { local: localStorage, session: sessionStorage, setToken });
  if (opts.mode) useShell.getState().setScreenMode(opts.mode);
  if (opts.fullScreen) useShell.setState({ fullScreen: true });
  if (opts.console) useShell.getState().setDebug(true);
  const rest = stripOptions(location.search);
  if (rest !== location.search) {
    history.replaceState(history.state, '', `${location.pathname}${rest}${location.hash}`);
  }
  // A messaging-app token signs in when the server can exchange it; otherwise the request wrapper
  // shows the server's coded error (e.g. the integration is not configured).
  for (const token of applied.exchange) {
    try {
      const answer = await shellApi.oauth(token);
      setToken(answer.token);
      useSession.setState({ user: null });
      break;
    } catch (err) {
      // The request wrapper shows the coded error, but this runs before the shell mounts (the
      // exchange must finish before the route guard): show it once the shell can.
      if (err instanceof ApiError && !effectsReady())
        afterEffects(() => effects.notifyError(err.code, err.message));
    }
  }
}
