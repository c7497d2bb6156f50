/** Typed calls of the administration area (builder spec §7 "Roles", "Users"). */
import type {
  Grants,
  Invitation,
  Member,
  Role,
  RoleApplication,
  RoleHome,
  RoleOptions,
} from '../../shared/api/access.ts';
import type { ImportSummary, ProjectUsage } from '../../shared/api/project-transfer.ts';
import { get, post, type RequestOptions } from './request.ts';

export type {
  Grants,
  ImportSummary,
  Invitation,
  Member,
  ProjectUsage,
  Role,
  RoleApplication,
  RoleHome,
  RoleOptions,
};

const quiet: RequestOptions = { quiet: true };
const fresh: RequestOptions = { share: false };
const R = (p: string) => `/api/admin/auth/${p}/main/role`;
const U = (p: string) => `/api/admin/user/${p}`;

export interface RoleInput {
  name?: string;
  type?: 'admin' | 'common';
  options?: Partial<RoleOptions>;
  home?: RoleHome | null;
}

export const rolesApi = {
  list: (p: string) => get<Role[]>(`${R(p)}/list`, fresh),
  create: (p: string, input: RoleInput & { name: string }) => post<Role>(`${R(p)}/create`, input, quiet),
  update: (p: string, id: string, input: RoleInput) => post<Role>(`${R(p)}/${id}/update`, input, quiet),
  remove: (p: string, id: string) => get<{ removed: boolean }>(`${R(p)}/${id}/remove`, fresh),
  bind: (p: string, id: string, grants: Partial<Grants> & { home?: RoleHome | null }) =>
    post<Role>(`${R(p)}/${id}/bind`, grants),
  /** Activates public users (the project becomes public) and answers the public role. */
  activatePublic: (p: string) => get<Role>(`${R(p)}/public`, fresh),
};

/** A role's advanced settings of one table (the /system/auth popups). */
export interface RoleTableSettings {
  entity: string;
  role: string;
  filter: { conditions: { field: string; opt: string; value?: unknown }[]; match: 'and' | 'or' } | null;
  /** The stored filter no longer fits the table (it matches nothing until replaced). */
  unusable: boolean;
  /** null: every granted program may run on the table. */
  programs: string[] | null;
}

export const roleTablesApi = {
  get: (p: string, role: string, entity: string) =>
    get<RoleTableSettings>(`${R(p)}/${role}/table/${encodeURIComponent(entity)}`, fresh),
  setPrograms: (p: string, role: string, entity: string, programs: string[] | null) =>
    post<{ programs: string[] | null }>(`${R(p)}/${role}/table/${encodeURIComponent(entity)}/programs`, {
      programs,
    }),
  setFilter: (p: string, role: string, entity: string, filter: RoleTableSettings['filter']) =>
    post(`/api/admin/view/${p}/${encodeURIComponent(entity)}/role-filter`, { role, filter }),
};

export interface MemberList {
  list: Member[];
  /** How many members the project has (against the quota). */
  size: number;
  /** How many members match the search (paged calls). */
  total?: number;
  quota: number | null;
}

