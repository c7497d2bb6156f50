/**
 * What a file is, by its first bytes (magic numbers), and whether its name or declared content type
 * tell the truth. A file whose bytes say PNG but whose name says .pdf (or the reverse) is refused:
 * what is stored is served by its extension, so the two must agree.
 */

export type Sniffed =
  | 'png'
  | 'jpeg'
  | 'gif'
  | 'webp'
  | 'bmp'
  | 'ico'
  | 'tiff'
  | 'pdf'
  | 'zip'
  | 'gzip'
  | '7z'
  | 'rar'
  | 'ole'
  | 'mp3'
  | 'mp4'
  | 'ogg'
  | 'wav'
  | 'avi'
  | 'exe'
  | 'elf'
  | 'macho';

/** Content types of the sniffed kinds (what an attachment records as its `type`). */
export const MIME_OF: Record<Sniffed, string> = {
  png: 'image/png',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  bmp: 'image/bmp',
  ico: 'image/x-icon',
  tiff: 'image/tiff',
  pdf: 'application/pdf',
  zip: 'application/zip',
  gzip: 'application/gzip',
  '7z': 'application/x-7z-compressed',
  rar: 'application/vnd.rar',
  ole: 'application/x-ole-storage',
  mp3: 'audio/mpeg',
  mp4: 'video/mp4',
  ogg: 'audio/ogg',
  wav: 'audio/wav',
  avi: 'video/x-msvideo',
  exe: 'application/vnd.microsoft.portable-executable',
  elf: 'application/x-elf',
  macho: 'application/x-mach-binary',
};

/** Executables are never stored: nothing in a business app needs them, and they travel as malware. */
export const REFUSED: ReadonlySet<Sniffed> = new Set(['exe', 'elf', 'macho']);

const at = (b: Buffer, offset: number, text: string) =>
  b.length >= offset + text.length && b.toString('latin1', offset, offset + text.length) === text;

/** The kind of some bytes by their signature, or null for text and unknown formats. */
export function sniff(b: Buffer): Sniffed | null {
  if (b.length >= 8 && b.readUInt32BE(0) === 0x89504e47 && b.readUInt32BE(4) === 0x0d0a1a0a) return 'png';
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'jpeg';
  if (at(b, 0, 'GIF87a') || at(b, 0, 'GIF89a')) return 'gif';
  if (at(b, 0, 'RIFF') && at(b, 8, 'WEBP')) return 'webp';
  if (at(b, 0, 'RIFF') && at(b, 8, 'WAVE')) return 'wav';
  if (at(b, 0, 'RIFF') && at(b, 8, 'AVI ')) return 'avi';
  if (at(b, 0, 'BM') && b.length >= 14 && b.readUInt32LE(2) === b.length) return 'bmp';
  if (b.length >= 4 && b.readUInt32BE(0) === 0x00000100) return 'ico';
  if (at(b, 0, 'II*\u0000') || at(b, 0, 'MM\u0000*')) return 'tiff';
  if (at(b, 0, '%PDF-')) return 'pdf';
  if (at(b, 0, 'PK\u0003\u0004') || at(b, 0, 'PK\u0005\u0006')) return 'zip';
  if (b.length >= 2 && b[0] === 0x1f && b[1] === 0x8b) return 'gzip';
  if (at(b, 0, "7z\u00bc\u00af'\u001c")) return '7z';
  if (at(b, 0, 'Rar!\u001a\u0007')) return 'rar';
  if (b.length >= 8 && b.readUInt32BE(0) === 0xd0cf11e0 && b.readUInt32BE(4) === 0xa1b11ae1) return 'ole';
  if (at(b, 0, 'ID3') || (b.length >= 2 && b[0] === 0xff && (b[1]! & 0xe0) === 0xe0)) return 'mp3';
  if (at(b, 4, 'ftyp')) return 'mp4';
  if (at(b, 0, 'OggS')) return 'ogg';
  if (at(b, 0, 'MZ')) return 'exe';
  if (at(b, 0, '\u007fELF')) return 'elf';
  if (b.length >= 4 && [0xfeedface, 0xfeedfacf, 0xcefaedfe, 0xcffaedfe].includes(b.readUInt32BE(0)))
    return 'macho';
  return null;
}

/** What each extension's bytes must be; `null` in the list means "text or no known signature". */
const EXPECTED: Record<string, readonly (Sniffed | null)[]> = {
  png: ['png'],
  jpg: ['jpeg'],
  jpeg: ['jpeg'],
  gif: ['gif'],
  webp: ['webp'],
  bmp: ['bmp'],
  ico: ['ico', 'png'],
  tif: ['tiff'],
  tiff: ['tiff'],
  pdf: ['pdf'],
  zip: ['zip'],
  docx: ['zip'],
  xlsx: ['zip'],
  pptx: ['zip'],
  odt: ['zip'],
  ods: ['zip'],
  odp: ['zip'],
  gz: ['gzip'],
  tgz: ['gzip'],
  '7z': ['7z'],
  rar: ['rar'],
  doc: ['ole'],
  xls: ['ole'],
  ppt: ['ole'],
  mp3: ['mp3'],
  mp4: ['mp4'],
  m4a: ['mp4'],
  mov: ['mp4'],
  ogg: ['ogg'],
  wav: ['wav'],
  avi: ['avi'],
  txt: [null],
  csv: [null],
  json: [null],
  md: [null],
  xml: [null],
  svg: [null],
  html: [null],
  htm: [null],
};

/** The extension of a file name, lower case, or ''. */
export function extensionOf(name: string): string {
  const m = /\.([a-z0-9]{1,8})$/i.exec(name);
  return m ? m[1]!.toLowerCase() : '';
}

/**
 * Why a file's name or declared content type contradicts its bytes, or null when they agree (or say
 * nothing we know). `declared` is the content type the sender gave for the part, if any.
 */
export function lie(name: string, kind: Sniffed | null, declared?: string): string | null {
  const ext = extensionOf(name);
  const expected = EXPECTED[ext];
  if (expected && !expected.includes(kind)) {
    return `named .${ext} but the content is ${kind ?? 'text or an unknown format'}`;
  }
  const type = (declared ?? '').split(';')[0]!.trim().toLowerCase();
  if (type && type !== 'application/octet-stream') {
    const claimed = (Object.keys(MIME_OF) as Sniffed[]).filter((k) => MIME_OF[k] === type);
    if (type === 'image/jpg') claimed.push('jpeg');
    if (claimed.length && !claimed.includes(kind as Sniffed)) {
      return `declared ${type} but the content is ${kind ?? 'text or an unknown format'}`;
    }
    if (type.startsWith('image/') && !claimed.length && type !== 'image/svg+xml' && kind === null) {
      return `declared ${type} but the content is not an image`;
    }
  }
  return null;
}
