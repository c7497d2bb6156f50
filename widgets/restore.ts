/**
 * Loads any stored page defensively (Excalidraw's restore, Lexical's parse): fills defaults, migrates
 * each widget up its kind's ordered steps, sanitises hostile strings, and keeps a widget it cannot
 * understand marked `broken` with a reason, so a bad widget never blanks the page.
 */
import {
  DEFAULT_PAGE_LAYOUT,
  type GridPos,
  PAGE_FORMAT_VERSION,
  type PageDocument,
  sizeToGrid,
  type WidgetInstance,
} from '../src/shared/page-document.ts';
import { hasScriptTag, safeUrl, sanitizeHtml, stripScripts } from '../src/shared/sanitize.ts';
import type { Props, WidgetSpec } from './define.ts';
import { type PageIssue, validatorFor } from './validate.ts';

type Json = Record<string, unknown>;
const UNSAFE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
const EMPTY_SHELL = { id: 'probe', title: 'probe', version: 1, widgets: [] };
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

export interface RestoreResult {
  page: PageDocument;
  /** What was changed or marked on the way in. */
  issues: PageIssue[];
}

/** Sanitises strings in a props value, guided by the schema where there is one. */
export function sanitizeValue(value: unknown, schema: Json | undefined): unknown {
  if (typeof value === 'string') {
    if (schema?.format === 'safe-url') return safeUrl(value);
    if (schema?.format === 'safe-html') return sanitizeHtml(value);
    return hasScriptTag(value) ? stripScripts(value) : value;
  }
  if (Array.isArray(value)) {
    const items = isObj(schema?.items) ? schema.items : undefined;
    return value.map((v) => sanitizeValue(v, items));
  }
  if (isObj(value)) {
    if (typeof value.$expr === 'string') return value;
    const props = isObj(schema?.properties) ? (schema.properties as Record<string, Json>) : undefined;
    const out: Json = {};
    for (const [k, v] of Object.entries(value)) {
      // JSON.parse makes "__proto__" an own key; assigning it back would swap the object's prototype.
      if (UNSAFE_KEYS.has(k)) continue;
      out[k] = sanitizeValue(v, props?.[k]);
    }
    return out;
  }
  return value;
}

function gridPos(v: unknown, fallback: GridPos): GridPos {
  if (!isObj(v)) return { ...fallback };
  const n = (x: unknown, d: number, min: number) =>
    typeof x === 'number' && Number.isFinite(x) ? Math.max(min, Math.round(x)) : d;
  return {
    x: n(v.x, fallback.x, 0),
    y: n(v.y, fallback.y, 0),
    w: n(v.w, fallback.w, 1),
    h: n(v.h, fallback.h, 1),
  };
}

