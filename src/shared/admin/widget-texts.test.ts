import { describe, expect, it } from 'vitest';
import type { WidgetInstance } from '../page-document.ts';
import { captionProp, translateDocument, widgetTexts } from './widget-texts.ts';

const pos = { x: 0, y: 0, w: 1, h: 1 };
const w = (
  id: string,
  kind: string,
  props: Record<string, unknown>,
  children?: WidgetInstance[],
): WidgetInstance =>
  ({
    id,
    kind,
    version: 1,
    props,
    layout: { pc: pos, mobile: pos },
    ...(children ? { children } : {}),
  }) as WidgetInstance;

const doc = {
  widgets: [
    w('b1', 'button', { text: '提交' }),
    w('blk', 'block', { title: '客户' }, [
      w('t1', 'textbox', { placeholder: '姓名' }),
      w('x', 'text', { text: { $expr: 'a' } }),
    ]),
    w('img', 'image', { src: 'a.png' }),
  ],
};

describe('widget captions', () => {
  it('take title, then text, then placeholder; bindings and empty texts are not captions', () => {
    expect(captionProp(w('a', 'chart-pie', { title: 'T', text: 'x' }))).toBe('title');
    expect(captionProp(w('a', 'text', { text: '  ' }))).toBeNull();
    expect(captionProp(w('a', 'text', { text: { $expr: 'x' } }))).toBeNull();
  });
  it('are listed in tree order with their ids', () => {
    expect(widgetTexts(doc, 'P')).toEqual([
      { id: 'P.b1', kind: 'button', source: '提交' },
      { id: 'P.blk', kind: 'block', source: '客户' },
      { id: 'P.t1', kind: 'textbox', source: '姓名' },
    ]);
  });
  it('are translated where a text exists, nested too; untouched documents stay the same object', () => {
    const out = translateDocument(doc, 'P', { 'P.b1': 'Submit', 'P.t1': 'Name', 'Q.blk': 'other page' });
    expect(out.widgets[0]!.props.text).toBe('Submit');
    expect(out.widgets[1]!.props.title).toBe('客户');
    expect(out.widgets[1]!.children![0]!.props.placeholder).toBe('Name');
    expect(out.widgets[2]).toBe(doc.widgets[2]);
    expect(doc.widgets[0]!.props.text).toBe('提交');
    expect(translateDocument(doc, 'P', {})).toBe(doc);
  });
});
