import zlib from 'node:zlib';
import { AppError, E, fail } from '../../errors.ts';

/** How far an uploaded workbook may expand, in total and per compressed byte. */
export interface ZipLimits {
  /** Total uncompressed bytes of all entries. */
  maxUncompressed: number;
  /** Largest allowed uncompressed/compressed ratio of one entry (entries over 1 MB). */
  maxRatio: number;
  /** Most entries an archive may hold. */
  maxEntries: number;
}

export const DEFAULT_ZIP_LIMITS: ZipLimits = {
  maxUncompressed: 512 * 1024 * 1024,
  maxRatio: 400,
  maxEntries: 2000,
};

const LOCAL = 0x04034b50;
const CENTRAL = 0x02014b50;
const EOCD = 0x06054b50;

interface CentralEntry {
  name: string;
  method: number;
  compressed: number;
  uncompressed: number;
  offset: number;
}

function bad(why: string): never {
  fail(E.IMPORT_NOT_XLSX, why);
}
function bomb(why: string): never {
  fail(E.IMPORT_ZIP_BOMB, why);
}

function readCentral(buf: Buffer, limits: ZipLimits): Map<number, CentralEntry> {
  // The end-of-central-directory record sits in the last 22 + 65,535 bytes.
  let eocd = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 22 - 65_535); i--) {
    if (buf.readUInt32LE(i) === EOCD) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) bad('no zip directory');
  const count = buf.readUInt16LE(eocd + 10);
  const size = buf.readUInt32LE(eocd + 12);
  const start = buf.readUInt32LE(eocd + 16);
  if (count === 0xffff || start === 0xffffffff || size === 0xffffffff)
    bomb('zip64 archives are not accepted');
  if (count > limits.maxEntries) bomb(`more than ${limits.maxEntries} entries`);
  if (start + size > eocd) bad('zip directory out of range');
  const entries = new Map<number, CentralEntry>();
  let p = start;
  let total = 0;
  let packed = 0;
  for (let n = 0; n < count; n++) {
    if (p + 46 > buf.length || buf.readUInt32LE(p) !== CENTRAL) bad('broken zip directory');
    const method = buf.readUInt16LE(p + 10);
    const compressed = buf.readUInt32LE(p + 20);
    const uncompressed = buf.readUInt32LE(p + 24);
    const nameLen = buf.readUInt16LE(p + 28);
    const extraLen = buf.readUInt16LE(p + 30);
    const commentLen = buf.readUInt16LE(p + 32);
    const offset = buf.readUInt32LE(p + 42);
    const name = buf.toString('utf8', p + 46, p + 46 + nameLen);
    if (compressed === 0xffffffff || uncompressed === 0xffffffff || offset === 0xffffffff)
      bomb('zip64 entries are not accepted');
    if (method !== 0 && method !== 8) bad(`unsupported compression in ${name}`);
    total += uncompressed;
    if (total > limits.maxUncompressed) bomb(`expands beyond ${limits.maxUncompressed} bytes`);
    if (uncompressed > 1024 * 1024 && uncompressed > compressed * limits.maxRatio)
      bomb(`${name} expands too much`);
    entries.set(offset, { name, method, compressed, uncompressed, offset });
    packed += compressed;
    p += 46 + nameLen + extraLen + commentLen;
  }
  // Many small entries stay under the per-entry check one by one; the archive as a whole may not
  // expand more than one large entry may (400 small entries of 1 MB of zeros: 450 KB that cost
  // tens of seconds of inflating before anything could say no).
  if (total > 8 * 1024 * 1024 && total > packed * limits.maxRatio) bomb('the archive expands too much');
  return entries;
}

/**
 * Inflate one entry with zlib's streaming inflater (native, off the event loop), counting the output
 * and dropping it; stops as soon as more than `cap` bytes come out.
 */
