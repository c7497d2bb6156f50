/** A refused call as one line for the user: its code, then the server's reason in their language. */
import { errorByCode } from '../../shared/errors.ts';
import { ApiError } from '../api/api-error.ts';

export function errorText(err: unknown, lang: string): string {
  if (!(err instanceof ApiError)) return err instanceof Error ? err.message : String(err);
  const def = errorByCode(err.code);
  const zh = lang === 'zh' && def && err.message.startsWith(def.msg);
  return `${err.code}: ${zh ? def.zh + err.message.slice(def.msg.length) : err.message}`;
}
