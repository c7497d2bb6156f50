import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { E, fail } from '../errors.ts';
import { lie, MIME_OF, REFUSED, sniff } from './sniff.ts';

/**
 * Uploaded files under `DATA_DIR/upload`, at the spec's path pattern
 * `project/{project}/main/{type}/{YYYYMMDD}/{timestamp}_{name}` (the name gets 128 random bits in
 * front of it, so stored URLs cannot be guessed). Files are served from `/upload/…` to whoever holds
 * the URL, like an object store's public links; writing needs a signed-in project member.
 */

/** Spec: upload size default max 20480 (KB). */
export const UPLOAD_MAX_BYTES = 20480 * 1024;
export const UPLOAD_URL_PREFIX = '/upload/';
export const UPLOAD_TYPES = ['image', 'file'] as const;
export type UploadType = (typeof UPLOAD_TYPES)[number];

export type ImageKind = 'png' | 'jpeg' | 'gif' | 'webp';

/** The image format of some bytes, by their signature (never by the name or the sender's word). */
export function sniffImage(b: Buffer): ImageKind | null {
  if (b.length >= 8 && b.readUInt32BE(0) === 0x89504e47 && b.readUInt32BE(4) === 0x0d0a1a0a) return 'png';
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'jpeg';
  if (b.length >= 6 && /^GIF8[79]a$/.test(b.toString('latin1', 0, 6))) return 'gif';
  if (b.length >= 12 && b.toString('latin1', 0, 4) === 'RIFF' && b.toString('latin1', 8, 12) === 'WEBP')
    return 'webp';
  return null;
}

/** Width and height of a PNG, JPEG or GIF, or null when they cannot be read. */
export function imageSize(b: Buffer): { width: number; height: number } | null {
  const kind = sniffImage(b);
  if (kind === 'png' && b.length >= 24) return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
  if (kind === 'gif' && b.length >= 10) return { width: b.readUInt16LE(6), height: b.readUInt16LE(8) };
  if (kind === 'jpeg') {
    let p = 2;
    while (p + 9 < b.length) {
      if (b[p] !== 0xff) return null;
      const marker = b[p + 1]!;
      const len = b.readUInt16BE(p + 2);
      // Start-of-frame markers (not DHT 0xc4, JPG 0xc8, DAC 0xcc) carry the size.
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
        return { height: b.readUInt16BE(p + 5), width: b.readUInt16BE(p + 7) };
      }
      p += 2 + len;
    }
  }
  return null;
}

/** A file name reduced to safe characters (letters of any script, digits, `._-`), at most 80. */
export function safeName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const clean = base
    .normalize('NFC')
    .replace(/[^\p{L}\p{N}._-]+/gu, '_')
    .replace(/^[._]+/, '')
    .slice(-80);
  return clean || 'file';
}

function day(now: number): string {
  const d = new Date(now + 8 * 3600_000); // the project's zone: Beijing
  return `${d.getUTCFullYear()}${String(d.getUTCMonth() + 1).padStart(2, '0')}${String(d.getUTCDate()).padStart(2, '0')}`;
}

export class UploadStore {
  readonly root: string;
  constructor(dataDir: string) {
    this.root = path.join(dataDir, 'upload');
  }

  /** Check and store one file; answers its URL. Images must be PNG, JPEG, GIF or WebP. */
  async save(
    project: string,
    type: UploadType,
    name: string,
    data: Buffer,
    declared?: string,
    now = Date.now(),
  ) {
    if (data.length === 0) fail(E.UPLOAD_INVALID, 'the file is empty');
    if (data.length > UPLOAD_MAX_BYTES) fail(E.UPLOAD_TOO_LARGE, `at most ${UPLOAD_MAX_BYTES} bytes`);
    const image = sniffImage(data);
    if (type === 'image' && !image) fail(E.UPLOAD_INVALID, 'type image: a PNG, JPEG, GIF or WebP file');
    const kind = sniff(data);
    if (kind && REFUSED.has(kind)) fail(E.UPLOAD_TYPE_REFUSED, kind);
    const why = lie(name, kind, declared);
    if (why) fail(E.UPLOAD_TYPE_MISMATCH, why);
    let file = `${now}_${crypto.randomBytes(16).toString('hex')}_${safeName(name)}`;
    // An image keeps an extension matching its bytes, so it is served as what it is.
    if (image && !file.toLowerCase().endsWith(`.${image}`) && !(image === 'jpeg' && /\.jpg$/i.test(file)))
      file += `.${image}`;
    const rel = ['project', project, 'main', type, day(now), file].join('/');
    const abs = path.join(this.root, ...rel.split('/'));
    await fs.promises.mkdir(path.dirname(abs), { recursive: true });
    await fs.promises.writeFile(abs, data, { flag: 'wx' });
    const mime = kind ? MIME_OF[kind] : undefined;
    return { url: `${UPLOAD_URL_PREFIX}${rel}`, name: safeName(name), size: data.length, type, image, mime };
  }

  /**
   * The file behind a URL of this store, or null for any other URL (external ones included) or a
   * path that leaves the store. `project` limits it to one project's files.
   */
  resolve(url: string, project?: string): string | null {
    if (!url.startsWith(UPLOAD_URL_PREFIX)) return null;
    const rel = url.slice(UPLOAD_URL_PREFIX.length).split(/[?#]/)[0]!;
    let decoded: string;
    try {
      decoded = decodeURIComponent(rel);
    } catch {
      return null;
    }
    const parts = decoded.split('/');
    if (parts.length !== 6 || parts[0] !== 'project' || parts[2] !== 'main') return null;
    if (project !== undefined && parts[1] !== project) return null;
    if (parts.some((p) => p === '' || p === '.' || p === '..' || p.includes('\\') || p.includes('\0')))
      return null;
    const abs = path.resolve(this.root, ...parts);
    return abs.startsWith(this.root + path.sep) ? abs : null;
  }

  /** Read a stored file (at most the upload limit), or null when it is not there. */
  async read(url: string, project?: string): Promise<Buffer | null> {
    const abs = this.resolve(url, project);
    if (!abs) return null;
    try {
      const st = await fs.promises.stat(abs);
      if (!st.isFile() || st.size > UPLOAD_MAX_BYTES) return null;
      return await fs.promises.readFile(abs);
    } catch {
      return null;
    }
  }
}
