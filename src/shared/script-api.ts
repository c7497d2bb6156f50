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
  count?: boolean;
}

export interface ScriptUser {
  _id: string;
  user: string;
  nickname?: string;
  phone?: string;
  roles?: string[];
}

/** One page action, as in a widget's event list (schemas/events.schema.json), e.g. `{ type: 'refreshWidget', widget: 'table' }`. */
export interface ScriptAction {
  type: string;
  [k: string]: unknown;
}

/** Text per language for `api.t`, e.g. `{ zh: '你好，{name}', en: 'Hello, {name}' }`. */
export type ScriptTexts = Partial<Record<'zh' | 'en' | 'jp' | 'vie' | 'yue', string>>;

export interface ScriptApi {
  /** Shows a notice to the user. */
  notify(message: string, level?: NotifyLevel): void;
  /** Opens a URL or an app path. */
  navigate(url: string): void;
  /** Opens a page of the project (in this tab, or a new one with target 'blank'). */
  openPage(page: string, params?: Record<string, unknown>, target?: 'self' | 'blank'): void;
  /** Opens a page of the project in a modal; resolves with what the modal closed with. */
  openModal(page: string, params?: Record<string, unknown>): Promise<unknown>;
  /** Closes the modal the page is in (else the top one), handing `result` to whoever opened it. */
  closeModal(result?: unknown): void;
  /** Sets `state.<name>` or the value of a widget (by id). */
  setValue(target: string, value: unknown): void;
  /** Reads `state.<name>` or the value of a widget (by id); a data widget answers { rows, total }. */
  getValue(target: string): Promise<unknown>;
  /** Reloads a data widget or data source of the page. */
  refresh(widget: string): Promise<void>;
  /** Runs page actions (one or a list) as an event would; rejects with the first failure. */
  runAction(action: ScriptAction | ScriptAction[]): Promise<void>;
  /** Queries rows of a table of the project (the user's permissions apply). */
  query(entity: string, query?: ScriptQuery): Promise<{ data: Record<string, unknown>[]; count?: number }>;
  /** Adds a record to a table; resolves with the saved record. Pages showing the table reload. */
  save(entity: string, values: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** Changes fields of a record; resolves with the saved record. Pages showing the table reload. */
  update(entity: string, id: string, values: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** Removes a record. Pages showing the table reload. */
  remove(entity: string, id: string): Promise<void>;
  /** Runs a program (workflow) and resolves with its result. */
  runProgram(id: string, params?: Record<string, unknown>): Promise<unknown>;
  /** Picks the text of the user's language (else English, else Chinese) and fills `{name}` from vars. */
  t(texts: ScriptTexts, vars?: Record<string, unknown>): string;
  /** The signed-in user, or null for an anonymous visitor. */
  readonly user: ScriptUser | null;
  /** Route parameters of the page. */
  readonly params: Readonly<Record<string, string>>;
  /** The page state variables when the run started (read; write through setValue('state.x', v)). */
  readonly state: Readonly<Record<string, unknown>>;
  /** The user's interface language: zh, en (jp, vie, yue in early-access mode). */
  readonly lang: string;
}

/** Names of the API's members, in declaration order (the sandbox checks it implements all of them). */
export const SCRIPT_API_MEMBERS = [
  'notify',
  'navigate',
  'openPage',
  'openModal',
  'closeModal',
  'setValue',
  'getValue',
  'refresh',
  'runAction',
  'query',
  'save',
  'update',
  'remove',
  'runProgram',
  't',
  'user',
  'params',
  'state',
  'lang',
] as const satisfies readonly (keyof ScriptApi)[];

/** Members that are values (a snapshot taken when a run starts) or computed in the sandbox itself. */
export const SCRIPT_API_LOCAL = ['t', 'user', 'params', 'state', 'lang'] as const;

/** `api.t`: the user's language, else English, else Chinese, else any; `{name}` filled from vars. */
export function pickText(texts: unknown, lang: string, vars?: unknown): string {
  const m = typeof texts === 'object' && texts !== null ? (texts as Record<string, unknown>) : {};
  const hit = [m[lang], m.en, m.zh, ...Object.values(m)].find((v) => typeof v === 'string');
  const text = typeof hit === 'string' ? hit : typeof texts === 'string' ? texts : '';
  const values = typeof vars === 'object' && vars !== null ? (vars as Record<string, unknown>) : {};
  return text.replace(/\{(\w+)\}/g, (all, name: string) =>
    Object.hasOwn(values, name) ? String(values[name]) : all,
  );
}

/** The same API as an ambient declaration for the code editor: scripts see a global `api`. */
export const SCRIPT_API_DTS = `/** The page API of setup scripts and code commands. */
type NotifyLevel = 'success' | 'error' | 'info' | 'warning';
interface ScriptQuery {
  query?: unknown;
  sort?: { field: string; order: 'asc' | 'desc' }[];
  page?: { index: number; size: number };
  count?: boolean;
}
interface ScriptUser { _id: string; user: string; nickname?: string; phone?: string; roles?: string[] }
interface ScriptAction { type: string; [k: string]: unknown }
type ScriptTexts = Partial<Record<'zh' | 'en' | 'jp' | 'vie' | 'yue', string>>;
interface ScriptApi {
  /** Shows a notice to the user. */
  notify(message: string, level?: NotifyLevel): void;
  /** Opens a URL or an app path. */
  navigate(url: string): void;
  /** Opens a page of the project (in this tab, or a new one with target 'blank'). */
  openPage(page: string, params?: Record<string, unknown>, target?: 'self' | 'blank'): void;
  /** Opens a page of the project in a modal; resolves with what the modal closed with. */
  openModal(page: string, params?: Record<string, unknown>): Promise<unknown>;
  /** Closes the modal the page is in (else the top one), handing result to whoever opened it. */
  closeModal(result?: unknown): void;
  /** Sets state.<name> or the value of a widget (by id). */
  setValue(target: string, value: unknown): void;
  /** Reads state.<name> or the value of a widget (by id); a data widget answers { rows, total }. */
  getValue(target: string): Promise<unknown>;
  /** Reloads a data widget or data source of the page. */
  refresh(widget: string): Promise<void>;
  /** Runs page actions (one or a list) as an event would; rejects with the first failure. */
  runAction(action: ScriptAction | ScriptAction[]): Promise<void>;
  /** Queries rows of a table of the project (the user's permissions apply). */
  query(entity: string, query?: ScriptQuery): Promise<{ data: Record<string, unknown>[]; count?: number }>;
  /** Adds a record to a table; resolves with the saved record. Pages showing the table reload. */
  save(entity: string, values: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** Changes fields of a record; resolves with the saved record. Pages showing the table reload. */
  update(entity: string, id: string, values: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** Removes a record. Pages showing the table reload. */
  remove(entity: string, id: string): Promise<void>;
  /** Runs a program (workflow) and resolves with its result. */
  runProgram(id: string, params?: Record<string, unknown>): Promise<unknown>;
  /** Picks the text of the user's language (else English, else Chinese) and fills {name} from vars. */
  t(texts: ScriptTexts, vars?: Record<string, unknown>): string;
  /** The signed-in user, or null for an anonymous visitor. */
  readonly user: ScriptUser | null;
  /** Route parameters of the page. */
  readonly params: Readonly<Record<string, string>>;
  /** The page state variables when the run started. */
  readonly state: Readonly<Record<string, unknown>>;
  /** The user's interface language: zh, en (jp, vie, yue in early-access mode). */
  readonly lang: string;
}
declare const api: ScriptApi;
`;
