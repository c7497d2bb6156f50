/** Data-driven checks over every registered kind (BlockNote style: one runner, a list of cases). */
import { Suspense } from 'react';
import { prerenderToNodeStream } from 'react-dom/static';
import { beforeAll, describe, expect, it } from 'vitest';
import { FEATURE_PROPS, VIEW_FEATURES } from '../src/shared/view-features.ts';
import { CATEGORIES, type WidgetDef } from './define.ts';
import { getWidget, loadPage, pageValidator, palette, WIDGETS } from './index.ts';
import { staticRuntime, type WidgetData, WidgetRuntimeProvider } from './kit/widget-context.ts';

const SPEC_KINDS = [
  'text',
  'image',
  'button',
  'number',
  'richtext',
  'blank',
  'page',
  'form',
  'table',
  'graph',
  'advanced-table',
  'chart-funnel',
  'chart-column',
  'chart-pie',
  'chart-line',
  'chart-progress',
  'textbox',
  'dropdown',
  'radio',
  'switch',
  'datepicker',
  'checkbox',
  'picker',
  'mobile-datepicker',
  'list',
  'block',
  'print-table',
  'print-form',
  'swiper',
  'qrcode',
  'barcode',
  'simple-table',
  'simple-graph',
  'iframe',
  'simple-page',
  'html',
  'program',
];

/**
 * Kinds of our own beyond the spec's list, which must stay: the real-time board the kanban playground
 * is built on. Further kinds need no line here (adding a kind touches its folder and the registry).
 */
const OWN_KINDS = ['kanban'];
const ALL_KINDS = [...SPEC_KINDS, ...OWN_KINDS];

const SCRIPT = '<script>alert(1)</script>';
const JS_URL = 'javascript:alert(document.cookie)';
const cases = WIDGETS.map((w) => [w.kind, w] as const);
const v = pageValidator();

const SAMPLE: WidgetData = {
  rows: [
    { _id: 'r1', name: 'Ann', amount: 3, city: 'Shanghai' },
    { _id: 'r2', name: 'Bob', amount: 5, city: 'Beijing' },
  ],
  meta: {
    fields: [
      { key: 'name', name: '姓名' },
      { key: 'amount', name: '金额', type: 'number' },
      { key: 'city', name: '城市' },
    ],
  },
  loading: false,
};

/** Server-renders a kind, waiting for its lazily loaded view; rejects if the view throws. */
async function render(w: WidgetDef, props: Record<string, unknown>, data?: WidgetData): Promise<string> {
  const runtime = staticRuntime(data ? { data: () => data, mode: 'runtime' } : {});
  const Render = w.render;
  const errors: unknown[] = [];
  const { prelude } = await prerenderToNodeStream(
    <WidgetRuntimeProvider runtime={runtime}>
      <Suspense fallback="loading">
        <Render id="w1" props={props}>
          {w.meta.container ? <span>child</span> : null}
        </Render>
      </Suspense>
    </WidgetRuntimeProvider>,
    { onError: (e) => void errors.push(e) },
  );
  let html = '';
  for await (const chunk of prelude) html += chunk;
  if (errors.length) throw errors[0];
  return html;
}

function wrongTypeFor(schema: Record<string, unknown>): unknown {
  const t = schema.type;
  if (t === 'string' || (Array.isArray(t) && t.includes('string'))) return 42;
  if (t === 'array') return 'not-an-array';
  return 'not-a-number-or-boolean';
}

function stringProps(w: WidgetDef): string[] {
  return Object.entries(w.schema.properties)
    .filter(
      ([, s]) =>
        (s.type === 'string' || (Array.isArray(s.type) && s.type.includes('string'))) && !('enum' in s),
    )
    .map(([k]) => k);
}

// Every kind's view loads once up front (antd's modules take seconds on a busy machine), so each
// render test below times the render, not the first import of its libraries.
beforeAll(() => Promise.all(WIDGETS.map((w) => w.loadRender())), 120_000);

describe('registry', () => {
  it('has every kind the spec lists, each once, with kebab-case names', () => {
    const kinds = WIDGETS.map((w) => w.kind);
    expect(kinds).toEqual(expect.arrayContaining(ALL_KINDS));
    expect(new Set(kinds).size).toBe(kinds.length);
    for (const k of kinds) expect(k).toMatch(/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/);
  });
  it('palette groups all kinds by category', () => {
    expect(palette().flatMap((g) => g.items)).toHaveLength(WIDGETS.length);
  });
});

