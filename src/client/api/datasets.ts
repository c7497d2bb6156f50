/** The builder's dataset calls (/api/admin/dataset/{project}): list, create, save, release, versions, preview. */
import type { DatasetInput, DisplayColumn } from '../../shared/dataset/types.ts';
import { get, post } from './request.ts';

const D = (p: string) => `/api/admin/dataset/${encodeURIComponent(p)}`;
const quiet = { quiet: true };

export interface DatasetFlow {
  _id: string;
  _type: 'dataset';
  _name: string;
  _sort: number;
  _module: string | null;
  /** The released version, null before the first release. */
  _version: number | null;
  _lastVersion: number;
  _updatedAt: number;
  _dataset: DatasetInput;
  _release: { _display: { _entity: DisplayColumn[] } };
}

export interface DatasetVersion {
  version: number;
  createdBy: string | null;
  createdAt: number;
}

export interface PreviewAnswer {
  rows: Record<string, unknown>[];
  count?: number;
  columns: { key: string; title: string; type: string }[];
  output: { key: string; type: string; hidden: boolean }[];
}

export interface DatasetPatch {
  name?: string;
  _dataset?: DatasetInput;
  _release?: { _display: { _entity: DisplayColumn[] } };
}

export const datasetsApi = {
  list: (p: string) => get<DatasetFlow[]>(`${D(p)}/list`, { share: false }),
  create: (p: string, name: string) => post<DatasetFlow>(`${D(p)}/create`, { name }, quiet),
  save: (p: string, id: string, patch: DatasetPatch) =>
    post<DatasetFlow>(`${D(p)}/${id}/update`, patch, quiet),
  remove: (p: string, id: string) =>
    get<{ removed: boolean }>(`${D(p)}/${id}/remove`, { share: false, quiet: true }),
  release: (p: string, id: string) => post<DatasetFlow>(`${D(p)}/${id}/release`, {}, quiet),
  versions: (p: string, id: string) => get<DatasetVersion[]>(`${D(p)}/${id}/versions`, { share: false }),
  restore: (p: string, id: string, version: number) =>
    post<DatasetFlow>(`${D(p)}/${id}/restore`, { version }, quiet),
  /** The first rows of a document being edited (not saved), every output column. */
  preview: (p: string, id: string, doc: DatasetPatch) =>
    post<PreviewAnswer>(
      `${D(p)}/${id}/preview`,
      { _dataset: doc._dataset, _release: doc._release, page: { index: 1, size: 20 }, count: true },
      { ...quiet, share: false },
    ),
};
