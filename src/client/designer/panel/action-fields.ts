/** The action kinds of events.schema.json with their fields, as the events editor shows them. */

export const ACTION_TYPES = [
  'openPage',
  'openModal',
  'closeModal',
  'navigate',
  'runProgram',
  'refreshWidget',
  'setValue',
  'submitForm',
  'notify',
  'runCode',
] as const;
export type ActionType = (typeof ACTION_TYPES)[number];

/** How an action field is edited. */
export type ActionFieldKind =
  | 'page'
  | 'params'
  | 'target'
  | 'text'
  | 'width'
  | 'any'
  | 'textOrExpr'
  | 'bool'
  | 'ref'
  | 'widget'
  | 'form'
  | 'setTarget'
  | 'level'
  | 'code';

/** The fields of each action type, in the order the editor shows them (`when` is added to all). */
export const ACTION_FIELDS: Record<ActionType, { key: string; kind: ActionFieldKind; required?: boolean }[]> =
  {
    openPage: [
      { key: 'page', kind: 'page', required: true },
      { key: 'target', kind: 'target' },
      { key: 'params', kind: 'params' },
    ],
    openModal: [
      { key: 'page', kind: 'page', required: true },
      { key: 'title', kind: 'text' },
      { key: 'width', kind: 'width' },
      { key: 'params', kind: 'params' },
    ],
    closeModal: [{ key: 'result', kind: 'any' }],
    navigate: [
      { key: 'url', kind: 'textOrExpr', required: true },
      { key: 'replace', kind: 'bool' },
    ],
    runProgram: [
      { key: 'program', kind: 'ref', required: true },
      { key: 'params', kind: 'params' },
    ],
    refreshWidget: [{ key: 'widget', kind: 'widget', required: true }],
    setValue: [
      { key: 'target', kind: 'setTarget', required: true },
      { key: 'value', kind: 'any', required: true },
    ],
    submitForm: [{ key: 'form', kind: 'form', required: true }],
    notify: [
      { key: 'level', kind: 'level' },
      { key: 'title', kind: 'text' },
      { key: 'message', kind: 'textOrExpr', required: true },
    ],
    runCode: [{ key: 'code', kind: 'code', required: true }],
  };

/** A new action of a type; its required fields stay missing, so the editor names them until filled. */
export function newAction(type: ActionType): Record<string, unknown> {
  const a: Record<string, unknown> = { type };
  if (type === 'runCode') a.code = '// api.notify("hello")\n';
  if (type === 'notify') a.level = 'success';
  return a;
}
