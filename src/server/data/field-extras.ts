/**
 * Field settings that live in the shared store rather than on the field: option sets (a field's
 * values checked against the set as it is now) and auto-numbering (a text field numbered on create,
 * in the record's transaction). See shared/admin/option-sets.ts and shared/admin/numbering.ts.
 */
import type { Kysely } from 'kysely';
import {
  counterKey,
  formatNumber,
  NUMBERING_MODEL,
  NUMBERING_PREFIX,
  readRule,
} from '../../shared/admin/numbering.ts';
import { optionSetOf, readOptionSet, SELECTION_MODEL, withSetList } from '../../shared/admin/option-sets.ts';
import type { FieldOption } from '../../shared/api/fields.ts';
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
