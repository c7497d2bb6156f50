/** Where a role's home (spec: route, dataset, custom page or function) opens in the shell. */
import { api } from '../api/account.ts';
import { type RouteEntry, shellApi } from '../api/shell.ts';
import { menuPath, withPrefix } from './navigation.ts';

function findRoute(list: RouteEntry[], id: string): RouteEntry | null {
  for (const e of list) {
    if (e._id === id) return e;
    const inner = e._children ? findRoute(e._children, id) : null;
    if (inner) return inner;
  }
  return null;
}

/**
 * The path of the signed-in user's role home in a project, or null (no home, or a function home,
 * which has no screen of its own: the user stays on home). A dataset home opens /dataset/{id}.
 */
export async function roleHomePath(project: string, custom: string | null): Promise<string | null> {
  const user = await api.userIn(project);
  const home = user.role?.home;
  if (!home?.value) return null;
  if (home.type === 'page') return `/app/${project}/${home.value}`;
  if (home.type === 'dataset') return withPrefix(`/dataset/${home.value}`, custom);
  if (home.type === 'route') {
    const entry = findRoute(await shellApi.routes(project), home.value);
    return entry ? menuPath(entry, project, custom) : null;
  }
  return null;
}
