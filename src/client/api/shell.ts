/** Typed calls of the end-user shell: app init, menus, account changes, token exchange, table rows. */

import { ROUTE_CACHE_TTL_MS } from '../shell/cache.ts';
import type { User } from './account.ts';
import { get, post, type RequestOptions } from './request.ts';

export interface AppInit {
  project: { _id: string; _name: string; _home: string; _status: number; _limited?: boolean };
  /** `code`: the project's setup script (runtime/PageView runs it). */
  custom: { logo?: string; name?: string; view?: unknown; reg?: unknown; code?: string };
  option: Record<string, unknown>;
  page: { _id: string; name: string } | null;
}

export interface RouteEntry {
  _id: string;
  _type: string;
  name: string;
  _parent: string | null;
  _value: string | null;
  _sort: number;
  _children?: RouteEntry[];
}

export interface Rows {
  data: Array<Record<string, unknown> & { _id: string }>;
  count?: number;
  page: { index: number; size: number };
}

const quiet: RequestOptions = { quiet: true };

const inits = new Map<string, Promise<AppInit>>();

/**
 * A project's app init, asked once per project and window and shared by its callers: the route
 * guard (rule 5) and the page's setup-script loader. Sharing it keeps a page opened from the menu
 * (/app/{project}/{page}) from waiting on a second init round trip before its first commit. A
 * failure is forgotten, so the next caller asks again.
 */
export function appInitOnce(project: string): Promise<AppInit> {
  let hit = inits.get(project);
  if (!hit) {
    hit = shellApi.appInit(project);
    hit.catch(() => inits.delete(project));
    inits.set(project, hit);
  }
  return hit;
}

/** Forget the inits (sign-out, reset): another user's session asks again. */
export function forgetAppInits(): void {
  inits.clear();
}

export const shellApi = {
  /** Rule 5: init the app of a project (quiet: a failure signs the user out). */
  appInit: (project: string) => get<AppInit>(`/api/common/app/${project}/init`, quiet),
  /** The menu the caller may see, nested and sorted by the server; cached 300 s (spec §9). */
  routes: (project: string) =>
    get<RouteEntry[]>(`/api/app/rt/${project}/list`, { cache: ROUTE_CACHE_TTL_MS }),
  updateNickname: (nickname: string) => post<User>('/api/common/user/update', { nickname }, quiet),
  changePhone: (phone: string, verify: string, pwd: string) =>
    post<User>('/api/common/user/phone', { phone, verify, pwd }, quiet),
  changePassword: (pwd: string, newPwd: string) =>
    post<{ token: string }>('/api/common/user/password', { pwd, newPwd }, quiet),
  /** Exchange a messaging-app token for a login token (spec §7). */
  oauth: (token: string) => post<{ token: string }>('/api/common/user/oauth/id', { token }),
  /** Rows of a table through the end-user data call (the caller's grants apply). */
  rows: (project: string, entity: string, index: number, size: number) =>
    post<Rows>(
      `/api/app/simple/${project}/${encodeURIComponent(entity)}/query`,
      { page: { index, size }, count: true },
      { share: false, quiet: true },
    ),
};
