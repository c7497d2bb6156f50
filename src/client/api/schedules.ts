/** The schedule calls (builder spec "Schedules": /api/admin/schedule/{project}). */
import type { ScheduleTask } from '../../shared/api/schedules.ts';
import { get, post, type RequestOptions } from './request.ts';

const quiet: RequestOptions = { quiet: true };
const fresh: RequestOptions = { share: false };
const S = (p: string) => `/api/admin/schedule/${encodeURIComponent(p)}`;

export type { ScheduleTask };

export interface ScheduleJob extends ScheduleTask {
  last: { time: number; state: FireState } | null;
  running: boolean;
}

export type FireState = 'running' | 'success' | 'fail' | 'missed' | 'skipped';

export interface ScheduleList<T> {
  list: T[];
  used: number;
  quota: number | null;
}

export interface ScheduleLogItem {
  time: number;
  state: FireState;
  result: string | null;
  run: string | null;
  startedAt: number;
  endedAt: number | null;
}

export interface ScheduleInput {
  flow: string;
  cron: string;
  name: string;
  option: Record<string, unknown>;
}

export const schedulesApi = {
  list: (p: string, name = '') =>
    get<ScheduleList<ScheduleTask>>(
      `${S(p)}/schedule${name ? `?name=${encodeURIComponent(name)}` : ''}`,
      fresh,
    ),
  jobs: (p: string, name = '') =>
    get<ScheduleList<ScheduleJob>>(`${S(p)}/job${name ? `?name=${encodeURIComponent(name)}` : ''}`, fresh),
  set: (p: string, input: ScheduleInput) => post<ScheduleTask>(`${S(p)}/set`, input, quiet),
  update: (p: string, id: string, input: Partial<ScheduleInput>) =>
    post<ScheduleTask>(`${S(p)}/${id}/update`, input, quiet),
  remove: (p: string, id: string) => get<{ removed: boolean }>(`${S(p)}/${id}/remove`, fresh),
  toggle: (p: string, id: string) => get<ScheduleTask>(`${S(p)}/${id}/toggle`, { ...fresh, quiet: true }),
  log: (p: string, id: string, index: number, size = 20) =>
    post<{ data: ScheduleLogItem[]; size: number }>(`${S(p)}/${id}/log`, { page: { index, size } }, fresh),
};
