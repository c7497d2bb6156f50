import { describe, expect, it } from 'vitest';
import { emptyPage, instanceOf, pageOfSize, pageWithEveryKind } from '../tests/fixtures/pages.ts';
import { defineWidget } from './define.ts';
import { getWidget, loadPage, pageValidator, validatePage, WIDGETS } from './index.ts';
import { restorePage } from './restore.ts';
import { createPageValidator, validatorCompileCount, validatorFor } from './validate.ts';

const text = getWidget('text')!;
const Noop = () => null;
const block = getWidget('block')!;

describe('page document', () => {
  it('a page using every kind validates', () => {
    const page = pageWithEveryKind(WIDGETS);
    expect(validatePage(page)).toEqual({ ok: true });
  });

  it('round trips: JSON, and load (restore) of a valid page deep-equal what was saved', () => {
    const page = pageWithEveryKind(WIDGETS);
    const saved = JSON.stringify(page);
    const reloaded = JSON.parse(saved);
    expect(reloaded).toEqual(page);
    const { page: restored, issues } = loadPage(reloaded);
    expect(issues).toEqual([]);
    expect(restored).toEqual(page);
    expect(validatePage(restored)).toEqual({ ok: true });
  });

  it('names the JSON path and the widget in errors', () => {
    const page = emptyPage();
    const parent = instanceOf(block, 'box');
    const child = instanceOf(text, 'greeting');
    child.props.fontSize = 'huge';
    parent.children = [child];
    page.widgets = [instanceOf(text, 'first'), parent];
    const r = validatePage(page);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors).toContainEqual(
      expect.objectContaining({
        path: '/widgets/1/children/0/props/fontSize',
        widgetId: 'greeting',
        kind: 'text',
      }),
    );
  });

  it('refuses an unknown kind, a bad layout, children on a leaf, a bad event and an unsafe navigate', () => {
    const cases: [string, (p: ReturnType<typeof emptyPage>) => void, string][] = [
      [
        'unknown kind',
        (p) => {
          p.widgets[0]!.kind = 'rocket';
        },
        '/widgets/0',
      ],
      [
        'layout',
        (p) => {
          p.widgets[0]!.layout.pc.w = 0;
        },
        '/widgets/0/layout/pc/w',
      ],
      [
        'leaf children',
        (p) => {
          p.widgets[0]!.children = [instanceOf(text, 'k')];
        },
        '/widgets/0/children',
      ],
      [
        'event',
        (p) => {
          p.widgets[0]!.events = { onClick: [{ type: 'explode' }] };
        },
        '/widgets/0/events/onClick/0',
      ],
      [
        'navigate',
        (p) => {
          p.widgets[0]!.events = { onClick: [{ type: 'navigate', url: 'javascript:alert(1)' }] };
        },
        '/widgets/0/events/onClick/0/url',
      ],
      [
        'version',
        (p) => {
          p.widgets[0]!.version = 7;
        },
        '/widgets/0/version',
      ],
      [
        'title',
        (p) => {
          p.title = '<script>x</script>';
        },
        '/title',
      ],
      [
        'expr',
        (p) => {
          p.widgets[0]!.props.text = { $expr: '' };
        },
        '/widgets/0/props/text/$expr',
      ],
    ];
    for (const [name, mutate, path] of cases) {
      const page = emptyPage();
      page.widgets = [instanceOf(text, 'a')];
      mutate(page);
      const r = validatePage(page);
      expect(r.ok, name).toBe(false);
      if (!r.ok)
        expect(
          r.errors.map((e) => e.path),
          name,
        ).toContain(path);
    }
  });

  it('page settings are checked as a whole page checks them, without the widgets', () => {
    const v = pageValidator();
    const good = pageWithEveryKind(WIDGETS);
    expect(v.validatePageSettings({ ...good, widgets: [] })).toEqual({ ok: true });
    // The widgets are the canvas's business: only their being a list is checked here.
    expect(v.validatePageSettings({ ...good, widgets: [{ kind: 'no-such-kind' }] })).toEqual({ ok: true });
    expect(v.validatePageSettings({ ...good, widgets: 'x' }).ok).toBe(false);
    const bad = { ...good, widgets: [], layout: { ...good.layout, pc: { cols: 0, rowHeight: 10 } } };
    const whole = v.validatePage(bad);
    const settings = v.validatePageSettings(bad);
    expect(settings.ok).toBe(false);
    expect(settings).toEqual(whole);
    expect(v.validatePageSettings({ ...good, widgets: [], state: { '1bad': { type: 'number' } } }).ok).toBe(
      false,
    );
  });

  it('its checks compile on first use, or ahead of it one step at a time', () => {
    const v = createPageValidator(WIDGETS);
    const steps = v.pendingCompiles();
    expect(steps.length).toBe(WIDGETS.length + 4);
    v.validateProps('text', text.defaults);
    expect(v.pendingCompiles().length).toBe(steps.length - 1);
    for (const step of v.pendingCompiles()) step();
    expect(v.pendingCompiles()).toEqual([]);
    expect(v.validatePage(pageWithEveryKind(WIDGETS))).toEqual({ ok: true });
  });

  it('compiles once per process', () => {
    const before = validatorCompileCount();
    for (let i = 0; i < 5; i++) pageValidator();
    validatePage(pageOfSize(WIDGETS, 100));
    expect(validatorCompileCount()).toBe(before);
    expect(validatorFor(WIDGETS)).toBe(pageValidator());
  });

  it('validates generated pages of 100 and 1,000 widgets', () => {
    expect(validatePage(pageOfSize(WIDGETS, 100))).toEqual({ ok: true });
    expect(validatePage(pageOfSize(WIDGETS, 1000))).toEqual({ ok: true });
  });
});

