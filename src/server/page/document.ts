/** Page documents without the database: blank pages, checks before storing, loading, views. */
import { loadPage, validatePage } from '../../../widgets/index.ts';
import type { PageIssue } from '../../../widgets/validate.ts';
import { DEFAULT_PAGE_LAYOUT, PAGE_FORMAT_VERSION, type PageDocument } from '../../shared/page-document.ts';
import { E, fail } from '../errors.ts';

/** A stored document may be at most this many bytes of JSON. */
export const MAX_DOCUMENT_BYTES = 2 * 1024 * 1024;
/** Request bodies of the calls that carry a document (room for the JSON around it). */
export const DOCUMENT_BODY_LIMIT = 4 * 1024 * 1024;

/** An empty page that validates; its title is the page name when that is a valid title. */
export function blankDocument(id: string, name: string): PageDocument {
  const doc: PageDocument = {
    id,
    title: name.slice(0, 200) || 'Page',
    version: PAGE_FORMAT_VERSION,
    layout: structuredClone(DEFAULT_PAGE_LAYOUT) as PageDocument['layout'],
    widgets: [],
  };
  if (!validatePage(doc).ok) doc.title = 'Page';
  return doc;
}

function describe(issue: PageIssue): string {
  const where = issue.widgetId
    ? ` (widget ${issue.widgetId}${issue.kind ? `, kind ${issue.kind}` : ''})`
    : issue.kind
      ? ` (kind ${issue.kind})`
      : '';
  return `${issue.path || '/'}: ${issue.message}${where}`;
}

/**
 * Check a document a builder sends and answer the JSON to store: its `id` becomes the page id, it must
 * fit MAX_DOCUMENT_BYTES and pass `validatePage`, else a coded error naming path and widget.
 */
export function checkDocument(input: Record<string, unknown>, pageId: string): string {
  const doc = { ...input, id: pageId };
  const json = JSON.stringify(doc);
  const bytes = Buffer.byteLength(json);
  if (bytes > MAX_DOCUMENT_BYTES) fail(E.PAGE_TOO_LARGE, `${bytes} bytes, at most ${MAX_DOCUMENT_BYTES}`);
  const r = validatePage(doc);
  if (!r.ok) {
    const shown = r.errors.slice(0, 5).map(describe);
    const more = r.errors.length > shown.length ? ` (+${r.errors.length - shown.length} more)` : '';
    fail(E.PAGE_INVALID, `${shown.join('; ')}${more}`);
  }
  return json;
}

/** A stored document as JSON (rows made before documents existed hold '' and read as a blank page). */
export function parseStored(text: string, row: { id: string; name: string }): unknown {
  if (!text) return blankDocument(row.id, row.name);
  try {
    return JSON.parse(text);
  } catch {
    return {};
  }
}

export interface LoadedPage {
  document: PageDocument;
  issues: PageIssue[];
}

/** Run a stored document through `loadPage`: old documents migrate, broken widgets come back marked. */
export function load(text: string, row: { id: string; name: string }): LoadedPage {
  const r = loadPage(parseStored(text, row));
  return { document: r.page, issues: r.issues };
}

export interface ViewEntry {
  id: string;
  kind: string;
  x: number;
  y: number;
  w: number;
  h: number;
}

/** A page view: the top-level widgets of each mode in reading order (top to bottom, left to right). */
export function viewOf(doc: PageDocument): { pc: ViewEntry[]; mobile: ViewEntry[] } {
  const list = (mode: 'pc' | 'mobile') =>
    doc.widgets
      .map((w) => ({ id: w.id, kind: w.kind, ...w.layout[mode] }))
      .sort((a, b) => a.y - b.y || a.x - b.x);
  return { pc: list('pc'), mobile: list('mobile') };
}
