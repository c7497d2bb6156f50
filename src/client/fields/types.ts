import type { ComponentType } from 'react';
import type { Field } from '../../shared/api/fields.ts';

/** What a field's input takes (form items pass value / onChange / id; grid cells add commit and cancel). */
export interface EditorProps {
  field: Field;
  value?: unknown;
  onChange?(value: unknown): void;
  /** Text-like inputs: Enter or leaving the input. */
  onCommit?(): void;
  onCancel?(): void;
  autoFocus?: boolean;
  id?: string;
}

export interface CellProps {
  field: Field;
  value: unknown;
}

export interface FieldKind {
  Input: ComponentType<EditorProps>;
  Cell: ComponentType<CellProps>;
  /**
   * How a grid cell edits it: 'change' saves on every change (pickers), 'commit' on Enter or blur
   * (typing), 'dialog' in a dialog with OK (uploads).
   */
  edit: 'change' | 'commit' | 'dialog';
}

export const testId = (f: Field) => `input-${f._field}`;
