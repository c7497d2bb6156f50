/**
 * The action types, in the order the events editor offers them. An explicit list, not a scan of the
 * folder: adding an action is its file plus one line here (and its branch in events.schema.json).
 */
import { closeModal } from './close-modal.ts';
import type { ActionDef } from './define.ts';
import { navigate } from './navigate.ts';
import { notify } from './notify.ts';
import { openModal } from './open-modal.ts';
import { openPage } from './open-page.ts';
import { print } from './print.ts';
import { refreshWidget } from './refresh-widget.ts';
import { runCode } from './run-code.ts';
import { runProgram } from './run-program.ts';
import { setValue } from './set-value.ts';
import { submitForm } from './submit-form.ts';

export const ACTIONS = [
  openPage,
  openModal,
  closeModal,
  navigate,
  runProgram,
  refreshWidget,
  setValue,
  submitForm,
  notify,
  runCode,
  print,
] as const;

export type ActionType = (typeof ACTIONS)[number]['type'];

const byType: ReadonlyMap<string, ActionDef> = new Map(ACTIONS.map((a) => [a.type, a]));

/** The definition of a stored action type; undefined for a type no file defines. */
export function actionDef(type: unknown): ActionDef | undefined {
  return typeof type === 'string' ? byType.get(type) : undefined;
}
