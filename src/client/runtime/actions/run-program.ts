/** Runs a program of the project with resolved params; its coded error stops the list. */
import { defineAction, paramsField, refField } from './define.ts';

export const runProgram = defineAction({
  type: 'runProgram',
  perform: async (a, { host, scope }) => {
    await host.runProgram(refField(a, 'program'), paramsField(a.params, scope));
  },
});
