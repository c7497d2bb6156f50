/**
 * Playground apps (`playground/<app>/app.json`): sample apps loaded into the demo project through the
 * same calls a builder makes, so everything is validated like a builder's work. The format is
 * documented in playground/README.md. An app names its module, tables (fields and seed rows),
 * programs, datasets and pages; a page entry with `menu: true` gets a menu entry; `entry` names the
 * page `/playground/<app>` opens (with `params`), `mode` the display mode it opens in.
 *
 * References inside an app's JSON (strings, replaced before the call that needs them):
 * `@page:<key>`, `@program:<key>`, `@dataset:<key>`, `@entity:<code>` (a table's id) and
 * `@row:<code>.<n>` (the id of seed row n of a table). `@kind:<app>/<key>` names one of another app
 * loaded before (listed earlier in PLAYGROUND, or already in the project). Unknown names fail loudly.
 *
 * Each loaded app is recorded in `playground_apps` (migration 020), so a restart loads only the apps
 * added to PLAYGROUND since (`ensurePlayground`).
 */
import type { FastifyInstance } from 'fastify';
import address from '../../../playground/address/app.json' with { type: 'json' };
import cart from '../../../playground/cart/app.json' with { type: 'json' };
import category from '../../../playground/category/app.json' with { type: 'json' };
import editAddress from '../../../playground/edit-address/app.json' with { type: 'json' };
import goodsDetail from '../../../playground/goods-detail/app.json' with { type: 'json' };
import kanban from '../../../playground/kanban/app.json' with { type: 'json' };
import logistics from '../../../playground/logistics/app.json' with { type: 'json' };
import mallIndex from '../../../playground/mall-index/app.json' with { type: 'json' };
import orderList from '../../../playground/order-list/app.json' with { type: 'json' };
import platformIndex from '../../../playground/platform-index/app.json' with { type: 'json' };
import playgroundGantt from '../../../playground/playground-gantt/app.json' with { type: 'json' };
import region from '../../../playground/region/app.json' with { type: 'json' };
import service from '../../../playground/service/app.json' with { type: 'json' };
import shop from '../../../playground/shop/app.json' with { type: 'json' };
import userPage from '../../../playground/user-page/app.json' with { type: 'json' };
import userinfo from '../../../playground/userinfo/app.json' with { type: 'json' };
import { createSession, revokeSession } from '../account/service.ts';
import { sha256hex } from '../account/tokens.ts';
import type { Database } from '../db/index.ts';

/** A text in both catalog languages. */
export interface Localized {
  zh: string;
  en: string;
}

export interface PlaygroundApp {
  $comment?: string;
  module: string;
  /** How "new project from a sample" shows the app (apps with an entry page). */
  sample?: { title: Localized; summary: Localized };
  /** Apps whose tables, programs or pages this one uses (they load first). */
  uses?: string[];
  /** The page `/playground/<app>` opens; none: the app has no route of its own (e.g. shared tables). */
  entry?: string;
  /** The display mode the route opens in (the shop's pages are phone pages). */
  mode?: 'mobile' | 'pc';
  /** Page parameters the route opens with when the URL gives none (e.g. `{ "id": "@row:goods.0" }`). */
  params?: Record<string, unknown>;
  entities?: {
    name: string;
    code: string;
    fields: {
      name: string;
      type: string;
      field: string;
      relate?: string;
      option?: Record<string, unknown>;
    }[];
    rows: Record<string, unknown>[];
  }[];
  programs?: { key: string; name: string; _option?: Record<string, unknown>; _process: unknown[] }[];
  datasets?: {
    key: string;
    name: string;
    _dataset: Record<string, unknown>;
    _release?: Record<string, unknown>;
  }[];
  pages?: { key: string; name: string; document: Record<string, unknown>; menu?: boolean }[];
}

/**
 * The apps, in the order they are loaded (an app loads after the apps it `uses`). Adding an app:
 * its folder with app.json, one import and one line here.
 */
export const PLAYGROUND: Record<string, PlaygroundApp> = {
  kanban: kanban as PlaygroundApp,
  shop: shop as PlaygroundApp,
  'mall-index': mallIndex as PlaygroundApp,
  category: category as PlaygroundApp,
  'goods-detail': goodsDetail as PlaygroundApp,
  cart: cart as PlaygroundApp,
  'order-list': orderList as PlaygroundApp,
  address: address as PlaygroundApp,
  'edit-address': editAddress as PlaygroundApp,
  logistics: logistics as PlaygroundApp,
  service: service as PlaygroundApp,
  'user-page': userPage as PlaygroundApp,
  userinfo: userinfo as PlaygroundApp,
  'platform-index': platformIndex as PlaygroundApp,
  'playground-gantt': playgroundGantt as PlaygroundApp,
  region: region as PlaygroundApp,
};

