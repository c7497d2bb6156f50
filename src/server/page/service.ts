/** Page documents: blank pages, checks before storing, and loading what end users see. */
import type { Kysely } from 'kysely';
import { loadPage, validatePage } from '../../../widgets/index.ts';
import type { PageIssue } from '../../../widgets/validate.ts';
import { DEFAULT_PAGE_LAYOUT, PAGE_FORMAT_VERSION, type PageDocument } from '../../shared/page-document.ts';
import { parseGrants, parseHome } from '../access/grants.ts';
import type { DB, PagesTable } from '../db/schema.ts';
import { E, fail } from '../errors.ts';

/** A stored document may be at most this many bytes of JSON. */
export const MAX_DOCUMENT_BYTES = 2 * 1024 * 1024;
/** Request bodies of the calls that carry a document (room for the JSON around it). */
export const DOCUMENT_BODY_LIMIT = 4 * 1024 * 1024;

export interface PageRow {
  id: string;
  project_id: string;
  name: string;
  created_at: number;
  updated_at: number;
  draft: string;
  published: string | null;
  published_version: number | null;
  published_at: number | null;
  last_version: number;
  display: number;
  updated_by: string | null;
}

/** The columns of a page without its two documents (lists). */
export const SUMMARY_COLUMNS = [
  'id',
  'project_id',
  'name',
  'created_at',
  'updated_at',
  'published_version',
  'published_at',
  'last_version',
  'display',
  'updated_by',
] as const satisfies readonly (keyof PagesTable)[];
export type PageSummaryRow = Pick<PageRow, (typeof SUMMARY_COLUMNS)[number]>;

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

/** What the end-user calls read of a page before its document. */
export type PublishedMeta = Pick<PageRow, 'id' | 'name' | 'display' | 'published_at'> & {
  published_version: number;
};
export const META_COLUMNS = ['id', 'name', 'display', 'published_version', 'published_at'] as const;

/**
 * Loads published documents. A version never changes, so its loaded form is cached by (page,
 * version): each is read, migrated and checked once, and a cached page costs one small query for its
 * metadata. Documents come from `page_versions` by (page, version), never from the page row, so a
 * publish racing the read cannot put the next version's document under this version's key (the
 * row's copy is used only for documents published before versions were kept, and only while it is
 * still that version). One loader per app (so per database), bounded, oldest out first.
 */
export function publishedLoader(db: Kysely<DB>, size = 256) {
  const cache = new Map<string, LoadedPage>();
  const keyOf = (id: string, version: number) => `${id}:${version}`;
  return async (rows: readonly PublishedMeta[]): Promise<Map<string, LoadedPage>> => {
    const out = new Map<string, LoadedPage>();
    const misses: PublishedMeta[] = [];
    for (const r of rows) {
      const hit = cache.get(keyOf(r.id, r.published_version));
      if (hit) out.set(r.id, hit);
      else misses.push(r);
    }
    if (misses.length === 0) return out;
    const texts = new Map<string, string>();
    const docs = await db
      .selectFrom('page_versions')
      .select(['page_id', 'version', 'document'])
      .where((eb) =>
        eb.or(misses.map((m) => eb.and([eb('page_id', '=', m.id), eb('version', '=', m.published_version)]))),
      )
      .execute();
    for (const d of docs) texts.set(keyOf(d.page_id, d.version), d.document);
    const lost = misses.filter((m) => !texts.has(keyOf(m.id, m.published_version)));
    if (lost.length) {
      const legacy = await db
        .selectFrom('pages')
        .select(['id', 'published', 'published_version'])
        .where(
          'id',
          'in',
          lost.map((m) => m.id),
        )
        .execute();
      for (const l of legacy)
        if (l.published !== null && l.published_version !== null)
          texts.set(keyOf(l.id, l.published_version), l.published);
    }
    for (const m of misses) {
      const key = keyOf(m.id, m.published_version);
      const text = texts.get(key);
      if (text === undefined) continue; // removed meanwhile
      const loaded = load(text, m);
      cache.set(key, loaded);
      if (cache.size > size) cache.delete(cache.keys().next().value!);
      out.set(m.id, loaded);
    }
    return out;
  };
}

/** Run a stored document through `loadPage`: old documents migrate, broken widgets come back marked. */
export function load(text: string, row: { id: string; name: string }): LoadedPage {
  const r = loadPage(parseStored(text, row));
  return { document: r.page, issues: r.issues };
}

export async function findPage(db: Kysely<DB>, projectId: string, id: string): Promise<PageRow> {
  const row = await db
    .selectFrom('pages')
    .selectAll()
    .where('id', '=', id)
    .where('project_id', '=', projectId)
    .executeTakeFirst();
  if (!row) fail(E.PAGE_NOT_FOUND);
  return row;
}

/** What builders see of a page (without its document). */
export function adminSummary(row: PageSummaryRow) {
  return {
    _id: row.id,
    name: row.name,
    display: row.display === 1,
    version: row.published_version,
    publishedAt: row.published_at,
    /** Never published, or edited since the last publish. */
    changed: row.published_at === null || row.updated_at > row.published_at,
    versions: row.last_version,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    updatedBy: row.updated_by,
  };
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

/**
 * After a page is removed nothing names it any more: role grants and homes drop it, and menu entries
 * that opened it are left without a value (so saving a role or menu with what it shows still passes
 * the "ids of this project" check). Run inside the removing transaction.
 */
export async function forgetPage(db: Kysely<DB>, projectId: string, pageId: string): Promise<void> {
  const roles = await db
    .selectFrom('roles')
    .select(['id', 'grants', 'home'])
    .where('project_id', '=', projectId)
    .execute();
  for (const role of roles) {
    const grants = parseGrants(role.grants);
    const home = parseHome(role.home);
    const inGrants = grants.page.includes(pageId);
    const isHome = home?.type === 'page' && home.value === pageId;
    if (!inGrants && !isHome) continue;
    grants.page = grants.page.filter((p) => p !== pageId);
    await db
      .updateTable('roles')
      .set({ ...(inGrants ? { grants: JSON.stringify(grants) } : {}), ...(isHome ? { home: null } : {}) })
      .where('id', '=', role.id)
      .execute();
  }
  await db
    .updateTable('routes')
    .set({ value: null })
    .where('project_id', '=', projectId)
    .where('type', 'in', ['page', 'display'])
    .where('value', '=', pageId)
    .execute();
}
