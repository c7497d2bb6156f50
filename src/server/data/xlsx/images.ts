import zlib from 'node:zlib';
import JsBarcode from 'jsbarcode';
import QRCode from 'qrcode';

/** A minimal grayscale PNG: one byte per pixel, 0 black, 255 white. */
export function grayPng(width: number, height: number, pixel: (x: number, y: number) => number): Buffer {
  const raw = Buffer.alloc((width + 1) * height);
  for (let y = 0; y < height; y++) {
    raw[y * (width + 1)] = 0; // filter: none
    for (let x = 0; x < width; x++) raw[y * (width + 1) + 1 + x] = pixel(x, y);
  }
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body) >>> 0);
    return Buffer.concat([len, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 0; // grayscale
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Barcode text must be non-empty with no spaces (spec). */
export const barcodeText = (s: string) => s !== '' && !/\s/.test(s);

/** A CODE128 barcode as PNG (bars only), `width`×`height` pixels at most. */
export function barcodePng(text: string, width = 200, height = 60): Buffer | null {
  if (!barcodeText(text)) return null;
  const target: { encodings?: { data: string }[] } = {};
  try {
    JsBarcode(target, text, { format: 'CODE128' });
  } catch {
    return null;
  }
  const bits = (target.encodings ?? []).map((e) => e.data).join('');
  if (!bits) return null;
  const quiet = 10;
  const module = Math.max(1, Math.floor((width - 2 * quiet) / bits.length));
  const w = bits.length * module + 2 * quiet;
  return grayPng(w, height, (x) => {
    const i = Math.floor((x - quiet) / module);
    return i >= 0 && i < bits.length && bits[i] === '1' ? 0 : 255;
  });
}

/** A QR code as PNG, `size` pixels square. */
export async function qrcodePng(text: string, size = 120): Promise<Buffer | null> {
  if (!text) return null;
  try {
    return await QRCode.toBuffer(text, { width: size, margin: 1 });
  } catch {
    return null;
  }
}
