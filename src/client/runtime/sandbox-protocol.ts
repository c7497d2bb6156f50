/** Messages between the page and the sandbox worker (see README.md, "Sandbox"). */

export interface RunContext {
  user: unknown;
  params: unknown;
  state: unknown;
}

export type ToWorker =
  | { type: 'run'; run: number; code: string; context: RunContext }
  | { type: 'reply'; call: number; ok: true; value: unknown }
  | { type: 'reply'; call: number; ok: false; error: string };

export type FromWorker =
  | { type: 'ready' }
  | { type: 'call'; run: number; call: number; method: ApiMethod; args: unknown[] }
  | { type: 'done'; run: number; ok: true }
  | { type: 'done'; run: number; ok: false; error: string };

/** The page API offered to builder code, by name (keep in step with src/shared/script-api.d.ts.ts). */
export const API_METHODS = [
  'notify',
  'navigate',
  'openModal',
  'setValue',
  'getValue',
  'query',
  'runProgram',
] as const;
export type ApiMethod = (typeof API_METHODS)[number];
