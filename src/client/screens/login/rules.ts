/** antd form rules built from the shared validation rules, with the spec's zh/en messages. */
import type { FormInstance, FormRule } from 'antd';

type RuleObject = Exclude<FormRule, (form: FormInstance) => unknown>;

import { message, type RuleResult } from '../../../shared/validation.ts';
import { currentLang } from '../../i18n/index.ts';

/** A rule that runs a shared check and shows its message in the current language. */
export function shared(check: (value: unknown) => RuleResult): RuleObject {
  return {
    validator: (_rule, value) => {
      const r = check(value);
      return r ? Promise.reject(new Error(message(r, currentLang()))) : Promise.resolve();
    },
  };
}

/** Repeat-password rule comparing with another field of the form. */
export function sameAs(field: string, check: (a: unknown, b: unknown) => RuleResult): FormRule {
  return (form) => shared((value) => check(form.getFieldValue(field), value));
}
