/** The renderer on the server side of React (static prerender waits for the lazy renders). */
import { prerenderToNodeStream } from 'react-dom/static';
import { describe, expect, it } from 'vitest';
import type { PageDocument, WidgetInstance } from '../../shared/page-document.ts';
import type { ActionHost } from './actions.ts';
import { boxStyle, geometryOf } from './geometry.ts';
import { PageRenderer } from './PageRenderer.tsx';
import { preloadKinds } from './preload.ts';
import { rootsOf } from './scope-roots.ts';

const noHost = (): ActionHost => {
  const fail = () => {
    throw new Error('no effects in this test');
  };
  return {
    scope: () => ({}),
    openPage: fail,
    openModal: fail,
    closeModal: fail,
    navigate: fail,
    runProgram: fail,
    refreshWidget: fail,
    setValue: fail,
    submitForm: fail,
    notify: fail,
    runCode: fail,
  };
};

function widget(
  id: string,
  kind: string,
  props: Record<string, unknown>,
  y: number,
  extra: Partial<WidgetInstance> = {},
) {
  return {
    id,
    kind,
    version: 1,
    props,
    layout: { pc: { x: 30, y, w: 60, h: 4 }, mobile: { x: 0, y: y * 2, w: 38, h: 4 } },
    ...extra,
  } satisfies WidgetInstance;
}

function page(widgets: WidgetInstance[]): PageDocument {
  return {
    id: 'p1',
    title: 'T',
    version: 1,
    layout: {
      pc: { cols: 120, rowHeight: 10, width: 1200 },
      mobile: { cols: 38, rowHeight: 10, width: 375 },
    },
    state: { count: { type: 'number', default: 41 }, show: { type: 'boolean', default: false } },
    widgets,
  };
}

async function html(doc: PageDocument, mode: 'pc' | 'mobile' = 'pc'): Promise<string> {
  await preloadKinds(doc);
  const errors: unknown[] = [];
  const { prelude } = await prerenderToNodeStream(
    <PageRenderer
      project="p"
      doc={doc}
      mode={mode}
      user={{ nickname: 'Ann' }}
      params={{ id: 'r1' }}
      host={noHost}
    />,
    { onError: (e) => void errors.push(e) },
  );
  let out = '';
  for await (const chunk of prelude) out += chunk;
  if (errors.length) throw errors[0];
  return out;
}

describe('PageRenderer', () => {
  it('resolves bindings and templates against user, params and state', async () => {
    const out = await html(
      page([
        widget('t1', 'text', { text: 'Hello {{ user.nickname }} / {{ params.id }}' }, 0),
        widget('t2', 'text', { text: { $expr: "'count ' + (state.count + 1)" } }, 5),
      ]),
    );
    expect(out).toContain('Hello Ann / r1');
    expect(out).toContain('count 42');
  });

  it('places widgets from the grid: columns in percent, rows in px; the mobile layout in mobile mode', async () => {
    const doc = page([widget('t1', 'text', { text: 'x' }, 3)]);
    const pc = await html(doc);
    expect(pc).toMatch(/data-wid="t1"/);
    expect(pc).toMatch(/left:25%;width:50%;top:30px;height:40px/);
    const mobile = await html(doc, 'mobile');
    expect(mobile).toMatch(/data-mode="mobile"/);
    expect(mobile).toMatch(/left:0%;width:100%;top:60px;height:40px/);
    expect(mobile).toMatch(/width:375px/);
  });

  it('respects hidden (a boolean or a binding)', async () => {
    const out = await html(
      page([
        widget('shown', 'text', { text: 'visible text' }, 0, { hidden: { $expr: 'state.count > 100' } }),
        widget('gone', 'text', { text: 'hidden text' }, 5, { hidden: { $expr: '!state.show' } }),
        widget('off', 'text', { text: 'off text' }, 10, { hidden: true }),
      ]),
    );
    expect(out).toContain('visible text');
    expect(out).not.toContain('hidden text');
    expect(out).not.toContain('off text');
  });

  it('marks a broken or unknown widget instead of failing the page', async () => {
    const out = await html(
      page([
        widget('ok', 'text', { text: 'still here' }, 0),
        widget('bad', 'no-such-kind', {}, 5, { broken: true, brokenReason: 'unknown kind' }),
      ]),
    );
    expect(out).toContain('still here');
    expect(out).toMatch(/data-broken="bad"/);
  });

  it('renders container children in their own grid', async () => {
    const inner = widget('inner', 'text', { text: 'inside the block' }, 0);
    const out = await html(page([widget('box', 'block', {}, 0, { children: [inner] })]));
    expect(out).toContain('inside the block');
    expect(out.indexOf('data-wid="box"')).toBeLessThan(out.indexOf('data-wid="inner"'));
  });
});

describe('helpers', () => {
  it('rootsOf finds the scope roots a value reads', () => {
    expect(
      [...rootsOf({ a: { $expr: 'state.x + widgets.t.total' }, b: 'Hi {{ user.name }}', c: 'plain' })].sort(),
    ).toEqual(['state', 'user', 'widgets']);
    expect(rootsOf({ a: 'no templates', b: 3 }).size).toBe(0);
  });

  it('geometry falls back to the default grid', () => {
    const doc = page([]);
    doc.layout = { pc: {}, mobile: {} };
    expect(geometryOf(doc, 'pc')).toEqual({ cols: 120, rowHeight: 10, width: 1200 });
    expect(boxStyle({ x: 60, y: 1, w: 200, h: 2 }, { cols: 120, rowHeight: 10, width: 1200 })).toMatchObject({
      left: '50%',
      width: '100%',
      top: 10,
      height: 20,
    });
  });
});
