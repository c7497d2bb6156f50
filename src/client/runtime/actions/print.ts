/**
 * Prints: the A4 print modal with the page's print option merged with this action's (title, data,
 * info, copies, columns), or, with `template`, the template print modal printing through that page.
 */
import { resolveValue } from '../../../shared/expr/index.ts';
import type { PrintOption } from '../../../shared/print.ts';
import { defineAction, optionalText } from './define.ts';
import { ActionError } from './host.ts';

export const print = defineAction({
  type: 'print',
  perform: (a, { host, scope }) => {
    if (!host.print) throw new ActionError('print: not available here', 'print');
    const option: PrintOption = {};
    const title = optionalText(a.title, scope);
    if (title !== undefined) option.title = title;
    const info = optionalText(a.info, scope);
    if (info !== undefined) option.info = info;
    if (a.data !== undefined) {
      const data = resolveValue(a.data, scope);
      if (Array.isArray(data)) option.data = data.filter((r) => typeof r === 'object' && r !== null);
      else if (typeof data === 'object' && data !== null) option.data = data as Record<string, unknown>;
    }
    if (typeof a.copies === 'number') option.copies = a.copies;
    if (typeof a.columns === 'number') option.columns = a.columns;
    host.print({
      option,
      ...(typeof a.template === 'string' && a.template ? { template: a.template } : {}),
    });
  },
});
