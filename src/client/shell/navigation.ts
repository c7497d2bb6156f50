/**
 * Navigation rules 1–11 and the URL query options read at start (runtime spec §2), as pure
 * functions: the router's loaders and the shell call them and carry out what they answer.
 */

/** A project id: 24 hexadecimal characters (spec §1). */
export const PROJECT_ID = /^[0-9a-f]{24}$/i;

export type ScreenMode = 'pc' | 'mobile';

/** Storage keys of the shell (local unless said otherwise). */
export const NAV_KEYS = {
  screenMode: 'lc_screen_mode',
  /** Session-stored screen mode; overrides the local one (spec §4 "Mode"). */
  sessionScreenMode: 'lc_screen_mode',
  wxToken: 'lc_wx_token',
  wxappToken: 'lc_wxapp_token',
  babel: 'lc_babel',
  fullScreen: 'lc_full_screen',
  console: 'lc_console',
  custom: 'lc_custom',
} as const;

// ---------------------------------------------------------------------------------------------
// Prefix handling (rules 1, 2)

/** Rule 1: paths under /dev or /app never take the custom-project prefix. */
export function skipsPrefix(path: string): boolean {
  return /^\/(dev|app)(\/|$)/.test(path);
}

/** Split a leading 24-hex project segment off a path (rule 2's detection). */
export function splitCustom(path: string): { custom: string | null; rest: string } {
  const m = /^\/([0-9a-fA-F]{24})(\/.*)?$/.exec(path);
  if (!m) return { custom: null, rest: path || '/' };
  return { custom: m[1]!.toLowerCase(), rest: m[2] || '/' };
}

/** Rule 2: add the active custom project's prefix to a path (unless rule 1 applies). */
export function withPrefix(path: string, custom: string | null): string {
  const p = path.startsWith('/') ? path : `/${path}`;
  if (!custom || skipsPrefix(p)) return p;
  if (splitCustom(p).custom === custom) return p;
  return p === '/' ? `/${custom}` : `/${custom}${p}`;
}

// ---------------------------------------------------------------------------------------------
// Where a navigation goes (rules 3–7)

export interface NavInput {
  /** The path asked for (no query). */
  path: string;
  token: string | null;
  /** The custom project active before this navigation. */
  custom: string | null;
  /** Platform state limited (expired or quota). */
  limited: boolean;
}

export type NavDecision =
  /** Rule 3: clear local and session storage, then go to `to`. */
  | { kind: 'reset'; to: string }
  /** Rule 4: log out (platform and debug state reset), then go to `to`. */
  | { kind: 'logout'; to: string }
  /** Go elsewhere instead. */
  | { kind: 'redirect'; to: string; replace?: boolean }
  /**
   * Let it through once the named preparations succeeded: `initApp` (rule 5) inits the app with that
   * project, `loadUser` (rule 6) loads user info; either failing clears the token and goes to `login`.
   * `custom` is the project the path's prefix activates (rule 2).
   */
  | { kind: 'allow'; custom: string | null; initApp: string | null; loadUser: boolean; login: string };

/** The login path, prefixed when a custom project applies (rule 4). */
export function loginPath(custom: string | null): string {
  return custom ? `/${custom}/login` : '/login';
}

function isLoginPath(rest: string): boolean {
  return rest === '/login' || rest.startsWith('/login/');
}

/** Decide what a navigation to `input.path` does (rules 1–7). */
export function decide(input: NavInput): NavDecision {
  const path = input.path || '/';
  const detected = skipsPrefix(path) ? { custom: null, rest: path } : splitCustom(path);
  const rest = detected.rest;
  const app = /^\/app\/([^/]+)(\/|$)/.exec(rest);
  // /app paths take no prefix (rule 1), but a page of the prefix's own project keeps it active:
  // the shell around the page still leads back under the prefix.
  const keep = app ? input.custom !== null && app[1]!.toLowerCase() === input.custom : !skipsPrefix(path);
  const custom = detected.custom ?? (keep ? input.custom : null);
  const login = loginPath(custom);
  if (rest === '/reset' || rest === '/reset/') return { kind: 'reset', to: '/' };
  if (/\/logout\/?$/.test(rest)) return { kind: 'logout', to: login };
  if (isLoginPath(rest)) return { kind: 'allow', custom, initApp: null, loadUser: false, login };
  if (!input.token) return { kind: 'redirect', to: login };
  if (input.limited && /^\/dev(\/|$)/.test(rest) && !/^\/dev\/(preview|expired)(\/|$)/.test(rest)) {
    return { kind: 'redirect', to: '/dev/expired' };
  }
  return { kind: 'allow', custom, initApp: app ? app[1]! : null, loadUser: true, login };
}

