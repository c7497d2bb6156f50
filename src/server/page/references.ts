/**
 * What a page document names outside itself — data tables, pages and fields — and the check that
 * each is the project's own. Widget props marked `x-widget: entity | page | field` in their kind's
 * schema (fields of the table named by their `x-field-of` sibling), the page's `entity` data sources,
 * and openPage / openModal actions naming a page by id. Bindings are not names and are skipped.
 */
import type { Kysely } from 'kysely';
import { getWidget } from '../../../widgets/index.ts';
import type { DB } from '../db/schema.ts';
import { E, fail } from '../errors.ts';

type Json = Record<string, unknown>;

export interface PageRef {
  kind: 'entity' | 'page' | 'field';
  value: string;
  /** For a field: the table it belongs to, as the document names it (when it names one). */
  entity?: string;
  /** Where in the document, for the error message. */
  where: string;
}

const ID = /^[0-9a-f]{24}$/;
const isObj = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);
const named = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';

function propsRefs(schema: Json, props: Json, top: Json, where: string, out: PageRef[]): void {
  const properties = isObj(schema.properties) ? schema.properties : {};
  for (const [name, sub] of Object.entries(properties)) {
    if (!isObj(sub)) continue;
    const value = props[name];
    const widget = sub['x-widget'];
    if ((widget === 'entity' || widget === 'page') && named(value)) {
      out.push({ kind: widget, value, where: `${where}.${name}` });
    } else if (widget === 'field' && named(value) && !value.startsWith('_')) {
      // `_id`, `__name` and the like are the records' own keys, not fields of a table.
      const of = typeof sub['x-field-of'] === 'string' ? top[sub['x-field-of']] : undefined;
      out.push({ kind: 'field', value, entity: named(of) ? of : undefined, where: `${where}.${name}` });
    } else if (Array.isArray(value) && isObj(sub.items)) {
      value.forEach((item, i) => {
        if (isObj(item)) propsRefs(sub.items as Json, item, top, `${where}.${name}[${i}]`, out);
      });
    } else if (isObj(value) && isObj(sub.properties)) {
      propsRefs(sub, value, top, `${where}.${name}`, out);
    }
  }
}

function eventRefs(events: unknown, where: string, out: PageRef[]): void {
  if (!isObj(events)) return;
  for (const [name, list] of Object.entries(events)) {
    if (!Array.isArray(list)) continue;
    for (const action of list) {
      if (!isObj(action) || (action.type !== 'openPage' && action.type !== 'openModal')) continue;
      // Pages are named by id; other refs (route names) are not ids of anything stored.
      if (typeof action.page === 'string' && ID.test(action.page)) {
        out.push({ kind: 'page', value: action.page, where: `${where}.${name}` });
      }
    }
  }
}

/** Every table, page and field a document names. */
export function pageReferences(doc: unknown): PageRef[] {
  const out: PageRef[] = [];
  if (!isObj(doc)) return out;
  for (const w of Array.isArray(doc.widgets) ? doc.widgets : []) {
    if (!isObj(w) || typeof w.kind !== 'string') continue;
    const where = `widget ${typeof w.id === 'string' ? w.id : '?'}`;
    const def = getWidget(w.kind);
    if (def && isObj(w.props)) propsRefs(def.schema as unknown as Json, w.props, w.props, where, out);
    eventRefs(w.events, where, out);
  }
  for (const source of Array.isArray(doc.dataSources) ? doc.dataSources : []) {
    if (isObj(source) && source.type === 'entity' && named(source.entity)) {
      out.push({ kind: 'entity', value: source.entity, where: `data source ${String(source.id)}` });
    }
  }
  eventRefs(doc.events, 'page', out);
  return out;
}

const refKey = (r: PageRef) => `${r.kind}|${r.entity ?? ''}|${r.value}`;

/**
 * Refuse a document naming a table (1400), page (1202) or field (1401) that is not the project's.
 * Only names the stored document (`previous`) did not hold already are checked, as menu entries are
 * checked only when their target changes: a page whose table was removed can still be edited.
 */
export async function checkReferences(
  db: Kysely<DB>,
  projectId: string,
  pageId: string,
  doc: unknown,
  previous: unknown,
): Promise<void> {
  const known = new Set(pageReferences(previous).map(refKey));
  const refs = pageReferences(doc).filter((r) => !known.has(refKey(r)));
  if (refs.length === 0) return;

  const tableNames = [
    ...new Set(refs.flatMap((r) => (r.kind === 'entity' ? [r.value] : r.entity ? [r.entity] : []))),
  ];
  const tables = tableNames.length
    ? await db
        .selectFrom('data_entities')
        .select(['id', 'code'])
        .where('project_id', '=', projectId)
        .where((eb) => eb.or([eb('id', 'in', tableNames), eb('code', 'in', tableNames)]))
        .execute()
    : [];
  const tableId = new Map<string, string>();
  for (const t of tables) {
    tableId.set(t.id, t.id);
    tableId.set(t.code, t.id);
  }
  for (const r of refs) {
    if (r.kind === 'entity' && !tableId.has(r.value))
      fail(E.ENTITY_NOT_FOUND, `${r.where}: "${r.value}" is not a data table of this project`);
  }

  const pageIds = [
    ...new Set(refs.filter((r) => r.kind === 'page' && r.value !== pageId).map((r) => r.value)),
  ];
  if (pageIds.length) {
    const found = new Set(
      (
        await db
          .selectFrom('pages')
          .select('id')
          .where('project_id', '=', projectId)
          .where('id', 'in', pageIds)
          .execute()
      ).map((p) => p.id),
    );
    for (const r of refs) {
      if (r.kind === 'page' && r.value !== pageId && !found.has(r.value))
        fail(E.PAGE_NOT_FOUND, `${r.where}: "${r.value}" is not a page of this project`);
    }
  }

  const fieldRefs = refs.filter((r) => r.kind === 'field');
  if (fieldRefs.length === 0) return;
  // A field of a table this project has must be one of that table's; a field whose table is not
  // named (or not the project's) can only be checked when it names a field by id.
  const ofTables = [
    ...new Set(fieldRefs.flatMap((r) => (r.entity && tableId.has(r.entity) ? [tableId.get(r.entity)!] : []))),
  ];
  const ids = [...new Set(fieldRefs.filter((r) => ID.test(r.value)).map((r) => r.value))];
  const fields =
    ofTables.length || ids.length
      ? await db
          .selectFrom('data_fields')
          .select(['id', 'code', 'entity_id'])
          .where('project_id', '=', projectId)
          .where((eb) =>
            eb.or([
              ...(ofTables.length ? [eb('entity_id', 'in', ofTables)] : []),
              ...(ids.length ? [eb('id', 'in', ids)] : []),
            ]),
          )
          .execute()
      : [];
  for (const r of fieldRefs) {
    const table = r.entity ? tableId.get(r.entity) : undefined;
    const ok = table
      ? fields.some((f) => f.entity_id === table && (f.code === r.value || f.id === r.value))
      : !ID.test(r.value) || fields.some((f) => f.id === r.value);
    if (!ok) fail(E.FIELD_NOT_FOUND, `${r.where}: "${r.value}" is not a field of this project's table`);
  }
}
