import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { E, fail } from '../errors.ts';
import { type S3Config, S3Store } from './object-store.ts';
import { lie, MIME_OF, REFUSED, sniff } from './sniff.ts';
import { UPLOAD_MAX_BYTES, UPLOAD_URL_PREFIX, type UploadType, uploadPath } from './upload-paths.ts';

export {
  UPLOAD_MAX_BYTES,
  UPLOAD_TYPES,
  UPLOAD_URL_PREFIX,
  type UploadType,
  uploadPath,
} from './upload-paths.ts';

/**
 * Uploaded files under `DATA_DIR/upload`, at the spec's path pattern
 * `project/{project}/main/{type}/{YYYYMMDD}/{timestamp}_{name}` (the name gets 128 random bits in
 * front of it, so stored URLs cannot be guessed). Files are served from `/upload/…` to whoever holds
 * the URL, like an object store's public links; writing needs a signed-in project member.
 * With `S3_*` set (object-store.ts) new files go to the bucket instead, at the same keys; files already
 * in the folder stay readable.
 */

/** Spec: upload size default max 20480 (KB). */

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
  readonly s3: S3Store | undefined;
  constructor(dataDir: string, s3?: S3Config) {
    this.root = path.join(dataDir, 'upload');
    this.s3 = s3 ? new S3Store(s3) : undefined;
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
    const mime = kind ? MIME_OF[kind] : undefined;
    if (this.s3) {
      const url = await this.s3.put(rel, data, mime ?? 'application/octet-stream');
      return { url, name: safeName(name), size: data.length, type, image, mime };
    }
    const abs = path.join(this.root, ...rel.split('/'));
    await fs.promises.mkdir(path.dirname(abs), { recursive: true });
    await fs.promises.writeFile(abs, data, { flag: 'wx' });
    return { url: `${UPLOAD_URL_PREFIX}${rel}`, name: safeName(name), size: data.length, type, image, mime };
  }

  /**
   * The file behind a URL of this store, or null for any other URL (external ones included) or a
   * path that leaves the store. `project` limits it to one project's files.
   */
  resolve(url: string, project?: string): string | null {
    const parts = uploadPath(url, UPLOAD_URL_PREFIX, project);
    if (!parts) return null;
    const abs = path.resolve(this.root, ...parts);
    return abs.startsWith(this.root + path.sep) ? abs : null;
  }

  /** Read a stored file (at most the upload limit), or null when it is not there. */
  async read(url: string, project?: string): Promise<Buffer | null> {
    const abs = this.resolve(url, project);
    if (!abs) {
      const found = project !== undefined && this.s3 ? await this.find(url, project) : null;
      if (!found || found.size > UPLOAD_MAX_BYTES) return null;
      const chunks: Buffer[] = [];
      for await (const c of await found.open()) chunks.push(c as Buffer);
      return Buffer.concat(chunks);
    }
    try {
      const st = await fs.promises.stat(abs);
      if (!st.isFile() || st.size > UPLOAD_MAX_BYTES) return null;
      return await fs.promises.readFile(abs);
    } catch {
      return null;
    }
  }

  /**
   * A stored file of the project (folder or bucket) by its URL: its stored name, size and a way to read
   * it; null when the URL is not one of this project's files or the file is gone.
   */
  async find(
    url: string,
    project: string,
  ): Promise<{ stored: string; size: number; open(): Promise<Readable> } | null> {
    const abs = this.resolve(url, project);
    if (abs) {
      const st = await fs.promises.stat(abs).catch(() => null);
      if (!st?.isFile()) return null;
      return {
        stored: path.basename(abs),
        size: st.size,
        open: async () => fs.createReadStream(abs, { highWaterMark: 256 * 1024 }),
      };
    }
    const s3 = this.s3;
    const key = s3?.keyOf(url, project);
    if (!s3 || !key) return null;
    const size = await s3.size(key);
    if (size === null) return null;
    return { stored: key.split('/').pop()!, size, open: () => s3.open(key) };
  }

  /**
   * The project's uploaded images, newest first (the rich-text helper's listing): from the bucket when
   * one is set, else from the folder. At most `start + size` are looked at, and never more than 5,000.
   */
  async listImages(
    project: string,
    start: number,
    size: number,
  ): Promise<{ list: { url: string; mtime: number; size: number }[]; total: number }> {
    const cap = 5000;
    let all: { url: string; mtime: number; size: number }[];
    if (this.s3) {
      const s3 = this.s3;
      all = (await s3.list(`project/${project}/main/image/`, cap)).map((o) => ({
        url: s3.urlOf(o.key),
        mtime: o.mtime,
        size: o.size,
      }));
    } else {
      all = [];
      const dir = path.join(this.root, 'project', project, 'main', 'image');
      const days = (await fs.promises.readdir(dir).catch(() => [] as string[]))
        .filter((d) => /^\d{8}$/.test(d))
        .sort()
        .reverse();
      for (const d of days) {
        if (all.length >= cap) break;
        for (const f of await fs.promises.readdir(path.join(dir, d))) {
          const st = await fs.promises.stat(path.join(dir, d, f)).catch(() => null);
          if (!st?.isFile()) continue;
          all.push({
            url: `${UPLOAD_URL_PREFIX}project/${project}/main/image/${d}/${f}`,
            mtime: st.mtimeMs,
            size: st.size,
          });
          if (all.length >= cap) break;
        }
      }
    }
    all.sort((a, b) => b.mtime - a.mtime);
    return { list: all.slice(start, start + size), total: all.length };
  }
}