export const membersApi = {
  list: (p: string) => post<MemberList>(`${U(p)}/list`, {}, fresh),
  /** One page of the members whose nickname, account or phone contains `text` (searched in SQL). */
  page: (p: string, q: { text: string; page: number; pageSize: number }) =>
    post<MemberList>(`${U(p)}/list`, q.text ? q : { page: q.page, pageSize: q.pageSize }, fresh),
  create: (
    p: string,
    input: { role: string; account: string; pwd: string; name: string; phone?: string | null },
  ) => post<Member>(`${U(p)}/create`, input, quiet),
  bind: (p: string, input: { role: string; account?: string; phone?: string }) =>
    post<Member>(`${U(p)}/bind`, input, quiet),
  update: (p: string, id: string, input: { role?: string; pwd?: string; name?: string }) =>
    post<Member>(`${U(p)}/${id}/update`, input, quiet),
  kick: (p: string, id: string) => get<Member>(`${U(p)}/${id}/kick`, fresh),
  ban: (p: string, id: string) => get<Member>(`${U(p)}/${id}/ban`, fresh),
  unban: (p: string, id: string) => get<Member>(`${U(p)}/${id}/active`, fresh),
  remove: (p: string, id: string) => get<{ removed: boolean }>(`${U(p)}/${id}/remove`, fresh),
  invite: (p: string, role: string | null, days: number) =>
    post<Invitation>(`${U(p)}/invite`, { role, days }, quiet),
  invites: (p: string) => get<Invitation[]>(`${U(p)}/invite/list`, fresh),
  setInvite: (p: string, id: string, open: boolean) =>
    get<Invitation>(`${U(p)}/invite/${id}/${open ? 'open' : 'close'}`, fresh),
  applications: (p: string) => get<RoleApplication[]>(`${U(p)}/apply/list?status=pending`, fresh),
  decide: (p: string, id: string, approve: boolean) =>
    get<{ status: string }>(`${U(p)}/apply/${id}/${approve ? 'approve' : 'reject'}`, fresh),
};

/** A member's own side of role options: roles open to them, switch (enable) and apply. */
export const roleJoinApi = {
  open: (p: string) =>
    get<{
      roles: Pick<Role, '_id' | 'name' | 'type' | 'options'>[];
      member: boolean;
      pending: string | null;
    }>(`/api/common/project/${p}/roles/open`, fresh),
  switchTo: (p: string, role: string) =>
    post<{ role: string }>(`/api/common/project/${p}/role/switch`, { role }),
  apply: (p: string, role: string, note = '') =>
    post<{ _id: string; status: string }>(`/api/common/project/${p}/role/apply`, { role, note }),
};

const S = (p: string) => `/api/app/share/${p}`;

export const projectTransferApi = {
  usage: (p: string) => get<ProjectUsage>(`/api/admin/project/${p}/usage`, fresh),
  exportProject: (p: string, records: boolean) =>
    post<Record<string, unknown>>(`${S(p)}/exportProject`, { records }, fresh),
  importProject: (p: string, pkg: unknown, replace: boolean) =>
    post<ImportSummary>(
      `${S(p)}/${replace ? 'importReplaceProject' : 'importProject'}`,
      { package: pkg },
      quiet,
    ),
};

/** A managed index of a table (server data/auto-index.ts): built for slow queries, or by a builder. */
export interface TableIndex {
  _id: string;
  kind: string;
  fields: { field: string; order?: string; name?: string }[];
  pinned: boolean;
  uses: number;
  lastUsedAt: number;
  createdAt: number;
  buildMs: number;
}

/** A rollup of a table (server data/rollup.ts): group fields, fields counted or summed. */
export interface TableRollup {
  _id: string;
  kind: 'rollup';
  fields: { field: string; name?: string }[];
  values: { field: string; name?: string; sum: boolean }[];
  pinned: boolean;
  uses: number;
  lastUsedAt: number;
  createdAt: number;
  buildMs: number;
}

const IX = (p: string, e: string) => `/api/admin/data/${p}/${encodeURIComponent(e)}/indexes`;

export const tableIndexesApi = {
  list: (p: string, e: string) =>
    post<{ indexes: TableIndex[]; limit: number; rollups?: TableRollup[]; rollupLimit?: number }>(
      IX(p, e),
      {},
      fresh,
    ),
  create: (p: string, e: string, fields: string[]) =>
    post<TableIndex>(`${IX(p, e)}/create`, { fields: fields.map((field) => ({ field })) }),
  pin: (p: string, e: string, id: string, pinned: boolean) =>
    post<TableIndex>(`${IX(p, e)}/${id}/pin`, { pinned }),
  remove: (p: string, e: string, id: string) => post(`${IX(p, e)}/${id}/remove`, {}),
  pinRollup: (p: string, e: string, id: string, pinned: boolean) =>
    post<TableRollup>(`${IX(p, e)}/rollups/${id}/pin`, { pinned }),
  removeRollup: (p: string, e: string, id: string) => post(`${IX(p, e)}/rollups/${id}/remove`, {}),
};
