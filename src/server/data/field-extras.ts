/**
 * Field settings that live in the shared store rather than on the field: option sets (a field's
 * values checked against the set as it is now) and auto-numbering (a text field numbered on create,
 * in the record's transaction). See shared/admin/option-sets.ts and shared/admin/numbering.ts.
 */
import type { Kysely } from 'kysely';
import { I18N_MODEL, I18N_TEXT_PREFIX, optionTextId, readTexts } from '../../shared/admin/i18n.ts';
import {
  counterKey,
  formatNumber,
  NUMBERING_MODEL,
  NUMBERING_PREFIX,
  readRule,
} from '../../shared/admin/numbering.ts';
import { optionSetOf, readOptionSet, SELECTION_MODEL, withSetList } from '../../shared/admin/option-sets.ts';
import type { FieldOption, FieldType } from '../../shared/api/fields.ts';
import { checksOptions, optionListOf } from '../../shared/fields/values.ts';
import type { DB } from '../db/schema.ts';
import { E, fail } from '../errors.ts';
import { findItem, nextNumber } from '../share/service.ts';
import { fieldColumn } from './ddl.ts';
import type { EntityMeta } from './meta.ts';

const projectItem = (projectId: string, model: string, key: string) => ({
  projectId,
  model,
  type: 'project' as const,
  owner: '',
  key,
});

/** The option set stored under `key`, or null. */
export async function loadOptionSet(db: Kysely<DB>, projectId: string, key: string) {
  const row = await findItem(db, projectItem(projectId, SELECTION_MODEL, key));
  return row ? readOptionSet(JSON.parse(row.value)) : null;
}

/**
 * The meta with the option lists of fields naming an option set replaced by the set's current list
 * (a missing set gives an empty list: every value is refused until the set exists again).
 */
export async function withOptionSets(db: Kysely<DB>, meta: EntityMeta): Promise<EntityMeta> {
  let options: Map<string, FieldOption> | null = null;
  for (const [code, option] of meta.options) {
    const key = optionSetOf(option);
    if (!key) continue;
    options ??= new Map(meta.options);
    options.set(code, withSetList(option, await loadOptionSet(db, meta.entity.project_id, key)));
  }
  return options ? { ...meta, options } : meta;
}

/** The auto-numbering rule stored under `key`, or null. */
export async function loadRule(db: Kysely<DB>, projectId: string, key: string) {
  const row = await findItem(db, projectItem(projectId, NUMBERING_MODEL, `${NUMBERING_PREFIX}${key}`));
  return row ? readRule(JSON.parse(row.value)) : null;
}

/**
 * Numbers the new record's auto-numbered fields into `columns`, inside the caller's transaction
 * (the counter row stays locked until it ends, so concurrent creates get distinct numbers and a
 * rolled-back create gives its number back).
 */
export async function $numberNewRecord(
  trx: Kysely<DB>,
  meta: EntityMeta,
  columns: Record<string, unknown>,
  now: number,
): Promise<void> {
  for (const f of meta.fields) {
    const key = meta.options.get(f.code)?.increment;
    if (typeof key !== 'string' || f.type !== 'string') continue;
    const rule = await loadRule(trx, meta.entity.project_id, key);
    if (!rule) fail(E.NUMBERING_RULE_NOT_FOUND, `${f.code}: ${key}`);
    const n = await nextNumber(trx, meta.entity.project_id, counterKey(key, rule, now));
    columns[fieldColumn(f.id)] = formatNumber(rule, n, now);
  }
}

/** The input without values for auto-numbered fields (their number is kept once given). */
export function withoutNumbered(meta: EntityMeta, input: Record<string, unknown>): Record<string, unknown> {
  let out: Record<string, unknown> | null = null;
  for (const f of meta.fields) {
    if (typeof meta.options.get(f.code)?.increment !== 'string' || !Object.hasOwn(input, f.code)) continue;
    out ??= { ...input };
    delete out[f.code];
  }
  return out ?? input;
}

/**
 * Checks a field's option naming an option set or a numbering rule: the set or rule must exist in
 * the project, numbering applies to text fields only.
 */
export async function checkFieldExtras(
  db: Kysely<DB>,
  projectId: string,
  type: string,
  option: FieldOption | undefined,
): Promise<void> {
  const sel = option?.info?.selection;
  if (sel !== undefined) {
    const key = optionSetOf(option);
    if (!key || !(await loadOptionSet(db, projectId, key)))
      fail(E.OPTION_SET_NOT_FOUND, String(sel).slice(0, 40));
  }
  const inc = option?.increment;
  if (inc !== undefined) {
    if (type !== 'string') fail(E.NUMBERING_FIELD_TYPE);
    if (typeof inc !== 'string' || !(await loadRule(db, projectId, inc)))
      fail(E.NUMBERING_RULE_NOT_FOUND, String(inc).slice(0, 40));
  }
}

