/**
 * Pages in the database: every query the page routes make lives here (the routes decide who may
 * call and shape the answers). Callers pass ids already scoped to an authorised project.
 */
import type { Kysely } from 'kysely';
import { newId } from '../../shared/id.ts';
import { parseGrants, parseHome } from '../access/grants.ts';
import type { DB, PagesTable } from '../db/schema.ts';
import { E, fail } from '../errors.ts';
import { blankDocument, checkDocument, type LoadedPage, load, parseStored } from './document.ts';
import { checkReferences } from './references.ts';

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

// ---- Builder side ----------------------------------------------------------------------------

/** What a builder sends to create or change a page. */
export interface PageInput {
  name?: string;
  document?: Record<string, unknown>;
  display?: boolean;
}

function cleanName(name: string): string {
  const n = name.trim();
  if (!n) fail(E.INVALID_FIELD, 'name: cannot be empty');
  return n;
}

/** Next updated_at: after the last publish, so `changed` holds even within one millisecond. */
const touched = (row: Pick<PageRow, 'published_at'>) => Math.max(Date.now(), (row.published_at ?? 0) + 1);

/** The project's pages without their documents, oldest first. */
export function listPages(db: Kysely<DB>, projectId: string): Promise<PageSummaryRow[]> {
  return db
    .selectFrom('pages')
    .select(SUMMARY_COLUMNS)
    .where('project_id', '=', projectId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

function newRow(
  projectId: string,
  name: string,
  draft: string,
  display: number,
  who: string | null,
): PageRow {
  const now = Date.now();
  return {
    id: '',
    project_id: projectId,
    name,
    created_at: now,
    updated_at: now,
    draft,
    published: null,
    published_version: null,
    published_at: null,
    last_version: 0,
    display,
    updated_by: who,
  };
}

/** A new page: a blank document unless one is sent (checked, its names the project's own). */
export async function createPage(
  db: Kysely<DB>,
  projectId: string,
  input: PageInput & { name: string },
  who: string | null,
): Promise<PageRow> {
  const name = cleanName(input.name);
  const pid = newId(Date.now());
  const draft = input.document
    ? checkDocument(input.document, pid)
    : JSON.stringify(blankDocument(pid, name));
  if (input.document) await checkReferences(db, projectId, pid, input.document, null);
  const row = { ...newRow(projectId, name, draft, input.display ? 1 : 0, who), id: pid };
  await db.insertInto('pages').values(row).execute();
  return row;
}

/** Change name, draft and display flag; everything is checked before anything is written. */
export async function updatePage(
  db: Kysely<DB>,
  row: PageRow,
  input: PageInput,
  who: string | null,
): Promise<PageRow> {
  const next: PageRow = { ...row, updated_at: touched(row), updated_by: who };
  if (input.name !== undefined) next.name = cleanName(input.name);
  if (input.document !== undefined) {
    next.draft = checkDocument(input.document, row.id);
    await checkReferences(db, row.project_id, row.id, input.document, parseStored(row.draft, row));
  }
  if (input.display !== undefined) next.display = input.display ? 1 : 0;
  await db
    .updateTable('pages')
    .set({
      name: next.name,
      draft: next.draft,
      display: next.display,
      updated_at: next.updated_at,
      updated_by: next.updated_by,
    })
    .where('id', '=', row.id)
    .where('project_id', '=', row.project_id)
    .execute();
  return next;
}

/** A copy of the draft under a new id (never published). */
export async function duplicatePage(
  db: Kysely<DB>,
  src: PageRow,
  name: string | undefined,
  who: string | null,
): Promise<PageRow> {
  const pid = newId(Date.now());
  const n = name !== undefined ? cleanName(name) : `${src.name} copy`.slice(0, 128);
  const doc = src.draft ? (JSON.parse(src.draft) as Record<string, unknown>) : blankDocument(pid, n);
  const row = {
    ...newRow(src.project_id, n, JSON.stringify({ ...doc, id: pid }), src.display, who),
    id: pid,
  };
  await db.insertInto('pages').values(row).execute();
  return row;
}

/** Remove a page with its versions and co-editing history; nothing names it afterwards. */
export async function removePage(db: Kysely<DB>, projectId: string, pageId: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await forgetPage(trx, projectId, pageId);
    await trx.deleteFrom('page_versions').where('page_id', '=', pageId).execute();
    await trx.deleteFrom('page_updates').where('doc_id', '=', pageId).execute();
    await trx.deleteFrom('pages').where('id', '=', pageId).where('project_id', '=', projectId).execute();
  });
}

