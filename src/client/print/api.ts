/** Print calls: new-window keys and multi-page exports. */
import type { PrintOption } from '../../shared/print.ts';
import { ApiError } from '../api/api-error.ts';
import { post } from '../api/request.ts';
import { getToken } from '../api/storage.ts';

export function preparePrint(project: string, page: string, print: PrintOption) {
  return post<{ key: string; url: string; expiresAt: number }>(`/api/app/util/${project}/print/prepare`, {
    page,
    print,
  });
}

export function takePrint(project: string, key: string) {
  return post<{ page: string; print: PrintOption }>(
    `/api/app/util/${project}/print/take`,
    { key },
    { quiet: true },
  );
}

/** Server mode: one PDF of the pages (a Blob); coded errors reject with an ApiError. */
export async function printSheetsPdf(
  project: string,
  pages: Array<{ page: string; print?: PrintOption; params?: Record<string, string> }>,
  option: { landscape?: boolean; name?: string } = {},
): Promise<Blob> {
  const token = getToken();
  const res = await fetch(`/api/app/util/${project}/sheet/print`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { token } : {}) },
    body: JSON.stringify({ pages, option: { ...option, mode: 'server' } }),
  });
  if (res.headers.get('content-type')?.includes('application/pdf')) return res.blob();
  const a = (await res.json().catch(() => ({}))) as { error?: number; msg?: string };
  throw new ApiError(a.error ?? -2, a.msg ?? res.statusText);
}
