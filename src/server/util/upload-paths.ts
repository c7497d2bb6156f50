/**
 * What a stored upload's URL and size may be: the limits and the path parser shared by the local
 * folder (upload-store.ts) and the S3-compatible store (object-store.ts), kept apart so neither
 * imports the other's module for them.
 */
export const UPLOAD_MAX_BYTES = 20480 * 1024;
export const UPLOAD_URL_PREFIX = '/upload/';
export const UPLOAD_TYPES = ['image', 'file'] as const;
export type UploadType = (typeof UPLOAD_TYPES)[number];

/**
 * The parts of a stored file's path after `prefix` (the folder's `/upload/` or a bucket's public URL):
 * the spec's `project/{project}/main/{type}/{day}/{file}`, decoded; null for any other URL, a path
 * with empty, dot or backslash parts, or (with `project`) another project's file.
 */
export function uploadPath(url: string, prefix: string, project?: string): string[] | null {
  if (!url.startsWith(prefix)) return null;
  let decoded: string;
  try {
    decoded = decodeURIComponent(url.slice(prefix.length).split(/[?#]/)[0]!);
  } catch {
    return null;
  }
  const parts = decoded.split('/');
  if (parts.length !== 6 || parts[0] !== 'project' || parts[2] !== 'main') return null;
  if (project !== undefined && parts[1] !== project) return null;
  if (parts.some((p) => p === '' || p === '.' || p === '..' || p.includes('\\') || p.includes('\0')))
    return null;
  return parts;
}
