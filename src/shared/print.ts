/**
 * Printing (runtime spec: print option, print page, constants): what a print carries and how the
 * options of a page, the caller and the last print combine. Shared by the client's print modals, the
 * print page, the server's print keys and the desktop print client.
 */

/** Spec: print form columns 2, 3 or 4 (default 2). */
export const PRINT_COLUMNS = [2, 3, 4] as const;
export type PrintColumns = (typeof PRINT_COLUMNS)[number];
/** Spec: the desktop print client's default local port (disabled by default). */
export const PRINT_CLIENT_PORT = 21961;
/** Spec: print template mode default client; multi-page export modes server or client. */
export const PRINT_MODES = ['server', 'client'] as const;
export type PrintMode = (typeof PRINT_MODES)[number];
/** Rows of a print table on one A4 sheet unless the print says otherwise. */
export const PRINT_ROWS_PER_SHEET = 25;
export const PRINT_COPIES_MAX = 20;
/** A new-window print key lives this long (and is taken once). */
export const PRINT_KEY_TTL_MS = 10 * 60_000;
/** The largest print data a key may hold, as JSON. */
export const PRINT_DATA_MAX_CHARS = 1_000_000;
/** Print pages one multi-page export may hold. */
export const PRINT_PAGES_MAX = 50;

/** One column of a print table or one entry of a print form. */
export interface PrintField {
  key: string;
  title: string;
}

/**
 * A print page (spec: title, url, data, field, info, copies): `data` is the rows of a table or one
 * record of a form; `field` what is shown of them; `info` a line under the title.
 */
export interface PrintPage {
  title?: string;
  url?: string;
  data?: Record<string, unknown>[] | Record<string, unknown>;
  field?: PrintField[];
  info?: string;
  copies?: number;
}

/** The print option: a print page plus how it is laid out, and which page it belongs to. */
export interface PrintOption extends PrintPage {
  page?: string;
  /** Form columns (2, 3 or 4). */
  columns?: number;
  /** Table rows per A4 sheet. */
  rows?: number;
  landscape?: boolean;
}

/** What of an option a user may pick and have remembered for the next print. */
export const REMEMBERED = ['columns', 'rows', 'copies', 'landscape'] as const;

function clampInt(v: unknown, min: number, max: number): number | undefined {
  if (typeof v !== 'number' || !Number.isFinite(v)) return undefined;
  return Math.min(max, Math.max(min, Math.round(v)));
}

/** An option with its numbers in range (columns 2/3/4, copies 1–20, rows 5–100). */
export function normalizeOption(o: PrintOption): PrintOption {
  const out: PrintOption = { ...o };
  const columns = clampInt(o.columns, 2, 4);
  if (columns === undefined) delete out.columns;
  else out.columns = columns;
  const copies = clampInt(o.copies, 1, PRINT_COPIES_MAX);
  if (copies === undefined) delete out.copies;
  else out.copies = copies;
  const rows = clampInt(o.rows, 5, 100);
  if (rows === undefined) delete out.rows;
  else out.rows = rows;
  return out;
}

function plain(v: unknown): Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

/** The page document's print option (`_option._pc.print`), or {}. */
export function pagePrintOption(doc: unknown): PrintOption {
  return plain(plain(plain(plain(doc)._option)._pc).print) as PrintOption;
}

/**
 * Spec: the print option is the page's `_option._pc.print` merged with the caller's options, plus the
 * page and url. `remembered` (the last print's choices, stored locally) sits under both, so a page or
 * a caller that fixes a value wins over what the user picked last time.
 */
export function mergePrintOption(
  pageOption: PrintOption,
  caller: PrintOption,
  where: { page?: string; url?: string },
  remembered: Partial<PrintOption> = {},
): PrintOption {
  const base: PrintOption = {};
  for (const k of REMEMBERED) if (remembered[k] !== undefined) Object.assign(base, { [k]: remembered[k] });
  return normalizeOption({
    ...base,
    ...pageOption,
    ...caller,
    ...(where.page !== undefined ? { page: where.page } : {}),
    ...(where.url !== undefined ? { url: where.url } : {}),
  });
}

/** Rows cut into sheets of `size` (at least one sheet, even for no rows). */
export function paginate<T>(rows: readonly T[], size: number): T[][] {
  const n = Math.max(1, Math.floor(size));
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += n) out.push(rows.slice(i, i + n));
  return out.length ? out : [[]];
}

/** A value as printed text (relations by their display name, lists joined). */
export function printText(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (Array.isArray(v)) return v.map(printText).join(', ');
  if (typeof v === 'object') {
    const o = v as Record<string, unknown>;
    if (typeof o.name === 'string') return o.name;
    if (typeof o._code === 'string') return o._code;
    return JSON.stringify(v);
  }
  return String(v);
}

/** The desktop print client's messages (spec: they carry key, data, uid). */
export interface PrintClientMessage {
  /** What the message is: `print` (browser → client), `ping`/`pong`, `printed`, `error`. */
  key: 'print' | 'ping' | 'pong' | 'printed' | 'error';
  /** Ties an answer to its request. */
  uid: string;
  data?: {
    title?: string;
    /** A whole HTML document to print (its own styles inline). */
    html?: string;
    copies?: number;
    landscape?: boolean;
    /** Answers: where the PDF went (a file, or the printer's job id). */
    file?: string;
    job?: string;
    msg?: string;
  };
}
