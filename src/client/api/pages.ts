/** Typed calls of the builder's pages (admin page API) and menus (admin route API). */
import type { PageDocument } from '../../shared/page-document.ts';
import { get, post, type RequestOptions } from './request.ts';

export interface PageSummary {
  _id: string;
  name: string;
  display: boolean;
  /** The published version, null when never published. */
  version: number | null;
  publishedAt: number | null;
  /** Never published, or edited since the last publish. */
  changed: boolean;
  versions: number;
  createdAt: number;
  updatedAt: number;
  updatedBy: string | null;
}

export type PageDraft = PageSummary & { document: PageDocument };

export interface PageVersion {
  version: number;
  note: string;
  createdAt: number;
  createdBy: string | null;
  createdByName: string | null;
  published: boolean;
}

export type MenuType = 'dir' | 'table' | 'page' | 'display';
export const MENU_TYPES: readonly MenuType[] = ['dir', 'table', 'page', 'display'];

export interface MenuEntry {
  _id: string;
  _type: MenuType;
  _name: string;
  _parent: string | null;
  _value: string | null;
  _sort: number;
  _program: string[];
}

export interface MenuInput {
  type: MenuType;
  name: string;
  parent?: string | null;
  value?: string | null;
}

const quiet: RequestOptions = { quiet: true };
const fresh: RequestOptions = { share: false };
const A = (p: string) => `/api/admin/page/${p}`;
const R = (p: string) => `/api/admin/route/${p}`;

export const pagesApi = {
  list: (p: string) => get<PageSummary[]>(`${A(p)}/`, fresh),
  get: (p: string, id: string, opts: RequestOptions = {}) =>
    get<PageDraft>(`${A(p)}/${id}`, { ...fresh, ...opts }),
  /** The designer's autosave: the whole document (errors shown by the designer's save state). */
  save: (p: string, id: string, document: PageDocument) =>
    post<PageDraft>(`${A(p)}/${id}/update`, { document }, quiet),
  create: (p: string, name: string, document?: PageDocument) =>
    post<PageDraft>(`${A(p)}/create`, document ? { name, document } : { name }, quiet),
  rename: (p: string, id: string, name: string) => post<PageDraft>(`${A(p)}/${id}/update`, { name }, quiet),
  duplicate: (p: string, id: string, name: string) =>
    post<PageDraft>(`${A(p)}/${id}/duplicate`, { name }, quiet),
  remove: (p: string, id: string) => get<{ _id: string }>(`${A(p)}/${id}/remove`, fresh),
  /** Quiet by default (the pages list shows errors beside its inputs); the designer wants the notice. */
  publish: (p: string, id: string, note: string, opts: RequestOptions = quiet) =>
    post<PageSummary>(`${A(p)}/${id}/publish`, { note }, opts),
  versions: (p: string, id: string) => get<PageVersion[]>(`${A(p)}/${id}/versions`, fresh),
  restore: (p: string, id: string, version: number) => post<PageDraft>(`${A(p)}/${id}/restore`, { version }),
};

export const menusApi = {
  list: (p: string) => get<MenuEntry[]>(`${R(p)}/list`, fresh),
  create: (p: string, input: MenuInput) => post<MenuEntry>(`${R(p)}/create`, input, quiet),
  update: (p: string, id: string, patch: Partial<MenuInput>) =>
    post<MenuEntry>(`${R(p)}/${id}/update`, patch, quiet),
  sort: (p: string, routes: string[]) => post<{ sorted: number }>(`${R(p)}/sort`, { routes }),
  bind: (p: string, id: string, programs: string[]) =>
    post<MenuEntry>(`${R(p)}/${id}/bind`, { programs }, quiet),
  remove: (p: string, id: string) => get<{ removed: boolean }>(`${R(p)}/${id}/remove`, fresh),
  /** Programs and datasets of the project (bindable programs are `_type: 'program'`). */
  flows: (p: string) =>
    get<{ _id: string; _name: string; _type: string }[]>(`/api/admin/project/${p}/flow`, fresh),
};
