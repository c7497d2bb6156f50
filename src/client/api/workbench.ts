/** Typed calls of the builder's data model and admin data (spec §7 "Project", "Data administration"). */

import type { Field, FieldInput } from '../../shared/api/fields.ts';
import type { Entity, Module } from '../../shared/api/tables.ts';
import type { Project } from './account.ts';
import { withSetLists } from './field-sets.ts';
import { get, post, type RequestOptions } from './request.ts';

export type { Field, FieldInput, FieldOption, FieldType } from '../../shared/api/fields.ts';
export { FIELD_TYPES } from '../../shared/api/fields.ts';
export type { Entity, Module } from '../../shared/api/tables.ts';

export type FieldPatch = Partial<Omit<FieldInput, 'type' | 'relate'>> & { status?: 'normal' | 'disabled' };

export type DataRecord = Record<string, unknown> & { _id: string; __name?: string };

export interface SortKey {
  field: string;
  order: 'asc' | 'desc';
}

export interface RowsQuery {
  query?: unknown;
  sort?: SortKey[];
  page: { index: number; size: number };
  count?: boolean;
}

export interface RowsAnswer {
  data: DataRecord[];
  count?: number;
  page: { index: number; size: number };
}

const quiet: RequestOptions = { quiet: true };
const P = (p: string) => `/api/admin/project/${p}`;
const D = (p: string, e: string) => `/api/admin/data/${p}/${e}`;
const q = (confirm: boolean) => (confirm ? '?confirm=1' : '');

export const wb = {
  projects: () => get<Project[]>('/api/common/project/list', { share: false }),
  createProject: (name: string) => post<Project>('/api/common/project/create', { name }),
  /** Loads the project for the workbench; a limited project answers 104. */
  project: (p: string) => get<{ project: Project }>(`${P(p)}?mode=dev`, { share: false }),

  modules: (p: string) => get<Module[]>(`${P(p)}/module`, { share: false }),
  createModule: (p: string, name: string, sort?: number) =>
    post<Module>(`${P(p)}/module/create`, { name, sort }, quiet),
  updateModule: (p: string, id: string, patch: { name?: string; sort?: number }) =>
    post(`${P(p)}/module/${id}/update`, patch, quiet),
  removeModule: (p: string, id: string) => get(`${P(p)}/module/${id}/remove`, { share: false }),

  entities: (p: string) => get<Entity[]>(`${P(p)}/entity`, { share: false }),
  createEntity: (p: string, input: { name: string; code?: string; module?: string | null }) =>
    post<Entity>(`${P(p)}/entity/create`, input, quiet),
  updateEntity: (
    p: string,
    id: string,
    patch: { name?: string; code?: string; module?: string | null; sort?: number },
  ) => post<Entity>(`${P(p)}/entity/${id}/update`, patch, quiet),
  /** Without `confirm` the server answers 1404 with what data goes. */
  removeEntity: (p: string, id: string, confirm: boolean) =>
    get(`${P(p)}/entity/${id}/remove${q(confirm)}`, { share: false, quiet: !confirm }),

  fields: (p: string, entity: string) =>
    get<Field[]>(`${P(p)}/${entity}/field`, { share: false }).then((fs) => withSetLists(p, fs)),
  createField: (p: string, entity: string, input: FieldInput) =>
    post<Field>(`${P(p)}/${entity}/field/create`, input, quiet),
  updateField: (p: string, entity: string, id: string, patch: FieldPatch) =>
    post<Field>(`${P(p)}/${entity}/field/${id}/update`, patch, quiet),
  removeField: (p: string, entity: string, id: string, confirm: boolean) =>
    get(`${P(p)}/${entity}/field/${id}/remove${q(confirm)}`, { share: false, quiet: !confirm }),

  rows: (p: string, entity: string, body: RowsQuery) =>
    post<RowsAnswer>(`${D(p, entity)}/query`, body, { share: false }),
  saveRow: (p: string, entity: string, values: Record<string, unknown>) =>
    post<DataRecord>(`${D(p, entity)}/save`, values),
  updateRow: (p: string, entity: string, id: string, values: Record<string, unknown>) =>
    post<DataRecord>(`${D(p, entity)}/${id}/update`, values),
  removeRow: (p: string, entity: string, id: string) => post(`${D(p, entity)}/${id}/remove`, {}),
  /** Records of a table whose name field contains `value` (first 20), for relate pickers. */
  search: (p: string, entity: string, value: string) =>
    post<RowsAnswer>(`/api/d/${p}/${entity}/filter`, { value }, { share: false }),
};
