/** Server validation messages name the input they concern ("format does not match: field: …"). */
import type { FormInstance } from 'antd';
import { ApiError } from '../../api/api-error.ts';
import { effects } from '../../api/effects.ts';

const KEYED = /(?:^|: )([a-z]+): /;

/**
 * Put a failed call's message beside the input it names (`inputs`: server key → form field name);
 * anything else is shown as the ordinary error notice (the calls were made quiet for this). Answers
 * whether it went beside an input.
 */
export function showServerError(form: FormInstance, err: unknown, inputs: Record<string, string>): boolean {
  if (!(err instanceof ApiError)) return false;
  const key = KEYED.exec(err.message)?.[1];
  const name = key ? inputs[key] : undefined;
  if (name) form.setFields([{ name, errors: [`${err.code}: ${err.message}`] }]);
  else if (!err.silent) effects.notifyError(err.code, err.message);
  return name !== undefined;
}
