// @vitest-environment jsdom
/**
 * How often a page's widgets render: once each on the way to the page drawn, deferred ones included,
 * and not again when the renderer re-renders for something they do not read (its `busy` flag as data
 * widgets load, a parent's render). Counted on the real text render, wrapped for the test.
 */
import { act, type ComponentType, createElement } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { WidgetRenderProps } from '../../../widgets/define.ts';
import { getWidget } from '../../../widgets/registry.ts';
import '../../../widgets/dom-shims.ts';
import type { PageDocument, WidgetInstance } from '../../shared/page-document.ts';
import type { ActionHost } from './actions.ts';
import { PageRenderer, type PageRendererProps } from './PageRenderer.tsx';
import { preloadKinds } from './preload.ts';

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

/** Six text widgets in the first screen and six far below it (drawn after the first paint). */
function page(): PageDocument {
  const widgets: WidgetInstance[] = [];
  for (let i = 0; i < 12; i++)
    widgets.push({
      id: `t${i}`,
      kind: 'text',
      version: 1,
      props: { text: `Text ${i}` },
      layout: {
        pc: { x: 0, y: i < 6 ? i * 5 : 400 + i * 5, w: 60, h: 4 },
        mobile: { x: 0, y: i * 5, w: 38, h: 4 },
      },
    });
  return {
    id: 'p1',
    title: 'T',
    version: 1,
    layout: {
      pc: { cols: 120, rowHeight: 10, width: 1200 },
      mobile: { cols: 38, rowHeight: 10, width: 375 },
    },
    widgets,
  };
}

const renders = new Map<string, number>();
let root: Root | null = null;
let restore: (() => void) | null = null;

beforeAll(async () => {
  const doc = page();
  await preloadKinds(doc);
  const def = getWidget('text')!;
  const real = def.loadedRender()! as ComponentType<WidgetRenderProps>;
  // The real render, counted (WidgetBox takes the kind's loaded view when a widget mounts).
  const counted = (p: WidgetRenderProps) => {
    renders.set(p.id, (renders.get(p.id) ?? 0) + 1);
    return createElement(real, p);
  };
  const original = def.loadedRender;
  def.loadedRender = () => counted;
  restore = () => {
    def.loadedRender = original;
  };
});

afterEach(() => {
  act(() => root?.unmount());
  root = null;
  renders.clear();
  restore?.();
});

const settle = () =>
  act(async () => {
    await new Promise((r) => setTimeout(r, 10));
  });

describe('page widgets render once', () => {
  it('draws the first screen, then the rest, each widget once; a renderer re-render draws none again', async () => {
    const doc = page();
    const props: PageRendererProps = {
      project: 'p',
      doc,
      mode: 'pc',
      runtimeMode: 'preview',
      host: noHost,
    };
    const el = document.createElement('div');
    document.body.appendChild(el);
    root = createRoot(el);
    await act(async () => root!.render(createElement(PageRenderer, props)));
    await settle();
    expect(el.querySelectorAll('[data-wid]').length).toBe(12);
    expect(el.textContent).toContain('Text 11');
    expect([...renders.values()]).toEqual(Array(12).fill(1));
    // The parent renders the page again with the same document (as a screen does on a store change).
    await act(async () => root!.render(createElement(PageRenderer, { ...props })));
    await settle();
    expect([...renders.values()]).toEqual(Array(12).fill(1));
    // A new document is a new page: every widget draws again.
    await act(async () => root!.render(createElement(PageRenderer, { ...props, doc: page() })));
    await settle();
    expect([...renders.values()]).toEqual(Array(12).fill(2));
  });
});