export interface LoadedApp {
  module: string;
  entities: Record<string, string>;
  pages: Record<string, string>;
  programs: Record<string, string>;
  datasets: Record<string, string>;
  /** Seed row ids by table code, in the order of the app's rows. */
  rows: Record<string, string[]>;
  routes: string[];
  /** The page `/playground/<app>` opens, its parameters and mode. */
  entry?: string;
  params?: Record<string, unknown>;
  mode?: 'mobile' | 'pc';
  /** Loaded by "new project from a sample": the project is a builder's, never topped up at start. */
  copy?: boolean;
}

type Call = <T = Record<string, unknown>>(url: string, body?: unknown) => Promise<T>;

/** The builder's own admin calls, made in-process with `token`; a coded error throws (`what` names the caller). */
export function adminCaller(app: FastifyInstance, token: string, what: string): Call {
  return async <T>(url: string, body?: unknown): Promise<T> => {
    const res = await app.inject({
      method: body === undefined ? 'GET' : 'POST',
      url,
      headers: { token, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
    const answer = JSON.parse(res.body) as { error: number; msg?: string; data: T };
    if (answer.error !== 0) throw new Error(`${what}: ${url} failed: ${answer.error} ${answer.msg ?? ''}`);
    return answer.data;
  };
}

const REF = /^@(page|program|dataset|entity|row):(?:([a-z0-9-]+)\/)?(.+)$/;

/** Resolves one `@kind:[app/]name` reference against this app's objects and the apps loaded before. */
function resolveRef(ref: string, own: LoadedApp, loaded: Record<string, LoadedApp>): string {
  const m = REF.exec(ref)!;
  const [, kind, appName, name] = m as unknown as [string, string, string | undefined, string];
  const app = appName ? loaded[appName] : own;
  if (!app) throw new Error(`playground: ${ref} names an app not loaded before this one`);
  let id: string | undefined;
  if (kind === 'row') {
    const dot = name.lastIndexOf('.');
    id = app.rows[name.slice(0, dot)]?.[Number(name.slice(dot + 1))];
  } else {
    const map = { page: app.pages, program: app.programs, dataset: app.datasets, entity: app.entities }[
      kind
    ]!;
    id = map[name];
  }
  if (!id) throw new Error(`playground: ${ref} names nothing created before it`);
  return id;
}

/** Replaces every `@kind:[app/]name` string in a value with that object's id. */
export function linkRefs(value: unknown, own: LoadedApp, loaded: Record<string, LoadedApp> = {}): unknown {
  if (typeof value === 'string' && REF.test(value)) return resolveRef(value, own, loaded);
  if (Array.isArray(value)) return value.map((v) => linkRefs(v, own, loaded));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, linkRefs(v, own, loaded)]));
  return value;
}

/** Loads one app through the builder's admin calls; `loaded` holds the apps it may name. */
export async function loadPlaygroundApp(
  call: Call,
  project: string,
  app: PlaygroundApp,
  loaded: Record<string, LoadedApp> = {},
): Promise<LoadedApp> {
  const P = `/api/admin/project/${project}`;
  const D = `/api/admin/data/${project}`;
  const G = `/api/admin/page/${project}`;
  const mod = await call<{ _id: string }>(`${P}/module/create`, { name: app.module });
  const out: LoadedApp = {
    module: mod._id,
    entities: {},
    pages: {},
    programs: {},
    datasets: {},
    rows: {},
    routes: [],
  };
  const link = (v: unknown) => linkRefs(v, out, loaded);
  for (const e of app.entities ?? []) {
    const created = await call<{ _id: string }>(`${P}/entity/create`, {
      name: e.name,
      code: e.code,
      module: mod._id,
    });
    out.entities[e.code] = created._id;
    for (const f of e.fields) await call(`${P}/${e.code}/field/create`, link(f));
    const ids: string[] = [];
    out.rows[e.code] = ids;
    for (const row of e.rows) ids.push((await call<{ _id: string }>(`${D}/${e.code}/save`, link(row)))._id);
  }
  for (const p of app.programs ?? []) {
    const F = `/api/admin/flow/${project}`;
    const { key, ...body } = p;
    const f = await call<{ _id: string }>(`${F}/create`, { ...(link(body) as object), module: mod._id });
    await call(`${F}/${f._id}/release`, {});
    out.programs[key] = f._id;
  }
  for (const d of app.datasets ?? []) {
    const S = `/api/admin/dataset/${project}`;
    const f = await call<{ _id: string }>(`${S}/create`, {
      name: d.name,
      module: mod._id,
      _dataset: link(d._dataset),
    });
    if (d._release) await call(`${S}/${f._id}/update`, { _release: link(d._release) });
    await call(`${S}/${f._id}/release`, {});
    out.datasets[d.key] = f._id;
  }
  for (const pg of app.pages ?? []) {
    const created = await call<{ _id: string }>(`${G}/create`, {
      name: pg.name,
      document: link(pg.document),
    });
    out.pages[pg.key] = created._id;
    await call(`${G}/${created._id}/publish`, { note: 'playground' });
    if (pg.menu)
      out.routes.push(
        (
          await call<{ _id: string }>(`/api/admin/route/${project}/create`, {
            type: 'page',
            name: pg.name,
            value: created._id,
          })
        )._id,
      );
  }
  if (app.entry) {
    out.entry = out.pages[app.entry];
    if (!out.entry) throw new Error(`playground: entry ${app.entry} is no page of the app`);
  }
  if (app.params) out.params = link(app.params) as Record<string, unknown>;
  if (app.mode) out.mode = app.mode;
  return out;
}

