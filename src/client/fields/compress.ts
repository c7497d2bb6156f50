/**
 * Client-side image compression before upload (issue #24 item 5): photos from phones are large and
 * carry their rotation in EXIF. The image is decoded with its EXIF orientation applied
 * (`createImageBitmap(…, { imageOrientation: 'from-image' })`), scaled to fit `maxEdge` and encoded
 * again; the original is kept whenever the result would not be smaller, and GIFs (animation) are
 * never touched.
 */

export interface CompressOptions {
  /** Longest side in pixels after scaling; 0 turns compression off. */
  maxEdge: number;
  /** JPEG / WebP quality, 0..1. */
  quality: number;
  /** Files at most this many bytes that already fit are kept as they are. */
  keepBelow: number;
}

export const COMPRESS_DEFAULTS: CompressOptions = { maxEdge: 1920, quality: 0.85, keepBelow: 300 * 1024 };

const RECODED = new Set(['image/jpeg', 'image/png', 'image/webp']);

/** The size an image of w × h gets when its longest side is fitted into `maxEdge`. */
export function fitSize(w: number, h: number, maxEdge: number): { width: number; height: number } {
  if (maxEdge <= 0 || (w <= maxEdge && h <= maxEdge)) return { width: w, height: h };
  const k = maxEdge / Math.max(w, h);
  return { width: Math.max(1, Math.round(w * k)), height: Math.max(1, Math.round(h * k)) };
}

/** The file compressed (or the file itself when that does not help or cannot be done here). */
export async function compressImage(file: File, options: Partial<CompressOptions> = {}): Promise<File> {
  const o = { ...COMPRESS_DEFAULTS, ...options };
  if (o.maxEdge <= 0 || !RECODED.has(file.type) || typeof createImageBitmap !== 'function') return file;
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' });
  } catch {
    return file; // not decodable here: the server checks it anyway
  }
  const { width, height } = fitSize(bitmap.width, bitmap.height, o.maxEdge);
  if (file.size <= o.keepBelow && width === bitmap.width && height === bitmap.height) {
    bitmap.close();
    return file;
  }
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const ctx = canvas.getContext('2d');
  if (!ctx) {
    bitmap.close();
    return file;
  }
  ctx.drawImage(bitmap, 0, 0, width, height);
  bitmap.close();
  // PNGs may hold transparency: keep PNG; photos go to JPEG.
  const type = file.type === 'image/png' ? 'image/png' : 'image/jpeg';
  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, type, o.quality));
  if (!blob || blob.size >= file.size) return file;
  const name = type === 'image/jpeg' ? `${file.name.replace(/\.(png|webp|jpe?g)$/i, '')}.jpg` : file.name;
  return new File([blob], name, { type, lastModified: file.lastModified });
}