describe.each(cases)('%s', (kind, w) => {
  it('has zh and en titles, an icon, a category and a default size', () => {
    expect(w.meta.title.zh.length).toBeGreaterThan(0);
    expect(w.meta.title.en.length).toBeGreaterThan(0);
    expect(w.meta.icon).toMatch(/^[A-Z][A-Za-z0-9]+(Outlined|Filled|TwoTone)$/);
    expect(CATEGORIES).toContain(w.category);
    expect(w.meta.size.width).toBeGreaterThan(0);
    expect(getWidget(kind)).toBe(w);
    for (const [name, s] of Object.entries(w.schema.properties)) {
      expect(s.title, `${kind}.${name} title`).toBeTypeOf('string');
      expect(s['x-zh'], `${kind}.${name} zh title`).toBeTypeOf('string');
      expect('default' in s, `${kind}.${name} default`).toBe(true);
    }
    for (const e of w.events) {
      expect(e.title.zh.length, `${kind}.${e.name} zh title`).toBeGreaterThan(0);
      expect(e.title.en.length, `${kind}.${e.name} en title`).toBeGreaterThan(0);
      if (e.payload === 'object')
        expect(e.doc, `${kind}.${e.name} says what its payload holds`).toBeDefined();
    }
    // A kind bound to a table (an `entity` prop) says what it reads, or the runtime would load nothing.
    if ('entity' in w.schema.properties) expect(w.data, `${kind} data role`).not.toBe('none');
  });

  it('defaults validate', () => {
    expect(v.validateProps(kind, w.defaults)).toEqual({ ok: true });
  });

  it('accepts a binding for any prop', () => {
    for (const name of Object.keys(w.schema.properties)) {
      expect(v.validateProps(kind, { ...w.defaults, [name]: { $expr: 'state.x' } })?.ok, name).toBe(true);
    }
  });

  it('refuses wrong types and extra keys', () => {
    for (const [name, s] of Object.entries(w.schema.properties)) {
      const r = v.validateProps(kind, { ...w.defaults, [name]: wrongTypeFor(s) });
      expect(r?.ok, `${kind}.${name} with wrong type`).toBe(false);
    }
    // A plain value reports its own failure only, never the binding branch's "must be object".
    for (const [name, s] of Object.entries(w.schema.properties)) {
      const r = v.validateProps(kind, { ...w.defaults, [name]: wrongTypeFor(s) });
      if (r && !r.ok && s['x-bindable'] !== false)
        expect(
          r.errors.filter(
            (e) => e.path === `/${name}` && e.message === 'must be object' && s.type !== 'object',
          ),
          `${kind}.${name}`,
        ).toEqual([]);
    }
    const extra = v.validateProps(kind, { ...w.defaults, onclick: 'alert(1)' });
    expect(extra?.ok).toBe(false);
    if (extra && !extra.ok) expect(extra.errors[0]?.message).toContain('onclick');
  });

  it('refuses script in strings and javascript: URLs, and restore sanitises them', () => {
    const hostile: Record<string, unknown> = { ...w.defaults };
    for (const name of stringProps(w)) {
      const s = w.schema.properties[name]!;
      hostile[name] = s.format === 'safe-url' ? JS_URL : `x${SCRIPT}y`;
      expect(v.validateProps(kind, hostile)?.ok, `${kind}.${name}`).toBe(false);
    }
    const { page } = loadPage({
      id: 'p',
      title: 't',
      version: 1,
      widgets: [{ id: 'w1', kind, version: w.version, props: hostile, layout: {} }],
    });
    const json = JSON.stringify(page.widgets[0]!.props);
    expect(json).not.toMatch(/<script/i);
    expect(json).not.toMatch(/javascript:/i);
    // Sanitised props either validate or the widget is kept and marked broken, never dropped.
    const restored = page.widgets[0]!;
    if (!restored.broken) expect(v.validateProps(kind, restored.props)?.ok).toBe(true);
  });

  it('renders with defaults, with data, and with hostile props without throwing or leaking script', async () => {
    const plain = await render(w, w.defaults);
    expect(plain).not.toContain('loading');
    await render(w, w.defaults, SAMPLE);
    const junk = Object.fromEntries(Object.keys(w.schema.properties).map((k) => [k, { nested: SCRIPT }]));
    const html = await render(w, { ...junk, html: SCRIPT, text: SCRIPT, src: JS_URL, url: JS_URL }, SAMPLE);
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/javascript:/i);
  });
});

