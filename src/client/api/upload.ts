/**
 * The upload call (`POST /api/app/util/{project}/upload?type=`): one file as multipart/form-data
 * through XMLHttpRequest for its progress events, with the same `token` header and coded errors
 * (and error notice) as the request wrapper.
 */
import { ApiError, NETWORK_ERROR } from './api-error.ts';
import { effects } from './effects.ts';
import { getToken } from './storage.ts';

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

export function uploadFile(project: string, file: File | Blob, name: string, opts: UploadOptions) {
  return new Promise<Uploaded>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    const q = new URLSearchParams({ type: opts.type });
    if (opts.entity) q.set('entity', opts.entity);
    xhr.open('POST', `/api/app/util/${encodeURIComponent(project)}/upload?${q}`);
    const token = getToken();
    if (token) xhr.setRequestHeader('token', token);
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
      let answer: { error?: number; msg?: string; data?: unknown };
      try {
        answer = JSON.parse(xhr.responseText);
      } catch {
        effects.notifyError(xhr.status, xhr.statusText || `HTTP ${xhr.status}`);
        reject(new ApiError(xhr.status, xhr.statusText || `HTTP ${xhr.status}`));
        return;
      }
      if (answer.error === 0) {
        resolve(answer.data as Uploaded);
        return;
      }
      const code = answer.error ?? xhr.status;
      const msg = answer.msg ?? xhr.statusText;
      effects.notifyError(code, msg);
      reject(new ApiError(code, msg, true));
    };
    const form = new FormData();
    form.append('file', file, name);
    xhr.send(form);
  });
}