/** The apps loaded into a project, by name. */
export async function loadedApps(db: Database['db'], project: string): Promise<Record<string, LoadedApp>> {
  const rows = await db
    .selectFrom('playground_apps')
    .select(['app', 'content'])
    .where('project_id', '=', project)
    .execute();
  return Object.fromEntries(rows.map((r) => [r.app, JSON.parse(r.content) as LoadedApp]));
}

/**
 * A project from before `playground_apps` holds the kanban app without a record of it: found by its
 * module and pages, it is recorded instead of loaded twice.
 */
async function adoptKanban(db: Database['db'], project: string): Promise<LoadedApp | null> {
  const app = PLAYGROUND.kanban!;
  const mod = await db
    .selectFrom('data_modules')
    .select('id')
    .where('project_id', '=', project)
    .where('name', '=', app.module)
    .executeTakeFirst();
  if (!mod) return null;
  const pages: Record<string, string> = {};
  for (const pg of app.pages ?? []) {
    const row = await db
      .selectFrom('pages')
      .select('id')
      .where('project_id', '=', project)
      .where('name', '=', pg.name)
      .executeTakeFirst();
    if (row) pages[pg.key] = row.id;
  }
  return { module: mod.id, entities: {}, pages, programs: {}, datasets: {}, rows: {}, routes: [] };
}

/**
 * Loads into `project` (as `ownerId`) every app of PLAYGROUND not loaded there yet, in order, and
 * records each; answers all the project's apps. Idempotent: a second run loads nothing.
 */
export async function ensurePlayground(
  app: FastifyInstance,
  ownerId: string,
  project: string,
): Promise<Record<string, LoadedApp>> {
  const { db } = app.database;
  const loaded = await loadedApps(db, project);
  const record = async (name: string, content: LoadedApp) => {
    await db
      .insertInto('playground_apps')
      .values({ project_id: project, app: name, content: JSON.stringify(content), created_at: Date.now() })
      .execute();
    loaded[name] = content;
  };
  if (!loaded.kanban) {
    const adopted = await adoptKanban(db, project);
    if (adopted) await record('kanban', adopted);
  }
  const missing = Object.keys(PLAYGROUND).filter((name) => !loaded[name]);
  if (!missing.length) return loaded;
  const token = await createSession(db, ownerId);
  const call = adminCaller(app, token, 'playground');
  try {
    for (const name of missing) {
      const def = PLAYGROUND[name]!;
      for (const dep of def.uses ?? [])
        if (!loaded[dep]) throw new Error(`playground: ${name} uses ${dep}, which is not loaded before it`);
      await record(name, await loadPlaygroundApp(call, project, def, loaded));
    }
  } finally {
    await revokeSession(db, sha256hex(token));
  }
  return loaded;
}

/**
 * At start: the projects already holding playground apps (the demo project, or one with the legacy
 * kanban module) get the apps added since. New projects are never touched.
 */
export async function ensurePlaygroundAtStart(app: FastifyInstance): Promise<void> {
  const { db } = app.database;
  const known = await db.selectFrom('playground_apps').select(['project_id', 'content']).execute();
  // A builder's project started from a sample holds only copies: it is theirs, not the demo.
  const projects = new Set(
    known.filter((r) => !(JSON.parse(r.content) as LoadedApp).copy).map((r) => r.project_id),
  );
  const anyRecord = known.length > 0;
  if (!anyRecord) {
    const legacy = await db
      .selectFrom('data_modules')
      .innerJoin('projects', 'projects.id', 'data_modules.project_id')
      .select('data_modules.project_id')
      .where('data_modules.name', '=', PLAYGROUND.kanban!.module)
      .orderBy('projects.created_at')
      .limit(1)
      .executeTakeFirst();
    if (legacy) projects.add(legacy.project_id);
  }
  for (const project of projects) {
    const owner = await db
      .selectFrom('projects')
      .select('owner_id')
      .where('id', '=', project)
      .executeTakeFirst();
    if (owner) await ensurePlayground(app, owner.owner_id, project);
  }
}
