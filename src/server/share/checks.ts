/**
 * What the shared store checks before it keeps a value of the administration's models: option sets,
 * auto-numbering rules, translation maps and per-table settings are read by the data layer and the
 * runtime, so a malformed one is refused with its coded error rather than stored.
 */
import { FEATURES_KEY, FEATURES_MODEL, featuresProblem } from '../../shared/admin/features.ts';
import { I18N_MODEL, i18nProblem } from '../../shared/admin/i18n.ts';
import {
  NUMBERING_KEY,
  NUMBERING_MODEL,
  NUMBERING_PREFIX,
  ruleProblem,
} from '../../shared/admin/numbering.ts';
import { OPTION_SET_KEY, optionSetProblem, SELECTION_MODEL } from '../../shared/admin/option-sets.ts';
import { TABLE_CONFIG_PREFIX, tableConfigProblem } from '../../shared/admin/table-config.ts';
import { ROLE_TABLE_PREFIX, roleTableProblem } from '../access/role-tables.ts';
import { E, fail } from '../errors.ts';

/** Throws the coded error when `value` may not be stored under (model, type, key). */
export function checkShareValue(model: string, type: string, key: string, value: unknown): void {
  if (type !== 'project') return;
  if (model === SELECTION_MODEL) {
    if (!OPTION_SET_KEY.test(key)) fail(E.OPTION_SET_INVALID, 'key: a letter, then letters, digits, _ or -');
    const why = optionSetProblem(value);
    if (why) fail(E.OPTION_SET_INVALID, why);
  } else if (model === NUMBERING_MODEL && key.startsWith(NUMBERING_PREFIX)) {
    if (!NUMBERING_KEY.test(key.slice(NUMBERING_PREFIX.length)))
      fail(E.NUMBERING_RULE_INVALID, 'key: a letter, then letters, digits, _ or -');
    const why = ruleProblem(value);
    if (why) fail(E.NUMBERING_RULE_INVALID, why);
  } else if (model === NUMBERING_MODEL && key.startsWith(TABLE_CONFIG_PREFIX)) {
    const why = tableConfigProblem(value);
    if (why) fail(E.TABLE_CONFIG_INVALID, why);
  } else if (model === NUMBERING_MODEL && key.startsWith(ROLE_TABLE_PREFIX)) {
    const why = roleTableProblem(value);
    if (why) fail(E.ROLE_PROGRAMS_INVALID, why);
  } else if (model === FEATURES_MODEL && key === FEATURES_KEY) {
    const why = featuresProblem(value);
    if (why) fail(E.FEATURES_INVALID, why);
  } else if (model === I18N_MODEL) {
    const why = i18nProblem(key, value);
    if (why) fail(E.I18N_INVALID, why);
  }
}
