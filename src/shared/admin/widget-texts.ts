/**
 * Widget captions in translation maps (shared/admin/i18n.ts `{page}.{widget}`): which text of a
 * widget is its caption, the captions of a page document (what /system/i18n lists), and a document
 * with the captions translated (what the runtime renders).
 */
import type { PageDocument, WidgetInstance } from '../page-document.ts';
import { widgetTextId } from './i18n.ts';

/** Caption props, in the order one is taken: a block's or chart's title, a button's or text's text, an input's placeholder. */
export const WIDGET_CAPTION_PROPS = ['title', 'text', 'placeholder'] as const;

/** Longest caption listed for translation (longer texts are content, not labels). */
export const WIDGET_CAPTION_MAX = 200;

/** The prop holding the widget's caption (a plain, non-empty text; bindings are not captions), or null. */
export function captionProp(w: Pick<WidgetInstance, 'props'>): string | null {
  for (const p of WIDGET_CAPTION_PROPS) {
    const v = w.props?.[p];
    if (typeof v === 'string' && v.trim() !== '' && v.length <= WIDGET_CAPTION_MAX) return p;
  }
  return null;
}

export interface WidgetText {
  /** The translation id: `{page}.{widget}`. */
  id: string;
  kind: string;
  source: string;
}

/** Every caption of a document, in tree order. */
export function widgetTexts(doc: Pick<PageDocument, 'widgets'>, pageId: string): WidgetText[] {
  const out: WidgetText[] = [];
  const walk = (list: WidgetInstance[] | undefined) => {
    for (const w of list ?? []) {
      const p = captionProp(w);
      if (p) out.push({ id: widgetTextId(pageId, w.id), kind: w.kind, source: String(w.props[p]) });
      walk(w.children);
    }
  };
  walk(doc.widgets);
  return out;
}

/** The document with its captions translated by `texts`; the same object when nothing changes. */
export function translateDocument<D extends Pick<PageDocument, 'widgets'>>(
  doc: D,
  pageId: string,
  texts: Record<string, string>,
): D {
  // Most projects translate nothing: no walk over every widget of the page then.
  if (Object.keys(texts).length === 0) return doc;
  // Each list comes back as the same array when none of its widgets changed.
  const walk = (list: WidgetInstance[]): WidgetInstance[] => {
    let changed = false;
    const out = list.map((w) => {
      const p = captionProp(w);
      const text = p ? texts[widgetTextId(pageId, w.id)] : undefined;
      const children = w.children ? walk(w.children) : undefined;
      if (!text && children === w.children) return w;
      changed = true;
      return {
        ...w,
        ...(text && p ? { props: { ...w.props, [p]: text } } : {}),
        ...(children ? { children } : {}),
      };
    });
    return changed ? out : list;
  };
  const widgets = walk(doc.widgets ?? []);
  return widgets === doc.widgets ? doc : { ...doc, widgets };
}
