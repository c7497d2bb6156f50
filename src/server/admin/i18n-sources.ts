/**
 * What /system/i18n lists beyond page titles and menu names: the captions of widgets in published
 * pages, the names of data-table fields (id: the field's id; spreadsheet exports head their columns
 * with them) and the labels of options (option fields' own lists, and option sets), each with the
 * translation id the runtime and the spreadsheet import look up (shared/admin/i18n.ts).
 */
import type { Kysely } from 'kysely';
import { optionTextId } from '../../shared/admin/i18n.ts';
import { OPTION_SET_KEY, readOptionSet, SELECTION_MODEL } from '../../shared/admin/option-sets.ts';
import { widgetTexts } from '../../shared/admin/widget-texts.ts';
import { optionListOf } from '../../shared/fields/values.ts';
import type { PageDocument } from '../../shared/page-document.ts';
import type { DB } from '../db/schema.ts';

export interface I18nSource {
  id: string;
  kind: 'widget' | 'field' | 'option';
  /** Where the text is: the page's name, or the table and field, or the option set. */
  where: string;
  source: string;
}

/** Most texts answered (pages × widgets can be many; the screen pages through them). */
export const I18N_SOURCES_MAX = 5000;

export async function i18nSources(db: Kysely<DB>, projectId: string): Promise<I18nSource[]> {
  const out: I18nSource[] = [];
  const pages = await db
    .selectFrom('pages')
    .select(['id', 'name', 'published'])
    .where('project_id', '=', projectId)
    .where('published', 'is not', null)
    .orderBy('name')
    .execute();
  for (const p of pages) {
    let doc: PageDocument | null = null;
    try {
      doc = JSON.parse(p.published!) as PageDocument;
    } catch {
      continue;
    }
    if (!doc || !Array.isArray(doc.widgets)) continue;
    for (const w of widgetTexts(doc, p.id))
      out.push({ id: w.id, kind: 'widget', where: p.name, source: w.source });
  }

  const named = await db
    .selectFrom('data_fields as f')
    .innerJoin('data_entities as e', 'e.id', 'f.entity_id')
    .select(['f.id', 'f.name', 'e.name as entity'])
    .where('f.project_id', '=', projectId)
    .orderBy('e.name')
    .orderBy('f.sort')
    .execute();
  for (const f of named) out.push({ id: f.id, kind: 'field', where: f.entity, source: f.name });

  const fields = await db
    .selectFrom('data_fields as f')
    .innerJoin('data_entities as e', 'e.id', 'f.entity_id')
    .select(['f.id', 'f.name', 'f.type', 'f.options', 'e.name as entity'])
    .where('f.project_id', '=', projectId)
    .where('f.type', 'in', ['option', 'options'])
    .orderBy('e.name')
    .orderBy('f.sort')
    .execute();
  for (const f of fields) {
    let option: { info?: { list?: unknown; selection?: unknown } } = {};
    try {
      option = JSON.parse(f.options) ?? {};
    } catch {
      continue;
    }
    // A field naming a set is translated through the set (listed once, below).
    if (typeof option.info?.selection === 'string') continue;
    for (const o of optionListOf(option as never))
      out.push({ id: optionTextId(f.id, o), kind: 'option', where: `${f.entity} · ${f.name}`, source: o });
  }

  const sets = await db
    .selectFrom('share_items')
    .select(['key', 'value'])
    .where('project_id', '=', projectId)
    .where('model', '=', SELECTION_MODEL)
    .where('type', '=', 'project')
    .where('owner_id', '=', '')
    .orderBy('key')
    .execute();
  for (const s of sets) {
    if (!OPTION_SET_KEY.test(s.key)) continue;
    let set = null;
    try {
      set = readOptionSet(JSON.parse(s.value));
    } catch {
      continue;
    }
    if (!set) continue;
    for (const o of set.list)
      out.push({ id: optionTextId('', o, s.key), kind: 'option', where: set.name || s.key, source: o });
  }
  return out.slice(0, I18N_SOURCES_MAX);
}
