/** Runs a code command in the sandbox Worker, behind the documented page API (never eval in the page). */
import { defineAction } from './define.ts';
import { ActionError } from './host.ts';

export const runCode = defineAction({
  type: 'runCode',
  initial: { code: '// api.notify("hello")\n' },
  perform: async (a, { host }) => {
    if (typeof a.code !== 'string') throw new ActionError('runCode: code is missing', a.type);
    await host.runCode(a.code);
  },
});
