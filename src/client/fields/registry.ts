/**
 * One home per field type for its input and its cell (README "Field types"): the workbench rows grid,
 * its add-row form and the end-user data view all look a type up here. A type's file exports its
 * `FieldKind`; this list is the only place that names them. The spec's older types (string, number,
 * date, time, relate, collection) keep their inputs in the workbench's FieldInput for now.
 */
import type { FieldType } from '../../shared/api/fields.ts';
import { attachmentKind } from './attachment.tsx';
import { booleanKind } from './boolean.tsx';
import { imageKind } from './image.tsx';
import { longtextKind } from './longtext.tsx';
import { optionKind, optionsKind } from './option.tsx';
import { emailKind, phoneKind, urlKind } from './text-kinds.tsx';
import type { FieldKind } from './types.ts';

export type { CellProps, EditorProps, FieldKind } from './types.ts';

export const FIELD_KINDS: Partial<Record<FieldType, FieldKind>> = {
  boolean: booleanKind,
  longtext: longtextKind,
  option: optionKind,
  options: optionsKind,
  email: emailKind,
  phone: phoneKind,
  url: urlKind,
  attachment: attachmentKind,
  image: imageKind,
};

/** The kind of a field type, when it has one here. */
export function fieldKind(type: string): FieldKind | undefined {
  return Object.hasOwn(FIELD_KINDS, type) ? FIELD_KINDS[type as FieldType] : undefined;
}