/** Restores a stored page document against a registry. Never throws. */
export function restorePage(input: unknown, specs: readonly WidgetSpec[]): RestoreResult {
  const validator = validatorFor(specs);
  const byKind = new Map(specs.map((s) => [s.kind, s]));
  const issues: PageIssue[] = [];
  const usedIds = new Set<string>();
  let seq = 0;
  const doc = isObj(input) ? input : {};
  if (!isObj(input)) issues.push({ path: '/', message: 'document is not an object; started an empty page' });

  const layoutIn = isObj(doc.layout) ? doc.layout : {};
  const modeOk = (m: unknown): m is Json =>
    isObj(m) && validator.validatePage({ ...EMPTY_SHELL, layout: { pc: m, mobile: m } }).ok;
  const layout = {
    pc: modeOk(layoutIn.pc) ? layoutIn.pc : { ...DEFAULT_PAGE_LAYOUT.pc },
    mobile: modeOk(layoutIn.mobile) ? layoutIn.mobile : { ...DEFAULT_PAGE_LAYOUT.mobile },
  };
  if (layoutIn.pc !== undefined && layout.pc !== layoutIn.pc)
    issues.push({ path: '/layout/pc', message: 'invalid layout replaced' });
  if (layoutIn.mobile !== undefined && layout.mobile !== layoutIn.mobile)
    issues.push({ path: '/layout/mobile', message: 'invalid layout replaced' });
  const modeOf = (m: Json) => ({
    cols: typeof m.cols === 'number' ? m.cols : 120,
    rowHeight: typeof m.rowHeight === 'number' ? m.rowHeight : 10,
    width: typeof m.width === 'number' ? m.width : undefined,
  });

  function freshId(): string {
    let id: string;
    do id = `w_restored_${++seq}`;
    while (usedIds.has(id));
    return id;
  }

  function restoreWidget(raw: unknown, path: string): WidgetInstance[] {
    const w = isObj(raw) ? raw : {};
    let id = typeof w.id === 'string' && /^[A-Za-z][A-Za-z0-9_-]{0,63}$/.test(w.id) ? w.id : '';
    if (!id || usedIds.has(id)) {
      const old = id;
      id = freshId();
      issues.push({
        path,
        widgetId: id,
        message: old ? `duplicate id ${old} renamed` : 'missing or bad id replaced',
      });
    }
    usedIds.add(id);
    const kind = typeof w.kind === 'string' ? w.kind : 'unknown';
    const spec = byKind.get(kind);
    const size = spec?.meta.size ?? { width: 200, height: 32 };
    const lay = isObj(w.layout) ? w.layout : {};
    const pcSize = sizeToGrid(size, modeOf(layout.pc));
    const mSize = sizeToGrid(size, modeOf(layout.mobile));
    const out: WidgetInstance = {
      id,
      kind,
      version: typeof w.version === 'number' && Number.isInteger(w.version) && w.version >= 1 ? w.version : 1,
      props: isObj(w.props) ? (sanitizeValue(w.props, undefined) as Props) : {},
      layout: {
        pc: gridPos(lay.pc, { x: 0, y: 0, ...pcSize }),
        mobile: gridPos(lay.mobile, { x: 0, y: 0, ...mSize }),
      },
    };
    if (typeof w.name === 'string') out.name = stripScripts(w.name).slice(0, 100);
    if (typeof w.hidden === 'boolean' || (isObj(w.hidden) && typeof w.hidden.$expr === 'string'))
      out.hidden = w.hidden as WidgetInstance['hidden'];
    if (w.locked === true) out.locked = true;
    if (w.events !== undefined) {
      const ev = sanitizeValue(w.events, undefined);
      const r = validator.validateEvents(ev);
      if (r.ok) out.events = ev as WidgetInstance['events'];
      else issues.push({ path: `${path}/events`, widgetId: id, kind, message: 'invalid events dropped' });
    }
    const mark = (reason: string) => {
      out.broken = true;
      out.brokenReason = reason;
      issues.push({ path, widgetId: id, kind, message: reason });
    };

    const hoisted: WidgetInstance[] = [];
    const rawChildren = Array.isArray(w.children) ? w.children : [];
    if (!spec) {
      out.props = sanitizeValue(out.props, undefined) as Props;
      mark(`unknown widget kind ${kind}`);
    } else if (out.version > spec.version) {
      mark(`made by a newer version (${out.version}) of ${kind} than this one (${spec.version})`);
    } else {
      try {
        for (const m of spec.migrations) if (m.to > out.version) out.props = m.up(out.props);
        out.version = spec.version;
        out.props = {
          ...structuredClone(spec.defaults),
          ...(sanitizeValue(out.props, spec.schema) as Props),
        };
        const r = validator.validateProps(kind, out.props);
        if (r && !r.ok)
          mark(`invalid props: ${r.errors.map((e) => `${e.path || '/'} ${e.message}`).join('; ')}`);
      } catch (e) {
        mark(`migration failed: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
    const kids = rawChildren.flatMap((c, i) => restoreWidget(c, `${path}/children/${i}`));
    if (spec?.meta.container || (!spec && kids.length)) out.children = kids;
    else if (kids.length) {
      hoisted.push(...kids);
      issues.push({ path, widgetId: id, kind, message: 'children of a non-container moved up a level' });
    }
    return [out, ...hoisted];
  }

  if (typeof doc.version === 'number' && doc.version > PAGE_FORMAT_VERSION)
    issues.push({
      path: '/version',
      message: `document format ${doc.version} is newer than ${PAGE_FORMAT_VERSION}; loaded as far as understood`,
    });
  const widgets = (Array.isArray(doc.widgets) ? doc.widgets : []).flatMap((w, i) =>
    restoreWidget(w, `/widgets/${i}`),
  );
  const page: PageDocument = {
    id: typeof doc.id === 'string' && /^[A-Za-z0-9_-]{1,64}$/.test(doc.id) ? doc.id : 'page',
    title:
      typeof doc.title === 'string' && doc.title.trim() ? stripScripts(doc.title).slice(0, 200) : 'Untitled',
    version: PAGE_FORMAT_VERSION,
    layout,
    widgets,
  };
  for (const k of ['state', 'dataSources', 'setup', 'events', '_option'] as const) {
    if (doc[k] === undefined) continue;
    const probe = { ...page, [k]: doc[k] };
    const r = validator.validatePage({ ...probe, widgets: [] });
    if (r.ok) (page as unknown as Json)[k] = doc[k];
    else issues.push({ path: `/${k}`, message: `invalid ${k} dropped` });
  }
  return { page, issues };
}
