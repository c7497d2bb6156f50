/**
 * Spreadsheet import and export of a table's rows (`/api/app/d/{project}/{entity}/…`). Uploads go
 * through XMLHttpRequest for its progress events, downloads through fetch; both send the same `token`
 * header as the request wrapper and raise the same coded errors (with the error notice).
 */
import i18next from 'i18next';
import { LANG_CODE } from '../../shared/admin/i18n.ts';
import type { ImportResult } from '../../shared/api/xlsx.ts';
import { ApiError, NETWORK_ERROR } from './api-error.ts';
import { effects } from './effects.ts';
import { getToken } from './storage.ts';

export type { ImportResult, RowError } from '../../shared/api/xlsx.ts';

/** A failed import: the coded error plus the row errors when rows were refused. */
export class ImportError extends ApiError {
  readonly result: ImportResult | null;
  constructor(code: number, msg: string, result: ImportResult | null) {
    super(code, msg, true);
    this.result = result;
  }
}

export type ExportMode = 'page' | 'all' | 'template';

export interface ExportBody {
  mode: ExportMode;
  query?: unknown;
  sort?: unknown;
  page?: { index: number; size: number };
  fields?: string[];
  /** base64 of the template xlsx (mode template). */
  template?: string;
  /** The reader's language (default: the interface's): headers and option labels from /system/i18n. */
  lang?: string;
}

const base = (project: string, entity: string) =>
  `/api/app/d/${encodeURIComponent(project)}/${encodeURIComponent(entity)}`;

/** Upload an xlsx; `onProgress` gets 0..1 as the bytes go out. Row errors reject with an ImportError. */
export function importXlsx(
  project: string,
  entity: string,
  file: Blob,
  opts: { keepGood: boolean; onProgress?: (fraction: number) => void },
): Promise<ImportResult> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `${base(project, entity)}/import${opts.keepGood ? '?keepGood=1' : ''}`);
    const token = getToken();
    if (token) xhr.setRequestHeader('token', token);
    xhr.setRequestHeader('content-type', 'application/octet-stream');
    xhr.upload.onprogress = (ev) => {
      if (ev.lengthComputable) opts.onProgress?.(ev.loaded / ev.total);
    };
    xhr.onerror = () => {
      effects.notifyError(NETWORK_ERROR.code, NETWORK_ERROR.msg);
      reject(new ApiError(NETWORK_ERROR.code, NETWORK_ERROR.msg));
    };
    xhr.onload = () => {
      let answer: { error?: number; msg?: string; data?: unknown };
      try {
        answer = JSON.parse(xhr.responseText);
      } catch {
        effects.notifyError(xhr.status, xhr.statusText || `HTTP ${xhr.status}`);
        reject(new ApiError(xhr.status, xhr.statusText || `HTTP ${xhr.status}`));
        return;
      }
      if (answer.error === 0) {
        resolve(answer.data as ImportResult);
        return;
      }
      const code = answer.error ?? xhr.status;
      const msg = answer.msg ?? xhr.statusText;
      const result = answer.data && typeof answer.data === 'object' ? (answer.data as ImportResult) : null;
      // Row errors are shown by the import dialog itself; other failures get the usual notice.
      if (!result) effects.notifyError(code, msg);
      reject(new ImportError(code, msg, result));
    };
    xhr.send(file);
  });
}

/** The file name of a download, from content-disposition (UTF-8 form first). */
function fileName(header: string | null, fallback: string): string {
  if (!header) return fallback;
  const utf = /filename\*=UTF-8''([^;]+)/i.exec(header);
  if (utf?.[1]) {
    try {
      return decodeURIComponent(utf[1]);
    } catch {
      /* fall through */
    }
  }
  return /filename="([^"]+)"/.exec(header)?.[1] ?? fallback;
}

/** Ask the server for an xlsx and hand it to the browser as a download; answers the file name. */
export async function exportXlsx(project: string, entity: string, body: ExportBody): Promise<string> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  const token = getToken();
  if (token) headers.token = token;
  let res: Response;
  try {
    res = await fetch(`${base(project, entity)}/export`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        ...(LANG_CODE.test(i18next.language ?? '') ? { lang: i18next.language } : {}),
        ...body,
      }),
    });
  } catch {
    effects.notifyError(NETWORK_ERROR.code, NETWORK_ERROR.msg);
    throw new ApiError(NETWORK_ERROR.code, NETWORK_ERROR.msg);
  }
  if (!res.ok || (res.headers.get('content-type') ?? '').includes('json')) {
    let code = res.status;
    let msg = res.statusText;
    try {
      const a = (await res.json()) as { error?: number; msg?: string };
      code = a.error ?? code;
      msg = a.msg ?? msg;
    } catch {
      /* not one of our answers */
    }
    effects.notifyError(code, msg);
    throw new ApiError(code, msg, true);
  }
  const blob = await res.blob();
  const name = fileName(res.headers.get('content-disposition'), 'export.xlsx');
  saveBlob(blob, name);
  return name;
}

/** Hand a blob to the browser as a download named `name`. */
export function saveBlob(blob: Blob, name: string): void {
  const href = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = href;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
}

/** A file as base64 (for template uploads inside a JSON body). */
export async function fileBase64(file: Blob): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}
