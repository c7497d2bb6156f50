/** Messages between the page and the sandbox worker (see README.md, "Sandbox"). */
import { SCRIPT_API_LOCAL, SCRIPT_API_MEMBERS } from '../../shared/script-api.ts';

export interface RunContext {
  user: unknown;
  params: unknown;
  state: unknown;
  lang: string;
}

export type ToWorker =
  | { type: 'run'; run: number; code: string; context: RunContext }
  | { type: 'reply'; call: number; ok: true; value: unknown }
  | { type: 'reply'; call: number; ok: false; error: string }
  /** Is the worker's event loop free? (asked while a run waits for the user, e.g. an open modal) */
  | { type: 'ping'; ping: number };

export type FromWorker =
  | { type: 'ready' }
  | { type: 'call'; run: number; call: number; method: ApiMethod; args: unknown[] }
  | { type: 'done'; run: number; ok: true }
  | { type: 'done'; run: number; ok: false; error: string }
  | { type: 'pong'; ping: number };

type Local = (typeof SCRIPT_API_LOCAL)[number];
export type ApiMethod = Exclude<(typeof SCRIPT_API_MEMBERS)[number], Local>;

/** The methods the page carries out for builder code: every declared member but the local ones. */
export const API_METHODS: readonly ApiMethod[] = SCRIPT_API_MEMBERS.filter(
  (m): m is ApiMethod => !(SCRIPT_API_LOCAL as readonly string[]).includes(m),
);

/** Methods that wait for the user (a modal until it closes): the run's time limit pauses meanwhile. */
export const WAITS_FOR_USER: ReadonlySet<ApiMethod> = new Set<ApiMethod>(['openModal']);