// ---------------------------------------------------------------------------------------------
// Links (rules 9, 10, 11)

/** Rule 9: an app page opens at /page/{id}, under the prefix when one applies. */
export function pagePath(id: string, custom: string | null): string {
  return withPrefix(`/page/${id}`, custom);
}

export interface MenuTarget {
  _id: string;
  _type: string;
  _value: string | null;
}

/**
 * Rule 9 for menu entries: page-type entries go to /app/{projectId}/{value}; list (table) entries
 * open the data list at /home/{value}; displays at /display/{value}; directories open nothing.
 */
export function menuPath(entry: MenuTarget, projectId: string, custom: string | null): string | null {
  if (!entry._value) return null;
  switch (entry._type) {
    case 'page':
      return `/app/${projectId}/${entry._value}`;
    case 'table':
      return withPrefix(`/home/${entry._value}`, custom);
    case 'display':
      return withPrefix(`/display/${entry._value}`, custom);
    default:
      return null;
  }
}

/** Rule 10: the home route (configured home, default /), prefixed unless it starts with /app/. */
export function homePath(configured: string | null | undefined, custom: string | null): string {
  const home = configured?.startsWith('/') ? configured : '/';
  if (home.startsWith('/app/')) return home;
  return withPrefix(home, custom);
}

/** Going home replaces the current history entry (rule 10). */
export const HOME_REPLACES = true;

/** Rule 11: route names starting with system belong to the admin area. */
export function isAdminRoute(nameOrPath: string): boolean {
  return /^\/?system/.test(nameOrPath);
}

// ---------------------------------------------------------------------------------------------
// URL query options read at start

export interface QueryOptions {
  mode: ScreenMode | null;
  wxToken: string | null;
  wxappToken: string | null;
  /** Keys starting with bm_, for session storage. */
  bm: Record<string, string>;
  babel: string | null;
  /** The value of the first key starting with o_u_token. */
  loginToken: string | null;
  /** o_w_full: hide menu and top bar. */
  fullScreen: boolean;
  /** console: open a debug console. */
  console: boolean;
}

/**
 * `mode=wxwork` (the WeCom entry mode, spec §4 "Mode"): mobile, or pc when on a PC (not a phone's
 * browser) with a window wider than 500.
 */
export function wxworkScreenMode(userAgent: string, width: number): ScreenMode {
  const phone = /android|iphone|ipad|ipod|mobile/i.test(userAgent);
  return !phone && width > 500 ? 'pc' : 'mobile';
}

/** `env` resolves `mode=wxwork` (without it that mode is ignored). */
export function parseQueryOptions(search: string, env?: { userAgent: string; width: number }): QueryOptions {
  const q = new URLSearchParams(search);
  const out: QueryOptions = {
    mode: null,
    wxToken: null,
    wxappToken: null,
    bm: {},
    babel: null,
    loginToken: null,
    fullScreen: false,
    console: false,
  };
  for (const [key, value] of q) {
    if (key === 'mode')
      out.mode =
        value === 'pc' || value === 'mobile'
          ? value
          : value === 'wxwork' && env
            ? wxworkScreenMode(env.userAgent, env.width)
            : out.mode;
    else if (key === 'wx_token' && value) out.wxToken = value;
    else if (key === 'wxapp_token' && value) out.wxappToken = value;
    else if (key.startsWith('bm_')) out.bm[key] = value;
    else if (key === 'babel') out.babel = value;
    else if (key.startsWith('o_u_token') && value && out.loginToken === null) out.loginToken = value;
    else if (key === 'o_w_full') out.fullScreen = value !== '0' && value !== 'false';
    else if (key === 'console') out.console = value !== '0' && value !== 'false';
  }
  return out;
}

