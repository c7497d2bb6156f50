import type { Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import { E, fail } from '../../errors.ts';
import { imageSize, sniffImage } from '../../util/upload-store.ts';
import type { EntityMeta } from '../meta.ts';
import type { ApiRecord } from '../records.ts';
import type { FieldRow } from '../schema-service.ts';
import { formatDate } from './cells.ts';
import { sheetName, textCell } from './export.ts';
import { barcodePng, qrcodePng } from './images.ts';
import { checkZip } from './zip-guard.ts';

/**
 * Template export (spec §9): the template's first sheet is filled once per record, each on its own
 * sheet. `${field}` takes the record's value, a row holding `${#collection.field}` repeats once per
 * item of that collection, and pipes shape the value: `default:text`, `img[:size]` (images of our own
 * upload store embedded as pictures scaled to fit `size` pixels, 100 by default; other URLs stay text:
 * the server never fetches arbitrary URLs), `barcode[:WxH]` and `qrcode[:size]` (PNG pictures drawn
 * into the cell).
 */

export const TEMPLATE_MAX_BYTES = 2 * 1024 * 1024;
export const TEMPLATE_MAX_RECORDS = 500;

const PLACEHOLDER = /\$\{\s*(#?)([A-Za-z][A-Za-z0-9_]*)(?:\.([A-Za-z][A-Za-z0-9_]*))?\s*((?:\|[^|}]*)*)\}/g;

interface Pipe {
  name: string;
  arg: string;
}

interface Placeholder {
  repeat: boolean;
  field: string;
  sub: string | undefined;
  pipes: Pipe[];
}

function parsePipes(s: string): Pipe[] {
  return s
    .split('|')
    .slice(1)
    .map((p) => {
      const i = p.indexOf(':');
      return i < 0 ? { name: p.trim(), arg: '' } : { name: p.slice(0, i).trim(), arg: p.slice(i + 1).trim() };
    });
}

const PIPES = new Set(['default', 'img', 'barcode', 'qrcode', 'print']);

/** Check every placeholder of the template names a readable field and a known pipe. */
function checkTemplate(meta: EntityMeta, sheet: ExcelJS.Worksheet) {
  sheet.eachRow((row) => {
    row.eachCell((cell) => {
      if (typeof cell.value !== 'string') return;
      for (const m of cell.value.matchAll(PLACEHOLDER)) {
        const [, hash, field, sub, pipes] = m;
        const f = meta.byCode.get(field!);
        if (!f) fail(E.EXPORT_TEMPLATE, `\${${field}}: no such field`);
        if (hash) {
          if (f.type !== 'collection' || !sub)
            fail(E.EXPORT_TEMPLATE, `\${#${field}}: expected #collection.field`);
        }
        for (const p of parsePipes(pipes ?? ''))
          if (!PIPES.has(p.name)) fail(E.EXPORT_TEMPLATE, `unknown pipe ${p.name}`);
      }
    });
  });
}

/** A value as text for a template cell. */
function textOfValue(f: FieldRow | undefined, rec: ApiRecord | undefined, code: string): string {
  if (!rec) return '';
  const v = rec[code];
  if (!f) return v === null || v === undefined ? '' : String(v);
  switch (f.type) {
    case 'date':
      return typeof v === 'number' ? formatDate(v) : '';
    case 'relate':
      return String(rec[`_${code}`] ?? '');
    case 'collection': {
      const list = rec[`___${code}`];
      return Array.isArray(list) ? list.map((x) => String((x as ApiRecord)?.__name ?? '')).join(', ') : '';
    }
    case 'options':
      return Array.isArray(v) ? v.map(String).join(', ') : '';
    case 'attachment':
      return Array.isArray(v) ? v.map((x) => String((x as { name?: unknown }).name ?? '')).join(', ') : '';
    default:
      return v === null || v === undefined ? '' : String(v);
  }
}

interface Ctx {
  meta: EntityMeta;
  /** Target metas of collections, for `${#collection.field}`. */
  targets: Map<string, EntityMeta>;
}

/** Reads an image URL of our own store (null for any other URL). */
export type ImageSource = (url: string) => Promise<Buffer | null>;

/** Most image bytes one export embeds; later images stay URLs. */
const IMAGE_BUDGET = 64 * 1024 * 1024;

/** Scale a picture to fit a `box` (longest side `box` pixels by default, or `WxH`). */
function fitBox(size: { width: number; height: number }, arg: string): { width: number; height: number } {
  const box = /^(\d{1,4})(?:x(\d{1,4}))?$/.exec(arg);
  const bw = box ? Math.min(1000, Number(box[1])) : 100;
  const bh = box?.[2] ? Math.min(1000, Number(box[2])) : bw;
  const k = Math.min(1, bw / Math.max(1, size.width), bh / Math.max(1, size.height));
  return { width: Math.max(1, Math.round(size.width * k)), height: Math.max(1, Math.round(size.height * k)) };
}

function resolve(ctx: Ctx, ph: Placeholder, rec: ApiRecord, item: ApiRecord | undefined): string {
  let text: string;
  if (ph.repeat) {
    const target = ctx.targets.get(ph.field);
    text = textOfValue(target?.byCode.get(ph.sub!), item, ph.sub!);
  } else if (ph.sub) {
    // `${relate.field}`: a field of the related record.
    const obj = rec[`___${ph.field}`];
    text =
      obj && typeof obj === 'object' && !Array.isArray(obj) ? String((obj as ApiRecord)[ph.sub] ?? '') : '';
  } else text = textOfValue(ctx.meta.byCode.get(ph.field), rec, ph.field);
  const def = ph.pipes.find((p) => p.name === 'default');
  if (text === '' && def) text = def.arg;
  if (ph.pipes.some((p) => p.name === 'img') && text.startsWith('[')) {
    try {
      text = (JSON.parse(text) as unknown[]).map(String).join('\n');
    } catch {
      /* keep the text */
    }
  }
  return text;
}

function placeholders(s: string): { ph: Placeholder; match: string }[] {
  return [...s.matchAll(PLACEHOLDER)].map((m) => ({
    match: m[0],
    ph: { repeat: m[1] === '#', field: m[2]!, sub: m[3], pipes: parsePipes(m[4] ?? '') },
  }));
}

function size(arg: string, w: number, h: number): { width: number; height: number } {
  const m = /^(\d{1,4})(?:x(\d{1,4}))?$/.exec(arg);
  if (!m) return { width: w, height: h };
  const width = Math.min(1000, Number(m[1]));
  return { width, height: m[2] ? Math.min(1000, Number(m[2])) : h === w ? width : h };
}

/** Load and check an uploaded template (base64 xlsx). */
export async function loadTemplate(meta: EntityMeta, base64: unknown): Promise<ExcelJS.Worksheet> {
  if (typeof base64 !== 'string' || base64 === '') fail(E.EXPORT_TEMPLATE, 'template: a base64 xlsx file');
  const buf = Buffer.from(base64, 'base64');
  if (buf.length > TEMPLATE_MAX_BYTES)
    fail(E.IMPORT_TOO_LARGE, `template: at most ${TEMPLATE_MAX_BYTES} bytes`);
  await checkZip(buf);
  const wb = new ExcelJS.Workbook();
  try {
    await wb.xlsx.load(buf as unknown as ArrayBuffer);
  } catch {
    fail(E.EXPORT_TEMPLATE, 'the template cannot be read');
  }
  const sheet = wb.worksheets[0];
  if (!sheet) fail(E.EXPORT_TEMPLATE, 'the template has no sheet');
  checkTemplate(meta, sheet);
  return sheet;
}

/** Fill the template once per record and write the workbook to `out`. */
export async function writeTemplate(
  meta: EntityMeta,
  targets: Map<string, EntityMeta>,
  sheet: ExcelJS.Worksheet,
  records: ApiRecord[],
  out: Writable,
  readImage: ImageSource = async () => null,
): Promise<void> {
  const ctx: Ctx = { meta, targets };
  let budget = IMAGE_BUDGET;
  const wb = new ExcelJS.Workbook();
  const names = new Set<string>();
  for (const [n, rec] of records.entries()) {
    let name = sheetName(String(rec.__name ?? ''), `${n + 1}`);
    for (let k = 2; names.has(name.toLowerCase()); k++) name = `${name.slice(0, 27)} (${k})`;
    names.add(name.toLowerCase());
    const ws = wb.addWorksheet(name);
    sheet.columns.forEach((c, i) => {
      if (c.width) ws.getColumn(i + 1).width = c.width;
    });
    let outRow = 0;
    const rowMap = new Map<number, number>();
    for (let r = 1; r <= sheet.rowCount; r++) {
      const src = sheet.getRow(r);
      const cells: { col: number; value: ExcelJS.CellValue; style: Partial<ExcelJS.Style> }[] = [];
      src.eachCell({ includeEmpty: false }, (cell, col) => {
        cells.push({ col, value: cell.value, style: cell.style });
      });
      // The collection a row repeats over (the first `${#c.x}` found).
      let repeatOver: string | null = null;
      for (const c of cells) {
        if (typeof c.value !== 'string') continue;
        const hit = placeholders(c.value).find((p) => p.ph.repeat);
        if (hit) {
          repeatOver = hit.ph.field;
          break;
        }
      }
      const items: (ApiRecord | undefined)[] = repeatOver
        ? ((rec[`___${repeatOver}`] as ApiRecord[] | undefined) ?? []).filter(Boolean)
        : [undefined];
      if (items.length === 0) items.push(undefined);
      rowMap.set(r, outRow + 1);
      for (const item of items) {
        outRow++;
        const dst = ws.getRow(outRow);
        if (src.height) dst.height = src.height;
        for (const c of cells) {
          const cell = dst.getCell(c.col);
          cell.style = c.style;
          if (typeof c.value !== 'string' || !c.value.includes('${')) {
            cell.value = c.value;
            continue;
          }
          const phs = placeholders(c.value);
          const only = phs.length === 1 && phs[0]!.match === c.value.trim() ? phs[0]!.ph : null;
          const picture = only?.pipes.find((p) => p.name === 'barcode' || p.name === 'qrcode');
          if (only && picture) {
            const text = resolve(ctx, only, rec, item);
            const dims =
              picture.name === 'barcode' ? size(picture.arg, 200, 60) : size(picture.arg, 100, 100);
            const png =
              picture.name === 'barcode'
                ? barcodePng(text, dims.width, dims.height)
                : await qrcodePng(text, dims.width);
            if (png) {
              const id = wb.addImage({ buffer: png as unknown as ExcelJS.Buffer, extension: 'png' });
              ws.addImage(id, {
                tl: { col: c.col - 1, row: outRow - 1 },
                ext: { width: dims.width, height: dims.height },
              });
            }
            cell.value = null;
            continue;
          }
          const img = only?.pipes.find((p) => p.name === 'img');
          if (only && img) {
            // Images of our store become pictures, side by side from this cell; other URLs stay text.
            const urls = resolve(ctx, only, rec, item).split('\n').filter(Boolean);
            const left: string[] = [];
            let placed = 0;
            for (const url of urls) {
              const buf = budget > 0 ? await readImage(url) : null;
              const kind = buf ? sniffImage(buf) : null;
              const dims = buf ? imageSize(buf) : null;
              if (!buf || !dims || (kind !== 'png' && kind !== 'jpeg' && kind !== 'gif')) {
                left.push(url);
                continue;
              }
              budget -= buf.length;
              const id = wb.addImage({ buffer: buf as unknown as ExcelJS.Buffer, extension: kind });
              ws.addImage(id, {
                tl: { col: c.col - 1 + placed, row: outRow - 1 },
                ext: fitBox(dims, img.arg),
              });
              placed++;
            }
            const t = textCell(left.join('\n'));
            cell.value = t.value;
            if (t.numFmt) cell.numFmt = t.numFmt;
            continue;
          }
          if (only) {
            const f = only.repeat
              ? targets.get(only.field)?.byCode.get(only.sub!)
              : meta.byCode.get(only.field);
            const v = only.repeat ? item?.[only.sub!] : only.sub ? undefined : rec[only.field];
            if (f?.type === 'number' && typeof v === 'number') {
              cell.value = v;
              continue;
            }
          }
          let text = c.value;
          for (const p of phs) text = text.replace(p.match, resolve(ctx, p.ph, rec, item));
          const t = textCell(text);
          cell.value = t.value;
          if (t.numFmt) cell.numFmt = t.numFmt;
        }
        dst.commit?.();
      }
    }
    // Merges: shift with the rows they start on.
    const merges = (sheet.model as { merges?: string[] }).merges ?? [];
    for (const range of merges) {
      const m = /^([A-Z]+)(\d+):([A-Z]+)(\d+)$/.exec(range);
      if (!m) continue;
      const top = rowMap.get(Number(m[2]));
      const bottom = rowMap.get(Number(m[4]));
      if (top === undefined || bottom === undefined) continue;
      try {
        ws.mergeCells(`${m[1]}${top}:${m[3]}${bottom}`);
      } catch {
        /* overlapping after repetition: leave unmerged */
      }
    }
  }
  if (records.length === 0) wb.addWorksheet('Sheet1');
  await wb.xlsx.write(out);
}
