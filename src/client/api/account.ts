/** Typed calls of the account and project areas (runtime spec §7 "Account and common"). */
import type { VerifyType } from '../../shared/constants.ts';
import { get, post } from './request.ts';

export interface User {
  _id: string;
  account: string | null;
  nickname: string;
  name: string;
  phone: string | null;
  avatar: string | null;
  status: string;
  createdAt: number;
  /** The user who owns this account (sub-users), else null. */
  owner?: string | null;
  wechat?: boolean;
  /** Role and standing in the project named to login / userInfo, else null. */
  role?: { _id: string; name: string; type: string; home: { type: string; value: string } | null } | null;
  auth?: string | null;
}

export interface Project {
  _id: string;
  _name: string;
  _auth: string;
  _owner: string;
  _home: string;
  _expired: number | null;
  _status: number;
  _limited: boolean;
  role: string | null;
}

export interface RegisterInput {
  user: string;
  pwd: string;
  phone: string;
  verify: string;
  nickname: string;
  /** Register into this project (its reg config, or a role whose reg option is on). */
  project?: string;
  role?: string;
}

export const api = {
  login: (user: string, pwd: string) =>
    post<{ token: string; user: User }>('/api/common/user/login', { user: user.trim(), pwd }),
  register: (input: RegisterInput) =>
    post<{ user: User; project: string | null }>('/api/common/user/reg', input),
  userInfo: () => get<User>('/api/common/user/userInfo', { quiet: true }),
  /** The user with their role and standing in one project (role home, spec User entity). */
  userIn: (project: string) =>
    get<User>(`/api/common/user/userInfo?project=${project}`, { quiet: true, share: false }),
  /** Join a project by an invitation's link or code. */
  join: (by: { link: string } | { code: string }) =>
    post<{ project: string; role: string | null }>('/api/common/project/join', by),
  logout: () => get<{ logout: boolean }>('/api/common/user/logout', { quiet: true }),
  captcha: () => get<{ ticket: string; img: string }>('/api/common/utils/captcha', { share: false }),
  verifyCode: (phone: string, ticket: string, randstr: string, type: VerifyType) =>
    post<{ sent: boolean }>('/api/common/utils/verifyCode', { phone, ticket, randstr, type }),
  resetPwd: (phone: string, verify: string, pwd: string) =>
    post<{ reset: boolean }>('/api/common/user/resetPwd', { phone, verify, pwd, type: 'reset' }),
  projects: () => get<Project[]>('/api/common/project/list'),
  createProject: (name: string) => post<Project>('/api/common/project/create', { name }),
};
