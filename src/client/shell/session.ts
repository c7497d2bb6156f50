/** Sign-in state transitions shared by the screens and the route guards. */
import { redirect } from 'react-router';
import { api } from '../api/account.ts';
import { getToken, setToken } from '../api/storage.ts';
import { useSession } from '../stores/session.ts';

/** Sign in with account/phone and password (or `token` + a token); stores the token and user. */
export async function signIn(user: string, pwd: string): Promise<void> {
  const answer = await api.login(user, pwd);
  setToken(answer.token);
  useSession.getState().setUser(answer.user);
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

/** End the session here and on the server. */
export async function signOut(): Promise<void> {
  if (getToken()) await api.logout().catch(() => undefined);
  setToken(null);
  useSession.setState({ user: null, limited: false });
}

/** Route guard for the signed-in area: /logout suffix, no token, failed userInfo → /login. */
export async function guardLoader({ request }: { request: Request }): Promise<null> {
  const path = new URL(request.url).pathname;
  if (/\/logout\/?$/.test(path)) {
    await signOut();
    throw redirect('/login');
  }
  if (!(await ensureUser())) throw redirect('/login');
  return null;
}

/** /reset: clear local and session storage, then go home (spec navigation rule 3). */
export function resetLoader(): never {
  localStorage.clear();
  sessionStorage.clear();
  useSession.setState({ user: null, limited: false });
  throw redirect('/');
}