function inflatedSize(data: Buffer, cap: number, name: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const inflater = zlib.createInflateRaw({ chunkSize: 64 * 1024 });
    let produced = 0;
    let done = false;
    const finish = (err: unknown, n?: number) => {
      if (done) return;
      done = true;
      if (err) {
        inflater.destroy();
        reject(err);
      } else resolve(n ?? produced);
    };
    inflater.on('data', (chunk: Buffer) => {
      produced += chunk.length;
      if (produced > cap) finish(new AppError(E.IMPORT_ZIP_BOMB, `${name} expands beyond its declared size`));
    });
    inflater.on('end', () => finish(null));
    inflater.on('error', () => finish(new AppError(E.IMPORT_NOT_XLSX, `${name} is corrupt`)));
    inflater.end(data);
  });
}

/**
 * Check an uploaded archive BEFORE any library inflates it: the directory's declared sizes first,
 * then the entries in file order (as a streaming reader meets them), inflated in small pieces with
 * the output counted and dropped, so a lying header or a hidden entry cannot make us hold more than a
 * few megabytes. Throws IMPORT_NOT_XLSX or IMPORT_ZIP_BOMB.
 */
export async function checkZip(buf: Buffer, limits: ZipLimits = DEFAULT_ZIP_LIMITS): Promise<void> {
  if (buf.length < 30 || buf.readUInt32LE(0) !== LOCAL) bad('not an xlsx (zip) file');
  const central = readCentral(buf, limits);
  let p = 0;
  let total = 0;
  let seen = 0;
  while (p + 4 <= buf.length && buf.readUInt32LE(p) === LOCAL) {
    const entry = central.get(p);
    if (!entry) bad('zip entry missing from the directory');
    if (p + 30 > buf.length) bad('truncated zip entry');
    const flags = buf.readUInt16LE(p + 6);
    const method = buf.readUInt16LE(p + 8);
    if (flags & 1) bad('encrypted zip entries are not accepted');
    if (method !== entry.method) bad('zip entry does not match the directory');
    const nameLen = buf.readUInt16LE(p + 26);
    const extraLen = buf.readUInt16LE(p + 28);
    const dataStart = p + 30 + nameLen + extraLen;
    const dataEnd = dataStart + entry.compressed;
    if (dataEnd > buf.length) bad('truncated zip entry');
    const produced =
      method === 0
        ? entry.compressed
        : await inflatedSize(
            buf.subarray(dataStart, dataEnd),
            Math.min(entry.uncompressed, limits.maxUncompressed - total),
            entry.name,
          );
    if (produced !== entry.uncompressed) bad(`${entry.name} does not match its declared size`);
    total += produced;
    seen++;
    p = dataEnd;
    // Optional data descriptor: signature, crc, sizes.
    if (flags & 8) p += buf.readUInt32LE(p) === 0x08074b50 ? 16 : 12;
  }
  if (seen !== central.size) bad('zip entries do not match the directory');
}

/**
 * One small entry of an archive already passed by `checkZip`, inflated (at most `cap` bytes), or
 * null when the archive has no such entry.
 */
export function readZipEntry(buf: Buffer, name: string, cap = 1024 * 1024): Buffer | null {
  const central = readCentral(buf, DEFAULT_ZIP_LIMITS);
  for (const entry of central.values()) {
    if (entry.name !== name) continue;
    if (entry.uncompressed > cap) bad(`${name} is too large`);
    const p = entry.offset;
    const dataStart = p + 30 + buf.readUInt16LE(p + 26) + buf.readUInt16LE(p + 28);
    const data = buf.subarray(dataStart, dataStart + entry.compressed);
    try {
      return entry.method === 0 ? Buffer.from(data) : zlib.inflateRawSync(data, { maxOutputLength: cap });
    } catch {
      bad(`${name} is corrupt`);
    }
  }
  return null;
}

/** The name of the first sheet of a workbook already passed by `checkZip` (xl/workbook.xml), or null. */
export function firstSheetName(buf: Buffer): string | null {
  const xml = readZipEntry(buf, 'xl/workbook.xml')?.toString('utf8');
  const m = xml ? /<(?:\w+:)?sheet\b[^>]*?\bname="([^"]*)"/.exec(xml) : null;
  if (!m) return null;
  return m[1]!
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&#(x?)([0-9a-fA-F]{1,8});/g, (_, x: string, n: string) => {
      const c = Number.parseInt(n, x ? 16 : 10);
      return c > 0 && c <= 0x10ffff ? String.fromCodePoint(c) : '';
    })
    .replace(/&amp;/g, '&');
}