describe('spec defaults', () => {
  const d = (kind: string) => getWidget(kind)!.defaults;
  const s = (kind: string, prop: string) => getWidget(kind)!.schema.properties[prop]!;
  it.each([
    ['chart-pie', 'size', 50],
    ['chart-pie', 'showLegend', true],
    ['datepicker', 'format', 'yyyy-MM-dd'],
    ['datepicker', 'type', 'date'],
    ['dropdown', 'placeholder', '请选择'],
    ['switch', 'value', 'false'],
    ['switch', 'size', 'routine'],
    ['switch', 'trueColor', '#0098FF'],
    ['switch', 'falseColor', '#ccc'],
    ['print-form', 'columns', 2],
    ['barcode', 'value', 'ABC123'],
    ['swiper', 'interval', 2000],
    ['number', 'duration', 3000],
    ['chart-progress', 'decimals', 2],
    ['simple-table', 'bound', [5, 8, 0, 0]],
    ['chart-column', 'barColor', '#0098FF'],
    ['chart-line', 'barColor', '#0098FF'],
    ['textbox', 'type', 'text'],
    ['textbox', 'iconType', 'none'],
    ['program', 'sort', 'auto'],
  ])('%s.%s = %j', (kind, prop, value) => {
    expect(d(kind)[prop]).toEqual(value);
  });
  it('enums follow the spec', () => {
    expect(s('chart-pie', 'size').enum).toEqual([10, 20, 30, 40, 50, 60, 70, 80, 90]);
    expect(s('datepicker', 'type').enum).toEqual(['month', 'date', 'datetime', 'daterange', 'datetimerange']);
    expect(s('datepicker', 'format').enum).toHaveLength(9);
    expect(s('textbox', 'type').enum).toEqual(['text', 'password', 'textarea', 'email', 'number']);
    expect(s('textbox', 'iconType').enum).toEqual(['none', 'prefix', 'suffix']);
    expect(s('switch', 'size').enum).toEqual(['small', 'routine', 'large']);
    expect(s('print-form', 'columns').enum).toEqual([2, 3, 4]);
    expect(s('program', 'sort').enum).toEqual(['auto', 'singleLine', 'eachLine']);
  });
  it("designer table has its 18 toggles and the spec's other 7 features, all off", () => {
    const toggles = Object.entries(getWidget('table')!.schema.properties).filter(
      ([, p]) => p.type === 'boolean',
    );
    expect(toggles).toHaveLength(25);
    for (const [k] of toggles) expect(d('table')[k]).toBe(false);
  });
  it.each(['table', 'advanced-table'])("%s has a prop for each of the spec's 17 view features", (kind) => {
    const props = getWidget(kind)!.schema.properties;
    for (const f of VIEW_FEATURES) {
      const name = kind === 'table' && f === 'summary' ? 'stat' : FEATURE_PROPS[f];
      expect(props[name]?.type, `${kind}.${name}`).toBe('boolean');
    }
  });
  it('default sizes follow the spec', () => {
    expect(getWidget('qrcode')!.meta.size).toEqual({ width: 80, height: 80 });
    expect(getWidget('chart-funnel')!.meta.size).toEqual({ width: 300, height: 300 });
    expect(getWidget('textbox')!.meta.size).toEqual({ width: 200, height: 32 });
  });
  it('barcode text must be non-empty without spaces', () => {
    expect(v.validateProps('barcode', { ...d('barcode'), value: '' })?.ok).toBe(false);
    expect(v.validateProps('barcode', { ...d('barcode'), value: 'AB 12' })?.ok).toBe(false);
    expect(v.validateProps('barcode', { ...d('barcode'), value: 'AB-12' })?.ok).toBe(true);
  });
  it('pie size outside 10–90 is refused', () => {
    expect(v.validateProps('chart-pie', { ...d('chart-pie'), size: 95 })?.ok).toBe(false);
    expect(v.validateProps('chart-pie', { ...d('chart-pie'), size: 5 })?.ok).toBe(false);
  });
});
