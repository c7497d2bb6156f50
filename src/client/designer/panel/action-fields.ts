/**
 * The events editor's view of the action types, generated as the property panel is from widget
 * schemas: the types are the runtime's registry (what runs, in its order), each type's fields are the
 * properties of its branch in schemas/events.schema.json (what validates), and the annotations there
 * (title, x-zh, x-widget, x-widget-role, x-enum-en, x-enum-zh) pick and label each field's editor.
 * Pure: no React, so every action type can be checked in a unit test.
 */
import eventsSchema from '../../../../schemas/events.schema.json' with { type: 'json' };
import { ACTIONS, type ActionType, actionDef } from '../../runtime/actions/registry.ts';
import { type EditorKind, editorOf, type Json, type Lang, labelOf } from './schema-fields.ts';

export type { ActionType };

/** The action types in the order the editor offers them. */
export const ACTION_TYPES: readonly ActionType[] = ACTIONS.map((a) => a.type);

/** x-widget values only action fields have; the others are the property panel's (e.g. `page`). */
export const ACTION_X_WIDGETS = ['widget', 'params', 'state-or-widget', 'code'] as const;

/**
 * How an action field is edited: one of the property panel's editors (text, number, switch, select,
 * page, …), an action-only x-widget, or `textOrExpr` (a literal or a binding, for fields the schema
 * lets hold either).
 */
export type ActionEditor = EditorKind | (typeof ACTION_X_WIDGETS)[number] | 'textOrExpr';

export interface ActionField {
  key: string;
  /** The field's schema with a local `$ref` resolved (its own annotations win). */
  schema: Json;
  editor: ActionEditor;
  required: boolean;
}

const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const root = eventsSchema as unknown as Json;
const branches = (eventsSchema.definitions.action.oneOf as unknown as Json[]).filter(isObj);

/** The schema branch of an action type; undefined for a type the schema does not know. */
export function actionSchema(type: string): Json | undefined {
  return branches.find((b) => isObj(b.properties) && (b.properties.type as Json)?.const === type);
}

/** A `$ref` into this file's definitions, merged with the annotations beside it. */
function resolveLocal(s: Json): Json {
  const ref = s.$ref;
  if (typeof ref !== 'string' || !ref.startsWith('#/definitions/')) return s;
  const target = (root.definitions as Json)[ref.slice('#/definitions/'.length)];
  const { $ref: _, ...own } = s;
  return isObj(target) ? { ...resolveLocal(target), ...own } : s;
}

const isBindingRef = (v: unknown) =>
  isObj(v) && typeof v.$ref === 'string' && v.$ref.startsWith('binding.schema.json');

/** The editor of an action field's (resolved) schema; 'unknown' when nothing fits (a test keeps every action free of those). */
export function actionEditorOf(s: Json): ActionEditor {
  const xw = s['x-widget'];
  if (typeof xw === 'string' && (ACTION_X_WIDGETS as readonly string[]).includes(xw))
    return xw as ActionEditor;
  if (isBindingRef(s) || (Array.isArray(s.anyOf) && s.anyOf.some(isBindingRef))) return 'textOrExpr';
  return editorOf(s);
}

/** The fields of an action type in schema order, without `type` and `when` (the editor adds `when` to all). */
export function actionFields(type: string): ActionField[] {
  const branch = actionSchema(type);
  if (!branch || !isObj(branch.properties)) return [];
  const required = Array.isArray(branch.required) ? (branch.required as string[]) : [];
  return Object.entries(branch.properties as Record<string, Json>)
    .filter(([key]) => key !== 'type' && key !== 'when')
    .map(([key, raw]) => {
      const schema = resolveLocal(raw);
      return { key, schema, editor: actionEditorOf(schema), required: required.includes(key) };
    });
}

/** The name of an action type in the editor's language (the branch's x-zh or title). */
export function actionTitle(type: string, lang: Lang): string {
  const branch = actionSchema(type);
  return branch ? labelOf(branch, type, lang) : type;
}

/** A new action of a type; its required fields stay missing, so the editor names them until filled. */
export function newAction(type: ActionType): Record<string, unknown> {
  return { type, ...structuredClone(actionDef(type)?.initial ?? {}) };
}
