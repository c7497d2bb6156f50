/** Closes the modal the page is in (else the top one), handing `result` to whoever opened it. */
import { resolveValue } from '../../../shared/expr/index.ts';
import { defineAction } from './define.ts';

export const closeModal = defineAction({
  type: 'closeModal',
  perform: (a, { host, scope }) => host.closeModal(resolveValue(a.result, scope)),
});
