/** Reloads a data widget or data source of the page. */
import { defineAction, refField } from './define.ts';

export const refreshWidget = defineAction({
  type: 'refreshWidget',
  perform: async (a, { host }) => {
    await host.refreshWidget(refField(a, 'widget'));
  },
});
