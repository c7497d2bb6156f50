/** The generated panel's pure parts: schema → editor mapping over every kind, the resolver, bindings, events. */
import { beforeAll, describe, expect, it } from 'vitest';
import { WIDGETS } from '../../../../widgets/index.ts';
import { SCRIPT_API_DTS, SCRIPT_API_MEMBERS } from '../../../shared/script-api.ts';
import { ACTION_TYPES, actionFields, newAction } from './action-fields.ts';
import { toggleBinding } from './BindableField.tsx';
import { validateEventMap } from './EventsEditor.tsx';
import { applyHint, currentWord, exprHints, literalToExpr } from './expr-hints.ts';
import { validatePagePart } from './PagePanel.tsx';
import { applyPatch } from './PanelLab.tsx';
import { flattenErrors } from './PropsForm.tsx';
import { errorsUnder, kindResolver, pointerToPath, toFieldErrors, validateKindProps } from './resolver.ts';
import { editorOf, emptyRow, enumOptions, labelOf, propFields, rowFields } from './schema-fields.ts';

// The registry's validator compiles once per process; on a shared, busy machine that takes a while.
beforeAll(() => {
  validateKindProps('text', {});
}, 60_000);

describe('schema → editor mapping', () => {
  it.each(WIDGETS.map((w) => [w.kind, w] as const))(
    '%s: every prop and row field has an editor and labels',
    (_k, def) => {
      for (const f of propFields(def.schema)) {
        expect(f.editor, `${def.kind}.${f.key}`).not.toBe('unknown');
        expect(labelOf(f.schema, f.key, 'zh')).toBe(f.schema['x-zh']);
        expect(labelOf(f.schema, f.key, 'en')).toBe(f.schema.title);
        if (f.editor === 'list')
          for (const r of rowFields(f.schema)) {
            expect(r.editor, `${def.kind}.${f.key}[].${r.key}`).not.toBe('unknown');
            expect(labelOf(r.schema, r.key, 'en'), `${def.kind}.${f.key}[].${r.key} label`).not.toBe(r.key);
          }
      }
    },
  );

  it('new rows of every list validate against the kind once the required text is filled', {
    timeout: 30_000,
  }, () => {
    for (const def of WIDGETS)
      for (const f of propFields(def.schema)) {
        if (f.editor !== 'list') continue;
        const row = emptyRow(f.schema) as Record<string, unknown>;
        for (const r of rowFields(f.schema)) if (r.required && row[r.key] === '') row[r.key] = 'x';
        expect(
          validateKindProps(def.kind, { ...def.defaults, [f.key]: [row] }),
          `${def.kind}.${f.key}`,
        ).toEqual([]);
      }
  });

  it('picks editors by type and annotation', () => {
    expect(editorOf({ type: 'string' })).toBe('text');
    expect(editorOf({ type: 'string', maxLength: 100000 })).toBe('textarea');
    expect(editorOf({ type: 'string', 'x-widget': 'textarea' })).toBe('textarea');
    expect(editorOf({ type: 'string', format: 'color' })).toBe('color');
    expect(editorOf({ type: 'integer', minimum: 1 })).toBe('number');
    expect(editorOf({ type: 'boolean' })).toBe('switch');
    expect(editorOf({ type: 'string', enum: ['a', 'b'] })).toBe('select');
    expect(
      editorOf({ type: 'array', items: { type: 'object', properties: { a: { type: 'string' } } } }),
    ).toBe('list');
    expect(editorOf({ type: 'array', items: { type: 'string', format: 'safe-url' } })).toBe('images');
    expect(editorOf({ type: 'array', items: { type: 'integer' }, minItems: 4, maxItems: 4 })).toBe('tuple');
    expect(editorOf({ type: 'string', 'x-widget': 'no-such' })).toBe('unknown');
    expect(editorOf({ type: 'null' })).toBe('unknown');
  });

  it('uses the annotations the schemas carry for pickers', () => {
    const table = WIDGETS.find((w) => w.kind === 'table')!;
    expect(editorOf(table.schema.properties.entity!)).toBe('entity');
    const form = WIDGETS.find((w) => w.kind === 'form')!;
    const field = rowFields(form.schema.properties.fields!).find((r) => r.key === 'field')!;
    expect(field.editor).toBe('field');
    expect(field.schema['x-field-of']).toBe('entity');
    expect(editorOf(WIDGETS.find((w) => w.kind === 'page')!.schema.properties.page!)).toBe('page');
    expect(editorOf(WIDGETS.find((w) => w.kind === 'image')!.schema.properties.src!)).toBe('image');
  });

  it('labels enum options in the current language', () => {
    const s = { enum: ['small', 'middle'], 'x-enum-zh': ['小', '中'] };
    expect(enumOptions(s, 'zh')).toEqual([
      { value: 'small', label: '小' },
      { value: 'middle', label: '中' },
    ]);
    expect(enumOptions(s, 'en').map((o) => o.label)).toEqual(['small', 'middle']);
  });
});

