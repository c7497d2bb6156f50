/**
 * Playground apps (`playground/<app>/app.json`): sample apps loaded into the demo project on first run,
 * through the same calls a builder makes. An app names its module, tables (fields and seed rows) and
 * pages; a page entry with `menu: true` gets a menu entry. Inside documents, the string `@page:<key>`
 * stands for the id of the app's page with that key (pages are created in order, so a page may only
 * name pages listed before it).
 */
import kanban from '../../../playground/kanban/app.json' with { type: 'json' };

export interface PlaygroundApp {
  module: string;
  entities: {
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
  pages: { key: string; name: string; document: Record<string, unknown>; menu?: boolean }[];
}

/** The apps, in the order they are loaded. */
export const PLAYGROUND: Record<string, PlaygroundApp> = { kanban: kanban as PlaygroundApp };

export interface LoadedApp {
  module: string;
  entities: Record<string, string>;
  pages: Record<string, string>;
  routes: string[];
}

type Call = <T = Record<string, unknown>>(url: string, body?: unknown) => Promise<T>;

/** Replaces every `@page:<key>` string in a document with that page's id (unknown keys fail loudly). */
export function linkPages(value: unknown, pages: Record<string, string>): unknown {
  if (typeof value === 'string' && value.startsWith('@page:')) {
    const id = pages[value.slice('@page:'.length)];
    if (!id) throw new Error(`playground: ${value} names no page created before it`);
    return id;
  }
  if (Array.isArray(value)) return value.map((v) => linkPages(v, pages));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, linkPages(v, pages)]));
  return value;
}

export async function loadPlaygroundApp(call: Call, project: string, app: PlaygroundApp): Promise<LoadedApp> {
  const P = `/api/admin/project/${project}`;
  const D = `/api/admin/data/${project}`;
  const G = `/api/admin/page/${project}`;
  const mod = await call<{ _id: string }>(`${P}/module/create`, { name: app.module });
  const entities: Record<string, string> = {};
  for (const e of app.entities) {
    const created = await call<{ _id: string }>(`${P}/entity/create`, {
      name: e.name,
      code: e.code,
      module: mod._id,
    });
    entities[e.code] = created._id;
    for (const f of e.fields) await call(`${P}/${e.code}/field/create`, f);
    for (const row of e.rows) await call(`${D}/${e.code}/save`, row);
  }
  const pages: Record<string, string> = {};
  const routes: string[] = [];
  for (const pg of app.pages) {
    const created = await call<{ _id: string }>(`${G}/create`, {
      name: pg.name,
      document: linkPages(pg.document, pages),
    });
    pages[pg.key] = created._id;
    await call(`${G}/${created._id}/publish`, { note: 'playground' });
    if (pg.menu)
      routes.push(
        (
          await call<{ _id: string }>(`/api/admin/route/${project}/create`, {
            type: 'page',
            name: pg.name,
            value: created._id,
          })
        )._id,
      );
  }
  return { module: mod._id, entities, pages, routes };
}
