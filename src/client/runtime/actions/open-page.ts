/** Opens a page of the project, in this window or a new one. */
import { defineAction, paramsField, refField } from './define.ts';

export const openPage = defineAction({
  type: 'openPage',
  perform: (a, { host, scope }) =>
    host.openPage(refField(a, 'page'), paramsField(a.params, scope), a.target === 'blank' ? 'blank' : 'self'),
});