describe('restore', () => {
  it('keeps an unknown kind marked broken, and the rest of the page', () => {
    const page = emptyPage();
    page.widgets = [
      instanceOf(text, 'a'),
      { ...instanceOf(text, 'b'), kind: 'rocket' },
      instanceOf(text, 'c'),
    ];
    const { page: out, issues } = loadPage(page);
    expect(out.widgets.map((w) => w.id)).toEqual(['a', 'b', 'c']);
    expect(out.widgets[1]).toMatchObject({ kind: 'rocket', broken: true });
    expect(out.widgets[1]!.brokenReason).toContain('unknown widget kind rocket');
    expect(issues.some((i) => i.widgetId === 'b')).toBe(true);
    expect(validatePage(out)).toEqual({ ok: true });
  });

  it('marks a widget with invalid props broken instead of dropping it, and unmarks it once fixed', () => {
    const page = emptyPage();
    page.widgets = [{ ...instanceOf(text, 'a'), props: { fontSize: 'x' } }];
    const first = loadPage(page).page;
    expect(first.widgets[0]).toMatchObject({ broken: true });
    expect(validatePage(first)).toEqual({ ok: true });
    first.widgets[0]!.props.fontSize = 20;
    const second = loadPage(first).page;
    expect(second.widgets[0]!.broken).toBeUndefined();
  });

  it('never answers a blank page for garbage', () => {
    const junks = [
      null,
      42,
      'x',
      [],
      { widgets: 'no' },
      { widgets: [null, 5, { kind: 3 }] },
      { layout: { pc: { cols: 'x' } } },
    ];
    for (const junk of junks) {
      const { page } = loadPage(junk);
      expect(validatePage(page), JSON.stringify(junk)).toEqual({ ok: true });
    }
    const { page } = loadPage({ widgets: [null, { kind: 'text' }] });
    expect(page.widgets).toHaveLength(2);
    expect(page.widgets[1]).toMatchObject({ kind: 'text', props: text.defaults });
  });

  it('fills missing props from defaults, renames duplicate ids and hoists children of a leaf', () => {
    const page = emptyPage();
    page.widgets = [
      { ...instanceOf(text, 'a'), props: {}, children: [instanceOf(text, 'k')] },
      instanceOf(text, 'a'),
    ];
    const { page: out } = loadPage(page);
    expect(out.widgets.map((w) => w.id)).toEqual(['a', 'k', 'w_restored_1']);
    expect(out.widgets[0]!.props).toEqual(text.defaults);
    expect(validatePage(out)).toEqual({ ok: true });
  });

  it('drops __proto__ keys from parsed JSON without touching any prototype', () => {
    const raw = JSON.parse(
      '{"widgets":[{"id":"a","kind":"text","version":1,"props":{"__proto__":{"polluted":1},"text":"x"},"layout":{}}]}',
    );
    const { page } = loadPage(raw);
    expect(Object.hasOwn(page.widgets[0]!.props, '__proto__')).toBe(false);
    expect(Object.getPrototypeOf(page.widgets[0]!.props)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(page.widgets[0]!.props.text).toBe('x');
    expect(validatePage(page)).toEqual({ ok: true });
  });

  it('sanitises html, urls and text', () => {
    const page = emptyPage();
    page.widgets = [
      {
        ...instanceOf(getWidget('richtext')!, 'r'),
        props: { html: '<p onclick="x()">hi<script>bad()</script></p>' },
      },
      {
        ...instanceOf(getWidget('image')!, 'i'),
        props: { src: 'javascript:alert(1)', link: 'https://ok.example/' },
      },
      { ...instanceOf(text, 't'), props: { text: 'a<script>x</script>b' } },
    ];
    const { page: out } = loadPage(page);
    expect(out.widgets[0]!.props.html).toBe('<p>hi</p>');
    expect(out.widgets[1]!.props).toMatchObject({ src: '', link: 'https://ok.example/' });
    expect(out.widgets[2]!.props.text).toBe('ab');
    expect(validatePage(out)).toEqual({ ok: true });
  });
});

describe('migrations', () => {
  it('switch v1 (boolean checked, antd sizes) upgrades to v2 (text value, spec sizes)', () => {
    const page = emptyPage();
    page.widgets = [
      { ...instanceOf(getWidget('switch')!, 's1'), version: 1, props: { checked: true, size: 'default' } },
      { ...instanceOf(getWidget('switch')!, 's2'), version: 1, props: { checked: false, size: 'small' } },
    ];
    const { page: out } = loadPage(page);
    expect(out.widgets[0]).toMatchObject({ version: 2, props: { value: 'true', size: 'routine' } });
    expect(out.widgets[1]).toMatchObject({ version: 2, props: { value: 'false', size: 'small' } });
    expect(out.widgets[0]!.props).not.toHaveProperty('checked');
    expect(validatePage(out)).toEqual({ ok: true });
  });

  it('textbox v1 (icon flag and position) upgrades to v2 iconType', () => {
    const page = emptyPage();
    page.widgets = [
      { ...instanceOf(getWidget('textbox')!, 'a'), version: 1, props: { icon: true, iconPosition: 'right' } },
      { ...instanceOf(getWidget('textbox')!, 'b'), version: 1, props: { icon: true } },
      { ...instanceOf(getWidget('textbox')!, 'c'), version: 1, props: { icon: false } },
    ];
    const { page: out } = loadPage(page);
    expect(out.widgets.map((w) => w.props.iconType)).toEqual(['suffix', 'prefix', 'none']);
    expect(validatePage(out)).toEqual({ ok: true });
  });

  it('a widget from a newer version, or whose migration throws, is kept and marked', () => {
    const shaky = defineWidget({
      kind: 'shaky',
      version: 3,
      category: 'other',
      schema: {
        type: 'object',
        properties: { n: { type: 'integer', default: 0 } },
        additionalProperties: false,
      },
      render: async () => Noop,
      migrations: [
        { to: 2, name: 'double', up: (p) => ({ ...p, n: Number(p.n) * 2 }) },
        {
          to: 3,
          name: 'must-be-small',
          up: (p) => {
            if (Number(p.n) > 100) throw new Error('n too large');
            return { ...p, n: Number(p.n) + 1 };
          },
        },
      ],
      meta: { title: { zh: '测试', en: 'Test' }, icon: 'BugOutlined', size: { width: 10, height: 10 } },
    });
    const specs = [shaky];
    const inst = (id: string, version: number, n: number) => ({
      id,
      kind: 'shaky',
      version,
      props: { n },
      layout: { pc: { x: 0, y: 0, w: 1, h: 1 }, mobile: { x: 0, y: 0, w: 1, h: 1 } },
    });
    const { page } = restorePage(
      { ...emptyPage(), widgets: [inst('a', 1, 5), inst('b', 2, 7), inst('c', 1, 60), inst('d', 9, 1)] },
      specs,
    );
    expect(page.widgets[0]).toMatchObject({ version: 3, props: { n: 11 } });
    expect(page.widgets[1]).toMatchObject({ version: 3, props: { n: 8 } });
    expect(page.widgets[2]).toMatchObject({ broken: true, brokenReason: 'migration failed: n too large' });
    expect(page.widgets[3]).toMatchObject({ broken: true, version: 9 });
    expect(page.widgets[3]!.brokenReason).toContain('newer version');
  });

  it('defineWidget refuses out-of-order migrations or a version that does not match them', () => {
    const base = {
      kind: 'bad',
      category: 'other' as const,
      schema: { type: 'object', properties: {}, additionalProperties: false },
      render: async () => Noop,
      meta: { title: { zh: 'x', en: 'x' }, icon: 'BugOutlined', size: { width: 1, height: 1 } },
    };
    expect(() => defineWidget({ ...base, version: 2 })).toThrow(/needs 1 migrations/);
    expect(() =>
      defineWidget({ ...base, version: 2, migrations: [{ to: 3, name: 'x', up: (p) => p }] }),
    ).toThrow();
    expect(() => defineWidget({ ...base, kind: 'Bad_Kind' })).toThrow(/kebab/);
    const submit = { name: 'onSubmit', payload: 'values', title: { zh: '提交', en: 'Submit' } } as const;
    const target = () => ({ entity: '', required: [], name: '' });
    expect(() => defineWidget({ ...base, events: [{ ...submit, name: 'submit' }] })).toThrow(/onSomething/);
    expect(() => defineWidget({ ...base, events: [submit, submit] })).toThrow(/declared twice/);
    expect(() =>
      defineWidget({ ...base, events: [], form: { submitEvent: 'onSubmit', drafts: false, target } }),
    ).toThrow(/submit event onSubmit/);
    expect(() =>
      defineWidget({
        ...base,
        events: [{ ...submit, payload: 'none' }],
        form: { submitEvent: 'onSubmit', drafts: false, target },
      }),
    ).toThrow(/with values/);
    expect(
      defineWidget({ ...base, events: [submit], form: { submitEvent: 'onSubmit', drafts: false, target } })
        .form,
    ).toBeDefined();
  });
});

describe('bindings', () => {
  it('accepts expressions that parse and refuses ones that do not, naming the widget', () => {
    const page = emptyPage();
    page.widgets = [instanceOf(text, 'a'), instanceOf(text, 'b')];
    page.widgets[0]!.props.text = { $expr: 'upper(user.name) + "!"' };
    page.widgets[1]!.props.fontSize = { $expr: 'state.size +' };
    const r = validatePage(page);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors).toEqual([
      expect.objectContaining({ path: '/widgets/1/props/fontSize/$expr', widgetId: 'b', kind: 'text' }),
    ]);
    expect(r.errors[0]!.message).toMatch(/expression does not parse/);
  });
});
