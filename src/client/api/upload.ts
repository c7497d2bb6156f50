/**
 * The upload call (`POST /api/app/util/{project}/upload?type=`): one file as multipart/form-data
 * through XMLHttpRequest for its progress events, with the same `token` header and coded errors
 * (and error notice) as the request wrapper. When the server keeps files in an S3-compatible store,
 * `GET …/upload?type=` answers the spec's object-store mode (a signed POST policy) and the file goes
 * straight to the bucket; a server with the local folder is remembered, so later uploads post at once.
 */
import { ApiError, NETWORK_ERROR } from './api-error.ts';
import { effects } from './effects.ts';
import { get } from './request.ts';
import { getToken } from './storage.ts';

/** The object-store mode's answer (server: util/object-store.ts `postForm`). */
interface StoreForm {
  oss: true;
  ossUrl: string;
  fields: Record<string, string>;
  dir: string;
  host: string;
}

const localProjects = new Set<string>();

/** A file name as the server keeps it: letters, digits, `._-`, at most 80. */
function keyName(name: string): string {
  const clean = (name.split(/[\\/]/).pop() ?? '')
    .normalize('NFC')
    .replace(/[^\p{L}\p{N}._-]+/gu, '_')
    .replace(/^[._]+/, '')
    .slice(-80);
  return clean || 'file';
}

export interface Uploaded {
  url: string;
  name: string;
  size: number;
  type: 'image' | 'file';
  /** The content type the server found in the bytes, when it knows the format. */
  mime?: string;
}

export interface UploadOptions {
  type: 'image' | 'file';
  /** The table the file is for: the server then asks for write access to that table. */
  entity?: string;
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
}

export async function uploadFile(
  project: string,
  file: File | Blob,
  name: string,
  opts: UploadOptions,
): Promise<Uploaded> {
  const q = new URLSearchParams({ type: opts.type });
  if (opts.entity) q.set('entity', opts.entity);
  const url = `/api/app/util/${encodeURIComponent(project)}/upload?${q}`;
  if (!localProjects.has(project)) {
    const mode = await get<StoreForm | { oss?: undefined }>(url, { cache: false, share: false });
    if (mode.oss) return toStore(mode, file, name, opts);
    localProjects.add(project);
  }
  return send('POST', url, formOf({}, file, name), opts, true, (a) => (a as { data: Uploaded }).data);
}

/** Straight to the bucket with the signed policy; S3 answers 204 with no body. */
function toStore(form: StoreForm, file: File | Blob, name: string, opts: UploadOptions): Promise<Uploaded> {
  const key = `${form.dir}${keyName(name)}`;
  const type = file.type || 'application/octet-stream';
  const body = formOf({ ...form.fields, key, 'Content-Type': type }, file, name);
  return send('POST', form.ossUrl, body, opts, false, () => ({
    url: `${form.host}/${key.split('/').map(encodeURIComponent).join('/')}`,
    name,
    size: file.size,
    type: opts.type,
    ...(file.type ? { mime: file.type } : {}),
  }));
}

function formOf(fields: Record<string, string>, file: File | Blob, name: string, part = 'file'): FormData {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append(part, file, name);
  return form;
}

/** The rich-text helper's answer to `uploadimage` (server: util/plugin.ts, UEditor's fields). */
export interface EditorImage {
  state: 'SUCCESS';
  url: string;
  title: string;
  original: string;
  type: string;
  size: number;
}

const editorUrl = (project: string, action: string) =>
  `/api/app/util/${encodeURIComponent(project)}/ueditor?action=${action}`;

/** An image for rich text, through the rich-text helper (`ueditor?action=uploadimage`, part `upfile`). */
export function uploadEditorImage(
  project: string,
  file: File | Blob,
  name: string,
  opts: Omit<UploadOptions, 'type' | 'entity'> = {},
): Promise<EditorImage> {
  return send(
    'POST',
    editorUrl(project, 'uploadimage'),
    formOf({}, file, name, 'upfile'),
    { ...opts, type: 'image' },
    true,
    (a) => (a as { data: EditorImage }).data,
  );
}

/** The project's uploaded images, newest first (`ueditor?action=listimage`). */
export function listEditorImages(project: string, start = 0, size = 20) {
  return get<{ list: { url: string; mtime: number }[]; start: number; total: number }>(
    `${editorUrl(project, 'listimage')}&start=${start}&size=${size}`,
    { cache: false, share: false },
  );
}

/**
 * One XHR with upload progress. `json`: the answer is the app's envelope (coded errors shown as
 * notices); otherwise any 2xx is success (an object store's answer).
 */
function send<T>(
  method: string,
  url: string,
  body: FormData,
  opts: UploadOptions,
  json: boolean,
  done: (answer: unknown) => T,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(method, url);
    const token = getToken();
    if (token && json) xhr.setRequestHeader('token', token);
    xhr.upload.onprogress = (ev) => {
      if (ev.lengthComputable) opts.onProgress?.(ev.loaded / ev.total);
    };
    opts.signal?.addEventListener('abort', () => xhr.abort());
    xhr.onabort = () => reject(new ApiError(NETWORK_ERROR.code, 'aborted', true));
    xhr.onerror = () => {
      effects.notifyError(NETWORK_ERROR.code, NETWORK_ERROR.msg);
      reject(new ApiError(NETWORK_ERROR.code, NETWORK_ERROR.msg));
    };
    xhr.onload = () => {
      if (!json) {
        if (xhr.status >= 200 && xhr.status < 300) {
          resolve(done(null));
          return;
        }
        // The store's refusal (an expired policy, a file over the limit) is an XML error document.
        const why = /<Message>([^<]{0,200})<\/Message>/.exec(xhr.responseText)?.[1] ?? `HTTP ${xhr.status}`;
        effects.notifyError(xhr.status, why);
        reject(new ApiError(xhr.status, why, true));
        return;
      }
      let answer: { error?: number; msg?: string; data?: unknown };
      try {
        answer = JSON.parse(xhr.responseText);
      } catch {
        effects.notifyError(xhr.status, xhr.statusText || `HTTP ${xhr.status}`);
        reject(new ApiError(xhr.status, xhr.statusText || `HTTP ${xhr.status}`));
        return;
      }
      if (answer.error === 0) {
        resolve(done(answer));
        return;
      }
      const code = answer.error ?? xhr.status;
      const msg = answer.msg ?? xhr.statusText;
      effects.notifyError(code, msg);
      reject(new ApiError(code, msg, true));
    };
    xhr.send(body);
  });
}

/** The project a stored file's URL belongs to (`…/project/{id}/main/…`, folder or bucket). */
export function projectOfUpload(url: string): string | undefined {
  return /(?:^|\/)project\/([0-9a-f]{24})\/main\//.exec(url)?.[1];
}

/** Several uploaded files of one project as one zip (`POST …/download`, streamed by the server). */
export async function downloadFiles(project: string, files: { url: string; name?: string }[]): Promise<Blob> {
  const token = getToken();
  const res = await fetch(`/api/app/util/${encodeURIComponent(project)}/download`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { token } : {}) },
    body: JSON.stringify({ files: files.map((f) => (f.name ? { url: f.url, name: f.name } : f.url)) }),
  });
  if (res.headers.get('content-type')?.includes('application/zip')) return res.blob();
  const a = (await res.json().catch(() => ({}))) as { error?: number; msg?: string };
  const err = new ApiError(a.error ?? res.status, a.msg ?? res.statusText, true);
  effects.notifyError(err.code, err.message);
  throw err;
}
