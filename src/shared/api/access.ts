/** Roles, grants and members as the admin API shows them (shared by server answers and the client). */

export const GRANT_KINDS = ['route', 'program', 'entity', 'shortcut', 'dataset', 'page', 'simple'] as const;
export type GrantKind = (typeof GRANT_KINDS)[number];
export type Grants = Record<GrantKind, string[]>;

export const HOME_TYPES = ['route', 'dataset', 'page', 'function'] as const;
export type HomeType = (typeof HOME_TYPES)[number];
export interface RoleHome {
  type: HomeType;
  value: string;
}

export interface RoleOptions {
  apply: boolean;
  enable: boolean;
  reg: boolean;
}

export type RoleKind = 'admin' | 'common' | 'public';

export interface Role extends Grants {
  _id: string;
  name: string;
  type: RoleKind;
  options: RoleOptions;
  home: RoleHome | null;
  _user: string[];
}

export interface Member {
  _id: string;
  account: string | null;
  nickname: string;
  name: string;
  phone: string | null;
  status: 'active' | 'disabled';
  role: string | null;
  roleType: 'owner' | 'admin' | 'common' | 'public';
  owner: string | null;
  sub: boolean;
  createdAt: number;
}

export interface Invitation {
  _id: string;
  code: string;
  link: string;
  role: string | null;
  status: 'open' | 'closed';
  valid: boolean;
  expiresAt: number;
  createdAt: number;
}

export interface RoleApplication {
  _id: string;
  user: string;
  account: string | null;
  nickname: string;
  role: string;
  roleName: string;
  status: 'pending' | 'approved' | 'rejected';
  note: string;
  createdAt: number;
  decidedAt: number | null;
}
