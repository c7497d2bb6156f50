/** The events editor's fields, generated from events.schema.json: every action type fully labelled and editable. */
import { describe, expect, it } from 'vitest';
import {
  ACTION_TYPES,
  type ActionEditor,
  actionEditorOf,
  actionFields,
  actionSchema,
  actionTitle,
  newAction,
} from './action-fields.ts';
import { enumOptions, labelOf } from './schema-fields.ts';

describe('action fields from the events schema', () => {
  it.each(ACTION_TYPES.map((t) => [t]))('%s: named, every field labelled and editable', (type) => {
    expect(actionSchema(type), type).toBeDefined();
    expect(actionTitle(type, 'en')).toBe(actionSchema(type)!.title);
    expect(actionTitle(type, 'zh')).toBe(actionSchema(type)!['x-zh']);
    for (const f of actionFields(type)) {
      expect(f.editor, `${type}.${f.key}`).not.toBe('unknown');
      expect(labelOf(f.schema, f.key, 'en'), `${type}.${f.key}`).toBe(f.schema.title);
      expect(labelOf(f.schema, f.key, 'zh'), `${type}.${f.key}`).toBe(f.schema['x-zh']);
      if (f.editor === 'select')
        for (const lang of ['en', 'zh'] as const) {
          const names = f.schema[lang === 'en' ? 'x-enum-en' : 'x-enum-zh'];
          expect(enumOptions(f.schema, lang).map((o) => o.label)).toEqual(names);
        }
    }
  });

  it('reads the editors off the annotations, refs and types', () => {
    const editors = (type: string) => Object.fromEntries(actionFields(type).map((f) => [f.key, f.editor]));
    expect(editors('openPage')).toEqual<Record<string, ActionEditor>>({
      page: 'page',
      params: 'params',
      target: 'select',
    });
    expect(editors('openModal')).toEqual({
      page: 'page',
      params: 'params',
      title: 'text',
      width: 'number',
      single: 'switch',
    });
    expect(editors('navigate')).toEqual({ url: 'textOrExpr', replace: 'switch' });
    expect(editors('setValue')).toEqual({ target: 'state-or-widget', value: 'textOrExpr' });
    expect(editors('submitForm')).toEqual({ form: 'widget' });
    expect(actionFields('submitForm')[0]!.schema['x-widget-role']).toBe('form');
    expect(editors('runCode')).toEqual({ code: 'code' });
    expect(actionFields('closeModal').map((f) => [f.key, f.editor, f.required])).toEqual([
      ['result', 'textOrExpr', false],
    ]);
    // A referenced definition's constraints come along, the field's own annotations win.
    const page = actionFields('openPage')[0]!;
    expect(page).toMatchObject({ required: true, schema: { type: 'string', maxLength: 128, title: 'Page' } });
    expect(actionEditorOf({ type: 'object' })).toBe('unknown');
    expect(actionFields('explode')).toEqual([]);
    expect(actionTitle('explode', 'en')).toBe('explode');
  });

  it('new actions start from their definition, each its own copy', () => {
    expect(newAction('notify')).toEqual({ type: 'notify', level: 'success' });
    expect(newAction('openPage')).toEqual({ type: 'openPage' });
    const a = newAction('runCode');
    expect(typeof a.code).toBe('string');
    a.code = 'changed';
    expect(newAction('runCode').code).not.toBe('changed');
  });
});
