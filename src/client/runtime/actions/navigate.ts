/** Goes to a URL; only safe ones (http(s), mailto, tel, relative), checked after bindings resolve. */
import { isSafeUrl } from '../../../shared/sanitize.ts';
import { defineAction, textField } from './define.ts';
import { ActionError } from './host.ts';

export const navigate = defineAction({
  type: 'navigate',
  perform: (a, { host, scope }) => {
    const url = textField(a.url, scope);
    if (!url || !isSafeUrl(url)) throw new ActionError('navigate: unsafe or empty URL', a.type);
    host.navigate(url, a.replace === true);
  },
});
