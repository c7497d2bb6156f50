/** Opens a page of the project in a modal of the stack (or in place of the stack with `single`). */
import { MODAL_WIDTHS } from '../../../shared/constants.ts';
import { defineAction, optionalText, paramsField, refField } from './define.ts';

/** The allowed modal widths (339, 535, 600, 810, 900): a requested width snaps to the nearest. */
export const MODAL_WIDTH_STEPS = [
  MODAL_WIDTHS.limit,
  MODAL_WIDTHS.help,
  MODAL_WIDTHS.detail,
  MODAL_WIDTHS.a4,
  MODAL_WIDTHS.export,
] as const;

export function snapModalWidth(width: unknown): number {
  const w = typeof width === 'number' && Number.isFinite(width) ? width : MODAL_WIDTHS.detail;
  let best: number = MODAL_WIDTH_STEPS[0];
  for (const step of MODAL_WIDTH_STEPS) if (Math.abs(step - w) < Math.abs(best - w)) best = step;
  return best;
}

export const openModal = defineAction({
  type: 'openModal',
  perform: (a, { host, scope }) => {
    const title = optionalText(a.title, scope);
    host.openModal({
      page: refField(a, 'page'),
      params: paramsField(a.params, scope),
      ...(title !== undefined ? { title } : {}),
      width: snapModalWidth(a.width),
      ...(a.single === true ? { single: true } : {}),
    });
  },
});
