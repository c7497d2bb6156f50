/**
 * Values of the field types beyond the spec's (README "Field types"): how each is checked, stored and
 * answered. One home for the server's save, update and import and for the client's record forms, so
 * a value the form lets through is one the server keeps, and the reverse.
 */
import type { FieldOption, FieldType } from '../api/fields.ts';
import { E, type ErrorDef } from '../errors.ts';

export const LONG_TEXT_MAX = 100_000;
export const OPTIONS_MAX = 200;
export const ATTACHMENTS_MAX = 50;
export const URL_MAX = 2048;
export const EMAIL_MAX = 254;

/** One stored file of an attachment field. */
export interface AttachmentItem {
  url: string;
  name: string;
  size: number;
  /** The content type the store found by sniffing (e.g. image/png), when known. */
  type?: string;
}

export type ValueCheck = { ok: true; value: unknown } | { ok: false; error: ErrorDef; reason: string };

const good = (value: unknown): ValueCheck => ({ ok: true, value });
const bad = (error: ErrorDef, reason: string): ValueCheck => ({ ok: false, error, reason });

const EMAIL = /^[^\s@"<>()[\]\\,;:]+@[^\s@"<>()[\]\\,;:]+\.[^\s@"<>()[\]\\,;:.]{2,}$/u;
const PHONE = /^\+?[0-9][0-9 ()-]{2,30}$/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused.
const CONTROL = /[\u0000-\u001f\u007f]/;

/** The option list of a field (`_option.info.list`), cleaned; empty when there is none. */
export function optionListOf(option: FieldOption | undefined | null): string[] {
  const list = option?.info?.list;
  if (!Array.isArray(list)) return [];
  return [...new Set(list.filter((x): x is string => typeof x === 'string' && x.trim() !== ''))];
}

/**
 * Whether a field's values must come from its option list: option types always; text and number
 * fields when their list is enabled and not empty (as the import has always read it).
 */
export function checksOptions(type: FieldType, option: FieldOption | undefined | null): boolean {
  if (type === 'option' || type === 'options') return true;
  const on = (type === 'string' || type === 'number') && option?.info?.enable === true;
  return on && optionListOf(option).length > 0;
}

/** A boolean as forms, spreadsheets and the spec's text switches send it. */
export function readBoolean(v: unknown): boolean | null {
  if (v === true || v === 1 || v === 'true' || v === '1') return true;
  if (v === false || v === 0 || v === 'false' || v === '0') return false;
  if (typeof v === 'string') {
    const s = v.trim().toLowerCase();
    if (['true', 'yes', 'y', '是', '√', '✓'].includes(s)) return true;
    if (['false', 'no', 'n', '否', '×', '✗'].includes(s)) return false;
  }
  return null;
}

export function isEmail(v: string): boolean {
  return v.length <= EMAIL_MAX && EMAIL.test(v);
}

export function isPhone(v: string): boolean {
  const digits = v.replace(/\D/g, '').length;
  return PHONE.test(v) && digits >= 3 && digits <= 20;
}

/** An absolute http(s) URL with a host. */
export function isWebUrl(v: string): boolean {
  if (v.length > URL_MAX || CONTROL.test(v) || /\s/.test(v)) return false;
  try {
    const u = new URL(v);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '';
  } catch {
    return false;
  }
}

/** The upload store's URL prefix of a project's files (attachments of another project are refused). */
export const projectUploadPrefix = (projectId: string) => `/upload/project/${projectId}/`;

function attachmentItem(x: unknown, projectId: string | undefined): AttachmentItem | null {
  if (typeof x !== 'object' || x === null || Array.isArray(x)) return null;
  const o = x as Record<string, unknown>;
  const { url, name, size, type } = o;
  if (typeof url !== 'string' || url.length > URL_MAX || CONTROL.test(url)) return null;
  const local = url.startsWith('/upload/');
  if (local && projectId !== undefined && !url.startsWith(projectUploadPrefix(projectId))) return null;
  if (local && url.split('/').some((p) => p === '..' || p === '.')) return null;
  if (!local && !isWebUrl(url)) return null;
  if (typeof name !== 'string' || name.length === 0 || name.length > 200 || CONTROL.test(name)) return null;
  if (typeof size !== 'number' || !Number.isInteger(size) || size < 0) return null;
  if (type !== undefined && (typeof type !== 'string' || type.length > 100)) return null;
  return type === undefined ? { url, name, size } : { url, name, size, type };
}

/**
 * Checks one input value of a field of one of our types and answers what to store (null = empty),
 * or the coded error. Answers undefined for the spec's types, which the server checks itself.
 * `projectId` limits attachments to the project's own uploads.
 */
export function checkValue(
  type: FieldType,
  v: unknown,
  option?: FieldOption | null,
  projectId?: string,
): ValueCheck | undefined {
  const empty = v === null || v === undefined || v === '' || (Array.isArray(v) && v.length === 0);
  switch (type) {
    case 'boolean': {
      if (empty) return good(null);
      const b = readBoolean(v);
      return b === null ? bad(E.FIELD_BOOLEAN_INVALID, 'expected true or false') : good(b ? 1 : 0);
    }
    case 'longtext':
      if (empty) return good(null);
      if (typeof v !== 'string') return bad(E.INVALID_FIELD, 'expected text');
      if (v.length > LONG_TEXT_MAX) return bad(E.INVALID_FIELD, `at most ${LONG_TEXT_MAX} characters`);
      return v.includes('\u0000') ? bad(E.INVALID_FIELD, 'contains a NUL character') : good(v);
    case 'option': {
      if (empty) return good(null);
      if (typeof v !== 'string') return bad(E.FIELD_OPTION_UNKNOWN, 'expected one option');
      return optionListOf(option).includes(v) ? good(v) : bad(E.FIELD_OPTION_UNKNOWN, `'${clip(v)}'`);
    }
    case 'options': {
      if (empty) return good(null);
      const list = Array.isArray(v) ? v : [v];
      if (list.length > OPTIONS_MAX) return bad(E.FIELD_OPTION_UNKNOWN, `at most ${OPTIONS_MAX} options`);
      const allowed = optionListOf(option);
      for (const x of list) {
        if (typeof x !== 'string') return bad(E.FIELD_OPTION_UNKNOWN, 'expected a list of options');
        if (!allowed.includes(x)) return bad(E.FIELD_OPTION_UNKNOWN, `'${clip(x)}'`);
      }
      return good(JSON.stringify([...new Set(list as string[])]));
    }
    case 'email': {
      if (empty) return good(null);
      const s = typeof v === 'string' ? v.trim() : '';
      return isEmail(s) ? good(s) : bad(E.FIELD_EMAIL_INVALID, `'${clip(String(v))}'`);
    }
    case 'phone': {
      if (empty) return good(null);
      const s = typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : '';
      return isPhone(s) ? good(s) : bad(E.FIELD_PHONE_INVALID, `'${clip(String(v))}'`);
    }
    case 'url': {
      if (empty) return good(null);
      const s = typeof v === 'string' ? v.trim() : '';
      return isWebUrl(s) ? good(s) : bad(E.FIELD_URL_INVALID, `'${clip(String(v))}'`);
    }
    case 'attachment': {
      if (empty) return good(null);
      const list = Array.isArray(v) ? v : [v];
      if (list.length > ATTACHMENTS_MAX)
        return bad(E.FIELD_ATTACHMENT_INVALID, `at most ${ATTACHMENTS_MAX} files`);
      const items: AttachmentItem[] = [];
      for (const x of list) {
        const item = attachmentItem(x, projectId);
        if (!item) return bad(E.FIELD_ATTACHMENT_INVALID, 'expected uploaded files {url, name, size}');
        items.push(item);
      }
      return good(JSON.stringify(items));
    }
    default:
      return undefined;
  }
}

function clip(s: string): string {
  return s.length > 40 ? `${s.slice(0, 40)}…` : s;
}

function parseList(raw: unknown): unknown[] {
  if (Array.isArray(raw)) return raw;
  if (typeof raw !== 'string' || raw === '') return [];
  try {
    const v = JSON.parse(raw);
    return Array.isArray(v) ? v : [];
  } catch {
    return [];
  }
}

/** A stored value of one of our types as the API answers it; undefined for the spec's types. */
export function storedToApi(type: FieldType, raw: unknown): { value: unknown } | undefined {
  switch (type) {
    case 'boolean':
      return { value: raw === null || raw === undefined ? null : Number(raw) === 1 || raw === true };
    case 'options':
      return { value: parseList(raw).filter((x): x is string => typeof x === 'string') };
    case 'attachment':
      return { value: parseList(raw).filter((x) => attachmentItem(x, undefined) !== null) };
    default:
      return undefined;
  }
}
