/** Typed calls the panel uses: pages of a project (pickers) and the project's setup script (custom `code`). */
import { get, post } from '../../api/request.ts';
import { type Entity, type Field, wb } from '../../api/workbench.ts';

export interface PageSummary {
  _id: string;
  name: string;
  display: boolean;
}

export const panelApi = {
  pages: (project: string) => get<PageSummary[]>(`/api/admin/page/${project}/`, { share: false }),
  entities: (project: string): Promise<Entity[]> => wb.entities(project),
  /** The project's datasets (a chart or table may read one instead of a table). */
  datasets: (project: string) =>
    get<{ _id: string; _name: string; _version: number | null }[]>(
      `/api/admin/dataset/${encodeURIComponent(project)}/list`,
      { share: false },
    ),
  /** The project's programs (a table binds some as toolbar buttons); datasets are left out. */
  programs: async (project: string) =>
    (
      await get<{ _id: string; _name: string; _type: string }[]>(
        `/api/admin/project/${encodeURIComponent(project)}/flow`,
        { share: false },
      )
    ).filter((f) => f._type === 'program'),
  fields: (project: string, entity: string): Promise<Field[]> => wb.fields(project, entity),
  /** The project's setup script: `custom.code` of the project (admin read). */
  setupScript: async (project: string): Promise<string> => {
    const r = await get<{ custom: { code?: string } }>(`/api/admin/project/${project}?mode=dev`, {
      share: false,
    });
    return typeof r.custom?.code === 'string' ? r.custom.code : '';
  },
  saveSetupScript: (project: string, code: string) =>
    post<{ code?: string }>(`/api/admin/project/${project}/custom/set`, { code }),
};
