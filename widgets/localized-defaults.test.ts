import { describe, expect, it } from 'vitest';
import { emptyPage, instanceOf } from '../tests/fixtures/pages.ts';
import { getWidget, loadPage, pageValidator, WIDGETS } from './index.ts';
import { DEFAULT_EN, newWidgetProps } from './localized-defaults.ts';

const CJK = /[\u3400-\u9fff\uff00-\uffef]/;

/** Every string inside a value, with its path. */
function strings(v: unknown, path: string): [string, string][] {
  if (typeof v === 'string') return [[path, v]];
  if (Array.isArray(v)) return v.flatMap((x, i) => strings(x, `${path}[${i}]`));
  if (v && typeof v === 'object') return Object.entries(v).flatMap(([k, x]) => strings(x, `${path}.${k}`));
  return [];
}

describe('a new widget speaks the builder’s language', () => {
  it('a new button says "Button" in the English UI and 按钮 in the Chinese one', () => {
    const button = getWidget('button')!;
    expect(newWidgetProps(button, 'en').text).toBe('Button');
    expect(newWidgetProps(button, 'zh').text).toBe('按钮');
  });

  it.each(WIDGETS.map((w) => [w.kind, w] as const))(
    '%s: no Chinese in what an English-speaking builder sees, and the English props validate',
    (_kind, def) => {
      const en = newWidgetProps(def, 'en');
      const chinese = Object.entries(en).flatMap(([k, v]) => strings(v, k).filter(([, s]) => CJK.test(s)));
      expect(chinese).toEqual([]);
      expect(pageValidator().validateProps(def.kind, en)).toEqual({ ok: true });
      // Chinese builders get the schema's defaults as they are.
      expect(newWidgetProps(def, 'zh')).toEqual(def.defaults);
    },
  );

  it('an English form sits only beside a default', () => {
    for (const def of WIDGETS)
      for (const [key, s] of Object.entries(def.schema.properties))
        if (DEFAULT_EN in s) expect('default' in s, `${def.kind}.${key}`).toBe(true);
  });

  it('a stored widget lacking the prop still loads with the schema default: stored pages never change with the language', () => {
    const page = emptyPage();
    const button = instanceOf(getWidget('button')!, 'b1');
    delete button.props.text;
    page.widgets = [button];
    expect(loadPage(page).page.widgets[0]!.props.text).toBe('按钮');
  });

  it('the defaults themselves are left untouched by an English copy', () => {
    const button = getWidget('button')!;
    newWidgetProps(button, 'en').text = 'changed';
    expect(button.defaults.text).toBe('按钮');
  });
});
