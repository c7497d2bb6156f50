/**
 * Form rules of a field's value: the shared check the server runs (src/shared/fields/values.ts), with
 * the registry's message in the user's language, so a form refuses what the save call would.
 */
import type { Field } from '../../shared/api/fields.ts';
import { checkValue } from '../../shared/fields/values.ts';

export interface ValueRule {
  validator(rule: unknown, value: unknown): Promise<void>;
}

export function valueRules(field: Field, lang: string): ValueRule[] {
  return [
    {
      async validator(_rule, value) {
        const r = checkValue(field._type, value, field._option);
        if (r && !r.ok) throw new Error(lang.startsWith('zh') ? r.error.zh : r.error.msg);
      },
    },
  ];
}