/** The option keys consumed at start (removed from the address once applied). */
export function isOptionKey(key: string): boolean {
  return (
    ['mode', 'wx_token', 'wxapp_token', 'babel', 'o_w_full', 'console'].includes(key) ||
    key.startsWith('bm_') ||
    key.startsWith('o_u_token')
  );
}

export interface KeyValueStore {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export interface ApplyTarget {
  local: KeyValueStore;
  session: KeyValueStore;
  setToken(token: string): void;
}

/** What applying the options leaves for the caller to do (calls, reloads). */
export interface Applied {
  /** Messaging-app tokens to exchange for a login token (spec §7 POST /api/common/user/oauth/id). */
  exchange: string[];
  tokenSet: boolean;
}

/** Store what the options say (mode, tokens, bm_*, babel, o_w_full, console). */
export function applyQueryOptions(opts: QueryOptions, to: ApplyTarget): Applied {
  if (opts.mode) {
    to.local.setItem(NAV_KEYS.screenMode, opts.mode);
    to.session.removeItem(NAV_KEYS.sessionScreenMode);
  }
  const exchange: string[] = [];
  if (opts.wxToken) {
    to.local.setItem(NAV_KEYS.wxToken, opts.wxToken);
    exchange.push(opts.wxToken);
  }
  if (opts.wxappToken) {
    to.local.setItem(NAV_KEYS.wxappToken, opts.wxappToken);
    exchange.push(opts.wxappToken);
  }
  for (const [k, v] of Object.entries(opts.bm)) to.session.setItem(k, v);
  if (opts.babel !== null) to.session.setItem(NAV_KEYS.babel, opts.babel);
  if (opts.fullScreen) to.session.setItem(NAV_KEYS.fullScreen, '1');
  if (opts.console) to.session.setItem(NAV_KEYS.console, '1');
  if (opts.loginToken) to.setToken(opts.loginToken);
  return { exchange, tokenSet: opts.loginToken !== null };
}

/** The address without the consumed option keys. */
export function stripOptions(search: string): string {
  const q = new URLSearchParams(search);
  for (const key of [...q.keys()]) if (isOptionKey(key)) q.delete(key);
  const s = q.toString();
  return s ? `?${s}` : '';
}

/**
 * The screen mode (spec §4): a session-stored mode overrides; else the stored one; else mobile on a
 * narrow window (below 500 px), pc otherwise.
 */
export function screenMode(local: KeyValueStore, session: KeyValueStore, width: number): ScreenMode {
  const s = session.getItem(NAV_KEYS.sessionScreenMode);
  if (s === 'pc' || s === 'mobile') return s;
  const l = local.getItem(NAV_KEYS.screenMode);
  if (l === 'pc' || l === 'mobile') return l;
  return width < 500 ? 'mobile' : 'pc';
}

/**
 * The enterprise-messaging desktop client's entry context (spec §2): a normal entry viewed as mobile
 * switches to pc; another entry viewed as desktop switches to mobile. Answers the mode to reload with.
 */
export function wxworkSwitch(entry: string, mode: ScreenMode): ScreenMode | null {
  if (entry === 'normal' && mode === 'mobile') return 'pc';
  if (entry !== 'normal' && mode === 'pc') return 'mobile';
  return null;
}

/**
 * Root styling flags (spec §2): mobile or pc, dev, provider, ios, mini-app, weixin, wxwork — set as
 * classes on the document root so styles can follow the environment.
 */
export function rootFlags(input: {
  userAgent: string;
  mode: ScreenMode;
  dev: boolean;
  provider: boolean;
}): string[] {
  const ua = input.userAgent.toLowerCase();
  const flags: string[] = [input.mode];
  if (input.dev) flags.push('dev');
  if (input.provider) flags.push('provider');
  if (/iphone|ipad|ipod/.test(ua)) flags.push('ios');
  if (/miniprogram/.test(ua)) flags.push('mini-app');
  if (/wxwork/.test(ua)) flags.push('wxwork');
  else if (/micromessenger/.test(ua)) flags.push('weixin');
  return flags;
}

/** Where the admin area starts in `pathname` (`/system` or `/{custom}/system`), or null outside it. */
export function adminBase(pathname: string): string | null {
  const m = /^((?:\/[^/]+)?\/system)(?:\/|$)/.exec(pathname);
  return m ? m[1]! : null;
}
