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
}

export const api = {
  login: (user: string, pwd: string) =>
    post<{ token: string; user: User }>('/api/common/user/login', { user: user.trim(), pwd }),
  register: (input: RegisterInput) =>
    post<{ user: User; project: string | null }>('/api/common/user/reg', input),
  userInfo: () => get<User>('/api/common/user/userInfo', { quiet: true }),
  logout: () => get<{ logout: boolean }>('/api/common/user/logout', { quiet: true }),
  captcha: () => get<{ ticket: string; img: string }>('/api/common/utils/captcha', { share: false }),
  verifyCode: (phone: string, ticket: string, randstr: string, type: VerifyType) =>
    post<{ sent: boolean }>('/api/common/utils/verifyCode', { phone, ticket, randstr, type }),
  resetPwd: (phone: string, verify: string, pwd: string) =>
    post<{ reset: boolean }>('/api/common/user/resetPwd', { phone, verify, pwd, type: 'reset' }),
  projects: () => get<Project[]>('/api/common/project/list'),
  createProject: (name: string) => post<Project>('/api/common/project/create', { name }),
};
