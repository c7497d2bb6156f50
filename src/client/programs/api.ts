/** The editor's calls beyond src/client/api/programs.ts: versions, restore, move/sort, one flow. */
import type { Flow } from '../../shared/program/index.ts';
import { get, post } from '../api/request.ts';

const F = (p: string) => `/api/admin/flow/${encodeURIComponent(p)}`;
const quiet = { quiet: true };

export interface FlowVersion {
  version: number;
  createdBy: string | null;
  createdAt: number;
}

export const editorApi = {
  one: (p: string, id: string) => get<Flow>(`${F(p)}/${id}`, { share: false }),
  create: (p: string, name: string, module: string | null, sort: number) =>
    post<Flow>(`${F(p)}/create`, { name, module, sort }, quiet),
  update: (
    p: string,
    id: string,
    patch: { name?: string; sort?: number; module?: string | null; _process?: unknown; _option?: unknown },
  ) => post<Flow>(`${F(p)}/${id}/update`, patch, quiet),
  versions: (p: string, id: string) => get<FlowVersion[]>(`${F(p)}/${id}/versions`, { share: false }),
  restore: (p: string, id: string, version: number) =>
    post<Flow>(`${F(p)}/${id}/restore`, { version }, quiet),
};
