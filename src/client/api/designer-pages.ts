/** Typed calls of the builder's page API used by the designer (draft, save, publish, versions). */
import type { PageDocument } from '../../../widgets/restore.ts';
import { get, post } from './request.ts';

export interface PageSummary {
  _id: string;
  name: string;
  display: boolean;
  version: number | null;
  publishedAt: number | null;
  changed: boolean;
  versions: number;
  createdAt: number;
  updatedAt: number;
  updatedBy: string | null;
}

export interface PageDraft extends PageSummary {
  document: PageDocument;
}

export interface PageVersion {
  version: number;
  note: string;
  createdAt: number;
  createdBy: string | null;
  createdByName: string | null;
  published: boolean;
}

const base = (project: string) => `/api/admin/page/${encodeURIComponent(project)}`;
const one = (project: string, id: string) => `${base(project)}/${encodeURIComponent(id)}`;

export const designerPages = {
  draft: (project: string, id: string, opts: { quiet?: boolean } = {}) =>
    get<PageDraft>(one(project, id), opts),
  create: (project: string, name: string, document?: PageDocument) =>
    post<PageDraft>(`${base(project)}/create`, document ? { name, document } : { name }),
  save: (project: string, id: string, document: PageDocument) =>
    post<PageDraft>(`${one(project, id)}/update`, { document }, { quiet: true }),
  publish: (project: string, id: string, note: string) =>
    post<PageSummary>(`${one(project, id)}/publish`, { note }),
  versions: (project: string, id: string) => get<PageVersion[]>(`${one(project, id)}/versions`),
  restore: (project: string, id: string, version: number) =>
    post<PageDraft>(`${one(project, id)}/restore`, { version }),
};
