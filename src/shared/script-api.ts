/**
 * The API that setup scripts and client code commands get (they run in a Worker or sandboxed iframe,
 * never by eval in the page). The interface is what the runtime sandbox implements; the declaration
 * text is what the designer's code editor gives Monaco (addExtraLib) so `api.` completes.
 */

export type NotifyLevel = 'success' | 'error' | 'info' | 'warning';

/** A query of the query language (src/shared/query): filter, sort, page. */
export interface ScriptQuery {
  query?: unknown;
  sort?: { field: string; order: 'asc' | 'desc' }[];
  page?: { index: number; size: number };
}

export interface ScriptUser {
  _id: string;
  user: string;
  nickname?: string;
  phone?: string;
  roles?: string[];
}

export interface ScriptApi {
  /** Shows a notice to the user. */
  notify(message: string, level?: NotifyLevel): void;
  /** Opens a URL or an app path. */
  navigate(url: string): void;
  /** Opens a page of the project in a modal; resolves with what the modal closed with. */
  openModal(page: string, params?: Record<string, unknown>): Promise<unknown>;
  /** Sets `state.<name>` or the value of a widget (by id). */
  setValue(target: string, value: unknown): void;
  /** Reads `state.<name>` or the value of a widget (by id). */
  getValue(target: string): unknown;
  /** Queries rows of a table of the project. */
  query(entity: string, query?: ScriptQuery): Promise<{ data: Record<string, unknown>[]; count?: number }>;
  /** Runs a program (workflow) and resolves with its result. */
  runProgram(id: string, params?: Record<string, unknown>): Promise<unknown>;
  /** The signed-in user, or null for an anonymous visitor. */
  readonly user: ScriptUser | null;
  /** Route parameters of the page. */
  readonly params: Readonly<Record<string, string>>;
  /** The page state variables (read; write through setValue('state.x', v)). */
  readonly state: Readonly<Record<string, unknown>>;
}

/** Names of the API's members, in declaration order (the sandbox checks it implements all of them). */
export const SCRIPT_API_MEMBERS = [
  'notify',
  'navigate',
  'openModal',
  'setValue',
  'getValue',
  'query',
  'runProgram',
  'user',
  'params',
  'state',
] as const satisfies readonly (keyof ScriptApi)[];

/** The same API as an ambient declaration for the code editor: scripts see a global `api`. */
export const SCRIPT_API_DTS = `/** The page API of setup scripts and code commands. */
type NotifyLevel = 'success' | 'error' | 'info' | 'warning';
interface ScriptQuery {
  query?: unknown;
  sort?: { field: string; order: 'asc' | 'desc' }[];
  page?: { index: number; size: number };
}
interface ScriptUser { _id: string; user: string; nickname?: string; phone?: string; roles?: string[] }
interface ScriptApi {
  /** Shows a notice to the user. */
  notify(message: string, level?: NotifyLevel): void;
  /** Opens a URL or an app path. */
  navigate(url: string): void;
  /** Opens a page of the project in a modal; resolves with what the modal closed with. */
  openModal(page: string, params?: Record<string, unknown>): Promise<unknown>;
  /** Sets state.<name> or the value of a widget (by id). */
  setValue(target: string, value: unknown): void;
  /** Reads state.<name> or the value of a widget (by id). */
  getValue(target: string): unknown;
  /** Queries rows of a table of the project. */
  query(entity: string, query?: ScriptQuery): Promise<{ data: Record<string, unknown>[]; count?: number }>;
  /** Runs a program (workflow) and resolves with its result. */
  runProgram(id: string, params?: Record<string, unknown>): Promise<unknown>;
  /** The signed-in user, or null for an anonymous visitor. */
  readonly user: ScriptUser | null;
  /** Route parameters of the page. */
  readonly params: Readonly<Record<string, string>>;
  /** The page state variables. */
  readonly state: Readonly<Record<string, unknown>>;
}
declare const api: ScriptApi;
`;