describe('resolver', () => {
  const text = WIDGETS.find((w) => w.kind === 'text')!;
  it('accepts the defaults', async () => {
    const r = await kindResolver('text')(text.defaults, undefined, {
      fields: {},
      shouldUseNativeValidation: false,
    });
    expect(r.errors).toEqual({});
    expect(r.values).toEqual(text.defaults);
  });

  it('rejects an out-of-range number at its path', async () => {
    const r = await kindResolver('text')({ ...text.defaults, fontSize: 500 }, undefined, {
      fields: {},
      shouldUseNativeValidation: false,
    });
    expect(r.values).toEqual({});
    expect(r.errors.fontSize?.message).toMatch(/96/);
    expect(Object.keys(r.errors)).toEqual(['fontSize']);
  });

  it('names the row and field of a bad list item', () => {
    const radio = WIDGETS.find((w) => w.kind === 'radio')!;
    const errs = validateKindProps('radio', {
      ...radio.defaults,
      list: [{ value: '1' }, { label: 'no value' }],
    });
    expect(errs.map((e) => e.path)).toEqual(['list.1']);
    const deep = validateKindProps('radio', { ...radio.defaults, list: [{ value: 5 }] });
    expect(deep.map((e) => e.path)).toEqual(['list.0.value']);
    expect(errorsUnder(deep, 'list')).toHaveLength(1);
    expect(flattenErrors(toFieldErrors(deep))).toEqual({ 'list.0.value': deep[0]!.message });
  });

  it('rejects extra keys, script tags and a wrong type', () => {
    expect(validateKindProps('text', { ...text.defaults, nope: 1 }).length).toBe(1);
    expect(validateKindProps('text', { ...text.defaults, text: '<script>x</script>' })[0]?.path).toBe('text');
    expect(validateKindProps('text', { ...text.defaults, bold: 'yes' })[0]?.path).toBe('bold');
  });

  it('checks bindings: a broken expression is named at the prop, in the evaluator words', () => {
    expect(validateKindProps('text', { ...text.defaults, text: { $expr: 'state.a + 1' } })).toEqual([]);
    const bad = validateKindProps('text', { ...text.defaults, text: { $expr: 'state.a +' } });
    expect(bad).toHaveLength(1);
    expect(bad[0]!.path).toBe('text');
    expect(bad[0]!.message).not.toMatch(/exprSyntax/);
    const empty = validateKindProps('text', { ...text.defaults, text: { $expr: '' } });
    expect(empty[0]).toMatchObject({ path: 'text', message: 'expression is empty' });
  });

  it('maps pointers to form paths', () => {
    expect(pointerToPath('/list/2/value')).toBe('list.2.value');
    expect(pointerToPath('/text/$expr')).toBe('text');
    expect(pointerToPath('/a~1b')).toBe('a/b');
  });
});

describe('bindings', () => {
  it('toggles a literal to an expression that yields it, and back to the last literal', () => {
    expect(toggleBinding('hi', undefined, 'd')).toEqual({ $expr: '"hi"' });
    expect(toggleBinding(12, undefined, 0)).toEqual({ $expr: '12' });
    expect(toggleBinding(true, undefined, false)).toEqual({ $expr: 'true' });
    expect(toggleBinding({ $expr: 'x' }, 'hi', 'd')).toBe('hi');
    expect(toggleBinding({ $expr: 'x' }, undefined, ['d'])).toEqual(['d']);
    expect(literalToExpr([1])).toBe('');
  });

  it('every literal switched to fx validates as a binding of that prop', () => {
    for (const def of WIDGETS)
      for (const [k, v] of Object.entries(def.defaults)) {
        if (!['string', 'number', 'boolean'].includes(typeof v)) continue;
        const bound = toggleBinding(v, undefined, v) as { $expr: string };
        expect(validateKindProps(def.kind, { ...def.defaults, [k]: bound }), `${def.kind}.${k}`).toEqual([]);
      }
  });

  it('offers scope roots, widget ids and functions for the word being typed', () => {
    const widgets = [{ id: 'w_btn', kind: 'button', name: 'Save' }];
    expect(currentWord('1 + widgets.w')).toBe('widgets.w');
    expect(exprHints('1 + wid', widgets).map((h) => h.insert)).toEqual(['widgets', 'widgets.w_btn']);
    expect(exprHints('st', widgets)[0]!.insert).toBe('state');
    const fn = exprHints('upp', widgets);
    expect(fn.some((h) => h.kind === 'function' && h.insert === 'upper(')).toBe(true);
    expect(applyHint('1 + wid', { insert: 'widgets.w_btn', kind: 'widget' })).toBe('1 + widgets.w_btn');
  });
});