/** Publish the draft as the next version; answers the page's summary after. */
export async function publishPage(
  db: Kysely<DB>,
  row: PageRow,
  note: string,
  who: string | null,
): Promise<PageSummaryRow> {
  const now = Math.max(Date.now(), row.updated_at);
  // One statement hands out the number (the row lock orders concurrent publishes on PostgreSQL)
  // and copies the draft as it is at that moment.
  return db.transaction().execute(async (trx) => {
    const r = await trx
      .updateTable('pages')
      .set((eb) => ({
        published: eb.ref('draft'),
        published_version: eb('last_version', '+', 1),
        last_version: eb('last_version', '+', 1),
        published_at: now,
      }))
      .where('id', '=', row.id)
      .where('project_id', '=', row.project_id)
      .returning(SUMMARY_COLUMNS)
      .returning('draft')
      .executeTakeFirst();
    if (!r) fail(E.PAGE_NOT_FOUND);
    await trx
      .insertInto('page_versions')
      .values({
        page_id: row.id,
        version: r.last_version,
        document: r.draft || JSON.stringify(blankDocument(row.id, row.name)),
        note,
        created_by: who,
        created_at: now,
      })
      .execute();
    return r;
  });
}

/** The page's versions, newest first, with their authors' names. */
export function listVersions(db: Kysely<DB>, pageId: string) {
  return db
    .selectFrom('page_versions as v')
    .leftJoin('users as u', 'u.id', 'v.created_by')
    .select(['v.version', 'v.note', 'v.created_at', 'v.created_by', 'u.nickname'])
    .where('v.page_id', '=', pageId)
    .orderBy('v.version', 'desc')
    .execute();
}

export async function findVersion(db: Kysely<DB>, pageId: string, version: number) {
  const v = await db
    .selectFrom('page_versions')
    .selectAll()
    .where('page_id', '=', pageId)
    .where('version', '=', version)
    .executeTakeFirst();
  if (!v) fail(E.PAGE_VERSION_NOT_FOUND, `version ${version}`);
  return v;
}

/** Make an old version the draft again; answers the page after and the restored document. */
export async function restoreVersion(
  db: Kysely<DB>,
  row: PageRow,
  version: number,
  who: string | null,
): Promise<{ page: PageRow; document: LoadedPage['document'] }> {
  const v = await findVersion(db, row.id, version);
  const page: PageRow = { ...row, draft: v.document, updated_at: touched(row), updated_by: who };
  await db
    .updateTable('pages')
    .set({ draft: page.draft, updated_at: page.updated_at, updated_by: page.updated_by })
    .where('id', '=', row.id)
    .where('project_id', '=', row.project_id)
    .execute();
  return { page, document: load(v.document, row).document };
}

/** Whether the page was ever opened for co-editing (it has stored updates). */
export async function hasCoEditingHistory(db: Kysely<DB>, pageId: string): Promise<boolean> {
  const r = await db
    .selectFrom('page_updates')
    .select('seq')
    .where('doc_id', '=', pageId)
    .limit(1)
    .executeTakeFirst();
  return !!r;
}

// ---- End-user side ---------------------------------------------------------------------------

/** The project's published pages (optionally displays only), oldest first. */
export async function listPublished(db: Kysely<DB>, projectId: string, displaysOnly: boolean) {
  let q = db
    .selectFrom('pages')
    .select(SUMMARY_COLUMNS)
    .where('project_id', '=', projectId)
    .where('published_version', 'is not', null);
  if (displaysOnly) q = q.where('display', '=', 1);
  return q.orderBy('created_at').orderBy('id').execute();
}

/** What end-user calls read of one page before its document (undefined: not this project's). */
export function findMeta(db: Kysely<DB>, projectId: string, pageId: string) {
  return db
    .selectFrom('pages')
    .select(META_COLUMNS)
    .where('id', '=', pageId)
    .where('project_id', '=', projectId)
    .executeTakeFirst();
}

/** The published ones among these pages of the project. */
export async function findPublishedMetas(
  db: Kysely<DB>,
  projectId: string,
  ids: readonly string[],
): Promise<PublishedMeta[]> {
  if (ids.length === 0) return [];
  return (await db
    .selectFrom('pages')
    .select(META_COLUMNS)
    .where('project_id', '=', projectId)
    .where('id', 'in', ids)
    .where('published_version', 'is not', null)
    .execute()) as PublishedMeta[];
}
