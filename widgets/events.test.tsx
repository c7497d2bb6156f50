// @vitest-environment jsdom
/**
 * Every kind's render fires exactly the events its definition declares: each kind is rendered in a
 * DOM, poked by a generic pass (click every element, type into every input, submit every form, press
 * Enter) plus its own `fixture.ts` gestures, and the events it dispatched are compared with `events`
 * of its definition. An event fired but not declared fails (the designer could not wire it), and so
 * does one declared but never fired (a builder would wire actions that never run).
 */
import { act, createElement } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { WidgetDef } from './define.ts';
import type { Gestures, KindFixture } from './fixture.ts';
import { staticRuntime, type WidgetData, WidgetRuntimeProvider } from './kit/widget-context.ts';
import { WIDGETS } from './registry.ts';
import './dom-shims.ts';

// (What jsdom lacks and antd uses: dom-shims.ts.) A link's new tab opens nowhere.
window.open = () => null;
// A 2D context that accepts every call (echarts draws the chart kinds; jsdom has no canvas).
const context2d: unknown = new Proxy(
  {},
  {
    get: (_t, key) => (key === 'canvas' ? document.createElement('canvas') : () => ({ width: 0 })),
    set: () => true,
  },
);
HTMLCanvasElement.prototype.getContext = (() => context2d) as typeof HTMLCanvasElement.prototype.getContext;

const fixtures = import.meta.glob<KindFixture>('./*/fixture.ts', { eager: true, import: 'default' });

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
    total: 2,
  },
  loading: false,
};

const settle = (ms = 0) =>
  act(async () => {
    await new Promise((r) => setTimeout(r, ms));
  });

function setValue(el: HTMLInputElement | HTMLTextAreaElement, value: string) {
  const proto =
    el instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
  Object.getOwnPropertyDescriptor(proto, 'value')?.set?.call(el, value);
}

const gestures: Gestures = {
  async click(el) {
    await act(async () => {
      for (const type of ['pointerdown', 'mousedown', 'pointerup', 'mouseup'])
        el.dispatchEvent(new MouseEvent(type, { bubbles: true, cancelable: true, button: 0 }));
      (el as HTMLElement).click?.();
    });
  },
  async type(el, value) {
    await act(async () => {
      setValue(el as HTMLInputElement, value);
      el.dispatchEvent(new Event('input', { bubbles: true }));
      el.dispatchEvent(new Event('change', { bubbles: true }));
    });
  },
  async key(el, code) {
    const key = code === 'Space' ? ' ' : code;
    await act(async () => {
      for (const type of ['keydown', 'keyup'])
        el.dispatchEvent(new KeyboardEvent(type, { bubbles: true, cancelable: true, code, key }));
    });
  },
  settle,
};

/** A sample value an input of this type accepts. */
function sampleFor(el: HTMLInputElement | HTMLTextAreaElement): string {
  switch (el.type) {
    case 'number':
      return '7';
    case 'date':
      return '2024-05-06';
    case 'month':
      return '2024-05';
    case 'datetime-local':
      return '2024-05-06T07:08';
    default:
      return 'x1';
  }
}

/** The generic pass: every input typed into, every element clicked, every form submitted, Enter pressed. */
async function poke(root: HTMLElement) {
  for (let round = 0; round < 2; round++) {
    for (const el of [...document.body.querySelectorAll<HTMLInputElement>('input, textarea')]) {
      if (el.readOnly || el.disabled || !el.isConnected) continue;
      if (el.type === 'checkbox' || el.type === 'radio') continue;
      await gestures.type(el, sampleFor(el));
      await gestures.key(el, 'Enter');
    }
    for (const el of [...document.body.querySelectorAll('*')]) if (el.isConnected) await gestures.click(el);
    for (const form of [...root.querySelectorAll('form')])
      await act(async () => {
        form.dispatchEvent(new Event('submit', { bubbles: true, cancelable: true }));
      });
    await settle(20);
  }
}

let root: Root | null = null;
let host: HTMLElement | null = null;

afterEach(async () => {
  await act(async () => root?.unmount());
  root = null;
  host?.remove();
  document.body.innerHTML = '';
});

// Views load once up front (antd's modules take seconds on a busy machine).
beforeAll(() => Promise.all(WIDGETS.map((w) => w.loadRender())), 120_000);

async function fired(def: WidgetDef): Promise<string[]> {
  const fixture = fixtures[`./${def.kind}/fixture.ts`] ?? {};
  const events = new Set<string>();
  const runtime = staticRuntime({
    mode: 'runtime',
    data: () => fixture.data ?? SAMPLE,
    dispatch: (e) => void events.add(e.event),
    ...fixture.runtime,
  });
  const View = def.loadedRender();
  if (!View) throw new Error(`${def.kind}: view not loaded`);
  host = document.createElement('div');
  document.body.append(host);
  root = createRoot(host);
  await act(async () =>
    root!.render(
      createElement(
        WidgetRuntimeProvider,
        { runtime },
        createElement(View, { id: 'w1', props: { ...structuredClone(def.defaults), ...fixture.props } }),
      ),
    ),
  );
  await settle();
  await fixture.drive?.(host, gestures);
  await poke(host);
  return [...events].sort();
}

describe.each(WIDGETS.map((w) => [w.kind, w] as const))('%s', (_kind, def) => {
  it('fires exactly the events it declares', { timeout: 60_000 }, async () => {
    expect(await fired(def)).toEqual(def.events.map((e) => e.name).sort());
  });
});
