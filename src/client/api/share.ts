/**
 * The shared key/value service from the client (runtime spec "Shared key/value service"): reads are
 * batched — requests within SHARE_BATCH_MS (200 ms) go out as one `fetch` keyed `model_type_key` —
 * and a fetched entry is kept SHARE_ENTRY_MS (500 ms) so reads in that window share it, then cleared
 * so later reads see changes. Writes clear the entry of what they changed at once.
 */
import { get, post } from './request.ts';

export const SHARE_BATCH_MS = 200;
export const SHARE_ENTRY_MS = 500;

export type ShareType = 'project' | 'public' | 'private';
export interface ShareRef {
  model: string;
  type: ShareType;
  key: string;
}

const nameOf = (r: ShareRef) => `${r.model}_${r.type}_${r.key}`;

interface Batch {
  project: string;
  refs: Map<string, ShareRef>;
  waiters: Map<string, { resolve(v: unknown): void; reject(e: unknown): void }[]>;
}

const entries = new Map<string, Promise<unknown>>();
const batches = new Map<string, Batch>();

function flush(project: string): void {
  const batch = batches.get(project);
  batches.delete(project);
  if (!batch) return;
  const body = Object.fromEntries(batch.refs);
  post<Record<string, unknown>>(`/api/app/share/${project}/fetch`, body, { share: false }).then(
    (data) => {
      for (const [name, ws] of batch.waiters) for (const w of ws) w.resolve(data?.[name] ?? null);
    },
    (err: unknown) => {
      for (const ws of batch.waiters.values()) for (const w of ws) w.reject(err);
    },
  );
}

/** Read one item (null when there is none), batched with the other reads of the next 200 ms. */
export function fetchShare<T = unknown>(project: string, ref: ShareRef): Promise<T | null> {
  const id = `${project}/${nameOf(ref)}`;
  const hit = entries.get(id);
  if (hit) return hit as Promise<T | null>;
  let batch = batches.get(project);
  if (!batch) {
    batch = { project, refs: new Map(), waiters: new Map() };
    batches.set(project, batch);
    setTimeout(() => flush(project), SHARE_BATCH_MS);
  }
  const b = batch;
  const name = nameOf(ref);
  b.refs.set(name, ref);
  const promise = new Promise<unknown>((resolve, reject) => {
    const list = b.waiters.get(name) ?? [];
    list.push({ resolve, reject });
    b.waiters.set(name, list);
  });
  entries.set(id, promise);
  const clear = () => setTimeout(() => entries.get(id) === promise && entries.delete(id), SHARE_ENTRY_MS);
  promise.then(clear, () => entries.delete(id));
  return promise as Promise<T | null>;
}

/** Forget what was fetched (after a write, or in tests). */
export function forgetShare(project?: string, ref?: ShareRef): void {
  if (!project) entries.clear();
  else if (!ref) for (const k of [...entries.keys()]) k.startsWith(`${project}/`) && entries.delete(k);
  else entries.delete(`${project}/${nameOf(ref)}`);
}

const base = (p: string, r: ShareRef) =>
  `/api/app/share/${p}/${encodeURIComponent(r.model)}/${r.type}/${encodeURIComponent(r.key)}`;

/** Keep a value (creates or replaces the item). */
export async function setShare(project: string, ref: ShareRef, value: unknown): Promise<void> {
  forgetShare(project, ref);
  await post(base(project, ref), { value }, { share: false });
  forgetShare(project, ref);
}

export async function removeShare(project: string, ref: ShareRef): Promise<void> {
  forgetShare(project, ref);
  await get(`${base(project, ref)}/remove`, { share: false });
}

/** Items of a model and type whose key matches `pattern` (a short regular expression). */
export function queryShare<T = unknown>(project: string, model: string, type: ShareType, pattern?: string) {
  return post<{ _key: string; _value: T }[]>(
    `/api/app/share/${project}/${model}/${type}/query`,
    pattern ? { key: pattern } : {},
    { share: false },
  );
}
