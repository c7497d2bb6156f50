/** Shows a notice; message and title may hold bindings. */
import { defineAction, optionalText, textField } from './define.ts';
import type { NoticeLevel } from './host.ts';

const LEVELS: readonly NoticeLevel[] = ['success', 'error', 'info', 'warning'];

export const notify = defineAction({
  type: 'notify',
  initial: { level: 'success' },
  perform: (a, { host, scope }) => {
    const level = LEVELS.includes(a.level as NoticeLevel) ? (a.level as NoticeLevel) : 'success';
    host.notify(level, textField(a.message, scope), optionalText(a.title, scope));
  },
});
