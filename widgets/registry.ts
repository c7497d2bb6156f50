/**
 * The widget registry. Kinds are listed explicitly in ./kinds.ts (one line each, no file-system scan);
 * this module orders them for the palette and offers look-ups. Free of the validator (ajv): the
 * end-user runtime imports it; ./index.ts adds the page helpers bound to the registry.
 */
import { CATEGORIES, type WidgetDef } from './define.ts';
import * as kinds from './kinds.ts';

/** Every kind, in palette order (category, then kind name). */
export const WIDGETS: readonly WidgetDef[] = Object.values(kinds as Record<string, WidgetDef>).sort(
  (a, b) => CATEGORIES.indexOf(a.category) - CATEGORIES.indexOf(b.category) || a.kind.localeCompare(b.kind),
);

const byKind = new Map(WIDGETS.map((w) => [w.kind, w]));
if (byKind.size !== WIDGETS.length) throw new Error('two widget definitions share a kind');

export function getWidget(kind: string): WidgetDef | undefined {
  return byKind.get(kind);
}

/** Palette entries grouped by category. */
export function palette(): { category: (typeof CATEGORIES)[number]; items: WidgetDef[] }[] {
  return CATEGORIES.map((category) => ({ category, items: WIDGETS.filter((w) => w.category === category) }));
}