describe('events', () => {
  it('a new action names its missing required fields; filled it validates', () => {
    const fill: Record<string, unknown> = {
      page: 'p1',
      url: '/x',
      program: 'prog1',
      widget: 'w1',
      target: 'state.a',
      value: 1,
      form: 'f1',
      message: 'hi',
    };
    for (const type of ACTION_TYPES) {
      const a = newAction(type);
      const required = actionFields(type).filter((f) => f.required && f.editor !== 'code');
      const errs = validateEventMap({ onClick: [a] });
      for (const f of required) expect(errs[`onClick.0.${f.key}`], `${type}.${f.key}`).toBeTruthy();
      const filled = { ...a };
      // A field named here gets its sample; any other (a new action's) gets a plain one of its editor.
      for (const f of required)
        filled[f.key] = fill[f.key] ?? (f.editor === 'number' ? (f.schema.minimum ?? 0) : 'x1');
      expect(validateEventMap({ onClick: [filled] }), type).toEqual({});
    }
  });

  it('rejects a bad url, a bad condition and a bad event name', () => {
    expect(validateEventMap({ onClick: [{ type: 'navigate', url: 'javascript:alert(1)' }] })).not.toEqual({});
    const when = validateEventMap({ onClick: [{ type: 'closeModal', when: { $expr: '1 +' } }] });
    expect(Object.keys(when)[0]).toMatch(/^onClick\.0/);
    expect(Object.keys(validateEventMap({ click: [] }))).toHaveLength(1);
  });
});

describe('page panel', () => {
  const page = {
    id: 'p',
    title: 'P',
    version: 1,
    layout: { pc: { cols: 120, rowHeight: 10 }, mobile: { cols: 38, rowHeight: 10 } },
  };
  it('checks a part against the page schema', () => {
    expect(validatePagePart(page, 'layout', page.layout)).toEqual({});
    expect(
      Object.keys(validatePagePart(page, 'layout', { ...page.layout, pc: { cols: 0, rowHeight: 10 } })),
    ).toEqual(['layout.pc.cols']);
    expect(validatePagePart(page, 'state', { n: { type: 'number', default: 1, persist: 'local' } })).toEqual(
      {},
    );
    expect(Object.keys(validatePagePart(page, 'state', { '1bad': { type: 'number' } })).length).toBe(1);
    expect(Object.keys(validatePagePart(page, 'title', ''))).toEqual(['title']);
  });
});

describe('gallery patch and script API', () => {
  it('merges props shallowly, deletes undefined keys, replaces events', () => {
    const w = {
      id: 'w',
      kind: 'text',
      version: 1,
      props: { a: 1, b: 2 },
      layout: { pc: { x: 0, y: 0, w: 1, h: 1 }, mobile: { x: 0, y: 0, w: 1, h: 1 } },
    };
    const n = applyPatch(w, { props: { a: 3, b: undefined }, events: { onClick: [] }, name: 'n' });
    expect(n.props).toEqual({ a: 3 });
    expect(n.events).toEqual({ onClick: [] });
    expect(n.name).toBe('n');
    expect(applyPatch(n, { events: {} }).events).toBeUndefined();
  });

  it('declares every member of the script API', () => {
    for (const m of SCRIPT_API_MEMBERS) expect(SCRIPT_API_DTS).toMatch(new RegExp(`\\b${m}\\b[(:?]`));
    expect(SCRIPT_API_DTS).toContain('declare const api: ScriptApi;');
  });
});

describe('messages', () => {
  it('puts validation messages in Chinese and leaves English alone', async () => {
    const { localizeMessage } = await import('./messages.ts');
    expect(localizeMessage('must be <= 96', 'zh')).toBe('不能大于 96');
    expect(localizeMessage("must have required property 'message'", 'zh')).toBe('缺少必填项 message');
    expect(localizeMessage('must be integer', 'zh')).toBe('应为整数');
    expect(localizeMessage('must be <= 96', 'en')).toBe('must be <= 96');
    expect(localizeMessage('something new', 'zh')).toBe('something new');
  });
});