/** The project's translation maps, one per language (`text.{code}` items of model i18n). */
export async function projectTranslations(
  db: Kysely<DB>,
  projectId: string,
): Promise<Record<string, string>[]> {
  const rows = await db
    .selectFrom('share_items')
    .select(['key', 'value'])
    .where('project_id', '=', projectId)
    .where('model', '=', I18N_MODEL)
    .where('type', '=', 'project')
    .where('owner_id', '=', '')
    .where('key', 'like', `${I18N_TEXT_PREFIX}%`)
    .orderBy('key')
    .limit(50)
    .execute();
  return rows.map((r) => {
    try {
      return readTexts(JSON.parse(r.value));
    } catch {
      return {};
    }
  });
}

/**
 * For each field whose values come from a list (option fields, option sets, enabled text/number
 * lists): label → stored option. A label is the option itself or its translation in any of the
 * project's languages (`meta` should already carry the sets' lists: `withOptionSets`). The option
 * itself wins over a translation that happens to read the same, and the first language over later.
 */
export function optionLabels(
  meta: EntityMeta,
  translations: Record<string, string>[],
): Map<string, Map<string, string>> {
  const out = new Map<string, Map<string, string>>();
  for (const f of meta.fields) {
    const option = meta.options.get(f.code);
    if (!checksOptions(f.type as FieldType, option)) continue;
    const set = optionSetOf(option);
    const values = optionListOf(option);
    const map = new Map<string, string>(values.map((v) => [v, v]));
    for (const texts of translations)
      for (const v of values) {
        const label = texts[optionTextId(f.id, v, set)]?.trim();
        if (label && !map.has(label)) map.set(label, v);
      }
    out.set(f.id, map);
  }
  return out;
}

/** A block of numbers taken for an import's rows: the counter it came from and its last number. */
interface Taken {
  key: string;
  first: number;
  last: number;
}

/**
 * Numbers an import's rows (#22): every auto-numbered text field of the table gets consecutive numbers,
 * taken as one block per written chunk in a transaction on the counter (so records created meanwhile
 * get numbers after or before the block, never inside it). When the import fails after all,
 * `giveBack` returns the blocks whose counter nobody moved since, newest first, as a failed create does.
 */
export class ImportNumbering {
  private readonly taken: Taken[] = [];
  private constructor(
    private readonly db: Kysely<DB>,
    private readonly projectId: string,
    private readonly fields: {
      column: string;
      key: string;
      rule: NonNullable<Awaited<ReturnType<typeof loadRule>>>;
    }[],
  ) {}

  /** The numbering of `meta`'s fields, or null when none is numbered; a missing rule fails the import (2082). */
  static async of(db: Kysely<DB>, meta: EntityMeta): Promise<ImportNumbering | null> {
    const fields: ImportNumbering['fields'] = [];
    for (const f of meta.fields) {
      const key = meta.options.get(f.code)?.increment;
      if (typeof key !== 'string' || f.type !== 'string') continue;
      const rule = await loadRule(db, meta.entity.project_id, key);
      if (!rule) fail(E.NUMBERING_RULE_NOT_FOUND, `${f.code}: ${key}`);
      fields.push({ column: fieldColumn(f.id), key, rule });
    }
    return fields.length ? new ImportNumbering(db, meta.entity.project_id, fields) : null;
  }

  /** Fill the numbered columns of `rows` (values in `columns` order), created at `now`. */
  async number(columns: string[], rows: { values: unknown[] }[], now: number): Promise<void> {
    if (rows.length === 0) return;
    await this.db.transaction().execute(async (trx) => {
      for (const f of this.fields) {
        const key = counterKey(f.key, f.rule, now);
        const last = await nextNumber(trx, this.projectId, key, rows.length);
        const first = last - rows.length + 1;
        this.taken.push({ key, first, last });
        const at = columns.indexOf(f.column);
        rows.forEach((r, i) => {
          r.values[at] = formatNumber(f.rule, first + i, now);
        });
      }
    });
  }

  /** Return the blocks taken, newest first, where the counter still ends at the block. */
  async giveBack(): Promise<void> {
    while (this.taken.length) {
      const t = this.taken.pop()!;
      await this.db
        .updateTable('share_increments')
        .set({ value: t.first - 1 })
        .where('project_id', '=', this.projectId)
        .where('key', '=', t.key)
        .where('value', '=', t.last)
        .execute();
    }
  }
}
