/**
 * End users' program calls (spec: `/api/common/program/{project}`): the programs the user may run
 * (init), what a program asks before it runs (prepare), and the runs (exec, one record or a bulk run
 * over selected records). Prepares asked within 50 ms (spec: "program batch window about 50 ms") are
 * sent as one call with name `__`; what a program asks is cached per program and released version,
 * and a release seen in init (or in a prepare's answer) replaces it.
 */
import type { BulkAnswer, ExecAnswer, GrantedProgram, PreparedProgram } from '../../shared/program/index.ts';
import { ApiError } from '../api/api-error.ts';
import { get, post } from '../api/request.ts';

/** Prepares asked within this window go as one call (spec: about 50 ms). */
export const PROGRAM_BATCH_MS = 50;

const base = (project: string) => `/api/common/program/${encodeURIComponent(project)}`;

/** project/flow → the last version known for it, and what that version asks. */
const prepared = new Map<string, { version: number; answer: Promise<PreparedProgram> }>();
/** project → the programs the user may run. */
const granted = new Map<string, Promise<GrantedProgram[]>>();

interface Waiting {
  flow: string;
  resolve(p: PreparedProgram): void;
  reject(e: unknown): void;
}
const windows = new Map<string, { key: string; list: Waiting[] }>();

function flush(project: string): void {
  const w = windows.get(project);
  windows.delete(project);
  if (!w) return;
  const names = [...new Set(w.list.map((x) => x.flow))];
  post<Record<string, PreparedProgram | { error: number; msg: string }>>(
    `${base(project)}/prepare/__/${encodeURIComponent(w.key)}`,
    { names },
    { quiet: true },
  ).then(
    (map) => {
      for (const x of w.list) {
        const a = map[x.flow];
        if (!a) x.reject(new ApiError(1800, 'program not found'));
        else if ('error' in a) x.reject(new ApiError(a.error, a.msg));
        else x.resolve(a);
      }
    },
    (err) => {
      for (const x of w.list) x.reject(err);
    },
  );
}

function batched(project: string, flow: string, key: string): Promise<PreparedProgram> {
  return new Promise((resolve, reject) => {
    let w = windows.get(project);
    if (!w) {
      w = { key, list: [] };
      windows.set(project, w);
      setTimeout(() => flush(project), PROGRAM_BATCH_MS);
    }
    w.list.push({ flow, resolve, reject });
  });
}

/** The programs the user may run in this project (released, granted, not record triggers). */
export function grantedPrograms(project: string, fresh = false): Promise<GrantedProgram[]> {
  let hit = fresh ? undefined : granted.get(project);
  if (!hit) {
    hit = get<GrantedProgram[]>(`${base(project)}/init`, { quiet: true, share: false }).then((list) => {
      // A newer release seen here drops what the older one asked.
      for (const p of list) {
        const k = `${project}/${p._id}`;
        const c = prepared.get(k);
        if (c && c.version !== p._version) prepared.delete(k);
      }
      return list;
    });
    granted.set(project, hit);
    hit.catch(() => granted.delete(project));
  }
  return hit;
}

/** What a program asks before it runs (cached per released version; batched within 50 ms). */
export function prepareProgram(project: string, flow: string, key: string): Promise<PreparedProgram> {
  const k = `${project}/${flow}`;
  const hit = prepared.get(k);
  if (hit) return hit.answer;
  const answer = batched(project, flow, key);
  const entry = { version: -1, answer };
  prepared.set(k, entry);
  answer.then(
    (p) => {
      entry.version = p._version;
    },
    () => prepared.get(k) === entry && prepared.delete(k),
  );
  return answer;
}

export function execProgram(
  project: string,
  flow: string,
  key: string,
  body: { data: Record<string, unknown>; record?: string },
): Promise<ExecAnswer> {
  return post<ExecAnswer>(
    `${base(project)}/exec/${encodeURIComponent(flow)}/${encodeURIComponent(key)}`,
    body,
    { quiet: true },
  );
}

/** One run per record, each in its own transaction (see src/server/program/README.md). */
export function execProgramBulk(
  project: string,
  flow: string,
  key: string,
  body: { data: Record<string, unknown>; records: string[] },
): Promise<BulkAnswer> {
  return post<BulkAnswer>(
    `${base(project)}/exec/${encodeURIComponent(flow)}/${encodeURIComponent(key)}`,
    body,
    { quiet: true },
  );
}

/** Forget what programs ask and who may run them (sign-out, project switch, a release seen). */
export function clearProgramCaches(): void {
  prepared.clear();
  granted.clear();
}
