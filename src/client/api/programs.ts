/** The builder's program calls (/api/admin/flow/{project}). */
import type { Flow, FlowStep, RunLogEntry, RunResult, TriggerTestInput } from '../../shared/program/index.ts';
import { get, post } from './request.ts';

const F = (p: string) => `/api/admin/flow/${encodeURIComponent(p)}`;
const quiet = { quiet: true };

export type TestAnswer = RunResult & { error?: { code: number; msg: string; step: string | null } };

export const programsApi = {
  list: (p: string) => get<Flow[]>(`/api/admin/project/${encodeURIComponent(p)}/flow`, { share: false }),
  create: (p: string, name: string) => post<Flow>(`${F(p)}/create`, { name }, quiet),
  save: (p: string, id: string, patch: { name?: string; _process?: FlowStep[] }) =>
    post<Flow>(`${F(p)}/${id}/update`, patch, quiet),
  remove: (p: string, id: string) => get<{ removed: boolean }>(`${F(p)}/${id}/remove`, quiet),
  release: (p: string, id: string) => post<Flow>(`${F(p)}/${id}/release`, {}, quiet),
  /** A test run on a record, or (a record trigger) after a write: `trigger` (then no record). */
  test: (p: string, id: string, data: Record<string, unknown>, record?: string, trigger?: TriggerTestInput) =>
    post<TestAnswer>(
      `${F(p)}/${id}/test`,
      trigger ? { data, trigger } : record ? { data, record } : { data },
      quiet,
    ),
  runs: (p: string, id: string) => get<RunLogEntry[]>(`${F(p)}/${id}/runs`, { share: false }),
};
