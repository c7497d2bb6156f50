/** Payloads of project export/import and usage (server: project/transfer.ts; client: api/system.ts). */

/** What an import brought in, by kind (`records`: rows written). */
export interface ImportSummary {
  modules: number;
  entities: number;
  fields: number;
  pages: number;
  routes: number;
  roles: number;
  flows: number;
  share: number;
  records: number;
}

/** What /system/project shows (GET /api/admin/project/{p}/usage). */
export interface ProjectUsage {
  modules: number;
  entities: number;
  fields: number;
  pages: number;
  routes: number;
  roles: number;
  programs: number;
  datasets: number;
  members: number;
  records: number;
}
