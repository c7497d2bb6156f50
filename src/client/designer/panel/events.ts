/**
 * Which events each kind emits (read off the renders: what they pass to `dispatch`, and onChange
 * from every input through useWidgetValue). The action kinds and their fields: ./action-fields.ts.
 */

/** Events per kind; kinds missing here emit none. */
export const KIND_EVENTS: Record<string, readonly string[]> = {
  button: ['onClick'],
  image: ['onClick'],
  text: ['onClick'],
  textbox: ['onChange'],
  dropdown: ['onChange'],
  radio: ['onChange'],
  checkbox: ['onChange'],
  switch: ['onChange'],
  datepicker: ['onChange'],
  'mobile-datepicker': ['onChange'],
  picker: ['onChange'],
  table: ['onRowClick', 'onSearch', 'onRefresh', 'onExport'],
  'simple-table': ['onRowClick'],
  'advanced-table': ['onChange'],
  form: ['onSubmit'],
  program: ['onProgram'],
};

/** Events of a page document. */
export const PAGE_EVENTS: readonly string[] = ['onLoad'];

export function eventsOf(kind: string): readonly string[] {
  return KIND_EVENTS[kind] ?? [];
}
