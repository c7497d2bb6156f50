/** Sets `state.<name>` or a widget's value (by id) to a literal or a binding's value. */
import { resolveValue } from '../../../shared/expr/index.ts';
import { defineAction, refField } from './define.ts';

export const setValue = defineAction({
  type: 'setValue',
  perform: (a, { host, scope }) => host.setValue(refField(a, 'target'), resolveValue(a.value, scope)),
});
